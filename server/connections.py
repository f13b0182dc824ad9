"""Connections before they are requests: a cap per address and in all, a time to send the headers in, a time
to stay idle between requests, and the file-descriptor limit raised at start.

aiohttp hands the application a request only once its headers are all in, and keeps an idle keep-alive
connection for an hour; so a client that opens many connections and sends its headers a byte at a time
(slowloris), or none at all, would hold them, and the descriptors they use, without ever being seen. The
guard sits in front of aiohttp's protocol: it counts connections by peer address and refuses those over
the caps at once (closed before a byte is read), and closes one that has no request under way for longer
than it may (`header_timeout` from its opening, `idle_timeout` after each answer). While a request is being
handled (a WebSocket's whole life) the connection is not timed here; its own limits apply.

A server of several processes may also move a connection, on its first bytes, to the process that should serve
it (`Guard.hand_off`, server/cluster/handoff.py); that process serves it from those bytes on (`Guard.adopt`).
"""

from __future__ import annotations

import asyncio
import logging
import resource
import socket
from collections.abc import Callable
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)

RESERVED_DESCRIPTORS = 64
"""Descriptors kept back from connections: for the database, its log, the files a world is read from, accept."""


def raise_descriptor_limit(wanted: int = 65536) -> int:
    """Raise this process's soft limit on open files toward `wanted` (as far as the hard limit lets it); the
    limit in force after, which the caller should tell if it is low."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as error:
            log.warning("could not raise the open-file limit from %d to %d: %s", soft, target, error)
    return int(soft) if soft != resource.RLIM_INFINITY else wanted


class Guard:
    """Counts and times the connections of one listening server."""

    def __init__(self, *, per_address: int, total: int, header_timeout: float, idle_timeout: float) -> None:
        self.per_address = per_address
        self.total = total
        self.header_timeout = header_timeout
        self.idle_timeout = idle_timeout
        self.by_address: dict[str, int] = {}
        self.open = 0
        self.refused = 0
        """Connections refused at once, over a cap: for the log and the tests."""
        self.timed_out = 0
        """Connections closed for sending no complete request in time."""
        self._guarded: dict[Any, Guarded] = {}
        """Each connection's guard, by its transport (the one thing a request and the protocol share)."""
        self.hand_off: Callable[[asyncio.Transport, bytes], bool] | None = None
        """Given a new connection and the first bytes read from it: whether it was passed to another process
        to serve (then it is let go here). None: every connection is served here."""
        self.serving: Callable[[], asyncio.Protocol] | None = None
        """aiohttp's protocol factory, once the site has started."""
        self._adopting: set[asyncio.Task[Any]] = set()

    def factory(self, inner: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        self.serving = inner
        return lambda: Guarded(self, inner())

    def adopt(self, connection: socket.socket, first: bytes) -> None:
        """Serve a connection another process accepted and read `first` from (and no more), as if accepted
        here: counted, timed and capped like the rest."""
        serving = self.serving
        if serving is None:  # not listening (yet, or any more)
            connection.close()
            return
        adopting = asyncio.ensure_future(
            asyncio.get_running_loop().connect_accepted_socket(lambda: Guarded(self, serving(), first), connection)
        )
        self._adopting.add(adopting)
        adopting.add_done_callback(self._adopted)

    def _adopted(self, adopting: asyncio.Task[Any]) -> None:
        self._adopting.discard(adopting)
        if not adopting.cancelled() and adopting.exception() is not None:
            log.warning("could not take over a connection: %s", adopting.exception())

    def busy(self, transport: Any) -> None:
        """A request's headers are in and it is being handled: its connection is not timed meanwhile."""
        guarded = self._guarded.get(transport)
        if guarded is not None:
            guarded.disarm()

    def idle(self, transport: Any) -> None:
        """A request was answered: its connection may wait `idle_timeout` for the next one."""
        guarded = self._guarded.get(transport)
        if guarded is not None:
            guarded.arm(self.idle_timeout)


class Guarded(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the guard's counting and timing."""

    def __init__(self, guard: Guard, inner: asyncio.Protocol, adopted: bytes = b"") -> None:
        self.guard = guard
        self.inner = inner
        self.adopted = adopted
        """The first bytes, read by the process that accepted the connection and passed it here."""
        self.placed = bool(adopted)
        """Whether it is settled that the connection is served here (it may be passed on at its first bytes)."""
        self.address = ""
        self.admitted = False
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        guard = self.guard
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if guard.open >= guard.total or guard.by_address.get(self.address, 0) >= guard.per_address:
            guard.refused += 1
            if guard.refused % 1000 == 1:  # said, but not a line per connection of a flood
                log.warning(
                    "refusing connections from %s: over the cap (%d refused so far)", self.address, guard.refused
                )
            transport.abort()
            return
        self.admitted = True
        self.transport = transport
        guard.open += 1
        guard.by_address[self.address] = guard.by_address.get(self.address, 0) + 1
        guard._guarded[transport] = self
        self.arm(guard.header_timeout)
        self.inner.connection_made(transport)
        if self.adopted:
            self.inner.data_received(self.adopted)
            self.adopted = b""

    def arm(self, seconds: float) -> None:
        self.disarm()
        self.timer = asyncio.get_running_loop().call_later(seconds, self._too_slow)

    def disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _too_slow(self) -> None:
        self.timer = None
        if self.transport is not None and not self.transport.is_closing():
            self.guard.timed_out += 1
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        if not self.admitted:
            return
        if not self.placed:  # the first bytes of a connection accepted here: it may belong elsewhere
            self.placed = True
            hand_off = self.guard.hand_off
            if hand_off is not None and self.transport is not None and hand_off(self.transport, data):
                return
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.admitted else None

    def pause_writing(self) -> None:
        if self.admitted:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.admitted:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.admitted:
            return
        self.admitted = False
        self.disarm()
        guard = self.guard
        guard.open -= 1
        left = guard.by_address.get(self.address, 1) - 1
        if left:
            guard.by_address[self.address] = left
        else:
            guard.by_address.pop(self.address, None)
        guard._guarded.pop(self.transport, None)
        self.inner.connection_lost(exc)


class GuardedSite(web.TCPSite):
    """A TCP site whose connections go through a Guard before aiohttp sees them."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, guard: Guard, **kwargs: Any) -> None:
        super().__init__(runner, host, port, **kwargs)
        self.guard = guard

    async def start(self) -> None:
        await web.BaseSite.start(self)  # registered with the runner, as TCPSite.start would
        server = self._runner.server
        assert server is not None
        self._server = await asyncio.get_running_loop().create_server(
            self.guard.factory(server),
            self._host,
            self._port,
            ssl=self._ssl_context,
            backlog=self._backlog,
            reuse_address=self._reuse_address,
            reuse_port=self._reuse_port,
        )
