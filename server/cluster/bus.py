"""The workers' bus: a message for an instance another worker holds goes to it, and its answers and notifications
come back; the interface (`Bus`, its frames) and `UnixBus`, over Unix-domain sockets (server/cluster/nats.py is
the same over NATS, between machines). A worker or node is named by a string: a worker by its index.

Each worker listens on `<directory>/<index>.sock`. A worker that forwards opens one connection to each worker it
forwards to; on it go its calls (and releases, and questions), and back on it come the answers and every
notification for its sockets, in the order the owner made them: one stream, so a socket hears what it would
have heard had it been connected to the owner itself. Frames are a 4-byte length and a msgpack message.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import itertools
import logging
import struct
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Annotated, Any, Protocol

import msgspec
from msgspec import Meta

from protocol import messages as m

log = logging.getLogger(__name__)

CONNECT_WAIT = 30.0
"""Seconds a worker keeps trying to reach another that is still starting (one reached before, and refusing now,
is down: a call for it is answered at once)."""


class Call(msgspec.Struct, tag="call"):
    """One JSON-RPC message (a request or a batch) for the owner to answer as if its caller were its own."""

    id: Annotated[int, Meta(description="Matches the call's Answer.")]
    socket: Annotated[int, Meta(description="The forwarding worker's number for the socket it came on; 0: HTTP.")]
    text: Annotated[bytes, Meta(description="The message as the client sent it.")]
    token: Annotated[str | None, Meta(description="The bearer token the request carried, if any.")] = None
    author: Annotated[bool, Meta(description="Whether the connection acts as an author.")] = False
    remote: Annotated[str, Meta(description="The caller's address, for limits.")] = ""
    collect: Annotated[bool, Meta(description="Send a socket's answer back in the Answer (one member of a batch).")] = (
        False
    )


class Answer(msgspec.Struct, tag="answer"):
    """What the owner made of a Call. For a socket the answer itself went ahead as a Notice (keeping its place
    among the notifications); for HTTP it is here."""

    id: int
    body: Annotated[bytes | None, Meta(description="The answer (HTTP, or collected); None: none, or sent.")] = None
    bound: Annotated[str | None, Meta(description="The token of the session the socket is bound to now.")] = None
    failed: Annotated[
        str, Meta(description="What became of a call the owner took and could not answer ('' when it answered).")
    ] = ""


class Notice(msgspec.Struct, tag="notice"):
    """Bytes for one socket of the forwarding worker: a notification of its session, or an answer."""

    socket: int
    body: bytes


class Release(msgspec.Struct, tag="release"):
    """The socket closed (or was bound elsewhere): its session no longer hears through it."""

    socket: int


class Knows(msgspec.Struct, tag="knows"):
    """Does the owner have a session of this token?"""

    id: int
    token: str


class Known(msgspec.Struct, tag="known"):
    id: int
    known: bool


class Page(msgspec.Struct, tag="page"):
    """A page of the owner's instances, as `instances` would give it."""

    id: int
    after: str | None
    limit: int


class Paged(msgspec.Struct, tag="paged"):
    id: int
    page: m.InstancesResult


Frame = Call | Answer | Notice | Release | Knows | Known | Page | Paged

_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder(Frame).decode
_LENGTH = struct.Struct(">I")


class Peer(Protocol):
    """A worker that forwards to this one, as the owner sees it: where its sockets' notifications go."""

    def notice(self, socket: int, body: bytes) -> None: ...


class Owner(Protocol):
    """What a worker does with what the bus brings it (server/cluster/router.py)."""

    async def call(self, peer: Peer, call: Call) -> Answer: ...

    def release(self, peer: Peer, socket: int) -> None: ...

    def gone(self, peer: Peer) -> None:
        """The peer's link closed: none of its sockets hears anything more."""

    def knows(self, token: str) -> bool: ...

    def page(self, after: str | None, limit: int) -> m.InstancesResult: ...

    def lost(self, node: str) -> None:
        """A worker or node this one forwards to is gone (its link broke, or it fell silent): what was bound
        there is bound nowhere now."""


