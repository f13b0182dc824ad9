"""The embedded store: the SQLite file of server/store.py behind the async interface, its changes group-committed.

1. A call is queued for the store's one writer thread when it is made (so one instance's changes are applied
   in the order they were asked for), and returns a future to await.
2. The writer takes everything queued, opens one transaction and runs each piece of work in a savepoint of its
   own (one that fails takes back only itself, and only its caller hears of it), then commits: one sync to the
   disk for every change in the batch, from however many instances.
3. Each caller is answered once that commit is on disk; what came in meanwhile is the next batch. Nothing
   waits for company: a change that finds the writer idle is committed at once, alone, so one player pays one
   sync and a crowd shares them.

A session is written only when it differs from what was last committed of it (its last-seen time to within
a second): a command changes the log and the instance's turn, seldom its players' sessions.
"""

from __future__ import annotations

import asyncio
import math
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from server.store import SqliteFile
from server.stores.records import Lease, LogEntry, StoredInstance, StoredSession, StoreError, changed, node_name

T = TypeVar("T")


@dataclass(slots=True)
class _Job(Generic[T]):
    work: Callable[[], T]
    future: asyncio.Future[T]
    loop: asyncio.AbstractEventLoop
    committed: Callable[[T], None] | None
    """Run in the writer thread once the work's transaction is committed (what it wrote is then true)."""


class SqliteStore:
    """One SQLite file in the data directory, one server at a time (a lock file); see the module's docstring."""

    def __init__(
        self, directory: Path, *, node: str | None = None, locks: tuple[int, int] | None = None, reading: bool = False
    ) -> None:
        """`reading`: opened only to be read (`curveship export`), without the directory's lock, so a server
        may be running on it; nothing can be written through it."""
        self.file = SqliteFile.reader(directory) if reading else SqliteFile(directory, locks)
        self.reading = reading
        self.where = str(self.file.path)
        self.node = node or node_name()
        self.commits = 0
        """Transactions committed (each one sync to the disk), for a benchmark to set against the changes."""
        self._written: dict[str, StoredSession] = {}
        """What was last committed of each session, by token; touched in the writer thread alone."""
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        self._guard = threading.Lock()
        self._queue: list[_Job[Any]] = []
        self._draining = False

    # -- the writer ----------------------------------------------------------------------------------------

    def _queued(self, work: Callable[[], T], committed: Callable[[T], None] | None = None) -> asyncio.Future[T]:
        """`work` in the writer's queue, now, behind what is there already: its commit, to be awaited."""
        if self.reading:
            raise StoreError(f"{self.where}: opened only to be read")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._guard:
            self._queue.append(_Job(work, future, loop, committed))
            start, self._draining = not self._draining, True
        if start:
            self._writer.submit(self._drain)
        return future

    def _drain(self) -> None:
        """In the writer thread: commit what is queued, a batch at a time, until nothing is."""
        while True:
            with self._guard:
                jobs, self._queue = self._queue, []
                if not jobs:
                    self._draining = False
                    return
            outcomes: list[tuple[bool, Any]] = []
            try:
                with self.file.batch() as each:
                    for job in jobs:
                        try:
                            outcomes.append((True, each(job.work)))
                        except Exception as error:
                            outcomes.append((False, error))
                self.commits += 1
                for job, (ok, value) in zip(jobs, outcomes, strict=True):
                    if ok and job.committed is not None:
                        job.committed(value)
            except Exception as error:  # the commit failed: nothing of the batch is kept
                outcomes = [(False, error)] * len(jobs)
            for job, (ok, value) in zip(jobs, outcomes, strict=True):
                job.loop.call_soon_threadsafe(_settle, job.future, ok, value)

    def _read(self, work: Callable[[], T]) -> asyncio.Future[T]:
        """A read, in the writer's queue (it sees every write queued before it); damage is a StoreError."""

        def reading() -> T:
            with self.file.reading():
                return work()

        if self.reading:  # no writer to queue behind, and a read-only file takes no transaction of the batch's
            return asyncio.wrap_future(self._writer.submit(reading))
        return self._queued(reading)

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
        def work() -> Lease:
            self.file.add_instance(instance)
            return self._lease(instance.id)

        return self._queued(work)

    def delete_instance(self, id: str) -> asyncio.Future[None]:
        def forget(_: None) -> None:
            for token in [token for token, session in self._written.items() if session.instance == id]:
                del self._written[token]

        return self._queued(lambda: self.file.delete_instance(id), forget)

    def touch(self, id: str) -> asyncio.Future[None]:
        return self._queued(lambda: self.file.touch(id))

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
        fresh: list[StoredSession] = []

        def work() -> None:
            fresh.extend(changed(sessions, self._written))
            self.file.record(
                instance,
                cut=cut,
                entries=entries,
                turn=turn,
                ended=ended,
                digest=digest,
                sessions=fresh,
                gone=gone,
                saves=saves,
                drop_snapshot=drop_snapshot,
            )

        def remember(_: None) -> None:
            self._written.update((session.token, session) for session in fresh)
            for token in gone:
                self._written.pop(token, None)

        return self._queued(work, remember)

    def put_snapshot(self, instance: str, seq: int, data: bytes) -> asyncio.Future[None]:
        return self._queued(lambda: self.file.put_snapshot(instance, seq, data))

    # -- reads ---------------------------------------------------------------------------------------------

    async def instances(self) -> list[StoredInstance]:
        return await self._read(self.file.instances)

    async def instance(self, id: str) -> StoredInstance | None:
        return await self._read(lambda: self.file.instance(id))

    async def log(self, instance: str, start: int = 0) -> list[LogEntry]:
        return await self._read(lambda: self.file.log(instance, start))

    async def snapshot(self, instance: str) -> tuple[int, bytes] | None:
        return await self._read(lambda: self.file.snapshot(instance))

    async def saves(self, instance: str) -> dict[str, list[LogEntry]]:
        return await self._read(lambda: self.file.saves(instance))

    async def sessions(self, instance: str | None = None) -> list[StoredSession]:
        return await self._read(lambda: self.file.sessions(instance))

    async def close(self) -> None:
        # Behind the drain under way in the one writer thread: once it runs, everything queued is settled.
        await asyncio.wrap_future(self._writer.submit(lambda: None))
        self._writer.shutdown(wait=True)
        self.file.close()


def _settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.cancelled():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)
