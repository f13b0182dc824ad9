"""The store behind one interface, chosen by a URL: SQLite in the data directory by default, PostgreSQL for a cluster.

Both keep the same things (server/stores/records.py): each instance's row (world, fingerprint, seed, spin,
turn, state hash…), its log (one row a position, unique per instance), its sessions, saves and snapshot.
Every method is a coroutine and every write one change, durable when it returns:

- `sqlite.SqliteStore` sends its work to a writer process of its own (`writer.py`), off the event loop and
  its interpreter's lock; changes that arrive while one commit is under way are committed together (one
  transaction, one sync to the disk).
- `postgres.PostgresStore` speaks asyncpg; each change is its own transaction, and carries the fencing token
  of this node's lease on the instance (server/stores/leases.py): a node that lost its lease is refused.

Ownership is the same call on both: `claim` before writing an instance (`add_instance` claims the one it
makes), `renew` now and then, `release` when letting it go. SQLite's leases are trivial — one server per data
directory (a lock file) owns everything in it — so the keeper need not know which store it has.
"""

from __future__ import annotations

from collections.abc import Awaitable
from pathlib import Path
from typing import Protocol

from server.stores.records import (
    Fenced,
    Lease,
    LogEntry,
    StoredInstance,
    StoredSession,
    StoreError,
    fingerprint,
)

__all__ = [
    "Fenced",
    "Lease",
    "LogEntry",
    "Store",
    "StoreError",
    "StoredInstance",
    "StoredSession",
    "fingerprint",
    "open_store",
]


class Store(Protocol):
    """What the keeper asks of a store. Reads see every write that returned before them."""

    node: str
    """This process's name in leases: unique per process, so a restarted node is a new owner."""
    where: str
    """What it is, for messages and logs: the file's path, or the database's URL without its password."""

    # -- ownership -----------------------------------------------------------------------------------------

    async def claim(self, instance: str) -> Lease:
        """Take the instance's lease (free, expired, or released), with a fencing token greater than any
        before it; Fenced while another node's lease is live."""
        ...

    async def renew(self) -> list[str]:
        """Extend every lease this store holds (a store does so by itself while it is open, well before they
        expire); the instances whose lease another node took since (their writes are refused from now on),
        which are let go."""
        ...

    async def release(self, instance: str) -> None:
        """Let another node claim the instance at once (on retiring it, or at shutdown)."""
        ...

    async def lease(self, instance: str) -> Lease | None:
        """Who holds the instance's lease now (None: nobody ever claimed it)."""
        ...

    # -- writes: each one change, queued when called (one instance's in the order called), durable when the
    # awaitable returned is done; Fenced unless this store holds the instance's lease ------------------------

    def add_instance(self, instance: StoredInstance) -> Awaitable[Lease]:
        """A new instance, owned by this store from the start (its lease is returned)."""
        ...

    def delete_instance(self, id: str) -> Awaitable[None]:
        """An instance retired: its log, sessions, saves, snapshot and lease go with it."""
        ...

    def touch(self, id: str) -> Awaitable[None]:
        """A write that changes nothing: whether the store takes writes again (after a full disk, say)."""
        ...

    def record(
        self,
        instance: str,
        *,
        cut: int,
        entries: list[LogEntry],
        turn: int,
        ended: bool,
        digest: str = "",
        sessions: list[StoredSession] | tuple[StoredSession, ...] = (),
        gone: list[str] | tuple[str, ...] = (),
        saves: dict[str, list[LogEntry]] | None = None,
        drop_snapshot: bool = False,
    ) -> Awaitable[None]:
        """One turn's worth of change: the log from `cut` on replaced by `entries` (an undo cuts it short),
        the turn and state hash, the sessions (only those changed since last written are written), those
        `gone`, new saves, and with `drop_snapshot` the snapshot (it was of a log since cut short)."""
        ...

    def put_snapshot(self, instance: str, seq: int, data: bytes) -> Awaitable[None]:
        """A snapshot of the story after the first `seq` entries of its log, in place of the one before."""
        ...

    # -- reads: a damaged store is a StoreError naming it ------------------------------------------------

    async def instances(self) -> list[StoredInstance]: ...

    async def instance(self, id: str) -> StoredInstance | None: ...

    async def log(self, instance: str, start: int = 0) -> list[LogEntry]: ...

    async def snapshot(self, instance: str) -> tuple[int, bytes] | None: ...

    async def saves(self, instance: str) -> dict[str, list[LogEntry]]: ...

    async def sessions(self, instance: str | None = None) -> list[StoredSession]:
        """Every stored session (or the instance's); one whose record cannot be decoded is left out, logged."""
        ...

    async def close(self) -> None:
        """Finish the writes under way and let go of the database (leases are left to expire, or released)."""
        ...


async def open_store(
    url: str | None,
    data: Path | None,
    *,
    node: str | None = None,
    locks: tuple[int, int] | None = None,
    reading: bool = False,
) -> Store:
    """The store `url` names: a `postgresql://` URL (or `postgres://`), or None for the SQLite file in the data
    directory `data` (`locks`: its locks, inherited by a worker, see SqliteFile.locks_to_share). A URL of another
    kind, or neither, is a StoreError saying what is taken. `reading`: opened only to be read, beside any server
    using it (`curveship export`): no lock taken nor lease claimed, nothing made or written, and a store that
    is not there is a StoreError."""
    if url:
        if url.startswith(("postgresql://", "postgres://")):
            from server.stores.postgres import PostgresStore

            return await PostgresStore.connect(url, node=node, reading=reading)
        raise StoreError(f"--store {url!r}: a postgresql:// URL is expected (without --store: SQLite in --data)")
    if data is None:
        raise StoreError("no store: give a data directory (--data) or a PostgreSQL URL (--store postgresql://…)")
    from server.stores.sqlite import SqliteStore

    return SqliteStore(data, node=node, locks=locks, reading=reading)
