"""The server inside a client's process, reached without a socket: each link hands a JSON-RPC message, as bytes,
to the same handler /rpc and /ws use, and hands back its answer and the session's notifications as bytes.

Nothing of aiohttp is loaded for it (no listening, no TLS context), so `curveship play` and `tell` start quickly
and a command costs the engine's turn and the JSON-RPC around it, not a loopback round trip. It serves only the
process that made it: no lockout, no address limits, no sweeping of idle sessions (they end with the process).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable

import msgspec

from protocol import messages as m
from protocol.errors import Code
from server import rpc
from server.config import Config, host_of
from server.host import Session

IN_PROCESS_RATE = 1e6
"""The in-process server serves one reader, who may pipe in a long walkthrough: no rate limit to speak of."""

LOCAL_ADDRESS = "in-process"
"""What stands for the caller's address in the host's limits and logs."""


def in_process_config(author_token: str) -> Config:
    """The server tell and play start by default: authors only by token, no rate limit."""
    return Config(author_token=author_token, rate=IN_PROCESS_RATE, burst=IN_PROCESS_RATE)


class LocalServer:
    """A host and its methods, made to `config`; `link` opens a connection to it, as a WebSocket would be."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.host = host_of(config)
        self.methods = rpc.methods()
        self.links: set[LocalLink] = set()

    def link(self, bearer: str | None, arrived: Callable[[bytes], None]) -> LocalLink:
        """A connection showing `bearer` (a session's token or the author token, or none); `arrived` is
        given each notification of the session it binds to, encoded as a WebSocket frame would carry it."""
        made = LocalLink(self, bearer, arrived)
        self.links.add(made)
        return made

    def close(self) -> None:
        for each in list(self.links):
            each.close()


class LocalLink:
    """One connection: bound to a session by `join` or `resume`, like a socket, so later calls need no token."""

    def __init__(self, server: LocalServer, bearer: str | None, arrived: Callable[[bytes], None]) -> None:
        self.server = server
        self.arrived = arrived
        self.session: Session | None = None
        host = server.host
        self.caller = rpc.Caller(
            host, token=bearer, author=host.is_author_token(bearer), bind=self._bind, remote=LOCAL_ADDRESS
        )

    async def send(self, data: bytes) -> bytes | None:
        """Answer one message (a request or a batch); None when it gets no answer (notifications only)."""
        config = self.server.config
        if len(data) > config.max_message:
            why = f"a message may be at most {config.max_message} bytes"
            return msgspec.json.encode(rpc.error_response(Code.TOO_LARGE, why))
        self.caller.session = self.session
        return await rpc.handle(data, self.caller, self.server.methods, config.max_batch, config.max_answer)

    def close(self) -> None:
        """Let go of the session, as a closed socket does (it then counts as without a connection)."""
        if self.session is not None:
            self.session.unlisten(self._notify)
            self.session = None
        self.server.links.discard(self)

    def _bind(self, session: Session) -> None:
        if self.session is not None:
            self.session.unlisten(self._notify)
        self.session = session
        session.listen(self._notify)

    def _notify(self, method: str, params: m.Result) -> None:
        self.arrived(msgspec.json.encode({"jsonrpc": "2.0", "method": method, "params": params}))


@contextlib.asynccontextmanager
async def local_server(config: Config) -> AsyncIterator[LocalServer]:
    """A server in this process until the block ends; its links are closed at the end."""
    made = LocalServer(config)
    try:
        yield made
    finally:
        made.close()
