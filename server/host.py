"""The host: every live instance and session of one server, and each call made to them, one lock an instance.

The turn model, for several players in one instance:
1. Each command is one tick for the whole instance, applied one at a time under the instance's lock; a
   message (a request or a whole batch) of one of its sessions holds the instance's `turns` while it is
   handled, so a batch never interleaves with another's commands.
2. In that tick every actor nobody plays acts by its script; actors of players who did not command simply
   wait, and their waiting is never told.
3. The commanding session is told its turn in its reply; every other session whose actor perceived
   something of it is sent a `narration`, told through its own actor and spin; an ending sends `ended`.

Presence: a session is present (seated) from `join` until `leave`, or until it has had no connection for a
while (no socket bound to it, no request): then it is detached, the others hear it left, and its actor
goes back to its script. Its token still works: `resume`, or any call that acts for it, seats it again if
nobody took its actor meanwhile (else -32004). Long after, with still no connection, it expires (-32002).
"""

from __future__ import annotations

import asyncio
import bisect
import logging
import secrets
import time
from collections.abc import Callable, Generator
from typing import Any, TypeVar

import msgspec

from protocol import messages as m
from protocol.commands import split_commands
from protocol.errors import Code, RpcError
from protocol.spin import Spin
from server.catalog import load_spin, load_world, spin_library, spin_names, world_names
from server.engine.errors import EngineError
from server.engine.narrator import Discourse, Telling, render
from server.engine.player import Player
from server.engine.snapshot import copied
from server.engine.story import Story, Turn
from server.engine.trees import listing
from server.limits import Bucket, Limits, Lockout
from server.persist import Forgetful, Keeps, Reloaded, Stale, since
from server.seats import Instance, Session
from server.sequence import Sequence
from server.stores import Fenced, StoredInstance, StoredSession
from server.wire import (
    blocks,
    engine_errors,
    node,
    reading_spins,
    spin_settings,
    spun_argument,
    title,
    vocabulary_result,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

SHARED = frozenset({"undo", "restart", "restore"})
"""Directives that change the story for everyone in it, whether called as methods or typed as commands."""
REWOUND = {"undo": "took back the last turn", "restart": "began the story again", "restore": "went back to a save"}
"""What the others are told when an author does one of SHARED with them in the story."""


class Host:
    """Every live instance and session of one server. All I/O is the caller's; this holds the state."""

    def __init__(
        self,
        *,
        author_token: str | None = None,
        limits: Limits | None = None,
        keeper: Keeps | None = None,
        lockout: Lockout | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limits = limits or Limits()
        self.clock = clock
        self.lockout = lockout or Lockout(clock=clock)
        """Wrong tokens by address: too many, and that address may show none for a while."""
        self.keeper: Keeps = keeper or Forgetful()
        """Writes every change to the store before it is answered (the Forgetful one keeps nothing)."""
        self.stale: dict[str, Stale] = {}
        """Stored instances out of service, by id: not brought back (their world changed, their log would not
        replay), or taken out because a change to them could not be stored."""
        self.parked: dict[str, str] = {}
        """Stored sessions whose instance is out of service or not loaded yet: token → instance id."""
        self._asleep: dict[str, list[StoredSession]] = {}
        """The sessions of each instance not loaded yet, as stored: who plays it (for the lobby), and when each
        was last seen (for the sweeps)."""
        self.instances: dict[str, Instance] = {}
        """The instances in memory, by id."""
        self.dormant: dict[str, StoredInstance] = {}
        """Stored instances not loaded yet, by id: each is brought back on its first use (`loaded`)."""
        self._numbering: dict[str, Sequence] = {}
        """The numbering and recent messages of each session of an instance unloaded, by token: handed back when
        it is loaded again, so a client that resumes gets what it missed, as if it had never left memory."""
        self._loading: dict[str, asyncio.Future[None]] = {}
        """Instances being brought back, by id: calls that come meanwhile wait for the same load."""
        self._making: dict[str, str] = {}
        """Ids of instances being made (their creation awaits the store) → the address making each: counted
        against the limits with the live ones, so concurrent creates cannot overshoot them."""
        self.sessions: dict[str, Session] = {}
        self._callers: dict[str, Bucket] = {}
        self.author_token = author_token or secrets.token_urlsafe(24)
        self.owns: Callable[[str], bool] = lambda instance_id: True
        """Whether an instance id is this host's to hold: with several workers, each holds its share
        (server/cluster/router.py); the ids it makes, and the instances it restores, are its own."""

    def is_author_token(self, token: str | None) -> bool:
        """Whether `token` is the author token (compared in constant time: its length and bytes leak nothing)."""
        return token is not None and secrets.compare_digest(token.encode(), self.author_token.encode())

    def knows_token(self, token: str) -> bool:
        """Whether `token` names a session, live or kept for an instance not loaded."""
        return token in self.sessions or token in self.parked

    # -- catalogue ----------------------------------------------------------------------------------

    def worlds(self) -> m.WorldsResult:
        found = []
        for name in world_names():
            definition = load_world(name)
            actors = [
                m.ActorInfo(tag=tag, name=next(a.called for a in definition.actors() if a.tag == tag))
                for tag in definition.players()
            ]
            found.append(
                m.WorldInfo(
                    name=name,
                    title=definition.title,
                    summary=definition.summary,
                    interactive=definition.interactive,
                    actors=actors,
                    default_actor=definition.player,
                )
            )
        return m.WorldsResult(worlds=found)

    def spins(self) -> m.SpinsResult:
        found = []
        for name in spin_names():
            spin = load_spin(name)
            found.append(m.SpinInfo(name=name, summary=spin.summary, spin=dict(spin.overrides)))
        return m.SpinsResult(spins=found)

    def list_instances(self, params: m.InstancesParams | None = None) -> m.InstancesResult:
        """A page of the live instances, in the order of their ids (so a page goes on where the last ended,
        whatever was created or retired meanwhile); those not loaded yet are told from their stored rows."""
        params = params or m.InstancesParams()
        ids = sorted((*self.instances, *self.dormant))
        start = bisect.bisect_right(ids, params.after) if params.after is not None else 0
        page = ids[start : start + params.limit]
        more = start + params.limit < len(ids)
        return m.InstancesResult(instances=[self._info(id_) for id_ in page], next=page[-1] if more and page else None)

    def _info(self, instance_id: str) -> m.InstanceInfo:
        instance = self.instances.get(instance_id)
        if instance is not None:
            return instance.info()
        stored = self.dormant[instance_id]
        players = [
            m.PlayerInfo(name=s.name, actor=s.actor) for s in self._asleep.get(instance_id, ()) if not s.detached
        ]
        return m.InstanceInfo(
            instance=stored.id, world=stored.world, turn=stored.turn, ended=stored.ended, players=players
        )

    # -- instances and sessions -----------------------------------------------------------------------

    async def create(self, params: m.CreateParams, *, author: bool = False, caller: str = "") -> m.CreateResult:
        """A new instance. The limits (in all, and per address for all but authors) are checked and its place
        taken before anything is awaited, so creates at once cannot pass them."""
        taken = {**self.instances, **self._making, **self.stale, **self.dormant}  # stale ids too
        instance_id = _new_id(taken, self.owns)
        self._check_room(author, caller)
        self._making[instance_id] = caller
        try:
            return await self._create(instance_id, params, author, caller)
        finally:
            del self._making[instance_id]

    def _check_room(self, author: bool, caller: str) -> None:
        if len(self.instances) + len(self.dormant) + len(self._making) >= self.limits.instances:
            most = self.limits.instances
            raise RpcError(
                Code.RATE_LIMITED,
                f"this server holds as many instances as it may ({most}): join one of them (see `instances`)",
                {"limit": "instances", "max": most},
            )
        if author:
            return
        mine = sum(1 for i in self.instances.values() if i.creator == caller and not i.kept)
        mine += sum(1 for d in self.dormant.values() if d.creator == caller and not d.kept)
        mine += sum(1 for making in self._making.values() if making == caller)
        if mine >= self.limits.per_address:
            most = self.limits.per_address
            raise RpcError(
                Code.RATE_LIMITED,
                f"this address has made as many live instances as one may ({most}): join one, or wait for an "
                "idle one to be retired",
                {"limit": "instances_per_address", "max": most},
            )

    async def _create(self, instance_id: str, params: m.CreateParams, author: bool, caller: str) -> m.CreateResult:
        # A world named by path is a Python file run on this machine: only an author may have one run.
        with engine_errors("world"):
            definition = load_world(params.world, allow_paths=author)
        library = await reading_spins(params.spin, author)
        seed = params.seed if params.seed is not None else secrets.randbelow(2**31)
        story = Story(definition, seed=seed)
        if params.spin is not None:
            with engine_errors("spin"):
                story.spin = spun_argument(story.spin, params.spin, story, library)
                story.check_spin(story.spin)
        if not definition.interactive:
            with engine_errors():
                story.run_to_end()
        instance = Instance(
            id=instance_id,
            world=params.world,
            seed=seed,
            story=story,
            creator=caller,
            kept=author,
            clock=self.clock,
        )
        async with instance.lock:
            await self.keeper.created(instance, spin_settings(story.spin))
        self.instances[instance.id] = instance
        return m.CreateResult(instance=instance.id)

    def instance(self, instance_id: str) -> Instance:
        instance = self.instances.get(instance_id)
        if instance is None:
            stale = self.stale.get(instance_id)
            if stale is not None:
                raise RpcError(
                    Code.UNKNOWN, f"instance {instance_id!r} is not loaded: {stale.reason}", {"field": "instance"}
                )
            raise RpcError(Code.UNKNOWN, f"no instance {instance_id!r}", {"field": "instance"})
        return instance

    def admit(self, caller: str, cost: float = 1) -> bool:
        """Whether a caller (by address) may make `cost` more requests that need no session: `create`,
        `join`… are limited too, or anyone could fill the server with instances."""
        if len(self._callers) > 10_000:
            self._callers.clear()  # forget old callers rather than grow without bound
        return self._callers.setdefault(caller, Bucket(self.clock)).admit(self._shared, cost)

    def charge(self, session: Session | None, caller: str, cost: float) -> None:
        """Take `cost` more after the fact from the session (or, without one, the address) that made a call."""
        if cost <= 0:
            return
        if session is not None:
            session.bucket.charge(self.limits, cost)
        else:
            self._callers.setdefault(caller, Bucket(self.clock)).charge(self._shared, cost)

    @property
    def _shared(self) -> Limits:
        # One address may stand for many people (a household, a lab): it gets ten sessions' worth.
        return Limits(rate=self.limits.rate * 10, burst=self.limits.burst * 10)

    def weigh(self, text: str) -> int:
        """The commands in a line, as the player's own pipeline splits it: each is a turn, and each is charged
        to the session's rate as a request. A line holding more than `limits.commands` is refused (-32602)."""
        count = max(1, len(split_commands(text)))
        if count > self.limits.commands:
            reason = f"a line may hold at most {self.limits.commands} commands; this one holds {count}"
            raise RpcError(Code.INVALID_PARAMS, reason, {"field": "text", "reason": reason})
        return count

    async def detach_idle(self, grace: float) -> list[Session]:
        """Detach the seated sessions that have had no connection for `grace` seconds: no socket bound, no
        request. Their actors go back to their scripts, and the others hear they left."""
        now = self.clock()
        idle = [
            s
            for s in self.sessions.values()
            if not s.detached and not s.listeners and not s.lock.locked() and now - s.seen > grace
        ]
        for session in idle:
            await self.detach(session)
        return idle

    async def detach(self, session: Session) -> None:
        instance = session.instance
        async with instance.lock:
            if session.detached or instance.sessions.get(session.token) is not session:
                return
            del instance.sessions[session.token]
            instance.away[session.token] = session
            session.detached = True
            instance.story.release(session.actor)
            await self._kept(instance)
            event = m.Presence(instance=instance.id, name=session.name, actor=session.actor, event="left")
            self._tell_others(session, "presence", event)

    async def seat(self, session: Session) -> None:
        """Seat a detached session again, as its actor's player: -32004 if someone else plays it now."""
        if not session.detached:
            return
        instance = session.instance
        async with instance.lock:
            if not session.detached:
                return
            holder = instance.player_of(session.actor)
            if holder is not None:
                raise RpcError(
                    Code.UNAVAILABLE,
                    f"while this session was away, {session.actor} was taken up by {holder.name}; "
                    "join as another actor, or leave",
                    {"actor": session.actor},
                )
            del instance.away[session.token]
            instance.sessions[session.token] = session
            session.detached = False
            session.seen = self.clock()
            if instance.story.definition.interactive:
                instance.story.take(session.actor)
            await self._kept(instance)
            event = m.Presence(instance=instance.id, name=session.name, actor=session.actor, event="joined")
            self._tell_others(session, "presence", event)

    async def resume(self, token: str, caller: str = "") -> tuple[Session, m.ResumeResult]:
        """The session of `token`, seated again if it was detached. A token that names no session counts as a
        wrong guess from `caller`; while it is locked out, none is tried."""
        wait = self.lockout.locked(caller)
        if wait:
            raise RpcError(
                Code.RATE_LIMITED,
                f"too many wrong tokens from this address: try again in {wait:.0f} s",
                {"retry_after": round(wait, 1)},
            )
        if not self.knows_token(token):
            self.lockout.failed(caller)
        await self.awaken(token)
        session = self.session(token)
        async with session.lock:
            await self.seat(session)
            session.seen = self.clock()
        instance = session.instance
        return session, m.ResumeResult(instance=instance.id, actor=session.actor, turn=instance.story.turn)

    async def expire(self, idle: float) -> list[Session]:
        """Let go of sessions with no open socket that made no request for `idle` seconds: their actors are
        free again (if they were not already), and their tokens no longer resume (-32002). An instance not
        loaded yet is brought back for it only when one of its sessions is due."""
        for id_ in [i for i, kept in self._asleep.items() if any(time.time() - s.seen > idle for s in kept if s.seen)]:
            await self.loaded(id_)
        now = self.clock()
        stale = [s for s in self.sessions.values() if not s.listeners and not s.lock.locked() and now - s.seen > idle]
        for session in stale:
            await self.leave(session)
        return stale

    async def retire_idle(self, idle: float) -> list[Instance]:
        """Retire the instances nobody plays (no session, seated or away) that have not changed for `idle`
        seconds, unless an author made them: they go from the server and from its store, and their ids are
        unknown from then on. What makes an instance idle is written in docs/security.md. One not loaded yet is
        brought back for it only when it is due."""
        due = [
            d.id
            for d in self.dormant.values()
            if not d.kept and d.id not in self._asleep and d.active and time.time() - d.active > idle
        ]
        for id_ in due:
            await self.loaded(id_)
        now = self.clock()
        idle_ones = [
            i
            for i in self.instances.values()
            if not i.kept and not i.sessions and not i.away and not i.lock.locked() and now - i.active > idle
        ]
        for instance in idle_ones:
            async with instance.lock:
                if instance.sessions or instance.away or self.instances.get(instance.id) is not instance:
                    continue
                del self.instances[instance.id]
                await self.keeper.retired(instance)
        return idle_ones

    async def unload_idle(self, after: float) -> list[str]:
        """Let the loaded instances unused for `after` seconds leave memory (only with a store to read them back
        from): each is known but not loaded again, as at start-up, listed from its stored row, its sessions'
        tokens parked, and brought back from the store on its next use. Unused: no request from any of its
        sessions, no change and no session seated for `after`, no socket bound to any of its sessions, no call
        on it under way, and every change of it stored (the keeper says). The ids of those unloaded: not the
        instances, which nothing is to hold on to."""
        now = self.clock()
        due = [i.id for i in self.instances.values() if not i.lock.locked() and _unused(i, now, after)]
        return [id_ for id_ in due if id_ in self.instances and await self._unload(self.instances[id_], after)]

    async def _unload(self, instance: Instance, after: float) -> bool:
        async with instance.lock:
            if self.instances.get(instance.id) is not instance:
                return False
            try:
                stored = await self.keeper.unloading(instance)
            except Exception:  # the store fails: the instance stays, and its next change says so
                log.exception("instance %s: not unloaded", instance.id)
                return False
            # Reading the store gave the loop to others: a call that came for the instance meanwhile keeps it.
            if (
                stored is None
                or self.instances.get(instance.id) is not instance
                or not _unused(instance, self.clock(), after)
            ):
                return False
            del self.instances[instance.id]
            for session in (*instance.sessions.values(), *instance.away.values()):
                self.sessions.pop(session.token, None)
                if session.sequence.recent:
                    self._numbering[session.token] = session.sequence
            # The instance and its sessions refer to each other: emptied, it is freed at once by reference
            # counting, with no collection (which would never reach it once frozen: server/heap.py).
            instance.sessions.clear()
            instance.away.clear()
            self._shelve(stored)
            await self.keeper.unloaded(instance.id)
        return True

    async def open(self) -> None:
        """Read what the lobby needs of the keeper's instances (their rows, and their sessions' tokens) and load
        none of them: each is brought back on its first use, so a restart takes no longer for more instances."""
        self._shelve(await self.keeper.lobby(self.owns))

    def _shelve(self, lobby: Reloaded) -> None:
        """Stored instances known (listed, their tokens resuming) and not loaded, until their first use."""
        for stored in lobby.rows:
            self.dormant[stored.id] = stored
        for stored_session in lobby.sessions:
            if stored_session.instance in self.dormant:
                self.parked[stored_session.token] = stored_session.instance
                self._asleep.setdefault(stored_session.instance, []).append(stored_session)

    async def adopt(self, instance_id: str) -> None:
        """Take up an instance this node has just claimed the lease of, from the store: another node may have
        written it since this one last held it, so whatever this one had of it is let go first."""
        instance = self.instances.pop(instance_id, None)
        for token in [*instance.sessions, *instance.away] if instance is not None else ():
            self.sessions.pop(token, None)
        for token in [token for token, held in self.parked.items() if held == instance_id]:
            del self.parked[token]
        self.stale.pop(instance_id, None)
        self.dormant.pop(instance_id, None)
        self._asleep.pop(instance_id, None)
        self._shelve(await self.keeper.lobby_of(instance_id))

    def instance_of(self, token: str) -> str | None:
        """The id of the instance of the session of `token` this host knows (live or parked), if it knows it."""
        session = self.sessions.get(token)
        return session.instance.id if session is not None else self.parked.get(token)

    async def loaded(self, instance_id: str) -> Instance:
        """The instance of that id, brought back first if it is not loaded yet: calls that come while it is
        being brought back wait for that one load. Unknown, or out of service, raises as `instance` does."""
        if instance_id not in self.instances and instance_id in self.dormant:
            loading = self._loading.get(instance_id)
            if loading is None:
                loading = asyncio.ensure_future(self._wake(instance_id))
                self._loading[instance_id] = loading
                loading.add_done_callback(lambda _: self._loading.pop(instance_id, None))
            await asyncio.shield(loading)  # one caller going away does not cut the load short for the others
        return self.instance(instance_id)

    async def awaken(self, token: str | None) -> None:
        """Bring back the instance of a session not loaded yet, so the token names a live session again."""
        instance_id = self.parked.get(token or "")
        if instance_id is not None and instance_id in self.dormant:
            await self.loaded(instance_id)

    async def _wake(self, instance_id: str) -> None:
        started = time.perf_counter()
        await self.reload(only=instance_id)  # a damaged store raises: it stays not loaded, to be tried again
        self.dormant.pop(instance_id, None)  # loaded, or out of service (stale) and saying why
        self._asleep.pop(instance_id, None)
        log.info("instance %s brought back on first use in %.3f s", instance_id, time.perf_counter() - started)

    async def reload(self, only: str | None = None) -> None:
        """Bring back what the keeper holds (or, `only`, that one instance and its sessions): each instance it
        could resume is loaded again, the others are out of service (and say why); each stored session is
        seated in its instance again, or parked until that is loaded. A damaged store raises StoreError."""
        reloaded = await self.keeper.restore(only, self.owns)
        for stale in reloaded.stale:
            self.stale[stale.id] = stale
        for stored, story in reloaded.stories:
            self.stale.pop(stored.id, None)
            instance = Instance(
                id=stored.id,
                world=stored.world,
                seed=stored.seed,
                story=story,
                clock=self.clock,
                creator=stored.creator,
                kept=stored.kept,
            )
            instance.active = since(self.clock(), stored.active)
            self.instances[stored.id] = instance
        for stored_session in reloaded.sessions:
            self._reseat(stored_session)

    def _reseat(self, stored: StoredSession) -> None:
        """A stored session, seated again in its loaded instance (away, if it was detached), or parked."""
        numbering = self._numbering.pop(stored.token, None)
        if numbering is not None and stored.seq > numbering.reserved():
            numbering = None  # numbered further since, by another node that held the instance meanwhile
        instance = self.instances.get(stored.instance)
        if instance is None:  # its instance is not loaded: the session is kept in the store for when it is
            self.parked[stored.token] = stored.instance
            return
        self.parked.pop(stored.token, None)
        try:
            player = Player(instance.story, stored.actor, author=stored.author, named_spins=spin_library(stored.author))
            player.spin = msgspec.convert(stored.spin, Spin)
            # Checked again as when it was set: a session stored by an older server, or a file edited by
            # hand, may not tell through an actor, or command one, its player may not use.
            instance.story.check_spin(player.spin)
            player.check_focalizer(player.spin)
        except (EngineError, msgspec.ValidationError) as error:
            log.warning("session of %s in %s not brought back: %s", stored.name, instance.id, error)
            return
        player.discourse = Discourse(mentioned=frozenset(stored.mentioned))
        session = Session(
            stored.token,
            instance,
            stored.actor,
            stored.name,
            stored.author,
            player,
            detached=stored.detached,
            sequence=numbering or Sequence(last=stored.seq, limit=self.limits.kept),
        )
        session.seen = since(self.clock(), stored.seen)
        # A detached session stays away (its actor was let go, as the log says) until it is resumed.
        seats = instance.away if session.detached else instance.sessions
        seats[session.token] = session
        self.sessions[session.token] = session

    async def revive(self) -> list[str]:
        """Bring back the instances taken out of service because a change could not be stored, once the store
        takes a write again (space freed, the disk back): each as it was last stored, its sessions seated
        again. The ids brought back."""
        waiting = [id_ for id_, stale in self.stale.items() if stale.retry]
        if not waiting or not await self.keeper.writable(waiting[0]):
            return []  # still full, or still failing: the next sweep tries again
        back = []
        for id_ in waiting:
            await self.reload(only=id_)
            if id_ in self.instances:
                log.info("instance %s back in service: the store takes writes again", id_)
                back.append(id_)
        return back

    async def _kept(self, instance: Instance, gone: tuple[str, ...] = ()) -> None:
        """Write what changed in `instance` to the store, if there is one, before anything is answered. If it
        cannot be written (a full or failing disk; on PostgreSQL, another server took the instance over), the
        change must not be seen as made: the instance is taken out of service here, and comes back as it was
        last stored (here once the store takes writes again, or on the server that holds it now)."""
        instance.active = self.clock()
        try:
            await self.keeper.changed(instance, gone)
        except Fenced as fenced:
            # Not a failure of this server's: the lease passed to another (this one was paused, or cut off from
            # the database, past it), which reads the log back and serves the instance from there.
            log.warning("instance %s: taken over by another server; out of service here (%s)", instance.id, fenced)
            self._out_of_service(instance, "another server took it over and serves it now")
            raise RpcError(
                Code.INTERNAL_ERROR,
                f"Another server took instance {instance.id} over, so this change was not made here: it is served "
                "there now, as it was last stored. Connect again (or try again shortly) to go on playing there.",
            ) from None
        except Exception:
            log.exception("instance %s: a change could not be stored; taken out of service", instance.id)
            self._out_of_service(
                instance, "its last change could not be stored; it is out of service until the store takes writes again"
            )
            raise RpcError(
                Code.INTERNAL_ERROR,
                f"The change could not be stored, so it is not made: instance {instance.id} is out of service "
                "until the store takes writes again (or the server restarts), and comes back then as it was last "
                "stored.",
            ) from None

    def _out_of_service(self, instance: Instance, reason: str) -> None:
        """`instance` taken out of memory, saying `reason` to later calls; its sessions parked, each to be seated
        again when it is brought back (`revive` tries once the store takes a write for it)."""
        self.stale[instance.id] = Stale(instance.id, instance.world, reason, retry=True)
        self.instances.pop(instance.id, None)
        for token in (*instance.sessions, *instance.away):
            self.sessions.pop(token, None)
            self.parked[token] = instance.id

    async def join(self, params: m.JoinParams, *, author: bool) -> tuple[Session, m.JoinResult]:
        while True:
            instance = await self.loaded(params.instance)
            joined = await self._join(instance, params, author)
            if joined is not None:
                return joined

    async def _join(
        self, instance: Instance, params: m.JoinParams, author: bool
    ) -> tuple[Session, m.JoinResult] | None:
        """Join `instance`; None if it was unloaded while this call waited for it (it is loaded again then)."""
        story = instance.story
        actor = params.actor or story.definition.player
        if actor not in story.simulation.concepts:
            raise RpcError(Code.UNKNOWN, f"{actor} is not an actor in {instance.world}", {"field": "actor"})
        if actor not in story.definition.players() and not author:
            raise RpcError(Code.UNAVAILABLE, f"{actor} is not playable in {instance.world}", {"field": "actor"})
        library = await reading_spins(params.spin, author)
        async with instance.lock:
            if self.instances.get(instance.id) is not instance:
                return None
            holder = instance.player_of(actor)
            if holder is not None:
                raise RpcError(Code.UNAVAILABLE, f"{actor} is already played by {holder.name}", {"field": "actor"})
            player = Player(
                story, actor, spin=_told_by(story, actor, author), author=author, named_spins=spin_library(author)
            )
            with engine_errors("spin"):
                if params.spin is not None:
                    player.spin = spun_argument(player.spin, params.spin, player.story, library)
                # Checked even without a spin asked for: the instance's own spin (given at creation) may tell
                # through, or command, someone else; and before the actor is taken, so a refusal leaves no trace.
                story.check_spin(player.spin)
                player.check_focalizer(player.spin)
            token = secrets.token_urlsafe(24)
            name = params.name or actor.lstrip("@")
            session = Session(
                token,
                instance,
                actor,
                name,
                author,
                player,
                sequence=Sequence(limit=self.limits.kept),
            )
            if story.definition.interactive:
                story.take(actor)
            opening = player.opening()
            instance.sessions[token] = session
            self.sessions[token] = session
            await self._kept(instance)
            self._tell_others(
                session, "presence", m.Presence(instance=instance.id, name=name, actor=actor, event="joined")
            )
        result = m.JoinResult(
            token=token,
            instance=instance.id,
            actor=actor,
            turn=story.turn,
            text=opening.text,
            blocks=blocks(opening),
        )
        return session, result

    async def fork(self, session: Session, caller: str = "") -> tuple[Session, m.ForkResult]:
        """A new instance, a copy of the session's at its turn (world, seed, log, saves, undo), and a new session
        in it for the same actor, with the session's spin and what it was told: the caller plays on there
        alone (the copy's other actors keep to their scripts). The original is left as it was. Held to the
        same limits as `create`, checked, and its place taken, before anything is awaited."""
        taken = {**self.instances, **self._making, **self.stale, **self.dormant}
        instance_id = _new_id(taken, self.owns)
        self._check_room(session.author, caller)
        self._making[instance_id] = caller
        try:
            return await self._fork(instance_id, session, caller)
        finally:
            del self._making[instance_id]

    async def _fork(self, instance_id: str, session: Session, caller: str) -> tuple[Session, m.ForkResult]:
        original = session.instance
        async with original.lock:
            with engine_errors():
                story = _copied(original.story)
            player = Player(story, session.actor, author=session.author, named_spins=spin_library(session.author))
            player.spin, player.discourse = session.player.spin, session.player.discourse
        for actor in sorted(story.simulation.played - {session.actor}):
            story.release(actor)  # nobody plays them in the copy
        if story.definition.interactive:
            story.take(session.actor)
        instance = Instance(
            id=instance_id,
            world=original.world,
            seed=original.seed,
            story=story,
            creator=caller,
            kept=session.author,
            clock=self.clock,
        )
        token = secrets.token_urlsafe(24)
        forked = Session(
            token,
            instance,
            session.actor,
            session.name,
            session.author,
            player,
            sequence=Sequence(limit=self.limits.kept),
        )
        instance.sessions[token] = forked
        async with instance.lock:  # stored like a new instance, with its whole log and the new session
            await self.keeper.created(instance, spin_settings(story.spin))
        self.instances[instance.id] = instance
        self.sessions[token] = forked
        result = m.ForkResult(
            token=token, instance=instance.id, actor=session.actor, turn=story.turn, origin=original.id
        )
        return forked, result

    def session(self, token: str | None) -> Session:
        session = self.sessions.get(token or "")
        if session is None:
            parked = self.parked.get(token or "")
            if parked is not None and parked in self.stale:
                reason = self.stale[parked].reason
                raise RpcError(Code.NO_SESSION, f"this session's instance {parked!r} is not loaded: {reason}")
            raise RpcError(Code.NO_SESSION, "no session: join an instance, or give its token")
        return session

    async def leave(self, session: Session) -> m.Empty:
        """The session ends: its token no longer works. A seated one's actor goes back to its script and the
        others hear it left; a detached one had done both already (its actor may be someone else's now)."""
        instance = session.instance
        async with instance.lock:
            self.sessions.pop(session.token, None)
            if instance.away.pop(session.token, None) is not None:
                await self._kept(instance, gone=(session.token,))
            elif instance.sessions.pop(session.token, None) is not None:
                instance.story.release(session.actor)
                await self._kept(instance, gone=(session.token,))
                event = m.Presence(instance=instance.id, name=session.name, actor=session.actor, event="left")
                self._tell_others(session, "presence", event)
        session.listeners.clear()
        return m.Empty()

    # -- playing ------------------------------------------------------------------------------------

    async def command(self, session: Session, text: str) -> m.Reply:
        instance = session.instance
        async with instance.lock:
            shared = None
            for part in split_commands(text) or [text]:
                found = session.player.directives.match(part)
                if found is not None and found[0].name == "save":
                    self._check_save(instance, found[1].group(1) or "default")  # as the directive names it
                if found is not None and found[0].name in SHARED:
                    self._check_alone(session, found[0].name)
                    shared = found[0].name
            was_over = instance.story.ended
            where = _where(instance.story)
            news: list[tuple[Session, m.Narration]] = []
            try:
                with engine_errors("text"):
                    telling = session.player.command(text, lambda turn: news.extend(self._news(session, turn)))
            finally:
                await self._kept(instance)  # what happened before an error is kept too
                # Told to the others only once it is kept: nobody hears of a turn a crash could still take back.
                for other, narration in news:
                    other.notify("narration", narration)
            reply = self._reply(instance, telling)
            if shared is not None:
                self._tell_rewound(session, shared, where)
            if instance.story.ended and not was_over:
                ended = m.Ended(instance=instance.id, turn=instance.story.turn)
                for other in instance.sessions.values():
                    other.notify("ended", ended)
        return reply

    def _news(self, session: Session, turn: Turn) -> list[tuple[Session, m.Narration]]:
        """What every other session's actor perceived of a turn it did not take, told as the turn is taken
        (each through its own spin), to be sent once the turn is kept."""
        instance = session.instance
        news = []
        for other in instance.sessions.values():
            if other is session:
                continue
            telling = other.player.news(turn)
            if telling is not None:
                narration = m.Narration(
                    instance=instance.id, turn=instance.story.turn, text=telling.text, blocks=blocks(telling)
                )
                news.append((other, narration))
        return news

    async def narrate(self, session: Session, params: m.NarrateParams) -> m.Reply:
        instance = session.instance
        library = await reading_spins(params.spin, session.author)
        async with instance.lock:
            player = session.player
            asked = params.spin
            with engine_errors("spin"):
                spin = player.spin if asked is None else spun_argument(player.spin, asked, player.story, library)
                if params.window is not None:
                    spin = msgspec.structs.replace(spin, window=params.window)
                steps = player.recounting(spin)
            # Told in pieces, the loop given back between them: a story thousands of turns long takes a large
            # part of a second to tell, and other instances' players are answered meanwhile; the lock keeps this
            # story still, and this instance's calls in their order.
            telling = await _in_pieces(steps, "spin")
            return self._reply(instance, telling)

    async def spin(self, session: Session, params: m.SpinParams) -> m.SpinResult:
        player = session.player
        if params.set:
            asked = params.set
            library = await reading_spins(asked, session.author)
            with engine_errors("set"):
                changed = spun_argument(player.spin, asked, player.story, library)
                player.check_focalizer(changed)
            player.spin = changed
            async with session.instance.lock:
                await self._kept(session.instance)
        return m.SpinResult(spin=player.spin)

    async def concept(self, session: Session, params: m.ConceptParams) -> m.ConceptResult:
        actor = params.actor or session.actor
        async with session.instance.lock:
            # An actor the world does not have is unknown (-32001) to everyone, not forbidden to players.
            with engine_errors("actor"):
                session.instance.story.check_actor(actor)
                text = session.player.concept_listing(actor)
            tree = session.instance.story.concept_tree(actor)
        return m.ConceptResult(actor=actor, tree=node(tree), text=text)

    async def world(self, session: Session) -> m.WorldResult:
        if not session.author:
            raise RpcError(Code.FORBIDDEN, "The true world is for authors only.")
        async with session.instance.lock:
            tree = session.instance.story.world_tree()
        return m.WorldResult(tree=node(tree), text=listing(tree))

    async def undo(self, session: Session) -> m.Reply:
        return await self._alone(session, "undo")

    async def restart(self, session: Session) -> m.Reply:
        return await self._alone(session, "restart")

    async def _alone(self, session: Session, directive: str) -> m.Reply:
        """Undo and restart change the story for everyone: only a player alone in it (or an author) may."""
        instance = session.instance
        async with instance.lock:
            self._check_alone(session, directive)
            where = _where(instance.story)
            with engine_errors():
                telling = session.player.command(directive)
            await self._kept(instance)
            self._tell_rewound(session, directive, where)
            return self._reply(instance, telling)

    def _check_save(self, instance: Instance, name: str) -> None:
        """A new save beyond the most an instance keeps is refused: each holds the whole log, so saves without
        end would fill the disk and slow every restart."""
        saves = instance.story.saves
        if name in saves or len(saves) < self.limits.saves:
            return
        most = self.limits.saves
        raise RpcError(
            Code.RATE_LIMITED,
            f"this story keeps at most {most} saves, and has them all: save under a name already used "
            f"({', '.join(sorted(saves)[:5])}…) to replace it",
            {"limit": "saves", "max": most},
        )

    async def save(self, session: Session, name: str) -> m.SaveResult:
        instance = session.instance
        async with instance.lock:
            self._check_save(instance, name)
            instance.story.save(name)
            await self._kept(instance)
            return m.SaveResult(name=name, turn=instance.story.turn)

    async def restore(self, session: Session, name: str) -> m.SaveResult:
        instance = session.instance
        async with instance.lock:
            self._check_alone(session, "restore")
            where = _where(instance.story)
            with engine_errors("name"):
                session.player.restore(name)
            await self._kept(instance)
            self._tell_rewound(session, "restore", where)
            return m.SaveResult(name=name, turn=instance.story.turn)

    async def actions(self, session: Session) -> m.ActionsResult:
        async with session.instance.lock:
            story = session.instance.story
            commands: list[str] = []
            if not story.ended:
                with engine_errors():
                    steps = story.trying_commands(session.actor)
                # Tried in pieces, the loop given back between them: other instances' players are answered
                # meanwhile, while the lock keeps this story still.
                commands = await _in_pieces(steps)
        return m.ActionsResult(commands=commands)

    async def state(self, session: Session) -> m.StateResult:
        instance = session.instance
        async with instance.lock:
            world = instance.story.simulation.world
            room = world.room_of(session.actor)
            keeper = instance.story.definition.score
            points, most = keeper(world) if keeper is not None else (0, 0)
            return m.StateResult(
                instance=instance.id,
                world=instance.world,
                actor=session.actor,
                turn=instance.story.turn,
                room=room,
                room_name=title(world.items.get(room or "")),
                inventory=list(world.children[session.actor]),
                ended=instance.story.ended,
                hash=world.digest(),
                author=session.author,
                interactive=instance.story.definition.interactive,
                focalizers=session.player.focalizers(),
                concepts=session.player.readable_concepts(),
                score=points,
                max_score=most,
                moves=session.moves.count(instance.story, session.actor),
            )

    async def vocabulary(self, session: Session) -> m.VocabularyResult:
        async with session.instance.lock:
            names = session.player.known_names()
        return vocabulary_result(names)

    async def realize(self, session: Session, params: m.RealizeParams) -> m.RealizeResult:
        player = session.player
        library = await reading_spins(params.spin, session.author)
        async with session.instance.lock:
            asked = params.spin
            with engine_errors("spin"):
                spin = player.spin if asked is None else spun_argument(player.spin, asked, player.story, library)
                player.check_focalizer(spin)
            story = player.story
            with engine_errors("template"):
                text = render(
                    story.simulation,
                    spin,
                    params.template,
                    focalizer=story.focalizer(spin),
                    seed=story.seed,
                    discourse=player.discourse,
                )
        return m.RealizeResult(text=text)

    # -- helpers --------------------------------------------------------------------------------------

    def _reply(self, instance: Instance, telling: Telling) -> m.Reply:
        return m.Reply(text=telling.text, blocks=blocks(telling), turn=instance.story.turn, ended=instance.story.ended)

    def _check_alone(self, session: Session, directive: str) -> None:
        """Undo, restart and restore change the story for everyone: only a player alone in it (or an author)."""
        if len(session.instance.sessions) > 1 and not session.author:
            raise RpcError(
                Code.FORBIDDEN,
                f"{directive.capitalize()} is only for a player alone in the story: it would change it for everyone.",
            )

    def _tell_rewound(self, session: Session, directive: str, where: tuple[int, int]) -> None:
        """An author took the story back (undo, restart, restore) with others in it: each of them is told, as a
        narration at the turn the story is at now, who did what and where its own actor is now."""
        story = session.instance.story
        if _where(story) == where:
            return  # nothing was taken back (nothing to undo, say)
        done = REWOUND[directive]
        for other in session.instance.sessions.values():
            if other is session:
                continue
            text = f"{session.name} {done}; it is turn {story.turn} now. {other.player.situation()}".strip()
            block = m.Block(kind="paragraph", text=text)
            other.notify(
                "narration", m.Narration(instance=session.instance.id, turn=story.turn, text=text, blocks=[block])
            )

    def _tell_others(self, session: Session, method: str, params: m.Result) -> None:
        for other in session.instance.sessions.values():
            if other is not session:
                other.notify(method, params)


def _told_by(story: Story, actor: str, author: bool) -> Spin:
    """The spin a player of `actor` starts from: the instance's own (given at its creation), unless it tells
    through, or commands, an actor this player may not use. Then it is the same telling with that actor
    replaced by the player's wherever it stands (focalizer, commanded, narrator, narratee): the guard's
    account to the teller, joined as the robber, becomes the robber's account to the teller; joined as the
    teller, the teller's account to the guard."""
    spin = story.spin
    if author or not story.definition.interactive:
        return spin
    focalizer = story.focalizer(spin)
    if focalizer == actor and spin.commanded in (None, actor):
        return spin
    others = {focalizer, spin.commanded} - {None, actor}

    def swapped(tag: str | None) -> str | None:
        return actor if tag in others else tag

    narrator, narratee = swapped(spin.narrator), swapped(spin.narratee)
    if narratee == actor == narrator:  # told to the player's actor, by it now: told to the one it replaced
        narratee = focalizer
    return msgspec.structs.replace(
        spin, focalizer=actor, commanded=swapped(spin.commanded), narrator=narrator, narratee=narratee
    )


async def _in_pieces(steps: Generator[None, None, T], field: str | None = None) -> T:
    """Engine work in pieces (a generator that pauses between them) run to its end, the event loop given back
    after each piece; each piece's errors are the protocol's (`field` at fault) and its time is charged."""
    while True:
        with engine_errors(field):
            try:
                next(steps)
            except StopIteration as done:
                return done.value  # type: ignore[no-any-return]
        await asyncio.sleep(0)


def _copied(story: Story) -> Story:
    """The story as it stands, as a new one: resumed from a snapshot of it, or, while a question waits for its
    answer (no snapshot then), rebuilt by replaying its log. Either is exact: the engine is deterministic."""
    if story.settled:
        return copied(story)
    copy = Story(story.definition, seed=story.seed, spin=story.spin)
    if not story.definition.interactive:
        copy.run_to_end()
    copy.apply(tuple(story.log))
    copy.saves = dict(story.saves)
    return copy


def _unused(instance: Instance, now: float, after: float) -> bool:
    """Whether nobody has used `instance` for `after` seconds: no change, no session seated and no request from
    any of its sessions; none of them with a socket bound (a watched story stays), none of them mid-call, and
    no message of theirs holding its turns."""
    sessions = (*instance.sessions.values(), *instance.away.values())
    if instance.turns.locked() or any(s.listeners or s.lock.locked() for s in sessions):
        return False
    return now - max((instance.active, *(s.seen for s in sessions))) > after


def _where(story: Story) -> tuple[int, int]:
    """Where a story stands: its turn and the length of its log (a restart at turn 0 still cuts the log)."""
    return story.turn, len(story.log)


def _new_id(taken: dict[str, Any], owns: Callable[[str], bool]) -> str:
    while True:
        candidate = secrets.token_hex(4)
        if candidate not in taken and owns(candidate):
            return candidate
