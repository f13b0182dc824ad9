"""The aiohttp application: /rpc, /ws, /openrpc.json, /health and /; limits; start-up and shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import msgspec
from aiohttp import WebSocketError, WSCloseCode, WSMsgType, web
from aiohttp.web_protocol import RequestPayloadError

from protocol import messages as m
from protocol.errors import Code
from protocol.openrpc import document
from server import rpc
from server.connections import RESERVED_DESCRIPTORS, Guard, GuardedSite, raise_descriptor_limit
from server.engine.english.verbs import is_participle, participle
from server.host import Host
from server.jsonrpc import Result
from server.limits import Limits, Lockout
from server.persist import Keeper
from server.seats import Session
from server.sequence import KEPT, Message
from server.stores import open_store
from server.web import add_browser_client

log = logging.getLogger(__name__)

MIN_AUTHOR_TOKEN = 16
"""The shortest author token a server takes: the ones it makes are 32 characters."""


@dataclass(frozen=True, slots=True)
class Config:
    """How a server runs. `author_on_loopback`: connections from this machine act as authors (`--author`)."""

    max_message: int = 64 * 1024
    """The largest JSON-RPC message taken, in bytes; larger ones are answered -32007. A WebSocket frame over
    sixteen times this is not read at all: it is answered -32007 and the socket closed (1009)."""
    max_batch: int = 100
    """The most requests one batch may hold; a longer batch is answered with one -32007."""
    max_answer: int = 1024 * 1024
    """Bytes of answers one message may get: once a batch's answers pass it, its later members are not made
    and are answered -32007 each."""
    max_connections: int = 1000
    """WebSockets open at once; more are refused (HTTP 503)."""
    sockets_per_address: int = 100
    """WebSockets open at once from one address; more are refused (HTTP 429), so one caller cannot take all."""
    socket_idle: float = 300.0
    """Seconds a WebSocket bound to no session may go without a message before it is closed (1008)."""
    connections_per_address: int = 128
    """TCP connections open at once from one address (any kind); more are closed at once, unread. Applies
    where the server listens through `listen` (`curveship serve`, play and tell)."""
    max_tcp: int = 4096
    """TCP connections open at once in all; lowered, if need be, to what the open-file limit allows."""
    header_timeout: float = 10.0
    """Seconds a new connection has to send a whole request head; slower ones are closed (slowloris)."""
    idle_timeout: float = 60.0
    """Seconds a kept-alive connection may wait between requests before it is closed."""
    outbox: int = 256
    """Messages queued for one socket; a client that falls this far behind is disconnected (it may resume)."""
    resume_buffer: int = KEPT
    """The most recent messages (numbered replies and notifications) one session keeps: `resume` with a last
    `seq` sends again those after it, or, when it is older than these, a fresh state."""
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
    instances_per_address: int = 20
    """The most live instances one address may have made (authors' do not count); -32006 beyond."""
    instance_idle: float = 7 * 24 * 3600.0
    """Seconds an instance nobody plays (no session, seated or away) may go unchanged before it is retired:
    deleted, with its log and saves. Instances an author made are kept."""
    unload_after: float = 600.0
    """Seconds a loaded instance may go unused before it leaves memory, with a store to read it back from (a
    data directory or `store`; without one, memory is the store and nothing is unloaded). Unused: no request
    from any of its sessions, no change and no session seated for that long, no socket bound to any of its
    sessions, and every change of it stored. Unloaded, it is known but not loaded, as at start-up: the lobby
    lists it, its tokens resume, and its next use brings it back from the store as a first use after a
    restart does."""
    max_saves: int = 20
    """The most saves one instance keeps; a new name beyond is refused (-32006); a name used is overwritten."""
    detach_after: float = 120.0
    """Seconds a session may go with no connection (no socket, no request) before it is detached: the others
    hear it left, its actor goes back to its script, and `resume` (or any call for it) seats it again."""
    session_idle: float = 24 * 3600.0
    """Seconds a session with no open socket may go without a request before it expires (-32002)."""
    data: Path | None = None
    """The data directory: instances, sessions and saves live in its SQLite file and survive restarts.
    None keeps everything in memory (tests, `curveship tell`), unless `store` names a database."""
    store: str | None = None
    """A `postgresql://` URL: instances, sessions and saves live in that database instead, shared by every
    server given it, each instance written by the one holding its lease (docs/deploying.md)."""
    bus: str | None = None
    """A `nats://` URL: this server is one node of a cluster with every server on the same `store` (which must
    be PostgreSQL), each holding the instances it has the leases of, forwarding the rest (docs/deploying.md)."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names (besides IP addresses and `localhost`) this server answers to on /rpc and /ws; any other
    `Host` is refused (HTTP 403), so a page on another site cannot reach it by a name that resolves here (DNS
    rebinding). `("*",)` answers to any."""
    allowed_origins: tuple[str, ...] = ()
    """Origins (`https://host:port`) whose pages may call /rpc and /ws besides the server's own; a request
    with any other `Origin` is refused (HTTP 403). A request with none (a program, not a browser) is let in."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses of reverse proxies whose `X-Forwarded-For`, `-Proto` and `-Host` are believed: the caller's
    address is then the one the proxy forwarded. Empty (the default): every such header is ignored, and a
    request carrying one is never an author by address."""
    token_failures: int = 20
    """Wrong tokens (author or session) one address may show before it is locked out; one more is forgiven
    every `token_failure_every` seconds. While locked out, every request with a token is refused (-32006)."""
    token_failure_every: float = 6.0
    clock: Callable[[], float] = time.monotonic
    """The host's clock: rate limits, lockouts, presence, session expiry and idle instances; tests step their own."""
    store_locks: tuple[int, int] | None = None
    """The data directory's locks, when this server is one worker of several: taken by the process that
    started the workers and inherited (see `SqliteFile.locks_to_share`)."""

    def __post_init__(self) -> None:
        if self.author_token is not None and len(self.author_token) < MIN_AUTHOR_TOKEN:
            raise ValueError(
                f"an author token must be at least {MIN_AUTHOR_TOKEN} characters (this one has "
                f"{len(self.author_token)}): a short one can be guessed"
            )


class Elsewhere(Protocol):
    """Where messages go when this server is one of several workers, each holding some of the instances
    (server/cluster/router.py): a message for an instance held by another worker is sent there."""

    async def forward(self, raw: bytes | str, caller: rpc.Caller, outbox: Outbox | None) -> tuple[bool, bytes | None]:
        """(whether it was sent to another worker, the answer to give over HTTP); a socket's answers and
        notifications from there are put in its outbox, in order."""
        ...

    async def knows(self, token: str) -> bool:
        """Whether some worker has a session of this token."""
        ...

    def released(self, outbox: Outbox) -> None:
        """A socket closed, or was bound here since: the session on another worker it was bound to no longer
        hears through it."""
        ...


CONFIG = web.AppKey("config", Config)
HOST = web.AppKey("host", Host)
METHODS = web.AppKey("methods", dict)
SOCKETS = web.AppKey("sockets", set[web.WebSocketResponse])
BY_ADDRESS = web.AppKey("sockets by address", dict[str, int])
GUARD = web.AppKey("guard", Guard)
ELSEWHERE = web.AppKey("elsewhere", Elsewhere)


def create_app(config: Config | None = None) -> web.Application:
    """The server, assembled: its host and methods live under typed keys; sockets are closed on shutdown."""
    config = config or Config()
    _warm_engine()
    # aiohttp's own body limit sits well above ours, so an oversize request is read far enough to be
    # answered -32007 in JSON-RPC rather than cut off with a bare HTTP 413.
    app = web.Application(client_max_size=config.max_message * 4)
    app[CONFIG] = config
    limits = Limits(
        config.rate,
        config.burst,
        commands=config.max_commands,
        instances=config.max_instances,
        per_address=config.instances_per_address,
        saves=config.max_saves,
        kept=config.resume_buffer,
    )
    lockout = Lockout(config.token_failures, config.token_failure_every, clock=config.clock)
    app[HOST] = Host(author_token=config.author_token, limits=limits, lockout=lockout, clock=config.clock)
    app[METHODS] = rpc.methods()
    app[SOCKETS] = set()
    app[BY_ADDRESS] = {}
    app[GUARD] = Guard(
        per_address=config.connections_per_address,
        total=config.max_tcp,
        header_timeout=config.header_timeout,
        idle_timeout=config.idle_timeout,
    )
    app.middlewares.append(_timed)
    app.router.add_post("/rpc", rpc_over_http)
    app.router.add_get("/ws", rpc_over_websocket)
    app.router.add_get("/openrpc.json", openrpc)
    app.router.add_get("/health", health)
    add_browser_client(app)
    # On shutdown, not cleanup: aiohttp waits (60 s by default) for open handlers between the two, then
    # cancels them, so sockets closed only at cleanup would be dropped late and without a word.
    app.on_shutdown.append(_close_sockets_on_shutdown)
    if config.data is not None or config.store:
        app.cleanup_ctx.append(_kept_in(config.store, config.data, config.store_locks))
    app.cleanup_ctx.append(_sweeping(config))  # after the store opens, and stopped before it closes
    if config.bus:
        from server.cluster.nats import NatsBus  # here: the router is built on this module
        from server.cluster.placement import Leased
        from server.cluster.router import install

        install(app, NatsBus(config.bus), Leased())
    return app


def _warm_engine() -> None:
    """Load now what the engine reads lazily the first time it tells a verb (the English inflection tables: a
    fifth of a second or more), once a process: engine time is charged to callers as the turns it is worth,
    and the first player after a start should not pay for the server's own warming up."""
    participle("stroll")
    is_participle("strolled")


@web.middleware
async def _timed(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> Any:
    """While a request is handled its connection is not timed by the guard; once answered, it may idle."""
    guard, transport = request.app[GUARD], request.transport
    guard.busy(transport)
    try:
        return await handler(request)
    finally:
        guard.idle(transport)


@contextlib.asynccontextmanager
async def listen(
    app: web.Application, host: str, port: int, *, reuse_port: bool = False, **runner: Any
) -> AsyncIterator[str]:
    """Serve `app` on host:port (0: any free port) through its connection guard until the block ends; yields
    the URL. The open-file limit is raised first, and the connection caps lowered to fit what it allows.
    `reuse_port`: other processes (the other workers) listen on the same port, and the kernel shares out
    the connections among them."""
    config, guard = app[CONFIG], app[GUARD]
    limit = raise_descriptor_limit()
    room = max(16, limit - RESERVED_DESCRIPTORS)
    if room < config.max_tcp:
        log.warning(
            "the open-file limit (%d) allows %d connections, not %d: raise it (ulimit -n) to serve more",
            limit,
            room,
            config.max_tcp,
        )
        guard.total = room
    running = web.AppRunner(app, access_log=None, **runner)
    await running.setup()
    try:
        site = GuardedSite(running, host, port, guard, reuse_port=reuse_port or None)
        await site.start()
        bound = running.addresses[0][1]
        yield f"http://{f'[{host}]' if ':' in host else host}:{bound}"
    finally:
        await running.cleanup()


def _sweeping(config: Config) -> Callable[[web.Application], AsyncIterator[None]]:
    """While serving, now and then detach the sessions that have had no connection for a while, let go of
    those long idle, and unload the instances unused for a while."""
    every = min(
        60.0, config.detach_after / 4, config.session_idle / 4, config.instance_idle / 4, config.unload_after / 4
    )

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
                    await host.revive()
                    retired = await host.retire_idle(config.instance_idle)
                    for instance in retired:
                        log.info("instance %s (%s) retired: nobody played it for a while", instance.id, instance.world)
                    for id_ in await host.unload_idle(config.unload_after):
                        log.info("instance %s unloaded: unused for a while, it is loaded again on its next use", id_)
                except Exception:  # the next sweep tries again; serving goes on
                    log.exception("sweeping sessions failed")

        task = asyncio.create_task(sweep())
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    return expiring


def _kept_in(
    url: str | None, directory: Path | None, locks: tuple[int, int] | None
) -> Callable[[web.Application], AsyncIterator[None]]:
    """Open the store before serving and bring every instance back; close it after the last request."""

    async def keeping(app: web.Application) -> AsyncIterator[None]:
        host = app[HOST]
        started = time.perf_counter()
        store = await open_store(url, directory, locks=locks)
        keeper = Keeper(store)
        host.keeper = keeper
        await host.open()
        log.info(
            "opened %s in %.2f s: %d instances and %d sessions stored, each instance loaded on its first use",
            store.where,
            time.perf_counter() - started,
            len(host.dormant),
            len(host.parked),
        )
        yield
        await keeper.flushed()  # a snapshot under way is stored, not cut off
        await keeper.close()

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

FORWARDING = ("X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", "Forwarded", "X-Real-IP")
"""Headers a proxy adds: a request that carries one is never an author by its address."""


def _via_trusted_proxy(request: web.Request) -> bool:
    return bool(request.remote) and request.remote in request.app[CONFIG].trusted_proxies


def caller_address(request: web.Request) -> str:
    """Who is calling, for limits: the peer's address, or behind a trusted proxy the last address in its
    `X-Forwarded-For` that is not itself a trusted proxy."""
    remote = request.remote or ""
    if not _via_trusted_proxy(request):
        return remote
    trusted = request.app[CONFIG].trusted_proxies
    hops = [hop.strip() for hop in request.headers.get("X-Forwarded-For", "").split(",") if hop.strip()]
    for hop in reversed(hops):
        if hop not in trusted:
            return hop
    return remote


def _host_and_scheme(request: web.Request) -> tuple[str, str]:
    """The `Host` the caller asked for and the scheme it used (as a trusted proxy says, if there is one)."""
    host, scheme = request.headers.get("Host", ""), request.scheme
    if _via_trusted_proxy(request):
        host = request.headers.get("X-Forwarded-Host", host).split(",")[0].strip()
        scheme = request.headers.get("X-Forwarded-Proto", scheme).split(",")[0].strip()
    return host.lower(), scheme.lower()


def _host_name(host: str) -> str:
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _origin(scheme: str, host: str) -> str:
    default = {"http": ":80", "https": ":443"}.get(scheme, "")
    host = host.removesuffix(default) if default else host
    return f"{scheme}://{host}"


def refusal(request: web.Request) -> str | None:
    """Why a request to /rpc or /ws must be refused as one a browser page on another site could have made,
    or None. The `Host` must be an address, `localhost` or an allowed name (else a page whose own name
    resolves to this machine could call it); an `Origin`, when there is one, must be this server's own (the
    browser client it serves) or an allowed one. A request with no `Origin` is not a browser page's."""
    config = request.app[CONFIG]
    host, scheme = _host_and_scheme(request)
    name = _host_name(host)
    allowed = {allowed.lower() for allowed in config.allowed_hosts}
    if not (name == "localhost" or _is_address(name) or name in allowed or "*" in allowed):
        log.info("refused a request for Host %r (serve --allow-host %s answers to it)", host[:100], name[:100])
        return f"this server does not answer to the name {name!r}"
    origin = request.headers.get("Origin")
    if origin is None:
        return None
    asked = origin.strip().lower().rstrip("/")
    own = _origin("https" if scheme == "wss" else "http" if scheme == "ws" else scheme, host)
    if asked == own or asked in {_origin(*o.lower().split("://", 1)) for o in config.allowed_origins if "://" in o}:
        return None
    return f"pages from {origin[:100]!r} may not call this server"


def _bearer(request: web.Request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _own_origin(request: web.Request) -> str:
    host, scheme = _host_and_scheme(request)
    return _origin(scheme, host)


def _is_author(request: web.Request, token: str | None) -> bool:
    """An author: the author token, or with `--author` a request from this machine that no page elsewhere
    and no proxy could have made for someone else: no forwarding header, and no `Origin` (a program) or
    this server's own (the browser client it serves; a page cannot set its Origin, and the Host check has
    ruled out a page elsewhere whose name resolves here). An allowed other origin is never an author by
    address."""
    config, host = request.app[CONFIG], request.app[HOST]
    if host.is_author_token(token):
        return True
    if not config.author_on_loopback or not request.remote:
        return False
    origin = request.headers.get("Origin")
    if origin is not None and origin.strip().lower().rstrip("/") != _own_origin(request):
        return False
    if any(header in request.headers for header in FORWARDING):
        return False
    with contextlib.suppress(ValueError):
        return ipaddress.ip_address(request.remote).is_loopback
    return False


async def _locked_out(request: web.Request, token: str | None, address: str) -> float:
    """Seconds this address must wait before showing a token again (0: it may now); a token that names no
    author and no session is counted as a wrong guess."""
    host = request.app[HOST]
    if token is None:
        return 0.0
    wait = host.lockout.locked(address)
    if wait:
        return wait
    if not host.is_author_token(token) and not host.knows_token(token):
        elsewhere = request.app.get(ELSEWHERE)
        if elsewhere is None or not await elsewhere.knows(token):
            host.lockout.failed(address)
    return 0.0


def _locked_answer(wait: float) -> bytes:
    why = f"too many wrong tokens from this address: try again in {wait:.0f} s"
    return msgspec.json.encode(rpc.error_response(Code.RATE_LIMITED, why, {"retry_after": round(wait, 1)}))


# -- POST /rpc ----------------------------------------------------------------------------------------------


async def rpc_over_http(request: web.Request) -> web.Response:
    config = request.app[CONFIG]
    why = refusal(request)
    if why is not None:
        raise web.HTTPForbidden(text=why)
    if request.content_type != "application/json":
        # Anything else is what a page on another site may send without asking first (a "simple" request).
        wrong = rpc.error_response(Code.INVALID_REQUEST, "send JSON-RPC as Content-Type: application/json")
        return web.Response(status=415, body=msgspec.json.encode(wrong), content_type="application/json")
    try:
        body = await _read_limited(request, config.max_message)
    except RequestPayloadError as error:
        encoding = request.headers.get("Content-Encoding", "")[:20]
        unread = rpc.error_response(Code.PARSE_ERROR, f"the body is not the {encoding} it is said to be: {error}")
        request.content.feed_eof()  # nothing more of it is read, not even to linger (which would raise again)
        refused = web.Response(status=400, body=msgspec.json.encode(unread), content_type="application/json")
        refused.force_close()  # where this body ends and another request begins cannot be told
        return refused
    if body is None:
        too_large = rpc.error_response(Code.TOO_LARGE, f"a message may be at most {config.max_message} bytes")
        return web.Response(body=msgspec.json.encode(too_large), content_type="application/json")
    token = _bearer(request)
    address = caller_address(request)
    if wait := await _locked_out(request, token, address):
        return web.Response(body=_locked_answer(wait), content_type="application/json")
    caller = rpc.Caller(request.app[HOST], token=token, author=_is_author(request, token), remote=address)
    elsewhere = request.app.get(ELSEWHERE)
    forwarded, answer = await elsewhere.forward(body, caller, None) if elsewhere else (False, None)
    if not forwarded:
        answer = await rpc.handle(body, caller, request.app[METHODS], config.max_batch, config.max_answer)
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
        self.elsewhere: tuple[str, str] | None = None
        """(worker, token) of the session it is bound to on another worker, if it is (see Elsewhere)."""

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

    def bind(self, session: Session, missed: Sequence[Message] = ()) -> None:
        """Hear `session`'s notifications from now on, after `missed` (numbered already), sent first."""
        if self.session is not None:
            self.session.unlisten(self.notify)
        self.session = session
        session.listen(self.notify)
        for method, params in missed:
            self.notify(method, params)

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
    why = refusal(request)
    if why is not None:
        raise web.HTTPForbidden(text=why)
    token = _bearer(request)
    address = caller_address(request)
    if wait := await _locked_out(request, token, address):
        raise web.HTTPTooManyRequests(
            text=f"too many wrong tokens from this address: try again in {wait:.0f} s",
            headers={"Retry-After": str(max(1, round(wait)))},
        )
    if len(sockets) >= config.max_connections:
        raise web.HTTPServiceUnavailable(text="too many connections; try again later")
    by_address = request.app[BY_ADDRESS]
    if by_address.get(address, 0) >= config.sockets_per_address:
        raise web.HTTPTooManyRequests(text=f"at most {config.sockets_per_address} WebSockets from one address")
    # aiohttp closes a socket whose frame passes max_msg_size (from the frame's header, before reading it):
    # keep that well above our limit, so an oversize message is answered -32007 and the socket lives on.
    socket = _Socket(config.max_message)
    await socket.prepare(request)
    sockets.add(socket)
    outbox = Outbox(socket, config.outbox)
    caller = rpc.Caller(
        request.app[HOST], token=token, author=_is_author(request, token), bind=_binder(outbox), remote=address
    )
    methods: dict[str, Callable[..., Awaitable[Result]]] = request.app[METHODS]
    by_address[address] = by_address.get(address, 0) + 1
    try:
        while True:
            try:
                # A socket bound to a session may be quiet as long as its player thinks; one bound to none
                # is only holding a place.
                bound = outbox.session is not None or outbox.elsewhere is not None
                frame = await socket.receive(timeout=None if bound else config.socket_idle)
            except TimeoutError:
                await socket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"idle: no session, no message")
                break
            if frame.type == WSMsgType.TEXT:
                await _answer(frame.data, caller, methods, outbox, config, request.app.get(ELSEWHERE))
            elif frame.type == WSMsgType.BINARY:
                outbox.put(msgspec.json.encode(rpc.error_response(Code.PARSE_ERROR, "send JSON-RPC as text frames")))
            elif frame.type in (WSMsgType.ERROR, WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                break
    finally:
        sockets.discard(socket)
        left = by_address.get(address, 1) - 1
        if left:
            by_address[address] = left
        else:
            by_address.pop(address, None)
        if (elsewhere := request.app.get(ELSEWHERE)) is not None:
            elsewhere.released(outbox)
        await outbox.close()
    return socket


class _Socket(web.WebSocketResponse):
    """A WebSocket that says why when a frame is too large even to read (past max_msg_size): aiohttp then
    closes it with 1009 and nothing more, so a -32007 (id null) is sent first, and the close gives a reason."""

    def __init__(self, limit: int) -> None:
        super().__init__(max_msg_size=limit * 16, heartbeat=30.0)
        self.limit = limit

    def _post_start(self, request: web.BaseRequest, protocol: str | None, writer: Any) -> None:
        # aiohttp reads a client's frames whether masked or not; RFC 6455 (5.1) has the server close the
        # connection on an unmasked one. Its reader is put behind one that checks each frame's mask bit.
        super()._post_start(request, protocol, writer)
        reader, queue = self._parser, self._reader  # aiohttp's own, made just now by super()
        assert reader is not None and queue is not None
        # set_parser takes one parser once: the one super() set is replaced where the protocol keeps it.
        request.protocol._payload_parser = _MaskChecked(reader, queue)

    async def close(self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True) -> bool:
        if code == WSCloseCode.MESSAGE_TOO_BIG and not self.closed:
            why = f"a message may be at most {self.limit} bytes; a frame over {self.limit * 16} closes the socket"
            with contextlib.suppress(Exception):
                await self.send_str(msgspec.json.encode(rpc.error_response(Code.TOO_LARGE, why)).decode())
            message = message or b"message too large"
        return await super().close(code=code, message=message, drain=drain)


class _MaskChecked:
    """A WebSocket frame parser in front of aiohttp's: follows the frames' boundaries (headers read, payloads
    skipped) and, at the first frame without a mask, stops feeding the reader and fails its queue with a
    protocol error, which closes the socket with 1002."""

    def __init__(self, inner: Any, queue: Any) -> None:
        self.inner = inner
        self.queue = queue
        self.head = bytearray()
        self.skip = 0
        self.failed = False

    def feed_eof(self) -> None:
        self.inner.feed_eof()

    def feed_data(self, data: bytes | bytearray | memoryview) -> tuple[bool, bytes]:
        if self.failed:
            return False, b""
        view, at = memoryview(data), 0
        while at < len(view):
            if self.skip:
                step = min(self.skip, len(view) - at)
                self.skip -= step
                at += step
                continue
            self.head.append(view[at])
            at += 1
            if len(self.head) < 2:
                continue
            masked, length = self.head[1] & 0x80, self.head[1] & 0x7F
            extended = 2 if length == 126 else 8 if length == 127 else 0
            if len(self.head) < 2 + extended + (4 if masked else 0):
                continue
            if not masked:
                self.failed = True
                self.queue.set_exception(WebSocketError(WSCloseCode.PROTOCOL_ERROR, "client frames must be masked"))
                return False, b""
            if extended:
                length = int.from_bytes(self.head[2 : 2 + extended], "big")
            self.skip = length
            self.head.clear()
        return self.inner.feed_data(data)  # type: ignore[no-any-return]


def _binder(outbox: Outbox) -> Callable[[Session, Sequence[Message]], None]:
    def bind(session: Session, missed: Sequence[Message]) -> None:
        outbox.bind(session, missed)

    return bind


async def _answer(
    text: str, caller: rpc.Caller, methods: dict[str, Any], outbox: Outbox, config: Config, elsewhere: Elsewhere | None
) -> None:
    limit = config.max_message
    if len(text.encode()) > limit:
        outbox.put(msgspec.json.encode(rpc.error_response(Code.TOO_LARGE, f"a message may be at most {limit} bytes")))
        return
    caller.session = outbox.session
    if elsewhere is not None and (await elsewhere.forward(text, caller, outbox))[0]:
        return
    answer = await rpc.handle(text, caller, methods, config.max_batch, config.max_answer)
    if answer is not None:
        outbox.put(answer)
    if elsewhere is not None and outbox.elsewhere is not None and outbox.session is not None:
        elsewhere.released(outbox)  # bound here now (a join), no longer to the session elsewhere
