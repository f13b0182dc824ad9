"""JSON-RPC to a server in this process: each message handed over as the bytes a WebSocket frame would carry,
its answer and the session's notifications handed back the same way, with no socket between.

The server's side is anything with a `link` method (the server's `server.local.LocalServer`): a client module
never imports the server, so the two meet only here, by this shape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Protocol

import msgspec

from clients.transports.base import ConnectionLost, Owner, Transport


class Link(Protocol):
    """One connection to a server in this process."""

    async def send(self, data: bytes) -> bytes | None:
        """Handle one message; its answer, or None when it gets none."""

    def close(self) -> None:
        """Let go of the connection (and of the session it is bound to)."""


class Reachable(Protocol):
    """A server in this process."""

    def link(self, bearer: str | None, arrived: Callable[[bytes], None]) -> Link:
        """A connection that shows `bearer`; `arrived` hears each notification for the session it binds to."""


class LocalTransport(Transport):
    """Streams as a WebSocket does (answers and notifications reach the owner by themselves), so a connection
    works the same through it; but it never drops."""

    streams: ClassVar[bool] = True

    def __init__(self, url: str, owner: Owner, server: Reachable) -> None:
        super().__init__(url, owner)
        self.server = server
        self.link: Link | None = None

    async def open(self) -> None:
        if self.link is None:
            self.link = self.server.link(self.owner.bearer(), self._arrived)

    async def send(self, data: bytes) -> None:
        if self.link is None:
            raise ConnectionLost("the in-process server is not open")
        answer = await self.link.send(data)
        if answer is not None:
            self._arrived(answer)

    async def close(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None

    def _arrived(self, data: bytes) -> None:
        self.owner.receive(msgspec.json.decode(data))


def reaching(server: Reachable) -> Callable[[str, Owner], Transport]:
    """The transport a Connection makes to reach `server` (its `transport=`)."""
    return lambda url, owner: LocalTransport(url, owner, server)
