"""The bus between the nodes of a cluster, over NATS: the same frames as the workers' (server/cluster/bus.py).

1. Each node subscribes to one subject of its own, `curveship.<cluster>.node.<name>`, and everything sent to
   it comes there: calls (and releases, and questions) from the nodes that forward to it, and the answers
   and notifications of the nodes it forwards to. NATS keeps the order of the messages one connection
   publishes to one subject, and a node publishes through one queue, so a socket hears its holder's
   notifications and answers in the order the holder made them, as over a Unix socket.
2. Every node says it is alive on `curveship.<cluster>.alive` twice a second, and says goodbye when it
   stops. One not heard for `SILENT` seconds is gone: the calls waiting on it fail (Unreachable), and the
   router closes the sockets bound to sessions it held (their clients resume where the lease goes next).
3. `<cluster>` is the database's own name (server/stores/postgres.py), so the nodes on one database find
   one another, and nothing of another cluster on the same NATS.
Nothing here elects or votes: who holds an instance is its lease's to say; this only carries messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

import msgspec

from server.cluster.bus import (
    Answer,
    Bus,
    Call,
    Frame,
    Known,
    Knows,
    Notice,
    Owner,
    Page,
    Paged,
    Release,
    Unreachable,
    answered,
)

log = logging.getLogger(__name__)

HEARTBEAT = 0.5
"""Seconds between a node's 'alive' messages."""

SILENT = 3.0
"""Seconds a node may go unheard before it is taken for gone."""

CONNECT_WAIT = 5
"""Seconds to reach the NATS server at start."""

ANSWER_WAIT = 60.0
"""Seconds a forwarded call waits for its answer from a node still heard from: NATS carries a message at most
once, so one lost in flight (the NATS server restarting) would otherwise hold up its socket for good."""


class _Sent(msgspec.Struct):
    sender: str
    frame: Frame


class _Alive(msgspec.Struct):
    node: str
    up: bool = True
    """False: it is stopping (gone at once, not after SILENT)."""


_encode = msgspec.msgpack.Encoder().encode
_decode_sent = msgspec.msgpack.Decoder(_Sent).decode
_decode_alive = msgspec.msgpack.Decoder(_Alive).decode


class _Peer:
    """Another node, as this one answers it: its sockets' bytes go to its subject."""

    def __init__(self, bus: NatsBus, node: str) -> None:
        self.bus = bus
        self.node = node

    def notice(self, socket: int, body: bytes) -> None:
        self.bus._send(self.node, Notice(socket, body))


