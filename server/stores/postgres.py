"""The cluster's store: PostgreSQL through asyncpg, the same rows as SQLite's, every write fenced by a lease.

1. `connect` opens a pool and makes the schema on first use: in one transaction holding an advisory lock
   (`pg_advisory_xact_lock`), so nodes starting together do not race to create it; a database holding
   tables of that name that are not Curveship's, or of a newer schema, is refused with a StoreError.
2. Each write is one transaction: the instance's lease row locked and its token checked against the one this
   node was given (server/stores/leases.py), then the change. Writes to one instance run in the order they
   were called (each waits for the one before); different instances' run side by side over the pool.
3. The log's rows are keyed by (instance, seq), a primary key: one position of one instance's log is one row,
   whoever tries to write it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import asyncpg
import msgspec

from server.stores import leases
from server.stores.records import (
    Fenced,
    Lease,
    LogEntry,
    StoredInstance,
    StoredSession,
    StoreError,
    changed,
    node_name,
    redacted,
)

T = TypeVar("T")

log = logging.getLogger(__name__)

SCHEMA = 1
"""This code's schema version, kept in `curveship_schema`; a newer one is refused."""

LEASE_SECONDS = 5.0
"""How long a claim or renewal holds: a node killed outright has its instances free to claim this long after."""

RENEW_MARGIN = 1.0
"""Seconds before its expiry a lease held is no longer counted on (renewals come every third of a lease)."""

POOL = 8
"""Connections a node keeps open: different instances' writes go side by side, one instance's one at a time."""

SCHEMA_LOCK = 0x43757276
"""The advisory lock taken while making the schema ('Curv')."""

TABLES = f"""
CREATE TABLE IF NOT EXISTS curveship_schema (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS instances (
    id TEXT PRIMARY KEY,
    world TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    seed BIGINT NOT NULL,
    spin BYTEA NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    turn INTEGER NOT NULL DEFAULT 0,
    ended BOOLEAN NOT NULL DEFAULT FALSE,
    digest TEXT NOT NULL DEFAULT '',
    creator TEXT NOT NULL DEFAULT '',
    kept BOOLEAN NOT NULL DEFAULT FALSE,
    active DOUBLE PRECISION NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS log (
    instance TEXT NOT NULL REFERENCES instances(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    actor TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (instance, seq)
);
CREATE TABLE IF NOT EXISTS sessions (
    token TEXT PRIMARY KEY,
    instance TEXT NOT NULL REFERENCES instances(id) ON DELETE CASCADE,
    actor TEXT NOT NULL,
    name TEXT NOT NULL,
    author BOOLEAN NOT NULL,
    spin BYTEA NOT NULL,
    mentioned BYTEA NOT NULL,
    detached BOOLEAN NOT NULL DEFAULT FALSE,
    seen DOUBLE PRECISION NOT NULL DEFAULT 0,
    seq BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS sessions_instance ON sessions (instance);
CREATE TABLE IF NOT EXISTS saves (
    instance TEXT NOT NULL REFERENCES instances(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    log BYTEA NOT NULL,
    PRIMARY KEY (instance, name)
);
CREATE TABLE IF NOT EXISTS snapshots (
    instance TEXT PRIMARY KEY REFERENCES instances(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data BYTEA NOT NULL
);
{leases.TABLES}
"""

_SESSION = (
    "INSERT INTO sessions (token, instance, actor, name, author, spin, mentioned, detached, seen, seq) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (token) DO UPDATE SET instance = excluded.instance, "
    "actor = excluded.actor, name = excluded.name, author = excluded.author, spin = excluded.spin, "
    "mentioned = excluded.mentioned, detached = excluded.detached, seen = excluded.seen, seq = excluded.seq"
)

_INSTANCE_COLUMNS = "id, world, fingerprint, seed, spin, turn, ended, digest, creator, kept, active"


