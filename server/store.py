"""SQLite persistence: instances, their command logs, sessions, saves and snapshots, durable before replies.

What makes an instance is its world (with a fingerprint of the world's source), seed and creation spin, and
its log: every command, idle tick and coming and going of players, in order. Replaying the log on the same
world gives the same story. Snapshots (see server/engine/snapshot.py) are taken when the part of the log
not yet covered by one passes a tenth of the whole, so writing them costs amortized linear work and a
restart replays at most that tenth. The file is a WAL-mode SQLite database with synchronous writes: each
change is committed, on disk, before the server answers; a crash leaves the last committed state.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

SCHEMA = 1
"""This code's schema version; an older file is migrated on open (MIGRATIONS), a newer one refused."""

APPLICATION_ID = 0x43757276
"""'Curv': marks a database file as Curveship's, so a foreign SQLite file is refused, not overwritten."""

MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        """CREATE TABLE instances (
            id TEXT PRIMARY KEY,
            world TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            seed INTEGER NOT NULL,
            spin BLOB NOT NULL,
            created REAL NOT NULL,
            turn INTEGER NOT NULL DEFAULT 0,
            ended INTEGER NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE log (
            instance TEXT NOT NULL REFERENCES instances(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            entry TEXT NOT NULL,
            actor TEXT NOT NULL,
            text TEXT NOT NULL,
            PRIMARY KEY (instance, seq)
        ) WITHOUT ROWID""",
        """CREATE TABLE sessions (
            token TEXT PRIMARY KEY,
            instance TEXT NOT NULL REFERENCES instances(id) ON DELETE CASCADE,
            actor TEXT NOT NULL,
            name TEXT NOT NULL,
            author INTEGER NOT NULL,
            spin BLOB NOT NULL,
            mentioned BLOB NOT NULL
        )""",
        """CREATE TABLE saves (
            instance TEXT NOT NULL REFERENCES instances(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            log BLOB NOT NULL,
            PRIMARY KEY (instance, name)
        ) WITHOUT ROWID""",
        """CREATE TABLE snapshots (
            instance TEXT PRIMARY KEY REFERENCES instances(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            data BLOB NOT NULL
        )""",
    ),
}


class StoreError(Exception):
    """The data directory cannot be used as it is; the message says why, and nothing was overwritten."""


@dataclass(frozen=True, slots=True)
class StoredInstance:
    id: str
    world: str
    fingerprint: str
    seed: int
    spin: dict[str, Any]
    turn: int
    ended: bool


@dataclass(frozen=True, slots=True)
class StoredSession:
    token: str
    instance: str
    actor: str
    name: str
    author: bool
    spin: dict[str, Any]
    mentioned: list[str]


LogEntry = tuple[str, str, str]
"""(entry, actor, text), as server/engine/story.py logs them."""


def fingerprint(source: bytes) -> str:
    """What identifies a world's definition: a hash of its source."""
    return hashlib.sha256(source).hexdigest()[:32]


