"""The aiohttp application: /rpc, /ws, /openrpc.json, /health and /; limits; start-up and shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from aiohttp import WSCloseCode, WSMsgType, web
from jsonrpcserver import Result

from protocol import messages as m
from protocol.errors import Code
from protocol.openrpc import document
from server import rpc
from server.host import Host, Limits, Session
from server.persist import Keeper
from server.store import Store
from server.web import add_browser_client

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Config:
    """How a server runs. `author_on_loopback`: connections from this machine act as authors (`--author`)."""

    max_message: int = 64 * 1024
    """The largest JSON-RPC message taken, in bytes; larger ones are answered -32007. A WebSocket frame over
    sixteen times this is not read at all: it is answered -32007 and the socket closed (1009)."""
    max_batch: int = 100
    """The most requests one batch may hold; a longer batch is answered with one -32007."""
    max_connections: int = 1000
    """WebSockets open at once; more are refused (HTTP 503)."""
    outbox: int = 256
    """Messages queued for one socket; a client that falls this far behind is disconnected (it may resume)."""
    author_on_loopback: bool = False
    author_token: str | None = None
    rate: float = 20.0
    """Requests a second one session may make on average (-32006 beyond); each command of a line counts as
    one. An address gets ten times this (and the burst) for calls that need no session; `create` counts ten."""
    burst: float = 60.0
    """Requests one session may make at once before the rate applies."""
    max_commands: int = 16
    """The most commands one `command` line may hold (-32602 beyond)."""
    max_instances: int = 1000
    """The most instances this server holds; `create` beyond is answered -32006."""
    detach_after: float = 120.0
    """Seconds a session may go with no connection (no socket, no request) before it is detached: the others
    hear it left, its actor goes back to its script, and `resume` (or any call for it) seats it again."""
    session_idle: float = 24 * 3600.0
    """Seconds a session with no open socket may go without a request before it expires (-32002)."""
    data: Path | None = None
    """The data directory: instances, sessions and saves live in its SQLite file and survive restarts.
    None keeps everything in memory (tests, `curveship tell`)."""


CONFIG = web.AppKey("config", Config)
HOST = web.AppKey("host", Host)
METHODS = web.AppKey("methods", dict)
SOCKETS = web.AppKey("sockets", set[web.WebSocketResponse])


def create_app(config: Config | None = None) -> web.Application:
    """The server, assembled: its host and methods live under typed keys; sockets are closed on shutdown."""
    config = config or Config()
    # aiohttp's own body limit sits well above ours, so an oversize request is read far enough to be
    # answered -32007 in JSON-RPC rather than cut off with a bare HTTP 413.
    app = web.Application(client_max_size=config.max_message * 4)
    app[CONFIG] = config
    limits = Limits(config.rate, config.burst, commands=config.max_commands, instances=config.max_instances)
    app[HOST] = Host(author_token=config.author_token, limits=limits)
    app[METHODS] = rpc.methods()
    app[SOCKETS] = set()
    app.router.add_post("/rpc", rpc_over_http)
    app.router.add_get("/ws", rpc_over_websocket)
    app.router.add_get("/openrpc.json", openrpc)
    app.router.add_get("/health", health)
    add_browser_client(app)
    # On shutdown, not cleanup: aiohttp waits (60 s by default) for open handlers between the two, then
    # cancels them, so sockets closed only at cleanup would be dropped late and without a word.
    app.on_shutdown.append(_close_sockets_on_shutdown)
    if config.data is not None:
        app.cleanup_ctx.append(_kept_in(config.data))
    app.cleanup_ctx.append(_sweeping(config))  # after the store opens, and stopped before it closes
    return app


def _sweeping(config: Config) -> Callable[[web.Application], AsyncIterator[None]]:
    """While serving, now and then detach the sessions that have had no connection for a while, and let go
    of those long idle."""
    every = min(60.0, config.detach_after / 4, config.session_idle / 4)

    async def expiring(app: web.Application) -> AsyncIterator[None]:
        async def sweep() -> None:
            host = app[HOST]
            while True:
                await asyncio.sleep(every)
                try:
                    for session in await host.detach_idle(config.detach_after):
                        log.info("session of %s (%s) detached: no connection", session.name, session.actor)
                    for session in await host.expire(config.session_idle):
                        log.info("session of %s (%s) expired", session.name, session.actor)
                except Exception:  # the next sweep tries again; serving goes on
                    log.exception("sweeping sessions failed")

        task = asyncio.create_task(sweep())
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    return expiring


def _kept_in(directory: Path) -> Callable[[web.Application], AsyncIterator[None]]:
    """Open the store before serving and bring every instance back; close it after the last request."""

    async def keeping(app: web.Application) -> AsyncIterator[None]:
        host = app[HOST]
        started = time.perf_counter()
        keeper = Keeper(Store(directory))
        keeper.restore(host)
        host.keeper = keeper
        log.info(
            "restored %d instances and %d sessions from %s in %.2f s (%d kept but not loaded)",
            len(host.instances),
            len(host.sessions),
            directory,
            time.perf_counter() - started,
            len(keeper.stale),
        )
        yield
        await keeper.flushed()  # a snapshot under way is stored, not cut off
        keeper.close()

    return keeping


async def _close_sockets_on_shutdown(app: web.Application) -> None:
    async def close(socket: web.WebSocketResponse) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(socket.close(code=1001, message=b"server shutting down"), timeout=5.0)

    # All at once, each for a few seconds at most: a client that never reads must not hold up the rest.
    open_sockets: set[web.WebSocketResponse] = app[SOCKETS]
    await asyncio.gather(*(close(socket) for socket in list(open_sockets)))


# -- plain routes ---------------------------------------------------------------------------------------------


async def health(request: web.Request) -> web.Response:
    return web.json_response({"status": "ok"})


async def openrpc(request: web.Request) -> web.Response:
    return web.Response(body=msgspec.json.encode(document()), content_type="application/json")


# -- who is calling ---------------------------------------------------------------------------------------------


def _bearer(request: web.Request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _is_author(request: web.Request, token: str | None) -> bool:
    config, host = request.app[CONFIG], request.app[HOST]
    if token is not None and token == host.author_token:
        return True
    if config.author_on_loopback and request.remote:
        with contextlib.suppress(ValueError):
            return ipaddress.ip_address(request.remote).is_loopback
    return False


# -- POST /rpc ----------------------------------------------------------------------------------------------


async def rpc_over_http(request: web.Request) -> web.Response:
    config = request.app[CONFIG]
    body = await _read_limited(request, config.max_message)
    if body is None:
        too_large = rpc.error_response(Code.TOO_LARGE, f"a message may be at most {config.max_message} bytes")
        return web.Response(body=msgspec.json.encode(too_large), content_type="application/json")
    token = _bearer(request)
    caller = rpc.Caller(request.app[HOST], token=token, author=_is_author(request, token), remote=request.remote or "")
    answer = await rpc.handle(body, caller, request.app[METHODS], config.max_batch)
    if answer is None:
        return web.Response(status=204)
    return web.Response(body=answer, content_type="application/json")


async def _read_limited(request: web.Request, limit: int) -> bytes | None:
    """The body, or None once it passes `limit` bytes (the rest is not read)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.content.iter_chunked(16 * 1024):
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