class PostgresStore:
    """One PostgreSQL database shared by every node; see the module's docstring and server/stores/leases.py."""

    def __init__(self, pool: Any, url: str, node: str, lease_seconds: float) -> None:
        self.pool = pool
        self.where = redacted(url)
        self.node = node
        self.cluster = ""
        """The database's own random name, the same for every node on it: the nodes on one database are
        one cluster, and find one another on the bus by it."""
        self.lease_seconds = lease_seconds
        self._held: dict[str, Lease] = {}
        self._written: dict[str, StoredSession] = {}
        self._tails: dict[str, asyncio.Task[Any]] = {}
        """Each instance's last write called, for the next to wait on."""
        self._renewing: asyncio.Task[None] | None = None
        if lease_seconds > 0:
            self._renewing = asyncio.get_running_loop().create_task(self._renew_every(lease_seconds / 3))

    @classmethod
    async def connect(
        cls, url: str, *, node: str | None = None, lease_seconds: float = LEASE_SECONDS, reading: bool = False
    ) -> PostgresStore:
        """A store on the database `url`, its schema made if it is not there; StoreError if it cannot be.
        `reading`: opened only to be read (`curveship export`): the schema must be there already, no lease is
        claimed or renewed, and every transaction is read-only, so PostgreSQL itself refuses any write."""
        settings = {"default_transaction_read_only": "on"} if reading else None
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL, server_settings=settings)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
            raise StoreError(f"{redacted(url)}: cannot connect to PostgreSQL ({error})") from None
        try:
            cluster = await (_schema_read if reading else _schema)(pool, redacted(url))
        except BaseException:
            await pool.close()
            raise
        store = cls(pool, url, node or node_name(), 0.0 if reading else lease_seconds)
        store.cluster = cluster
        return store

    # -- ownership -----------------------------------------------------------------------------------------

    async def claim(self, instance: str) -> Lease:
        try:
            held = await leases.claim(self.pool, instance, self.node, self.lease_seconds)
        except asyncpg.ForeignKeyViolationError:
            raise StoreError(f"instance {instance}: not in the store, so it cannot be claimed") from None
        self._held[instance] = held
        return held

    async def renew(self) -> list[str]:
        held = list(self._held.values())
        kept = await leases.renew(self.pool, held, self.lease_seconds)
        lost = [lease.instance for lease in held if lease.instance not in kept]
        for instance in lost:
            if self._held.get(instance) in held:
                del self._held[instance]
        return lost

    async def _renew_every(self, seconds: float) -> None:
        """Renew this node's leases three times a lease, so one late renewal does not lose them; a database
        that does not answer is tried again at the next (writes are fenced meanwhile all the same)."""
        while True:
            await asyncio.sleep(seconds)
            try:
                for instance in await self.renew():
                    log.warning("instance %s: its lease was taken over by another node; this one lets it go", instance)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                log.warning("leases not renewed (%s); trying again in %.1f s", error, seconds)

    async def release(self, instance: str) -> None:
        held = self._held.pop(instance, None)
        if held is not None:
            await leases.release(self.pool, held)

    async def lease(self, instance: str) -> Lease | None:
        return await leases.current(self.pool, instance)

    def holds(self, instance: str) -> bool:
        """Whether this node holds the instance's lease, by what it was last given (renewed well before it
        runs out); a lease taken over meanwhile is found out at the next renewal or write, both fenced."""
        held = self._held.get(instance)
        return held is not None and held.expires > time.time() + RENEW_MARGIN

    async def instance_of(self, token: str) -> str | None:
        """The instance of the stored session of `token`, if there is one."""
        found = await self.pool.fetchval("SELECT instance FROM sessions WHERE token = $1", token)
        return None if found is None else str(found)

    # -- writes --------------------------------------------------------------------------------------------

    def _in_order(self, instance: str, write: Callable[[], Awaitable[T]]) -> asyncio.Task[T]:
        """`write` run once the instance's write called before it is done (whatever its outcome)."""
        before = self._tails.get(instance)

        async def after() -> T:
            if before is not None:
                await asyncio.wait([before])
            return await write()

        task = asyncio.get_running_loop().create_task(after())
        self._tails[instance] = task
        task.add_done_callback(lambda done: self._tails.pop(instance) if self._tails.get(instance) is done else None)
        return task

    async def _fenced(self, instance: str, change: Callable[[Any], Awaitable[T]]) -> T:
        """`change(connection)` in a transaction that first checks this node's lease (leases.check)."""
        async with self.pool.acquire() as connection, connection.transaction():
            try:
                await leases.check(connection, self._held.get(instance), instance, self.node)
            except Fenced:
                self._held.pop(instance, None)
                raise
            return await change(connection)

    def add_instance(self, instance: StoredInstance) -> asyncio.Task[Lease]:
        async def write() -> Lease:
            async with self.pool.acquire() as connection, connection.transaction():
                now = time.time()
                await connection.execute(
                    f"INSERT INTO instances ({_INSTANCE_COLUMNS}, created) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                    instance.id,
                    instance.world,
                    instance.fingerprint,
                    instance.seed,
                    _pack(instance.spin),
                    instance.turn,
                    instance.ended,
                    instance.digest,
                    instance.creator,
                    instance.kept,
                    now,
                    now,
                )
                held = await leases.claim(connection, instance.id, self.node, self.lease_seconds)
            self._held[instance.id] = held
            return held

        return self._in_order(instance.id, write)

    def delete_instance(self, id: str) -> asyncio.Task[None]:
        async def change(connection: Any) -> None:
            await connection.execute("DELETE FROM instances WHERE id = $1", id)

        async def write() -> None:
            await self._fenced(id, change)
            self._held.pop(id, None)
            for token in [token for token, session in self._written.items() if session.instance == id]:
                del self._written[token]

        return self._in_order(id, write)

    def touch(self, id: str) -> asyncio.Task[None]:
        async def change(connection: Any) -> None:
            await connection.execute("UPDATE instances SET active = active WHERE id = $1", id)

        return self._in_order(id, lambda: self._fenced(id, change))

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
    ) -> asyncio.Task[None]:
        async def change(connection: Any, fresh: list[StoredSession]) -> None:
            await connection.execute("DELETE FROM log WHERE instance = $1 AND seq >= $2", instance, cut)
            if entries:
                await connection.executemany(
                    "INSERT INTO log (instance, seq, entry, actor, text) VALUES ($1, $2, $3, $4, $5)",
                    [(instance, cut + i, *entry) for i, entry in enumerate(entries)],
                )
            await connection.execute(
                "UPDATE instances SET turn = $1, ended = $2, digest = $3, active = $4 WHERE id = $5",
                turn,
                ended,
                digest,
                time.time(),
                instance,
            )
            if fresh:
                await connection.executemany(_SESSION, [_session_row(session) for session in fresh])
            if gone:
                await connection.execute("DELETE FROM sessions WHERE token = ANY($1::text[])", list(gone))
            if saves:
                await connection.executemany(
                    "INSERT INTO saves (instance, name, log) VALUES ($1, $2, $3) "
                    "ON CONFLICT (instance, name) DO UPDATE SET log = excluded.log",
                    [(instance, name, _pack([list(entry) for entry in log])) for name, log in saves.items()],
                )
            if drop_snapshot:
                await connection.execute("DELETE FROM snapshots WHERE instance = $1", instance)

        async def write() -> None:
            fresh = changed(sessions, self._written)
            await self._fenced(instance, lambda connection: change(connection, fresh))
            self._written.update((session.token, session) for session in fresh)
            for token in gone:
                self._written.pop(token, None)

        return self._in_order(instance, write)

    def put_snapshot(self, instance: str, seq: int, data: bytes) -> asyncio.Task[None]:
        async def change(connection: Any) -> None:
            await connection.execute(
                "INSERT INTO snapshots (instance, seq, data) VALUES ($1, $2, $3) "
                "ON CONFLICT (instance) DO UPDATE SET seq = excluded.seq, data = excluded.data",
                instance,
                seq,
                data,
            )

        return self._in_order(instance, lambda: self._fenced(instance, change))

    # -- reads ---------------------------------------------------------------------------------------------

    async def instances(self) -> list[StoredInstance]:
        rows = await self.pool.fetch(f"SELECT {_INSTANCE_COLUMNS} FROM instances ORDER BY created, id")
        return [_instance(row) for row in rows]

    async def instances_after(self, after: str | None, limit: int) -> list[StoredInstance]:
        """A page of the stored instances in the order of their ids: the first `limit` after `after`."""
        rows = await self.pool.fetch(
            f"SELECT {_INSTANCE_COLUMNS} FROM instances WHERE $1::text IS NULL OR id > $1 ORDER BY id LIMIT $2",
            after,
            limit,
        )
        return [_instance(row) for row in rows]

    async def instance(self, id: str) -> StoredInstance | None:
        row = await self.pool.fetchrow(f"SELECT {_INSTANCE_COLUMNS} FROM instances WHERE id = $1", id)
        return None if row is None else _instance(row)

    async def log(self, instance: str, start: int = 0) -> list[LogEntry]:
        rows = await self.pool.fetch(
            "SELECT entry, actor, text FROM log WHERE instance = $1 AND seq >= $2 ORDER BY seq", instance, start
        )
        return [(row[0], row[1], row[2]) for row in rows]

    async def snapshot(self, instance: str) -> tuple[int, bytes] | None:
        row = await self.pool.fetchrow("SELECT seq, data FROM snapshots WHERE instance = $1", instance)
        return None if row is None else (int(row[0]), bytes(row[1]))

    async def saves(self, instance: str) -> dict[str, list[LogEntry]]:
        rows = await self.pool.fetch("SELECT name, log FROM saves WHERE instance = $1", instance)
        return {row[0]: [tuple(entry) for entry in _unpack(row[1])] for row in rows}

    async def sessions(self, instance: str | None = None) -> list[StoredSession]:
        columns = "token, instance, actor, name, author, spin, mentioned, detached, seen, seq"
        if instance is None:
            rows = await self.pool.fetch(f"SELECT {columns} FROM sessions")
        else:
            rows = await self.pool.fetch(f"SELECT {columns} FROM sessions WHERE instance = $1", instance)
        found = []
        for r in rows:
            try:
                spin, mentioned = _unpack(r[5]), _unpack(r[6])
                if not isinstance(spin, dict) or not isinstance(mentioned, list):
                    raise ValueError("its spin or what it was told is of the wrong kind")
                found.append(StoredSession(r[0], r[1], r[2], r[3], r[4], spin, mentioned, r[7], float(r[8]), int(r[9])))
            except (msgspec.DecodeError, ValueError, TypeError) as error:
                log.warning("session of %r in %s not brought back: its record is damaged (%s)", r[3], r[1], error)
        return found

    async def close(self) -> None:
        """The writes under way finished, this node's leases released (another node may claim them at once)."""
        if self._renewing is not None:
            self._renewing.cancel()
            await asyncio.gather(self._renewing, return_exceptions=True)
        while self._tails:
            await asyncio.wait(list(self._tails.values()))
        for instance in list(self._held):
            try:
                await self.release(instance)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):  # they expire by themselves
                log.warning("instance %s: lease not released; it expires in %.0f s", instance, self.lease_seconds)
        await self.pool.close()


