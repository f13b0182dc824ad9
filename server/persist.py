"""Keeping a host's instances: what is written to the store after each change, and bringing them all back.

After every change to an instance (created, joined, left, a command, a spin set, undo, save, restore…), and
before the server answers, one transaction records: the log from where it changed (an undo cuts it), the
turn and the world's state hash, the instance's sessions (spin, what each was told) and new saves; a
snapshot of a log since cut short (by undo, restart or restore) is dropped in the same transaction. The
store (server/stores/) is SQLite in the data directory or PostgreSQL: SQLite's writes go through a process of
their own, in order, so the event loop never waits on the disk, and changes that come in together are
committed together; PostgreSQL's are fenced by this node's lease on the instance. None is answered before its
commit.

When the log has grown by a tenth since the last snapshot (and by SNAPSHOT_AFTER entries at least), a new one
is taken after the change is stored and answered: its first step under the instance's lock, which keeps its
story still, the rest a step at a time while play goes on, compressed in a thread, then stored in a
transaction of its own, one snapshot at a time. So the reply that made it due does not wait for it, nor does
any other instance; the work is amortized linear in the log, and a restart replays at most a tenth of it.

On start-up only the stored instances' rows and sessions are read (`lobby`): an instance is brought back on its
first use (`restore(only=…)`), so a restart costs nothing per instance but a row. Brought back, its world is
loaded and checked against the fingerprint it was created with (a changed world is not loaded, and says so; its
data is kept); the story is resumed from its snapshot and the rest of its log replayed, or, without a usable
snapshot (damaged, or not of the log as stored), its whole log is replayed; it must then reach the turn and
state hash stored with it, or it is not loaded either (and says why). Each is claimed first (its lease,
server/stores/leases.py): one whose lease another server holds is left out of service here, to be tried again by
the host's sweep (`writable` claims it), so an instance is only ever written by one server. The keeper hands
back what it read (the stories, the instances it could not bring back, the stored sessions) as plain values: the
host seats them, and owns which instances are out of service. An instance unused for a while leaves memory
(`unloading`: its sessions' last-seen times written, its row and sessions read back for the lobby; `unloaded`:
what the keeper remembered of it forgotten, its lease let go of), to be brought back as on a first use. A
server without a data directory has a `Forgetful` keeper, which keeps nothing (and unloads nothing).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from protocol.spin import Spin
from server.catalog import load_world, world_source
from server.engine.errors import EngineError, SnapshotError
from server.engine.snapshot import capturing, collector_paused, resume, sealed
from server.engine.story import Logged, Story
from server.engine.world.definition import WorldDefinition
from server.seats import Instance, Session
from server.stores import Fenced, LogEntry, Store, StoredInstance, StoredSession, StoreError, fingerprint

log = logging.getLogger(__name__)

SNAPSHOT_AFTER = 200
"""Log entries before the first snapshot; later ones come each time the log grows by a tenth."""


@dataclass(eq=False)
class Kept:
    """What the keeper remembers of one instance's stored form."""

    snapshot_at: int = 0
    """The length of the log the stored snapshot was taken at; 0: none that can be used."""
    unusable: bool = False
    """A snapshot is stored that cannot be used (damaged, or of a log since cut short): drop it at the next write."""
    saves: dict[str, tuple[Logged, ...]] = field(default_factory=dict)
    snapshotting: bool = False
    """A snapshot is being taken (one at a time)."""


@dataclass(frozen=True, slots=True)
class Stale:
    """A stored instance not brought back, and why (its world changed, or it could not be replayed)."""

    id: str
    world: str
    reason: str
    retry: bool = False
    """Out of service because a write failed: brought back once the store takes writes again."""


@dataclass(frozen=True, slots=True)
class Reloaded:
    """What a store held, read back for the host to seat: the stories resumed (each with its stored form), the
    stored instances that could not be (and why), and the stored sessions."""

    stories: list[tuple[StoredInstance, Story]] = field(default_factory=list)
    stale: list[Stale] = field(default_factory=list)
    sessions: list[StoredSession] = field(default_factory=list)
    rows: list[StoredInstance] = field(default_factory=list)
    """The stored instances read but not loaded (`lobby`): each is loaded on its first use."""