class Unreachable(Exception):
    """The worker a call was for could not be reached (`sent` False: nothing of it was done there), or its link
    broke before it answered (`sent`: it may or may not have been done)."""

    def __init__(self, message: str, worker: str, *, sent: bool) -> None:
        super().__init__(message)
        self.worker = worker
        self.sent = sent


class Bus(abc.ABC):
    """The workers (or nodes) of one server, seen from one of them, `me`. A transport gives `start`, `others`,
    `release`, `close` and `_ask` (send a frame, await the frame answering it); the calls are made of those."""

    me: str

    def __init__(self) -> None:
        self._ids = itertools.count(1)

    @abc.abstractmethod
    async def start(self, owner: Owner, notice: Callable[[int, bytes], None]) -> None:
        """Take calls for `owner`; bytes for this worker's own sockets (answers and notifications from the
        owners it forwards to) go to `notice(socket, body)`, in the order each owner sent them."""

    @abc.abstractmethod
    def others(self) -> list[str]:
        """The other workers or nodes there are now."""

    @abc.abstractmethod
    def release(self, worker: str, socket: int) -> None: ...

    @abc.abstractmethod
    async def close(self) -> None: ...

    @abc.abstractmethod
    async def _ask(self, worker: str, frame: Call | Knows | Page) -> msgspec.Struct:
        """Send `frame` to `worker` and await its answer (Unreachable if none can come)."""

    async def call(self, worker: str, call: Call) -> Answer:
        call.id = next(self._ids)
        answer = await self._ask(worker, call)
        assert isinstance(answer, Answer)
        return answer

    async def knows(self, worker: str, token: str) -> bool:
        known = await self._ask(worker, Knows(next(self._ids), token))
        assert isinstance(known, Known)
        return known.known

    async def page(self, worker: str, after: str | None, limit: int) -> m.InstancesResult:
        paged = await self._ask(worker, Page(next(self._ids), after, limit))
        assert isinstance(paged, Paged)
        return paged.page


async def answered(owner: Owner, peer: Peer, call: Call) -> Answer:
    """What the owner made of a call forwarded to it; a failure of its own is logged, and said as one."""
    try:
        return await owner.call(peer, call)
    except Exception:
        log.exception("a forwarded call failed")
        return Answer(call.id, failed="failed to answer")


def _write(writer: asyncio.StreamWriter, frame: Frame) -> None:
    payload = _encode(frame)
    writer.write(_LENGTH.pack(len(payload)) + payload)


async def _frames(reader: asyncio.StreamReader) -> msgspec.Struct | None:
    try:
        (length,) = _LENGTH.unpack(await reader.readexactly(_LENGTH.size))
        return _decode(await reader.readexactly(length))
    except (asyncio.IncompleteReadError, ConnectionError):
        return None


class _Incoming:
    """A link another worker opened to this one: its calls are answered, its sockets' bytes sent back."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer

    def notice(self, socket: int, body: bytes) -> None:
        if not self.writer.is_closing():
            _write(self.writer, Notice(socket, body))


class _Outgoing:
    """This worker's link to one other: calls awaiting their answers, by id."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.waiting: dict[int, asyncio.Future[msgspec.Struct]] = {}
        self.task: asyncio.Task[None] | None = None