async def _schema(pool: Any, url: str) -> str:
    """The schema made (or found, and checked); the database's cluster name, made with it."""
    async with pool.acquire() as connection, connection.transaction():
        await connection.execute("SELECT pg_advisory_xact_lock($1)", SCHEMA_LOCK)
        ours = await connection.fetchval("SELECT to_regclass('curveship_schema') IS NOT NULL")
        foreign = await connection.fetchval("SELECT to_regclass('instances') IS NOT NULL")
        if foreign and not ours:
            raise StoreError(f"{url}: has an `instances` table that is not Curveship's; it was left as it is")
        await connection.execute(TABLES)
        version = await connection.fetchval("SELECT max(version) FROM curveship_schema")
        if version is None:
            await connection.execute("INSERT INTO curveship_schema (version) VALUES ($1)", SCHEMA)
        elif version > SCHEMA:
            raise StoreError(f"{url} has schema {version}, newer than this server's {SCHEMA}; left as it is")
        await connection.execute("CREATE TABLE IF NOT EXISTS curveship_cluster (name TEXT NOT NULL)")
        name = await connection.fetchval("SELECT name FROM curveship_cluster")
        if name is None:
            name = secrets.token_hex(6)
            await connection.execute("INSERT INTO curveship_cluster (name) VALUES ($1)", name)
        return str(name)