@dataclass(frozen=True, slots=True)
class Restored:
    """How an instance was brought back: resumed from a snapshot of the first `snapshot` entries of its log
    (0: none used), then `replayed` entries replayed."""

    snapshot: int
    replayed: int


def everything(instance: str) -> bool:
    """Every instance is this process's (one process, not one worker of several)."""
    return True


class Keeps(Protocol):
    """What a host asks of its keeper: each change written before it is answered, and what was kept read back."""

    async def created(self, instance: Instance, spin: dict[str, Any]) -> None: ...

    async def retired(self, instance: Instance) -> None: ...

    async def changed(self, instance: Instance, gone: tuple[str, ...] = ()) -> None: ...

    async def restore(self, only: str | None = None, owns: Callable[[str], bool] = everything) -> Reloaded: ...

    async def lobby(self, owns: Callable[[str], bool] = everything) -> Reloaded: ...

    async def lobby_of(self, instance_id: str) -> Reloaded: ...

    async def writable(self, probe: str) -> bool: ...

    async def unloading(self, instance: Instance) -> Reloaded | None: ...

    async def unloaded(self, instance_id: str) -> None: ...


class Forgetful:
    """A keeper that keeps nothing: a server without a data directory holds its instances in memory only."""

    async def created(self, instance: Instance, spin: dict[str, Any]) -> None:
        pass

    async def retired(self, instance: Instance) -> None:
        pass

    async def changed(self, instance: Instance, gone: tuple[str, ...] = ()) -> None:
        pass

    async def restore(self, only: str | None = None, owns: Callable[[str], bool] = everything) -> Reloaded:
        return Reloaded()

    async def lobby(self, owns: Callable[[str], bool] = everything) -> Reloaded:
        return Reloaded()

    async def lobby_of(self, instance_id: str) -> Reloaded:
        return Reloaded()

    async def writable(self, probe: str) -> bool:
        return True

    async def unloading(self, instance: Instance) -> Reloaded | None:
        return None  # memory is the only store: an instance let go of would be gone

    async def unloaded(self, instance_id: str) -> None:
        pass