class NatsBus(Bus):
    """The nodes of a cluster over the NATS server at `url`. `me` and `cluster` are set before `start`."""

    def __init__(self, url: str, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.url = url
        self.me = ""
        self.cluster = ""
        self.clock = clock
        self._nc: Any = None
        self._heard: dict[str, float] = {}
        self._peers: dict[str, _Peer] = {}
        self._waiting: dict[int, tuple[str, asyncio.Future[msgspec.Struct]]] = {}
        self._outgoing: asyncio.Queue[tuple[str, bytes] | None] = asyncio.Queue()
        self._tasks: set[asyncio.Task[None]] = set()
        self._sender: asyncio.Task[None] | None = None
        self._owner: Owner | None = None
        self._notice: Callable[[int, bytes], None] = lambda socket, body: None

    def _subject(self, node: str) -> str:
        return f"curveship.{self.cluster}.node.{node}"

    @property
    def _alive_subject(self) -> str:
        return f"curveship.{self.cluster}.alive"

    async def start(self, owner: Owner, notice: Callable[[int, bytes], None]) -> None:
        import nats  # here: a server that is no cluster's node never loads it

        self._owner, self._notice = owner, notice
        try:
            self._nc = await nats.connect(
                self.url, name=self.me, connect_timeout=CONNECT_WAIT, max_reconnect_attempts=-1, allow_reconnect=True
            )
        except Exception as error:  # nats-py raises its own kinds, and OSError, for a server not there
            raise OSError(f"cannot reach NATS at {self.url} ({error or type(error).__name__})") from None
        await self._nc.subscribe(self._subject(self.me), cb=self._received)
        await self._nc.subscribe(self._alive_subject, cb=self._alive)
        self._sender = asyncio.get_running_loop().create_task(self._sending())
        self._spawn(self._beating())
        await self._nc.flush()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- who is there ---------------------------------------------------------------------------------

    def others(self) -> list[str]:
        now = self.clock()
        return sorted(node for node, heard in self._heard.items() if now - heard < SILENT)

    async def _alive(self, msg: Any) -> None:
        try:
            alive = _decode_alive(msg.data)
        except msgspec.DecodeError:
            return
        if alive.node == self.me:
            return
        if alive.up:
            self._heard[alive.node] = self.clock()
        elif alive.node in self._heard:
            self._gone(alive.node)

    async def _beating(self) -> None:
        while True:
            self._outgoing.put_nowait((self._alive_subject, _encode(_Alive(self.me))))
            now = self.clock()
            for node in [node for node, heard in self._heard.items() if now - heard >= SILENT]:
                self._gone(node)
            await asyncio.sleep(HEARTBEAT)

    def _gone(self, node: str) -> None:
        log.warning("node %s is gone (not heard for %.1f s, or stopped)", node, SILENT)
        self._heard.pop(node, None)
        for id_, (to, waiting) in list(self._waiting.items()):
            if to == node:
                del self._waiting[id_]
                if not waiting.done():
                    waiting.set_exception(Unreachable(f"node {node} is gone", node, sent=True))
        assert self._owner is not None
        peer = self._peers.pop(node, None)
        if peer is not None:
            self._owner.gone(peer)
        self._owner.lost(node)

    async def _reachable(self, node: str) -> None:
        """Until `node` has been heard (one just started may not have been yet); Unreachable if it is not."""
        deadline = self.clock() + SILENT
        while node not in self._heard:
            if self.clock() > deadline:
                raise Unreachable(f"node {node} cannot be reached (not heard from)", node, sent=False)
            await asyncio.sleep(HEARTBEAT / 5)

    # -- sending and receiving --------------------------------------------------------------------------

    def _send(self, node: str, frame: Frame) -> None:
        self._outgoing.put_nowait((self._subject(node), _encode(_Sent(self.me, frame))))

    async def _sending(self) -> None:
        """Publish in the order sent: one queue, one publisher, so NATS keeps that order for each subject."""
        while (item := await self._outgoing.get()) is not None:
            subject, data = item
            try:
                await self._nc.publish(subject, data)
            except Exception as error:  # too large for the NATS server, or the connection down for good
                log.warning("a message to %s was not sent (%s)", subject, error)

    async def _received(self, msg: Any) -> None:
        try:
            sent = _decode_sent(msg.data)
        except msgspec.DecodeError:
            log.warning("a message on %s that is not a Curveship frame was let go", msg.subject)
            return
        frame, sender = sent.frame, sent.sender
        self._heard[sender] = self.clock()
        owner = self._owner
        assert owner is not None
        if isinstance(frame, Notice):
            self._notice(frame.socket, frame.body)
        elif isinstance(frame, Answer | Known | Paged):
            found = self._waiting.pop(frame.id, None)
            if found is not None and not found[1].done():
                found[1].set_result(frame)
        elif isinstance(frame, Call):
            # Calls from different sockets run at once; one socket's come one at a time, as the forwarding
            # node awaits each answer before it sends the next.
            self._spawn(self._answer(owner, self._peer(sender), frame))
        elif isinstance(frame, Release):
            owner.release(self._peer(sender), frame.socket)
        elif isinstance(frame, Knows):
            self._send(sender, Known(frame.id, owner.knows(frame.token)))
        elif isinstance(frame, Page):
            self._send(sender, Paged(frame.id, owner.page(frame.after, frame.limit)))

    def _peer(self, node: str) -> _Peer:
        peer = self._peers.get(node)
        if peer is None:
            peer = self._peers[node] = _Peer(self, node)
        return peer

    async def _answer(self, owner: Owner, peer: _Peer, call: Call) -> None:
        self._send(peer.node, await answered(owner, peer, call))

    async def _ask(self, node: str, frame: Call | Knows | Page) -> msgspec.Struct:
        await self._reachable(node)
        waiting: asyncio.Future[msgspec.Struct] = asyncio.get_running_loop().create_future()
        self._waiting[frame.id] = (node, waiting)
        self._send(node, frame)
        try:
            return await asyncio.wait_for(waiting, ANSWER_WAIT)
        except TimeoutError:
            self._waiting.pop(frame.id, None)
            raise Unreachable(f"node {node} did not answer in {ANSWER_WAIT:.0f} s", node, sent=True) from None

    def release(self, worker: str, socket: int) -> None:
        if worker in self._heard:
            self._send(worker, Release(socket))

    async def close(self) -> None:
        if self._nc is None:
            return
        self._outgoing.put_nowait((self._alive_subject, _encode(_Alive(self.me, up=False))))
        self._outgoing.put_nowait(None)
        if self._sender is not None:  # what was sent before goes out first, the goodbye last
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._sender, timeout=2.0)
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self._nc.flush(timeout=2)
        with contextlib.suppress(Exception):
            await self._nc.close()
        for _, waiting in self._waiting.values():
            if not waiting.done():
                waiting.set_exception(Unreachable("this node is stopping", self.me, sent=True))