class UnixBus(Bus):
    """The workers of one machine, over Unix-domain sockets in `directory` (one the server made for itself,
    readable by its user alone)."""

    def __init__(self, directory: Path, index: int, size: int) -> None:
        super().__init__()
        self.me = str(index)
        self.workers = [str(worker) for worker in range(size)]
        self.directory = directory
        self._server: asyncio.Server | None = None
        self._links: dict[str, _Outgoing] = {}
        self._connecting: dict[str, asyncio.Lock] = {}
        self._reached: set[str] = set()
        """Workers a link was opened to once: started, so one refused now is down, not starting."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._incoming: dict[asyncio.StreamWriter, asyncio.Task[Any]] = {}
        """The links other workers opened to this one, and the task reading each: `close` ends them."""
        self._notice: Callable[[int, bytes], None] = lambda socket, body: None
        self._lost: Callable[[str], None] = lambda worker: None

    def path(self, worker: str) -> Path:
        return self.directory / f"{worker}.sock"

    def others(self) -> list[str]:
        return [worker for worker in self.workers if worker != self.me]

    async def start(self, owner: Owner, notice: Callable[[int, bytes], None]) -> None:
        self._notice = notice
        self._lost = owner.lost

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            peer = _Incoming(writer)
            reading = asyncio.current_task()
            if reading is not None:
                self._incoming[writer] = reading
            try:
                while (frame := await _frames(reader)) is not None:
                    if isinstance(frame, Call):
                        # Calls from different sockets run at once; one socket's come one at a time, as the
                        # forwarding worker awaits each answer before it sends the next.
                        self._spawn(self._answer(owner, peer, frame))
                    elif isinstance(frame, Release):
                        owner.release(peer, frame.socket)
                    elif isinstance(frame, Knows):
                        _write(writer, Known(frame.id, owner.knows(frame.token)))
                    elif isinstance(frame, Page):
                        _write(writer, Paged(frame.id, owner.page(frame.after, frame.limit)))
            finally:
                self._incoming.pop(writer, None)
                owner.gone(peer)
                writer.close()

        self._server = await asyncio.start_unix_server(serve, path=str(self.path(self.me)))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, owner: Owner, peer: _Incoming, call: Call) -> None:
        answer = await answered(owner, peer, call)
        if not peer.writer.is_closing():
            _write(peer.writer, answer)

    async def _link(self, worker: str) -> _Outgoing:
        link = self._links.get(worker)
        if link is not None and not link.writer.is_closing():
            return link
        async with self._connecting.setdefault(worker, asyncio.Lock()):
            link = self._links.get(worker)
            if link is not None and not link.writer.is_closing():
                return link
            loop = asyncio.get_running_loop()
            deadline = loop.time() + CONNECT_WAIT
            while True:
                try:
                    reader, writer = await asyncio.open_unix_connection(str(self.path(worker)))
                    break
                except OSError as error:
                    if worker in self._reached or loop.time() > deadline:
                        raise Unreachable(f"worker {worker} cannot be reached: {error}", worker, sent=False) from None
                    await asyncio.sleep(0.05)  # it is starting: its socket is not there yet
            self._reached.add(worker)
            link = _Outgoing(reader, writer)
            link.task = asyncio.create_task(self._read(worker, link))
            self._links[worker] = link
            return link

    async def _read(self, worker: str, link: _Outgoing) -> None:
        try:
            while (frame := await _frames(link.reader)) is not None:
                if isinstance(frame, Notice):
                    self._notice(frame.socket, frame.body)
                elif isinstance(frame, Answer | Known | Paged):
                    waiting = link.waiting.pop(frame.id, None)
                    if waiting is not None and not waiting.done():
                        waiting.set_result(frame)
        finally:
            link.writer.close()
            for waiting in link.waiting.values():
                if not waiting.done():
                    waiting.set_exception(Unreachable(f"the link to worker {worker} broke", worker, sent=True))
            link.waiting.clear()
            if self._links.get(worker) is link:
                del self._links[worker]
                # It died (its starter starts it again): what was bound to it is bound nowhere now.
                self._lost(worker)

    async def _ask(self, worker: str, frame: Call | Knows | Page) -> msgspec.Struct:
        link = await self._link(worker)
        waiting: asyncio.Future[msgspec.Struct] = asyncio.get_running_loop().create_future()
        link.waiting[frame.id] = waiting
        _write(link.writer, frame)
        return await waiting

    def release(self, worker: str, socket: int) -> None:
        link = self._links.get(worker)
        if link is not None and not link.writer.is_closing():
            _write(link.writer, Release(socket))

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for link in list(self._links.values()):
            link.writer.close()
            if link.task is not None:
                link.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await link.task
        # Each link to this worker is ended by closing it, so its reader sees the end and returns, rather than
        # being cancelled when the loop stops: Python 3.11's stream server then asks the cancelled reader for its
        # exception, and logs the CancelledError that raises as a traceback. Aborted, not closed: a peer that
        # has stopped reading must not keep this worker from stopping until its bytes are taken.
        readers = list(self._incoming.values())
        for writer in list(self._incoming):
            writer.transport.abort()
        await asyncio.gather(*readers, return_exceptions=True)
        for task in list(self._tasks):
            task.cancel()
        self.path(self.me).unlink(missing_ok=True)