class Keeper:
    """Writes a host's changes to a store, one transaction a change, and reads instances back from it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.kept: dict[str, Kept] = {}
        self.restored: dict[str, Restored] = {}
        self._snapshotting: set[asyncio.Task[None]] = set()
        self._one_snapshot = asyncio.Lock()
        """Held while a snapshot is taken: like instances in a crowd come due together, and taken at once their
        steps and compressions would hold every player up together (8 of Lost One's in one benchmark: p99 80 ms)."""

    async def close(self) -> None:
        """Stop writing (a snapshot still being taken is given up: the log restores the story without it) and
        close the store. Call `flushed` first for the snapshots under way to be stored too."""
        for task in self._snapshotting:
            task.cancel()
        await asyncio.gather(*self._snapshotting, return_exceptions=True)
        await self.store.close()

    # -- writing ----------------------------------------------------------------------------------------

    async def created(self, instance: Instance, spin: dict[str, Any]) -> None:
        source = world_source(instance.world)
        stored = StoredInstance(
            instance.id,
            instance.world,
            fingerprint(source),
            instance.seed,
            spin,
            0,
            False,
            creator=instance.creator,
            kept=instance.kept,
        )
        await self.store.add_instance(stored)  # made here: this server holds its lease
        self.kept[instance.id] = Kept()
        await self.changed(instance)

    async def retired(self, instance: Instance) -> None:
        """An idle instance retired: gone from the store, with its log, sessions, saves and snapshot."""
        await self.store.delete_instance(instance.id)
        self.kept.pop(instance.id, None)

    async def changed(self, instance: Instance, gone: tuple[str, ...] = ()) -> None:
        """Record everything about `instance` that changed since the last time, in one transaction. The
        caller holds the instance's lock until this returns. A snapshot, when one is due, is taken after."""
        story = instance.story
        kept = self.kept.setdefault(instance.id, Kept())
        cut, entries = story.log_changes()
        sessions = [_stored(session) for session in (*instance.sessions.values(), *instance.away.values())]
        saves = {name: [_entry(e) for e in log] for name, log in story.saves.items() if kept.saves.get(name) is not log}
        length = len(story.log)
        # Undo, restart and restore cut the log short: a snapshot taken further along is of another story now.
        outdated = kept.unusable or cut < kept.snapshot_at
        await self.store.record(
            instance.id,
            cut=cut,
            entries=[_entry(e) for e in entries],
            turn=story.turn,
            ended=story.ended,
            digest=story.simulation.world.digest(),
            sessions=sessions,  # the store writes only those changed since it last wrote them
            gone=gone,
            saves=saves,
            drop_snapshot=outdated,
        )
        story.log_taken()
        kept.saves = dict(story.saves)
        if outdated:
            kept.snapshot_at, kept.unusable = 0, False
        if length - kept.snapshot_at >= max(SNAPSHOT_AFTER, length // 10) and not kept.snapshotting:
            kept.snapshotting = True
            task = asyncio.get_running_loop().create_task(self._snapshot(instance, kept))
            self._snapshotting.add(task)
            task.add_done_callback(self._snapshotting.discard)

    async def _snapshot(self, instance: Instance, kept: Kept) -> None:
        """Capture the story as it stands once its lock is free, and store it: the reply to the change that
        made a snapshot due does not wait for it, nor do other instances' writes. The lock is held only for the
        capture's first step (what can still change); the events are encoded after it, a piece at a time with
        the loop given back between, while the instance's players go on."""
        try:
            async with self._one_snapshot:  # one at a time, from its capture to its commit
                async with instance.lock:
                    story = instance.story
                    length = len(story.log)
                    if story.log_kept != length or not story.settled or length <= kept.snapshot_at:
                        return  # not all of it is stored yet, or a question awaits an answer: at a later change
                    last = story.log[-1]
                    steps = capturing(story)
                    next(steps)
                # Compressed and checksummed in a thread: zlib and BLAKE2b let go of the interpreter's lock meanwhile.
                blob = await asyncio.to_thread(sealed, await _finished(steps))
                async with instance.lock:
                    # Undo, restart or restore since the capture began cut the log short: it is of another story.
                    if instance.story is not story or len(story.log) < length or story.log[length - 1] is not last:
                        return
                    # Queued while the lock is held, so it is written before any later change to this instance
                    # (one that drops it, say); its commit need not hold the instance up.
                    stored = self.store.put_snapshot(instance.id, length, blob)
                    kept.snapshot_at, kept.unusable = length, False
                await stored
        except Exception:  # the log alone restores the story (an older snapshot, checked, or none)
            log.exception("instance %s: snapshot not taken", instance.id)
        finally:
            kept.snapshotting = False

    async def unloading(self, instance: Instance) -> Reloaded | None:
        """What the lobby needs of an instance about to leave memory, as stored (its row and its sessions, the
        times they were last seen written first), or None if not all of it is stored yet (a change or a
        snapshot under way): then it stays. The caller holds the instance's lock."""
        kept = self.kept.get(instance.id)
        story = instance.story
        if kept is None or kept.snapshotting or story.log_kept != len(story.log):
            return None
        if instance.sessions or instance.away:
            # A session's last-seen time moves on every request, but is written only with a change: a player who
            # only read for a while would come back seen earlier than it was, and detached or expired too soon.
            await self.changed(instance)
            if kept.snapshotting:  # that write made a snapshot due: it is taken first, and this tried again
                return None
        lobby = await self.lobby_of(instance.id)
        if [(row.turn, row.ended) for row in lobby.rows] != [(story.turn, story.ended)]:
            return None
        return lobby

    async def unloaded(self, instance_id: str) -> None:
        """An instance left memory: what this keeper remembers of it goes, and its lease is let go of, so it
        is claimed again (by whichever server uses it next) as on a first use after a restart."""
        self.kept.pop(instance_id, None)
        self.restored.pop(instance_id, None)
        try:
            await self.store.release(instance_id)
        except Exception as error:  # it expires by itself: the next server to use the instance waits that long
            log.warning("instance %s: its lease was not let go of (%s)", instance_id, error)

    async def flushed(self) -> None:
        """Wait for the snapshots being taken to be stored."""
        while self._snapshotting:
            await asyncio.gather(*self._snapshotting, return_exceptions=True)

    # -- bringing back ----------------------------------------------------------------------------------

    async def restore(self, only: str | None = None, owns: Callable[[str], bool] = everything) -> Reloaded:
        """Read back every stored instance and session (or, `only`, that one instance and its sessions) that
        this process `owns`: each story resumed, or why it could not be. A damaged store raises StoreError."""
        definitions: dict[tuple[str, str], WorldDefinition] = {}
        reloaded = Reloaded()
        with collector_paused():
            # One instance is read by its id: loading one on first use costs nothing of the others.
            rows = await self.store.instances() if only is None else [await self.store.instance(only)]
            for stored in rows:
                if stored is not None and owns(stored.id):
                    await self._bring_back(stored, definitions, reloaded)
            # With several workers on one store, each brings back only its own share (Host.owns).
            reloaded.sessions.extend(s for s in await self.store.sessions(only) if owns(s.instance))
        return reloaded

    async def lobby(self, owns: Callable[[str], bool] = everything) -> Reloaded:
        """What the lobby needs of every stored instance this process `owns`, none of them loaded: their rows
        and their sessions, so a token is known before its instance is back. Nothing is claimed or replayed."""
        rows = [stored for stored in await self.store.instances() if owns(stored.id)]
        sessions = [s for s in await self.store.sessions() if owns(s.instance)]
        return Reloaded(rows=rows, sessions=sessions)

    async def lobby_of(self, instance_id: str) -> Reloaded:
        """What the lobby needs of one stored instance (none: not stored), as `lobby` reads it of all."""
        stored = await self.store.instance(instance_id)
        if stored is None:
            return Reloaded()
        return Reloaded(rows=[stored], sessions=await self.store.sessions(instance_id))

    async def _bring_back(
        self, stored: StoredInstance, definitions: dict[tuple[str, str], WorldDefinition], reloaded: Reloaded
    ) -> None:
        try:
            await self.store.claim(stored.id)
        except Fenced as owned:  # another server writes it: not loaded here, while its lease lasts
            log.info("instance %s (%s) not brought back: %s", stored.id, stored.world, owned)
            reloaded.stale.append(Stale(stored.id, stored.world, f"another server has it ({owned})", retry=True))
            return
        try:
            story = await self._story(stored, definitions)
        except StoreError:
            raise
        except Exception as error:  # this instance is kept, not loaded; the others come back
            if isinstance(error, EngineError | OSError):
                reason = str(error)
                log.warning("instance %s (%s) not brought back: %s", stored.id, stored.world, reason)
            else:  # a world's own code failed on replay: what it said is for the log, not for players
                reason = f"replaying its log failed ({type(error).__name__}); the server's log says more"
                log.exception("instance %s (%s) not brought back", stored.id, stored.world)
            reloaded.stale.append(Stale(stored.id, stored.world, reason))
            return
        reloaded.stories.append((stored, story))

    async def writable(self, probe: str) -> bool:
        """Whether the store takes a write again (space freed, the disk back; the lease free again) for this
        server: tried on the instance `probe`, claimed first."""
        try:
            await self.store.claim(probe)
            await self.store.touch(probe)
        except Exception:  # still full, still failing, or another server's
            return False
        return True

    async def _story(self, stored: StoredInstance, definitions: dict[tuple[str, str], WorldDefinition]) -> Story:
        check_world(stored, "it is kept, not loaded")
        key = (stored.world, stored.fingerprint)
        if key not in definitions:  # a world named by path is run once, however many instances it has
            definitions[key] = load_world(stored.world)
        definition = definitions[key]
        entries = [logged(entry) for entry in await self.store.log(stored.id)]
        # A save is most often a stretch of the log as it stands: its entries are the log's own, not copies.
        pool = {_entry(entry): entry for entry in entries}
        saves = {
            name: tuple(pool.get(tuple(e)) or logged(e) for e in log)  # type: ignore[arg-type]
            for name, log in (await self.store.saves(stored.id)).items()
        }
        snapshot = await self.store.snapshot(stored.id)
        story, start = None, 0
        if snapshot is not None:
            seq, blob = snapshot
            try:
                story = resume(definition, blob)
                if seq > len(entries) or story.log != entries[:seq]:
                    raise SnapshotError("it is of a log since cut short")
                story.apply(tuple(entries[seq:]))
                _check(story, stored)
                start = seq
            except Exception as error:
                story = None
                log.warning("instance %s: snapshot not used (%s); replaying its whole log", stored.id, error)
        if story is None:
            story = Story(definition, seed=stored.seed)
            story.spin = msgspec.convert(stored.spin, Spin)
            if not definition.interactive:
                story.run_to_end()
            story.apply(tuple(entries))
            _check(story, stored)
        story.saves = saves
        story.log_taken()
        self.kept[stored.id] = Kept(snapshot_at=start, unusable=snapshot is not None and not start, saves=dict(saves))
        self.restored[stored.id] = Restored(snapshot=start, replayed=len(entries) - start)
        return story


def since(now: float, then: float) -> float:
    """A wall-clock time stored (seconds since the epoch; 0: not known) on a monotonic clock reading `now`:
    idle clocks go on across a restart rather than starting again."""
    return now - max(0.0, time.time() - then) if then else now


def check_world(stored: StoredInstance, otherwise: str) -> None:
    """The world an instance was made in must be the one there now (its source's fingerprint): a log replayed
    in a changed world tells another story. `otherwise` says what is done instead."""
    if fingerprint(world_source(stored.world)) != stored.fingerprint:
        raise EngineError(f"world {stored.world!r} has changed since this instance was made; {otherwise}")


def _check(story: Story, stored: StoredInstance) -> None:
    """The story replayed must be the one stored: its turn, whether it ended, and its world's state hash."""
    if story.turn != stored.turn or story.ended != stored.ended:
        raise EngineError(f"replaying its log gave turn {story.turn}, not the {stored.turn} it had reached")
    digest = story.simulation.world.digest()
    if stored.digest and digest != stored.digest:
        raise EngineError(
            f"replaying its log gave another world at turn {story.turn} (state {digest}, not {stored.digest}): "
            "has the engine changed since?"
        )


async def _finished(steps: Generator[None, None, bytes]) -> bytes:
    """A capture's later steps run to its end, the loop given back after each (other players go on)."""
    while True:
        await asyncio.sleep(0)
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


def logged(entry: LogEntry) -> Logged:
    """A stored log entry as the story's own."""
    kind, actor, text = entry
    return msgspec.convert({"entry": kind, "actor": actor, "text": text}, Logged)


def _entry(entry: Logged) -> LogEntry:
    return (entry.entry, entry.actor, entry.text)


def _stored(session: Session) -> StoredSession:
    player = session.player
    return StoredSession(
        token=session.token,
        instance=session.instance.id,
        actor=session.actor,
        name=session.name,
        author=session.author,
        spin=msgspec.to_builtins(player.spin),
        mentioned=sorted(player.discourse.mentioned),
        detached=session.detached,
        seen=time.time() - max(0.0, session.instance.clock() - session.seen),
        seq=session.sequence.reserved(),
    )
