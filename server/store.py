"""The SQLite file of the embedded store: instances, their command logs, sessions, saves and snapshots.

Called in one thread at a time: the store's writer process (server/stores/writer.py) holds it, its changes
group-committed in `batch`es; `curveship export` opens it read-only (`SqliteFile.reader`).

What makes an instance is its world (with a fingerprint of the world's source), seed and creation spin, and
its log: every command, idle tick and coming and going of players, in order. Replaying the log on the same
world gives the same story. Snapshots (see server/engine/snapshot.py) are taken when the part of the log
not yet covered by one passes a tenth of the whole (server/persist.py), so writing them costs amortized
linear work and a restart replays at most that tenth; each instance's row also holds its turn and the hash
of its world's state, for a restart to check the replay against. The file is a WAL-mode SQLite database
with synchronous writes: each change is committed, on disk, before the server answers; a crash leaves the
last committed state.

The file is made whole or not at all (built under another name, then renamed into place), so a crash on the
first start never leaves a half-made file behind. An existing file is first read through a read-only
connection: one that is not Curveship's (another program's database, random bytes) or of a newer schema is
refused with a StoreError naming it, and its bytes are left exactly as they were. An older schema is brought
up to date in one transaction (MIGRATIONS). One server at a time: a second one on the same directory is
refused (a lock file, held while the store is open), since each would overwrite what the other wrote.
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from server.stores.records import LogEntry, StoredInstance, StoredSession, StoreError

T = TypeVar("T")

log = logging.getLogger(__name__)

SCHEMA = 5
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
    # The world's state hash after the last change, so a restart can tell that replaying gave the same world
    # (a changed engine could otherwise replay a log into another story unnoticed); '' = not known yet.
    2: ("ALTER TABLE instances ADD COLUMN digest TEXT NOT NULL DEFAULT ''",),
    # Sessions detached after a while with no connection: kept (their tokens resume), but seated nowhere.
    3: ("ALTER TABLE sessions ADD COLUMN detached INTEGER NOT NULL DEFAULT 0",),
    # Who made an instance (its address; for quotas), whether an author did (kept: never retired), when it
    # last changed (wall clock, for retiring the idle), and when each session was last seen (so a restart does
    # not make every session new again).
    4: (
        "ALTER TABLE instances ADD COLUMN creator TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE instances ADD COLUMN kept INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE instances ADD COLUMN active REAL NOT NULL DEFAULT 0",
        "ALTER TABLE sessions ADD COLUMN seen REAL NOT NULL DEFAULT 0",
    ),
    # Each session's sequence number (server/sequence.py), so the numbers a client sees only grow across a
    # restart: one above any it was given.
    5: ("ALTER TABLE sessions ADD COLUMN seq INTEGER NOT NULL DEFAULT 0",),
}
"""Statements taking a file from the schema before each version to that version."""


class SqliteFile:
    """One SQLite file in the data directory. Every method is one transaction, committed before it returns."""

    def __init__(self, directory: Path, locks: tuple[int, int] | None = None) -> None:
        """`locks`: the two locks below, taken already by the server this process is a worker of (see
        `locks_to_share`) and inherited: the workers of one server share one store."""
        self.path = directory / "curveship.sqlite"
        self._held: int | None = None
        try:
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            _private(directory, 0o700)
            self._lock: int | None = locks[0] if locks else _locked(directory / "curveship.lock", self.path)
        except OSError as error:
            raise StoreError(f"{self.path}: cannot be opened ({error.strerror or error})") from None
        try:
            if self.path.exists() and self.path.stat().st_size == 0:
                # Not one a server made (it makes its file whole, or not at all): something else went wrong.
                raise StoreError(
                    f"{self.path} is empty (0 bytes): not a Curveship database; it was left as it is (remove it "
                    "to start afresh)"
                )
            if not self.path.exists():
                self._create()
            # The database itself is locked too: with the lock file deleted, a second server is still refused.
            self._held = locks[1] if locks else _locked(self.path, self.path)
            for private in (self.path, *(self.path.with_name(self.path.name + end) for end in ("-wal", "-shm"))):
                if private.exists():
                    _private(private, 0o600)  # every session token is in here, authors' too
            version = self._check_ours()
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA foreign_keys = ON")
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = FULL")
            self._migrate(version)
        except BaseException as error:
            if hasattr(self, "db"):
                self.db.close()
            if self._held is not None:
                os.close(self._held)
            os.close(self._lock)
            if isinstance(error, sqlite3.DatabaseError):
                unusable = f"{self.path}: not a usable Curveship database ({error}); it was left as it is"
                raise StoreError(unusable) from None
            if isinstance(error, OSError):
                raise StoreError(f"{self.path}: cannot be opened ({error.strerror or error})") from None
            raise

    @classmethod
    def locks_to_share(cls, directory: Path, locks: tuple[int, int] | None = None) -> tuple[int, int]:
        """Open the store in `directory` (made, checked and brought up to date as any server does) and keep
        only its two locks (taken, or `locks` if given), for other processes to inherit: a server's workers,
        each store's writer. A lock held through an inherited descriptor is the same lock, so a second server
        stays refused for as long as any of them lives."""
        store = cls(directory, locks)
        store.db.close()
        assert store._lock is not None and store._held is not None
        return store._lock, store._held

    @classmethod
    def reader(cls, directory: Path) -> SqliteFile:
        """The store in `directory` opened only to be read (`curveship export`): no lock, so a server may be
        running on it; a file missing, not ours or of another schema is a StoreError, and nothing is written."""
        store = cls.__new__(cls)
        store.path = directory / "curveship.sqlite"
        store._lock = None
        store._held = None
        if not store.path.is_file():
            raise StoreError(f"{directory}: no Curveship data here (no {store.path.name})")
        try:
            version = store._check_ours()
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{store.path}: not a usable Curveship database ({error}); it was left as it is") from None
        if version != SCHEMA:
            raise StoreError(f"{store.path} has schema {version}; a server of this version brings it up to date")
        # Read from one thread at a time, though not always the one that opened it (the async store's own).
        store.db = sqlite3.connect(f"{store.path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
        return store

    def _create(self) -> None:
        """A new file with the whole schema, built aside and renamed into place: there is one or there is none."""
        staging = self.path.with_name(self.path.name + ".new")
        for leftover in (staging, *(staging.with_name(staging.name + end) for end in ("-journal", "-wal", "-shm"))):
            leftover.unlink(missing_ok=True)  # ours, from a crash while making one before
        os.close(os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))  # SQLite's -wal and -shm take its mode
        db = sqlite3.connect(staging, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            db.execute("BEGIN IMMEDIATE")
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            for step in range(1, SCHEMA + 1):
                for statement in MIGRATIONS[step]:
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA}")
            db.execute("COMMIT")
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            db.close()  # the last connection: its write-ahead log is folded into the file and removed
        _fsync(staging)
        os.replace(staging, self.path)
        _fsync(self.path.parent)

    def _check_ours(self) -> int:
        """The file's schema version, read without writing a byte; a file not ours, or too new, is refused.
        Reading a file in WAL mode makes its -wal and -shm files; those made here go again when it is refused."""
        sides = [self.path.with_name(self.path.name + end) for end in ("-wal", "-shm")]
        made = [side for side in sides if not side.exists()]
        reader = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            (application,) = reader.execute("PRAGMA application_id").fetchone()
            (version,) = reader.execute("PRAGMA user_version").fetchone()
            # A page damaged past the header reads as a valid file until some query touches it; restoring
            # from it, then failing every write, would lose changes. Checking every page costs a read of the
            # file (about 0.1 s for 25 MiB), once at start-up.
            damage = reader.execute("PRAGMA quick_check(1)").fetchone()[0] if application == APPLICATION_ID else "ok"
        except sqlite3.DatabaseError:
            reader.close()
            _remove_empty_log(made)
            raise
        reader.close()
        if damage != "ok":
            _remove_empty_log(made)
            found = " ".join(line for line in str(damage).splitlines() if not line.startswith("***"))
            raise StoreError(f"{self.path}: damaged ({found}); it was left as it is")
        if application != APPLICATION_ID or version > SCHEMA:
            _remove_empty_log(made)
        if application != APPLICATION_ID:
            raise StoreError(f"{self.path} is not a Curveship database (application id {application}); left as it is")
        if version > SCHEMA:
            raise StoreError(f"{self.path} has schema {version}, newer than this server's {SCHEMA}; left as it is")
        return int(version)  # 0: marked as ours by an older server that stopped before making its tables

    def _migrate(self, version: int) -> None:
        """Bring a file of an older schema up to this one, all steps in one transaction."""
        if version == SCHEMA:
            return
        with self._transaction():
            for step in range(version + 1, SCHEMA + 1):
                for statement in MIGRATIONS[step]:
                    self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {step}")

    def close(self) -> None:
        self.db.close()
        if self._held is not None:
            os.close(self._held)
        if self._lock is not None:
            os.close(self._lock)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One change, committed when it is done; inside a `batch`, part of the batch's commit."""
        if self.db.in_transaction:
            yield
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    @contextmanager
    def batch(self) -> Iterator[Callable[[Callable[[], T]], T]]:
        """Several changes in one transaction, so one commit (one sync to the disk) makes them all durable:
        yields `each(change)`, which runs one change in a savepoint of its own, so one that fails takes back
        only itself (and raises). None is durable before the batch ends."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self._savepoint
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _savepoint(self, change: Callable[[], T]) -> T:
        self.db.execute("SAVEPOINT change")
        try:
            value = change()
        except BaseException:
            self.db.execute("ROLLBACK TO change")
            self.db.execute("RELEASE change")
            raise
        self.db.execute("RELEASE change")
        return value

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Reads of a file found damaged past its header end in a StoreError naming it, not a traceback."""
        try:
            yield
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: damaged ({error}); it was left as it is") from None

    # -- instances -------------------------------------------------------------------------------------

    def add_instance(self, instance: StoredInstance) -> None:
        with self._transaction():
            self.db.execute(
                "INSERT INTO instances (id, world, fingerprint, seed, spin, created, creator, kept, active) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    instance.id,
                    instance.world,
                    instance.fingerprint,
                    instance.seed,
                    _pack(instance.spin),
                    time.time(),
                    instance.creator,
                    int(instance.kept),
                    time.time(),
                ),
            )

    def touch(self, id: str) -> None:
        """A write that changes nothing: whether the store takes writes again (after a full disk, say)."""
        with self._transaction():
            self.db.execute("UPDATE instances SET active = active WHERE id = ?", (id,))

    def delete_instance(self, id: str) -> None:
        """An instance retired: its log, sessions, saves and snapshot go with it."""
        with self._transaction():
            self.db.execute("DELETE FROM instances WHERE id = ?", (id,))

    def instance(self, id: str) -> StoredInstance | None:
        return next((stored for stored in self.instances() if stored.id == id), None)

    def instances(self) -> list[StoredInstance]:
        rows = self.db.execute(
            "SELECT id, world, fingerprint, seed, spin, turn, ended, digest, creator, kept, active FROM instances "
            "ORDER BY created"
        )
        return [
            StoredInstance(r[0], r[1], r[2], r[3], _unpack(r[4]), r[5], bool(r[6]), r[7], r[8], bool(r[9]), r[10])
            for r in rows
        ]

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

    def sessions(self, instance: str | None = None) -> list[StoredSession]:
        """Every stored session (or `instance`'s); one whose record cannot be decoded is left out, and the log
        says so (one bad row must not keep the server from starting)."""
        rows = self.db.execute(
            "SELECT token, instance, actor, name, author, spin, mentioned, detached, seen, seq FROM sessions"
            + ("" if instance is None else " WHERE instance = ?"),
            () if instance is None else (instance,),
        )
        found = []
        for r in rows:
            try:
                spin, mentioned = _unpack(r[5]), _unpack(r[6])
                if not isinstance(spin, dict) or not isinstance(mentioned, list):
                    raise ValueError("its spin or what it was told is of the wrong kind")
                found.append(
                    StoredSession(
                        r[0], r[1], r[2], r[3], bool(r[4]), spin, mentioned, bool(r[7]), float(r[8]), int(r[9])
                    )
                )
            except (msgspec.DecodeError, ValueError, TypeError) as error:
                log.warning("session of %r in %s not brought back: its record is damaged (%s)", r[3], r[1], error)
        return found

    # -- one change, committed ----------------------------------------------------------------------

    def record(
        self,
        instance: str,
        *,
        cut: int,
        entries: list[LogEntry],
        turn: int,
        ended: bool,
        digest: str = "",
        sessions: Sequence[StoredSession] = (),
        gone: Sequence[str] = (),
        saves: dict[str, list[LogEntry]] | None = None,
        drop_snapshot: bool = False,
    ) -> None:
        """One turn's worth of change, in one transaction: the log from `cut` on is replaced by `entries`
        (an undo cuts it short), the instance's turn and state hash, sessions written or `gone`, saves; and,
        `drop_snapshot`, the snapshot kept goes (it was of a log since cut short)."""
        with self._transaction():
            self.db.execute("DELETE FROM log WHERE instance = ? AND seq >= ?", (instance, cut))
            self.db.executemany(
                "INSERT INTO log (instance, seq, entry, actor, text) VALUES (?, ?, ?, ?, ?)",
                [(instance, cut + i, *entry) for i, entry in enumerate(entries)],
            )
            self.db.execute(
                "UPDATE instances SET turn = ?, ended = ?, digest = ?, active = ? WHERE id = ?",
                (turn, int(ended), digest, time.time(), instance),
            )
            for session in sessions:
                self.db.execute(
                    "INSERT OR REPLACE INTO sessions "
                    "(token, instance, actor, name, author, spin, mentioned, detached, seen, seq) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        session.token,
                        session.instance,
                        session.actor,
                        session.name,
                        int(session.author),
                        _pack(session.spin),
                        _pack(session.mentioned),
                        int(session.detached),
                        session.seen,
                        session.seq,
                    ),
                )
            for token in gone:
                self.db.execute("DELETE FROM sessions WHERE token = ?", (token,))
            for name, log in (saves or {}).items():
                self.db.execute(
                    "INSERT OR REPLACE INTO saves (instance, name, log) VALUES (?, ?, ?)",
                    (instance, name, _pack([list(entry) for entry in log])),
                )
            if drop_snapshot:
                self.db.execute("DELETE FROM snapshots WHERE instance = ?", (instance,))

    def put_snapshot(self, instance: str, seq: int, data: bytes) -> None:
        """A snapshot of the story after the first `seq` entries of its log, in place of the one before."""
        with self._transaction():
            self.db.execute(
                "INSERT OR REPLACE INTO snapshots (instance, seq, data) VALUES (?, ?, ?)", (instance, seq, data)
            )


def _locked(lock: Path, path: Path) -> int:
    """Hold `lock` for as long as the store is open: two servers writing one file would each overwrite what
    the other did (each has its own instances in memory), so the second is refused."""
    descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise StoreError(f"{path} is in use by another server (it holds {lock}); it was left as it is") from None
    return descriptor


def _private(path: Path, mode: int) -> None:
    """Make `path` readable by its owner alone, if it is not already (a file or directory made by an older
    server, or under a loose umask)."""
    if path.stat().st_mode & 0o777 & ~mode:
        os.chmod(path, mode)


def _remove_empty_log(made: list[Path]) -> None:
    """Remove the -wal and -shm files a read-only look made, as long as the log holds nothing."""
    wal = next((side for side in made if side.name.endswith("-wal")), None)
    if wal is not None and wal.exists() and wal.stat().st_size > 0:
        return
    for side in made:
        side.unlink(missing_ok=True)


def _fsync(path: Path) -> None:
    """Make a file's (or a directory's) contents durable."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _pack(value: Any) -> bytes:
    return msgspec.msgpack.encode(value)


def _unpack(blob: bytes) -> Any:
    return msgspec.msgpack.decode(blob)
