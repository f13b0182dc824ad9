"""Keeping a host's instances: what is written to the store after each change, and bringing them all back.

After every change to an instance (created, joined, left, a command, a spin set, undo, save, restore…), and
before the server answers, one transaction records: the log from where it changed (an undo cuts it), the
turn, the instance's sessions (spin, what each was told), new saves, and, when the log has grown by a tenth
since the last one, a snapshot. Writes go through one thread of their own, so the event loop never waits on
the disk, and one at a time, in order.

On start-up each stored instance is brought back: its world is loaded and checked against the fingerprint
it was created with (a changed world is not loaded, and says so; its data is kept); the story is resumed
from its snapshot and the rest of its log replayed (or, without a snapshot, replayed whole); its sessions
are seated again, so `resume(token)` works.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

from server.catalog import load_spin, load_world, world_source
from server.engine.errors import EngineError
from server.engine.narrator import Discourse
from server.engine.player import Player
from server.engine.snapshot import SnapshotError, capture, resume
from server.engine.spin import Spin
from server.engine.story import Logged, Story
from server.store import LogEntry, Store, StoredInstance, StoredSession, fingerprint

if TYPE_CHECKING:
    from server.host import Host, Instance, Session

log = logging.getLogger(__name__)

SNAPSHOT_AFTER = 200
"""Log entries before the first snapshot; later ones come each time the log grows by a tenth."""


@dataclass(eq=False)
class Kept:
    """What the keeper remembers of one instance's stored form."""

    snapshot_at: int = 0
    saves: dict[str, tuple[Logged, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Stale:
    """A stored instance not brought back, and why (its world changed, or it could not be replayed)."""

    id: str
    world: str
    reason: str


class Keeper:
    """Writes a host's changes to a store, one transaction a change, and brings instances back from it."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.kept: dict[str, Kept] = {}
        self.stale: dict[str, Stale] = {}
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")

    def close(self) -> None:
        self._writer.shutdown(wait=True)
        self.store.close()

    async def _write(self, work: Any) -> None:
        await asyncio.get_running_loop().run_in_executor(self._writer, work)

    # -- writing ----------------------------------------------------------------------------------------

    async def created(self, instance: Instance, spin: dict[str, Any]) -> None:
        source = world_source(instance.world)
        stored = StoredInstance(instance.id, instance.world, fingerprint(source), instance.seed, spin, 0, False)
        await self._write(lambda: self.store.add_instance(stored))
        self.kept[instance.id] = Kept()
        await self.changed(instance)

    async def changed(self, instance: Instance, gone: tuple[str, ...] = ()) -> None:
        """Record everything about `instance` that changed since the last time, in one transaction."""
        story = instance.story
        kept = self.kept.setdefault(instance.id, Kept())
        cut, entries = story.log_changes()
        sessions = [_stored(session) for session in instance.sessions.values()]
        saves = {name: [_entry(e) for e in log] for name, log in story.saves.items() if kept.saves.get(name) is not log}
        snapshot = None
        length = len(story.log)
        if story.settled and length - kept.snapshot_at >= max(SNAPSHOT_AFTER, length // 10):
            snapshot = (length, capture(story))
        turn, ended = story.turn, story.ended
        await self._write(
            lambda: self.store.record(
                instance.id,
                cut=cut,
                entries=[_entry(e) for e in entries],
                turn=turn,
                ended=ended,
                sessions=sessions,
                gone=gone,
                saves=saves,
                snapshot=snapshot,
            )
        )
        story.log_taken()
        kept.saves = dict(story.saves)
        if snapshot is not None:
            kept.snapshot_at = length

    # -- bringing back ----------------------------------------------------------------------------------

    def restore(self, host: Host) -> None:
        """Bring every stored instance and session back into `host`."""
        from server.host import Instance, Session

        for stored in self.store.instances():
            try:
                story = self._story(stored)
            except (EngineError, OSError) as error:
                self.stale[stored.id] = Stale(stored.id, stored.world, str(error))
                log.warning("instance %s (%s) not brought back: %s", stored.id, stored.world, error)
                continue
            host.instances[stored.id] = Instance(id=stored.id, world=stored.world, seed=stored.seed, story=story)
        for stored_session in self.store.sessions():
            instance = host.instances.get(stored_session.instance)
            if instance is None:
                continue
            player = Player(instance.story, stored_session.actor, author=stored_session.author, named_spins=load_spin)
            player.spin = msgspec.convert(stored_session.spin, Spin)
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

    def _story(self, stored: StoredInstance) -> Story:
        source = world_source(stored.world)
        if fingerprint(source) != stored.fingerprint:
            raise EngineError(
                f"world {stored.world!r} has changed since this instance was made; it is kept, not loaded"
            )
        definition = load_world(stored.world)
        log_entries = self.store.log(stored.id)
        snapshot = self.store.snapshot(stored.id)
        story = None
        start = 0
        if snapshot is not None:
            seq, blob = snapshot
            try:
                story = resume(definition, blob)
                start = seq
            except SnapshotError as error:
                log.warning("instance %s: snapshot not used (%s); replaying its whole log", stored.id, error)
        if story is None:
            story = Story(definition, seed=stored.seed)
            story.spin = msgspec.convert(stored.spin, Spin)
            if not definition.interactive:
                story.run_to_end()
        story.apply(tuple(_logged(entry) for entry in log_entries[start:]))
        story.saves = {name: tuple(_logged(e) for e in log) for name, log in self.store.saves(stored.id).items()}
        story.log_taken()
        self.kept[stored.id] = Kept(snapshot_at=start, saves=dict(story.saves))
        if story.turn != stored.turn:
            raise EngineError(f"replaying its log gave turn {story.turn}, not the {stored.turn} it had reached")
        return story


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