async def _schema_read(pool: Any, url: str) -> str:
    """The schema checked, not made: a database without Curveship's tables, or of a newer schema, is refused;
    its cluster name, if it has one ('' if not)."""
    async with pool.acquire() as connection:
        if not await connection.fetchval("SELECT to_regclass('curveship_schema') IS NOT NULL"):
            raise StoreError(f"{url}: no Curveship data here (no curveship_schema table)")
        version = await connection.fetchval("SELECT max(version) FROM curveship_schema")
        if version is not None and version > SCHEMA:
            raise StoreError(f"{url} has schema {version}, newer than this server's {SCHEMA}; left as it is")
        if not await connection.fetchval("SELECT to_regclass('curveship_cluster') IS NOT NULL"):
            return ""
        return str(await connection.fetchval("SELECT name FROM curveship_cluster") or "")


def _instance(row: Any) -> StoredInstance:
    return StoredInstance(
        row[0], row[1], row[2], int(row[3]), _unpack(row[4]), row[5], row[6], row[7], row[8], row[9], row[10]
    )


def _session_row(session: StoredSession) -> tuple[Any, ...]:
    return (
        session.token,
        session.instance,
        session.actor,
        session.name,
        session.author,
        _pack(session.spin),
        _pack(session.mentioned),
        session.detached,
        session.seen,
        session.seq,
    )


def _pack(value: Any) -> bytes:
    return msgspec.msgpack.encode(value)


def _unpack(blob: bytes) -> Any:
    return msgspec.msgpack.decode(blob)
