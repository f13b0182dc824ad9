"""Keeping a host's instances: what is written to the store after each change, and bringing them all back.

After every change to an instance (created, joined, left, a command, a spin set, undo, save, restore…), and
before the server answers, one transaction records: the log from where it changed (an undo cuts it), the
turn and the world's state hash, the instance's sessions (spin, what each was told), new saves, and, when
the log has grown by a tenth since the last one, a snapshot. A snapshot of a log since cut short (by undo,
restart or restore) is dropped in the same transaction, or replaced. Writes go through one thread of their
own, one at a time and in order, so the event loop never waits on the disk; a snapshot is captured there
too (the instance's lock, held by the caller until the write is done, keeps its story still meanwhile).

On start-up each stored instance is brought back: its world is loaded and checked against the fingerprint
it was created with (a changed world is not loaded, and says so; its data is kept); the story is resumed
from its snapshot and the rest of its log replayed, or, without a usable snapshot (damaged, or not of the
log as stored), its whole log is replayed; it must then reach the turn and state hash stored with it, or it
is not loaded either (and says why). Its sessions are seated again, so `resume(token)` works.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

from server.catalog import load_spin, load_world, world_source
from server.engine.errors import EngineError
from server.engine.narrator import Discourse
from server.engine.player import Player
from server.engine.snapshot import SnapshotError, capture, collector_paused, resume
from server.engine.spin import Spin
from server.engine.story import Logged, Story
from server.engine.world.definition import WorldDefinition
from server.store import LogEntry, Store, StoredInstance, StoredSession, StoreError, fingerprint

if TYPE_CHECKING:
    from server.host import Host, Instance, Session

log = logging.getLogger(__name__)

T = TypeVar("T")

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


@dataclass(frozen=True, slots=True)
class Stale:
    """A stored instance not brought back, and why (its world changed, or it could not be replayed)."""

    id: str
    world: str
    reason: str


@dataclass(frozen=True, slots=True)
class Restored:
    """How an instance was brought back: resumed from a snapshot of the first `snapshot` entries of its log
    (0: none used), then `replayed` entries replayed."""

    snapshot: int
    replayed: int


class Keeper:
    """Writes a host's changes to a store, one transaction a change, and brings instances back from it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.kept: dict[str, Kept] = {}
        self.stale: dict[str, Stale] = {}
        self.restored: dict[str, Restored] = {}
        self.parked: dict[str, str] = {}
        """Sessions kept in the store whose instance is not loaded: token → instance id."""
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")

    def close(self) -> None:
        self._writer.shutdown(wait=True)
        self.store.close()

    async def _write(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._writer, work)

    # -- writing ----------------------------------------------------------------------------------------

    async def created(self, instance: Instance, spin: dict[str, Any]) -> None:
        source = world_source(instance.world)
        stored = StoredInstance(instance.id, instance.world, fingerprint(source), instance.seed, spin, 0, False)
        await self._write(lambda: self.store.add_instance(stored))
        self.kept[instance.id] = Kept()
        await self.changed(instance)

    async def changed(self, instance: Instance, gone: tuple[str, ...] = ()) -> None:
        """Record everything about `instance` that changed since the last time, in one transaction. The
        caller holds the instance's lock until this returns."""
        story = instance.story
        kept = self.kept.setdefault(instance.id, Kept())
        cut, entries = story.log_changes()
        sessions = [_stored(session) for session in instance.sessions.values()]
        saves = {name: [_entry(e) for e in log] for name, log in story.saves.items() if kept.saves.get(name) is not log}
        length = len(story.log)
        # Undo, restart and restore cut the log short: a snapshot taken further along is of another story now.
        outdated = kept.unusable or cut < kept.snapshot_at
        since = 0 if outdated else kept.snapshot_at
        take = story.settled and length - since >= max(SNAPSHOT_AFTER, length // 10)
        turn, ended, digest = story.turn, story.ended, story.simulation.world.digest()
        logged = [_entry(e) for e in entries]

        def write() -> bool:
            snapshot = None
            if take:
                try:
                    snapshot = (length, capture(story))
                except Exception:  # the change is kept all the same; the log alone restores it
                    log.exception("instance %s: snapshot not taken", instance.id)
            self.store.record(
                instance.id,
                cut=cut,
                entries=logged,
                turn=turn,
                ended=ended,
                digest=digest,
                sessions=sessions,
                gone=gone,
                saves=saves,
                snapshot=snapshot,
                drop_snapshot=outdated and snapshot is None,
            )
            return snapshot is not None

        taken = await self._write(write)
        story.log_taken()
        kept.saves = dict(story.saves)
        if taken:
            kept.snapshot_at, kept.unusable = length, False
        elif outdated:
            kept.snapshot_at, kept.unusable = 0, False

    # -- bringing back ----------------------------------------------------------------------------------

    def restore(self, host: Host) -> None:
        """Bring every stored instance and session back into `host`. A damaged file raises StoreError."""
        from server.host import Instance, Session

        definitions: dict[tuple[str, str], WorldDefinition] = {}
        with collector_paused(), self.store.reading():
            for stored in self.store.instances():
                try:
                    story = self._story(stored, definitions)
                except StoreError:
                    raise
                except Exception as error:  # this instance is kept, not loaded; the others come back
                    reason = str(error) if isinstance(error, EngineError | OSError) else f"{type(error).__name__}"
                    self.stale[stored.id] = Stale(stored.id, stored.world, reason)
                    log.warning("instance %s (%s) not brought back: %s", stored.id, stored.world, reason)
                    continue
                host.instances[stored.id] = Instance(id=stored.id, world=stored.world, seed=stored.seed, story=story)
            for stored_session in self.store.sessions():
                instance = host.instances.get(stored_session.instance)
                if instance is None:  # its instance is not loaded: the session is kept in the store for when it is
                    self.parked[stored_session.token] = stored_session.instance
                    continue
                try:
                    player = Player(
                        instance.story, stored_session.actor, author=stored_session.author, named_spins=load_spin
                    )
                    player.spin = msgspec.convert(stored_session.spin, Spin)
                except (EngineError, msgspec.ValidationError) as error:
                    log.warning("session of %s in %s not brought back: %s", stored_session.name, instance.id, error)
                    continue
                player.discourse = Discourse(mentioned=frozenset(stored_session.mentioned))
                session = Session(
                    stored_session.token,
                    instance,
                    stored_session.actor,
                    stored_session.name,
                    stored_session.author,
                    player,
                )
                instance.sessions[session.token] = session
                host.sessions[session.token] = session

    def _story(self, stored: StoredInstance, definitions: dict[tuple[str, str], WorldDefinition]) -> Story:
        source = world_source(stored.world)
        if fingerprint(source) != stored.fingerprint:
            raise EngineError(
                f"world {stored.world!r} has changed since this instance was made; it is kept, not loaded"
            )
        key = (stored.world, stored.fingerprint)
        if key not in definitions:  # a world named by path is run once, however many instances it has
            definitions[key] = load_world(stored.world)
        definition = definitions[key]
        entries = [_logged(entry) for entry in self.store.log(stored.id)]
        saves = {name: tuple(_logged(e) for e in log) for name, log in self.store.saves(stored.id).items()}
        snapshot = self.store.snapshot(stored.id)
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


def _logged(entry: LogEntry) -> Logged:
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
    )
