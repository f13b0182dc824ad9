"""The embedded store: the SQLite file of server/store.py behind the async interface, written by a process of its own.

1. A call is sent to the store's writer process (server/stores/writer.py) when it is made, so one instance's
   changes are applied in the order they were asked for, and returns a future to await.
2. The writer takes everything that has arrived, opens one transaction and runs each request in a savepoint of
   its own (one that fails takes back only itself, and only its caller hears of it), then commits: one sync to
   the disk for every change in the batch, from however many instances.
3. Each caller is answered once that commit is on disk; what came in meanwhile is the next batch. Nothing
   waits for company: a change that finds the writer idle is committed at once, alone, so one player pays one
   sync and a crowd shares them.

The event loop writes the requests and reads the replies itself, never blocking (what a pipe cannot take yet
waits in a buffer for it), so no thread of the server's waits on the disk or for the interpreter's lock. A
writer that dies (killed, out of memory) fails what it had not answered with a StoreError, as a failed commit
does (the host takes those instances out of service and brings them back as stored); the next call starts
another writer. Opened only to be read (`curveship export`), the file is read in a thread instead: there is
nothing to write.

A session is written only when it differs from what was last committed of it (its last-seen time to within
a second): a command changes the log and the instance's turn, seldom its players' sessions.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import math
import os
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from server.store import SqliteFile
from server.stores.records import Lease, LogEntry, StoredInstance, StoredSession, StoreError, node_name
from server.stores.writer import CHUNK, Frames, framed, raised

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[2]
"""Where the `server` package is, for the writer process to import it from wherever the server was started."""

F_SETPIPE_SZ = 1031
"""Linux's fcntl for a pipe's capacity: a larger one holds a burst of changes while the writer commits."""


class _Writer:
    """One writer process, its pipes, and the calls it has not answered yet."""

    def __init__(self, directory: Path, locks: tuple[int, int]) -> None:
        # Imported from this checkout by path, not by `-m`: that would put the working directory first on the
        # path, and a `server` package there would be run in this one's place.
        start = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from server.stores.writer import main; main()"
        command = [sys.executable, "-c", start, str(directory), *map(str, locks)]
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, pass_fds=locks)
        except OSError as error:  # no process to be had (out of memory or of processes): nothing is written
            raise StoreError(f"{directory}: the store's writer could not be started ({error})") from None
        assert self.process.stdin is not None and self.process.stdout is not None
        self.requests, self.replies = self.process.stdin.fileno(), self.process.stdout.fileno()
        os.set_blocking(self.requests, False)
        os.set_blocking(self.replies, False)
        # Not Linux, or above what this user may ask for: the default pipe holds less, that is all.
        with contextlib.suppress(OSError):
            fcntl.fcntl(self.requests, F_SETPIPE_SZ, CHUNK)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.ended: asyncio.Future[None] | None = None
        self.pending: dict[int, tuple[asyncio.Future[Any], Callable[[Any], Any] | None]] = {}
        self.backlog = bytearray()
        self.drained: asyncio.Future[None] | None = None
        """Awaited by `close` while there is a backlog: done once it is all sent (or the writer is gone)."""
        self.frames = Frames()
        self.calls = 0
        self.commits = 0


class SqliteStore:
    """One SQLite file in the data directory, one server at a time (a lock file); see the module's docstring."""

    def __init__(
        self, directory: Path, *, node: str | None = None, locks: tuple[int, int] | None = None, reading: bool = False
    ) -> None:
        """`reading`: opened only to be read (`curveship export`), without the directory's lock, so a server
        may be running on it; nothing can be written through it."""
        self.path = directory / "curveship.sqlite"
        self.where = str(self.path)
        self.directory = directory
        self.reading = reading
        self.node = node or node_name()
        self.commits = 0
        """Transactions committed (each one sync to the disk), for a benchmark to set against the changes."""
        self._file: SqliteFile | None = None
        self._reader: ThreadPoolExecutor | None = None
        self._locks: tuple[int, int] | None = None
        self._writer: _Writer | None = None
        self._closing = False
        """Set when `close` begins: a call after it would start a writer nobody closes, holding the locks."""
        if reading:
            self._file = SqliteFile.reader(directory)
            self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        else:
            # Made, checked, brought up to date and locked here, so whatever is wrong with it is the caller's
            # StoreError now; the writer, started at once, opens it again with these locks.
            self._locks = SqliteFile.locks_to_share(directory, locks)
            try:
                self._writer = _Writer(directory, self._locks)
            except StoreError:
                for descriptor in self._locks:
                    os.close(descriptor)
                raise

    @property
    def writer_pid(self) -> int | None:
        """The writer process's id (None: none running), for an operator's `ps` and a test's limits."""
        return None if self._writer is None else self._writer.process.pid

    # -- the writer ----------------------------------------------------------------------------------------

    def _call(self, method: str, args: list[Any], convert: Callable[[Any], Any] | None = None) -> asyncio.Future[Any]:
        """The request sent to the writer, now, behind those sent already: its reply, to be awaited."""
        if self.reading:
            raise StoreError(f"{self.where}: opened only to be read")
        if self._closing:
            raise StoreError(f"{self.where}: closed")
        loop = asyncio.get_running_loop()
        writer = self._writer if self._writer is not None else self._start()
        if writer.loop is not loop:
            self._bind(writer, loop)
        future: asyncio.Future[Any] = loop.create_future()
        writer.calls += 1
        writer.pending[writer.calls] = (future, convert)
        self._send(writer, framed([writer.calls, method, args]))
        return future

    def _start(self) -> _Writer:
        assert self._locks is not None
        self._writer = _Writer(self.directory, self._locks)
        return self._writer

    def _bind(self, writer: _Writer, loop: asyncio.AbstractEventLoop) -> None:
        """Let `loop` read the writer's replies: the loop of its first call, the only one it serves."""
        if writer.loop is not None:
            raise RuntimeError(f"{self.where}: in use from another event loop")
        writer.loop, writer.ended = loop, loop.create_future()
        loop.add_reader(writer.replies, self._replied, writer)

    def _send(self, writer: _Writer, frame: bytes) -> None:
        if not writer.backlog:
            try:
                written = os.write(writer.requests, frame)
            except BlockingIOError:
                written = 0
            except BrokenPipeError:  # it died: its replies end, and that fails this call with the others
                return
            if written == len(frame):
                return
            assert writer.loop is not None
            writer.loop.add_writer(writer.requests, self._flush, writer)
            frame = frame[written:]
        writer.backlog += frame

    def _flush(self, writer: _Writer) -> None:
        """The loop's call when the writer's pipe takes more: as much of the backlog as it will."""
        try:
            written = os.write(writer.requests, writer.backlog)
        except BlockingIOError:
            return
        except BrokenPipeError:
            written = len(writer.backlog)
        del writer.backlog[:written]
        if not writer.backlog and writer.loop is not None:
            writer.loop.remove_writer(writer.requests)
            _done(writer.drained)

    def _replied(self, writer: _Writer) -> None:
        """The loop's call when replies arrive: each settles its call's future."""
        try:
            data = os.read(writer.replies, CHUNK)
        except BlockingIOError:
            return
        if not data:
            self._ended(writer)
            return
        for id, ok, value, commits in writer.frames.feed(data):
            self.commits += commits - writer.commits
            writer.commits = commits
            future, convert = writer.pending.pop(id)
            if future.cancelled():
                continue
            if not ok:
                future.set_exception(raised(*value))
                continue
            try:
                future.set_result(value if convert is None else convert(value))
            except Exception as error:  # a record that does not read back: this caller's error, not the others'
                future.set_exception(StoreError(f"{self.where}: a reply could not be read ({error})"))

    def _ended(self, writer: _Writer) -> None:
        """The writer's replies ended: closed by us, or it died. What it had not answered fails."""
        assert writer.loop is not None and writer.ended is not None
        writer.loop.remove_reader(writer.replies)
        if writer.backlog:
            writer.loop.remove_writer(writer.requests)
            writer.backlog.clear()
            _done(writer.drained)
        code = writer.process.poll()
        if writer.pending:
            ending = f"exit status {code}" if code is not None else "its pipe closed"
            error = StoreError(f"{self.where}: the store's writer process ended ({ending}); nothing more was written")
            for future, _ in writer.pending.values():
                if not future.done():
                    future.set_exception(error)
            writer.pending.clear()
        if self._writer is writer:
            self._writer = None  # the next call starts another
        _close(writer)
        _done(writer.ended)

    # -- ownership: this process holds the data directory's lock, so it owns every instance in it ----------

    def _lease(self, instance: str) -> Lease:
        return Lease(instance, self.node, 1, math.inf)

    async def claim(self, instance: str) -> Lease:
        return self._lease(instance)

    async def renew(self) -> list[str]:
        return []

    async def release(self, instance: str) -> None:
        return None

    async def lease(self, instance: str) -> Lease | None:
        return self._lease(instance)

    # -- writes --------------------------------------------------------------------------------------------

    def add_instance(self, instance: StoredInstance) -> asyncio.Future[Lease]:
        return self._call("add_instance", [instance], lambda _: self._lease(instance.id))

    def delete_instance(self, id: str) -> asyncio.Future[None]:
        return self._call("delete_instance", [id])

    def touch(self, id: str) -> asyncio.Future[None]:
        return self._call("touch", [id])

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
    ) -> asyncio.Future[None]:
        change = {
            "cut": cut,
            "entries": entries,
            "turn": turn,
            "ended": ended,
            "digest": digest,
            "sessions": sessions,  # the writer writes only those changed since it last wrote them
            "gone": gone,
            "saves": saves,
            "drop_snapshot": drop_snapshot,
        }
        return self._call("record", [instance, change])

    def put_snapshot(self, instance: str, seq: int, data: bytes) -> asyncio.Future[None]:
        return self._call("put_snapshot", [instance, seq, data])

    # -- reads: in the writer's order, so each sees every write sent before it -------------------------

    def _read(self, method: str, args: list[Any], convert: Callable[[Any], T]) -> asyncio.Future[T]:
        if self._file is not None:  # opened to be read: no writer, a thread of its own reads it
            file, pool = self._file, self._reader

            def reading() -> T:
                with file.reading():
                    return getattr(file, method)(*args)  # type: ignore[no-any-return]

            return asyncio.wrap_future(pool.submit(reading))  # type: ignore[union-attr]
        return self._call(method, args, convert)

    async def instances(self) -> list[StoredInstance]:
        return await self._read("instances", [], _instances)

    async def instance(self, id: str) -> StoredInstance | None:
        return await self._read("instance", [id], lambda row: None if row is None else _instance(row))

    async def log(self, instance: str, start: int = 0) -> list[LogEntry]:
        return await self._read("log", [instance, start], _entries)

    async def snapshot(self, instance: str) -> tuple[int, bytes] | None:
        return await self._read("snapshot", [instance], lambda found: None if found is None else tuple(found))

    async def saves(self, instance: str) -> dict[str, list[LogEntry]]:
        return await self._read("saves", [instance], lambda saves: {name: _entries(log) for name, log in saves.items()})

    async def sessions(self, instance: str | None = None) -> list[StoredSession]:
        return await self._read("sessions", [instance], _sessions)

    async def close(self) -> None:
        """Everything sent is committed and answered, then the writer ends and the locks are let go of."""
        self._closing = True
        if self._file is not None:
            file, self._file = self._file, None
            await asyncio.wrap_future(self._reader.submit(file.close))  # type: ignore[union-attr]
            self._reader.shutdown(wait=True)  # type: ignore[union-attr]
            return
        writer, self._writer = self._writer, None
        if writer is not None:
            if writer.loop is asyncio.get_running_loop():
                if writer.backlog:  # the rest of what was sent, before the writer is told there is no more
                    writer.drained = writer.loop.create_future()
                    await writer.drained
                writer.process.stdin.close()  # type: ignore[union-attr]
                assert writer.ended is not None
                await writer.ended  # its last replies read, the pipe's end seen
            else:  # never used, or used from a loop since gone: nobody waits on a reply
                if writer.loop is not None and not writer.loop.is_closed():
                    writer.loop.remove_reader(writer.replies)
                _close(writer)
            await asyncio.to_thread(writer.process.wait)
        if self._locks is not None:
            for descriptor in self._locks:
                os.close(descriptor)
            self._locks = None


def _done(future: asyncio.Future[None] | None) -> None:
    if future is not None and not future.done():
        future.set_result(None)


def _close(writer: _Writer) -> None:
    for stream in (writer.process.stdin, writer.process.stdout):
        if stream is not None and not stream.closed:
            stream.close()


def _instance(row: dict[str, Any]) -> StoredInstance:
    return StoredInstance(**row)


def _instances(rows: list[dict[str, Any]]) -> list[StoredInstance]:
    return [StoredInstance(**row) for row in rows]


def _entries(entries: list[list[str]]) -> list[LogEntry]:
    return [(e[0], e[1], e[2]) for e in entries]


def _sessions(rows: list[dict[str, Any]]) -> list[StoredSession]:
    return [StoredSession(**row) for row in rows]