# -- GET /ws -------------------------------------------------------------------------------------------------------


class Outbox:
    """What one socket is sent, in order: answers and notifications queue here and a task of its own sends
    them, so a slow client slows nobody else; one that falls too far behind is disconnected."""

    def __init__(self, socket: web.WebSocketResponse, size: int) -> None:
        self.socket = socket
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=size)
        self.task = asyncio.create_task(self._send())
        self.session: Session | None = None
        self.dropping: asyncio.Task[None] | None = None
        """The closing of a socket that fell behind: once begun, nothing more is queued (or logged)."""

    async def _send(self) -> None:
        while (message := await self.queue.get()) is not None:
            try:
                await self.socket.send_str(message.decode())
            except (ConnectionError, RuntimeError):
                return

    def put(self, message: bytes) -> None:
        if self.dropping is not None:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            log.warning("disconnecting a client that fell %d messages behind", self.queue.maxsize)
            self.dropping = asyncio.get_running_loop().create_task(self._drop())

    async def _drop(self) -> None:
        await self.socket.close(code=1008, message=b"too slow")

    def notify(self, method: str, params: m.Result) -> None:
        self.put(msgspec.json.encode({"jsonrpc": "2.0", "method": method, "params": params}))

    def bind(self, session: Session) -> None:
        if self.session is not None:
            self.session.unlisten(self.notify)
        self.session = session
        session.listen(self.notify)

    async def close(self) -> None:
        if self.session is not None:
            self.session.unlisten(self.notify)
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(self.task, timeout=1.0)
        self.task.cancel()


