"""What every store keeps, whichever database holds it: instances, sessions, log entries, leases, and its errors."""

from __future__ import annotations

import hashlib
import os
import secrets
import socket
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit, urlunsplit

SEEN_GRAIN = 1.0
"""Seconds a session's last-seen time may move before its row is written again: a restart's idle clocks
need no finer, and writing every session of an instance on every command would cost more than the command."""


class StoreError(Exception):
    """The data directory cannot be used as it is; the message says why, and nothing was overwritten."""


class Fenced(Exception):
    """This node does not own the instance (never claimed it, or another node took it over since): the write
    was refused, nothing of it was kept. The instance's new owner, if one is known, is `owner`."""

    def __init__(self, instance: str, message: str, owner: str | None = None) -> None:
        super().__init__(f"instance {instance}: {message}")
        self.instance = instance
        self.owner = owner


@dataclass(frozen=True, slots=True)
class Lease:
    """The right to write one instance: who holds it, its fencing token (it grows on every claim, so a write
    carrying an older one is refused), and until when (seconds since the epoch, by the database's clock)."""

    instance: str
    owner: str
    token: int
    expires: float


@dataclass(frozen=True, slots=True)
class StoredInstance:
    id: str
    world: str
    fingerprint: str
    seed: int
    spin: dict[str, Any]
    turn: int
    ended: bool
    digest: str = ""
    """The world's state hash (WorldState.digest) after the last change; '' when not known."""
    creator: str = ""
    """The address it was created from ('' when not known)."""
    kept: bool = False
    """Made by an author: never retired for being idle."""
    active: float = 0.0
    """When it last changed (seconds since the epoch); 0 when not known."""


@dataclass(frozen=True, slots=True)
class StoredSession:
    token: str
    instance: str
    actor: str
    name: str
    author: bool
    spin: dict[str, Any]
    mentioned: list[str]
    detached: bool = False
    """Away from its instance (its actor free for others) until it is resumed."""
    seen: float = 0.0
    """When it was last seen (seconds since the epoch); 0 when not known."""
    seq: int = 0
    """Above every sequence number it was given (Sequence.reserved); its numbers go on from here."""


LogEntry = tuple[str, str, str]
"""(entry, actor, text), as server/engine/story.py logs them."""


def fingerprint(source: bytes) -> str:
    """What identifies a world's definition: a hash of its source."""
    return hashlib.sha256(source).hexdigest()[:32]


def unchanged(session: StoredSession, written: StoredSession | None) -> bool:
    """Whether `session` is what was last written of it, its last-seen time to within SEEN_GRAIN."""
    if written is None:
        return False
    return abs(session.seen - written.seen) < SEEN_GRAIN and replace(session, seen=written.seen) == written


def changed(sessions: Iterable[StoredSession], written: dict[str, StoredSession]) -> list[StoredSession]:
    """The sessions that differ from what was last written of each (by token)."""
    return [session for session in sessions if not unchanged(session, written.get(session.token))]


def node_name() -> str:
    """A name for this process as a lease holder: its host, its process id and a random part, so a node
    restarted (even with the same pid) is a new owner and must claim its instances again."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def redacted(url: str) -> str:
    """The URL without its password, fit for a message or a log."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    where = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=where))