class Store:
    """One SQLite file in the data directory. Every method is one transaction, committed before it returns."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / "curveship.sqlite"
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA foreign_keys = ON")
            if not fresh:
                self._check_ours()
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = FULL")
            self._migrate(fresh)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: not a usable Curveship database ({error}); it was left as it is") from None

    def _check_ours(self) -> None:
        (application,) = self.db.execute("PRAGMA application_id").fetchone()
        (version,) = self.db.execute("PRAGMA user_version").fetchone()
        if application != APPLICATION_ID:
            raise StoreError(f"{self.path} is not a Curveship database (application id {application}); left as it is")
        if version > SCHEMA:
            raise StoreError(f"{self.path} has schema {version}, newer than this server's {SCHEMA}; left as it is")

    def _migrate(self, fresh: bool) -> None:
        (version,) = self.db.execute("PRAGMA user_version").fetchone()
        if fresh:
            self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        with self._transaction():
            for step in range(version + 1, SCHEMA + 1):
                for statement in MIGRATIONS[step]:
                    self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {step}")

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # -- instances -------------------------------------------------------------------------------------

    def add_instance(self, instance: StoredInstance) -> None:
        with self._transaction():
            self.db.execute(
                "INSERT INTO instances (id, world, fingerprint, seed, spin, created) VALUES (?, ?, ?, ?, ?, ?)",
                (instance.id, instance.world, instance.fingerprint, instance.seed, _pack(instance.spin), time.time()),
            )

    def instances(self) -> list[StoredInstance]:
        rows = self.db.execute("SELECT id, world, fingerprint, seed, spin, turn, ended FROM instances ORDER BY created")
        return [StoredInstance(r[0], r[1], r[2], r[3], _unpack(r[4]), r[5], bool(r[6])) for r in rows]

    def log(self, instance: str, start: int = 0) -> list[LogEntry]:
        rows = self.db.execute(
            "SELECT entry, actor, text FROM log WHERE instance = ? AND seq >= ? ORDER BY seq", (instance, start)
        )
        return [(r[0], r[1], r[2]) for r in rows]

    def snapshot(self, instance: str) -> tuple[int, bytes] | None:
        row = self.db.execute("SELECT seq, data FROM snapshots WHERE instance = ?", (instance,)).fetchone()
        return None if row is None else (row[0], row[1])

    def saves(self, instance: str) -> dict[str, list[LogEntry]]:
        rows = self.db.execute("SELECT name, log FROM saves WHERE instance = ?", (instance,))
        return {name: [tuple(entry) for entry in _unpack(log)] for name, log in rows}  # type: ignore[misc]

    def sessions(self) -> list[StoredSession]:
        rows = self.db.execute("SELECT token, instance, actor, name, author, spin, mentioned FROM sessions")
        return [StoredSession(r[0], r[1], r[2], r[3], bool(r[4]), _unpack(r[5]), _unpack(r[6])) for r in rows]

    # -- one change, committed ----------------------------------------------------------------------

    def record(
        self,
        instance: str,
        *,
        cut: int,
        entries: list[LogEntry],
        turn: int,
        ended: bool,
        sessions: Sequence[StoredSession] = (),
        gone: Sequence[str] = (),
        saves: dict[str, list[LogEntry]] | None = None,
        snapshot: tuple[int, bytes] | None = None,
    ) -> None:
        """One turn's worth of change, in one transaction: the log from `cut` on is replaced by `entries`
        (an undo cuts it short), the instance's turn, sessions written or `gone`, saves, a snapshot."""
        with self._transaction():
            self.db.execute("DELETE FROM log WHERE instance = ? AND seq >= ?", (instance, cut))
            self.db.executemany(
                "INSERT INTO log (instance, seq, entry, actor, text) VALUES (?, ?, ?, ?, ?)",
                [(instance, cut + i, *entry) for i, entry in enumerate(entries)],
            )
            self.db.execute("UPDATE instances SET turn = ?, ended = ? WHERE id = ?", (turn, int(ended), instance))
            for session in sessions:
                self.db.execute(
                    "INSERT OR REPLACE INTO sessions (token, instance, actor, name, author, spin, mentioned) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        session.token,
                        session.instance,
                        session.actor,
                        session.name,
                        int(session.author),
                        _pack(session.spin),
                        _pack(session.mentioned),
                    ),
                )
            for token in gone:
                self.db.execute("DELETE FROM sessions WHERE token = ?", (token,))
            for name, log in (saves or {}).items():
                self.db.execute(
                    "INSERT OR REPLACE INTO saves (instance, name, log) VALUES (?, ?, ?)",
                    (instance, name, _pack([list(entry) for entry in log])),
                )
            if snapshot is not None:
                self.db.execute(
                    "INSERT OR REPLACE INTO snapshots (instance, seq, data) VALUES (?, ?, ?)", (instance, *snapshot)
                )


def _pack(value: Any) -> bytes:
    return msgspec.msgpack.encode(value)


def _unpack(blob: bytes) -> Any:
    return msgspec.msgpack.decode(blob)
