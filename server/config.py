"""How a server runs (its limits, its data, who is an author), and the host made to those settings; no web here."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from server.host import Host, Limits, Lockout

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
    max_saves: int = 20
    """The most saves one instance keeps; a new name beyond is refused (-32006); a name used is overwritten."""
    detach_after: float = 120.0
    """Seconds a session may go with no connection (no socket, no request) before it is detached: the others
    hear it left, its actor goes back to its script, and `resume` (or any call for it) seats it again."""
    session_idle: float = 24 * 3600.0
    """Seconds a session with no open socket may go without a request before it expires (-32002)."""
    data: Path | None = None
    """The data directory: instances, sessions and saves live in its SQLite file and survive restarts.
    None keeps everything in memory (tests, `curveship tell`)."""
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
    """The time, for rate limits and lockouts; tests step their own."""

    def __post_init__(self) -> None:
        if self.author_token is not None and len(self.author_token) < MIN_AUTHOR_TOKEN:
            raise ValueError(
                f"an author token must be at least {MIN_AUTHOR_TOKEN} characters (this one has "
                f"{len(self.author_token)}): a short one can be guessed"
            )


def host_of(config: Config) -> Host:
    """The host that serves by these settings: its limits on requests, instances and saves, and its lockout."""
    limits = Limits(
        config.rate,
        config.burst,
        commands=config.max_commands,
        instances=config.max_instances,
        per_address=config.instances_per_address,
        saves=config.max_saves,
    )
    lockout = Lockout(config.token_failures, config.token_failure_every, clock=config.clock)
    return Host(author_token=config.author_token, limits=limits, lockout=lockout, clock=config.clock)
