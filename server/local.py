"""The server inside a client's process, reached without a socket: each link hands a JSON-RPC message, as bytes,
to the same handler /rpc and /ws use, and hands back its answer and the session's notifications as bytes.

Nothing of aiohttp is loaded for it (no listening, no TLS context), so `curveship play` and `tell` start quickly
and a command costs the engine's turn and the JSON-RPC around it, not a loopback round trip. It serves only the
process that made it: no lockout, no address limits, no sweeping of idle sessions (they end with the process).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence

import msgspec

from protocol import messages as m
from server import rpc
from server.host import Host, Limits, Session

IN_PROCESS_RATE = 1e6
"""The in-process server serves one reader, who may pipe in a long walkthrough: no rate limit to speak of."""

LOCAL_ADDRESS = "in-process"
"""What stands for the caller's address in the host's limits and logs."""


class LocalServer:
    """A host and its methods, its limits a server's own but the rate; `link` opens a connection to it, as a
    WebSocket would be. Authors only by `author_token`, which the process that makes it holds."""

    def __init__(self, author_token: str) -> None:
        self.host = Host(author_token=author_token, limits=Limits(IN_PROCESS_RATE, IN_PROCESS_RATE))
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
        """Answer one message (a request or a batch); None when it gets no answer (notifications only). No cap
        on its size: it comes from this process, not from someone on the network."""
        self.caller.session = self.session
        return await rpc.handle(data, self.caller, self.server.methods, shared=False)

    def close(self) -> None:
        """Let go of the session, as a closed socket does (it then counts as without a connection)."""
        if self.session is not None:
            self.session.unlisten(self._notify)
            self.session = None
        self.server.links.discard(self)

    def _bind(self, session: Session, missed: Sequence[tuple[str, m.Result]] = ()) -> None:
        """Hear `session`'s notifications from now on, after `missed` (what a resume sends again), first."""
        if self.session is not None:
            self.session.unlisten(self._notify)
        self.session = session
        session.listen(self._notify)
        for method, params in missed:
            self._notify(method, params)

    def _notify(self, method: str, params: m.Result) -> None:
        self.arrived(msgspec.json.encode({"jsonrpc": "2.0", "method": method, "params": params}))


@contextlib.asynccontextmanager
async def local_server(author_token: str) -> AsyncIterator[LocalServer]:
    """A server in this process until the block ends; its links are closed at the end."""
    made = LocalServer(author_token)
    try:
        yield made
    finally:
        made.close()
