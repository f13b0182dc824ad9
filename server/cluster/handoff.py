"""Connections moved, at their first bytes, to the worker holding the instance their URL names.

The kernel shares a port's connections out among the workers at random, so without this half of a socket's
calls and notifications would cross to another worker and back (server/cluster/router.py), which costs
more than the engine's turn. A client that knows its instance names it in the URL (`/ws?instance=ID`, as
docs/protocol.md says); the worker that accepted the connection reads the request line from the first
bytes, and when the instance is another worker's it passes the socket itself (SCM_RIGHTS, over a Unix
datagram socket in the workers' own directory) with the bytes it read, and lets it go. The holder serves it
from those bytes on, as if it had accepted it; the client sees nothing of this.

Anything else is served where it landed and forwarded as before: no instance named, a request line not all
in the first bytes, a name that is not an instance id, a holder that is not there (restarting) or too busy
to take it now. Nothing is lost either way: the socket is passed on whole or not at all.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import logging
import os
import re
import socket
from pathlib import Path

from server.cluster.placement import owner_of
from server.connections import Guard

log = logging.getLogger(__name__)

FIRST_BYTES = 65536
"""The most of a connection's first bytes passed on with it (a datagram of the link); a request whose first
read is longer (a large upload) is served where it landed."""

_NAMED = re.compile(rb"GET [^ ?]*\?(?:[^ ]*&)?instance=([A-Za-z0-9_-]{1,64})(?:[& ]|$)")
"""A request line naming an instance in its query: the characters an instance id may have (protocol/messages.py)."""


def instance_named(first: bytes) -> str | None:
    """The instance a connection's request names in its URL's query, from its first bytes: None when it names
    none, or its request line is not all in them."""
    line, ended, _ = first.partition(b"\r\n")
    if not ended:
        return None
    named = _NAMED.match(line)
    return named.group(1).decode() if named else None


class Handoff:
    """Worker `index` of `workers`: passes on the connections that name another's instance, and serves those
    passed to it. Its link is `links/handoff-{index}`."""

    def __init__(self, links: Path, index: int, workers: int, guard: Guard) -> None:
        self.links = links
        self.index = index
        self.workers = workers
        self.guard = guard
        self.passed = 0
        """Connections passed on to another worker: for the tests and the log."""
        self.taken = 0
        """Connections taken from another worker."""
        self._inbox: socket.socket | None = None
        self._outbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._outbox.setblocking(False)

    def _link(self, index: int) -> str:
        return str(self.links / f"handoff-{index}")

    def start(self) -> None:
        """Take connections from the others, and pass them theirs."""
        path = self._link(self.index)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # left by this worker's previous process, killed
        inbox = self._inbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        inbox.setblocking(False)
        inbox.bind(path)
        asyncio.get_running_loop().add_reader(inbox.fileno(), self._receive)
        self.guard.hand_off = self.hand_off

    def close(self) -> None:
        self.guard.hand_off = None
        if self._inbox is not None:
            asyncio.get_running_loop().remove_reader(self._inbox.fileno())
            self._inbox.close()
            self._inbox = None
        self._outbox.close()

    def hand_off(self, transport: asyncio.Transport, first: bytes) -> bool:
        """Pass the connection on to its instance's holder if that is another worker: whether it was."""
        instance = instance_named(first) if len(first) <= FIRST_BYTES else None
        if instance is None:
            return False
        holder = owner_of(instance, self.workers)
        if holder == self.index:
            return False
        connection = transport.get_extra_info("socket")
        if connection is None:
            return False
        try:
            # sendmsg, not socket.send_fds, which leaves out the address it is given (Python 3.11)
            rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [connection.fileno()]))]
            self._outbox.sendmsg([first], rights, 0, self._link(holder))
        except OSError:  # not there (restarting), or its link is full: served here, and forwarded
            return False
        # The holder has the socket now (the kernel keeps it open while it is on its way): this process's
        # descriptor is closed without a word to the client.
        transport.abort()
        self.passed += 1
        return True

    def _receive(self) -> None:
        inbox = self._inbox
        while inbox is not None:
            try:
                first, descriptors, _, _ = socket.recv_fds(inbox, FIRST_BYTES, 1)
            except BlockingIOError:
                return
            except OSError as error:
                log.warning("could not take a connection from another worker: %s", error)
                return
            for extra in descriptors[1:]:
                os.close(extra)
            if not descriptors:
                continue
            connection = socket.socket(fileno=descriptors[0])
            connection.setblocking(False)
            self.taken += 1
            self.guard.adopt(connection, first)
