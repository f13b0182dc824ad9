"""What every transport is: a way to carry JSON-RPC messages between a Connection and a server."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Protocol


class ConnectionLost(Exception):
    """No answer came: the server could not be reached, or the connection dropped before it answered."""


class NotSent(ConnectionLost):
    """The call never left: the link was down for longer than the caller would wait, or closed. Unlike a
    ConnectionLost that comes after the call went out, it certainly took no effect, so it may be made again."""


class Owner(Protocol):
    """What a transport needs of the connection it carries messages for."""

    def bearer(self) -> str | None:
        """The token to show the server: the session's once joined, else the author token, if any."""

    def playing(self) -> str | None:
        """The instance its session plays in (or is about to join), if known."""

    def receive(self, message: Any) -> None:
        """One decoded message that arrived by itself: an answer, a batch of answers, or a notification."""

    def dropped(self) -> None:
        """The connection went away without being asked to."""


class Transport(ABC):
    """Carries messages. `streams`: answers and notifications arrive by themselves (through `Owner.receive`),
    and the link may drop and be opened again; otherwise each `send` returns its own answer."""

    streams: ClassVar[bool]

    def __init__(self, url: str, owner: Owner) -> None:
        self.url = url.rstrip("/")
        self.owner = owner

    @abstractmethod
    async def open(self) -> None:
        """Make the link ready to send (ConnectionLost when the server cannot be reached)."""

    @abstractmethod
    async def send(self, data: bytes) -> Any | None:
        """Send one message (a request or a batch); the decoded answer if it comes back in-line, else None."""

    @abstractmethod
    async def close(self) -> None:
        """Let go of the link for good; `Owner.dropped` is not called for this."""