async def rpc_over_websocket(request: web.Request) -> web.StreamResponse:
    config, sockets = request.app[CONFIG], request.app[SOCKETS]
    if len(sockets) >= config.max_connections:
        raise web.HTTPServiceUnavailable(text="too many connections; try again later")
    # aiohttp closes a socket whose frame passes max_msg_size (from the frame's header, before reading it):
    # keep that well above our limit, so an oversize message is answered -32007 and the socket lives on.
    socket = _Socket(config.max_message)
    await socket.prepare(request)
    sockets.add(socket)
    outbox = Outbox(socket, config.outbox)
    token = _bearer(request)
    caller = rpc.Caller(
        request.app[HOST],
        token=token,
        author=_is_author(request, token),
        bind=_binder(outbox),
        remote=request.remote or "",
    )
    methods: dict[str, Callable[..., Awaitable[Result]]] = request.app[METHODS]
    try:
        async for frame in socket:
            if frame.type == WSMsgType.TEXT:
                await _answer(frame.data, caller, methods, outbox, config)
            elif frame.type == WSMsgType.BINARY:
                outbox.put(msgspec.json.encode(rpc.error_response(Code.PARSE_ERROR, "send JSON-RPC as text frames")))
            elif frame.type == WSMsgType.ERROR:
                break
    finally:
        sockets.discard(socket)
        await outbox.close()
    return socket


class _Socket(web.WebSocketResponse):
    """A WebSocket that says why when a frame is too large even to read (past max_msg_size): aiohttp then
    closes it with 1009 and nothing more, so a -32007 (id null) is sent first, and the close gives a reason."""

    def __init__(self, limit: int) -> None:
        super().__init__(max_msg_size=limit * 16, heartbeat=30.0)
        self.limit = limit

    async def close(self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True) -> bool:
        if code == WSCloseCode.MESSAGE_TOO_BIG and not self.closed:
            why = f"a message may be at most {self.limit} bytes; a frame over {self.limit * 16} closes the socket"
            with contextlib.suppress(Exception):
                await self.send_str(msgspec.json.encode(rpc.error_response(Code.TOO_LARGE, why)).decode())
            message = message or b"message too large"
        return await super().close(code=code, message=message, drain=drain)


def _binder(outbox: Outbox) -> Callable[[Session], None]:
    def bind(session: Session) -> None:
        outbox.bind(session)

    return bind


async def _answer(text: str, caller: rpc.Caller, methods: dict[str, Any], outbox: Outbox, config: Config) -> None:
    limit = config.max_message
    if len(text.encode()) > limit:
        outbox.put(msgspec.json.encode(rpc.error_response(Code.TOO_LARGE, f"a message may be at most {limit} bytes")))
        return
    caller.session = outbox.session
    answer = await rpc.handle(text, caller, methods, config.max_batch)
    if answer is not None:
        outbox.put(answer)
