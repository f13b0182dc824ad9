"""The instances a host holds and the sessions seated in them: who plays what, and what each is told."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from protocol import messages as m
from server.engine.actions.action import Event
from server.engine.player import Player
from server.engine.story import Story
from server.limits import Bucket, Limits
from server.sequence import Sequence

Notify = Callable[[str, m.Result], None]
"""Sends one notification to one session's connections: never blocks (slow clients are dealt with there)."""


@dataclass(eq=False)
class Moves:
    """The turns an actor took (those in which something it was commanded to do happened or was tried), counted
    as the story's events grow: each count reads only the events since the last, where counting afresh would
    cost more the longer the story (a `state` call made after every few commands)."""

    events: int = 0
    """The identity of the events list counted (the story's own: a restore puts a new one in its place)."""
    read: int = 0
    last: Event | None = None
    """The last event read: still there, at the same place, only if nothing read was taken back (an undo
    shortens the list, and what it makes after puts new events there)."""
    turns: int = 0
    turn: int = 0
    """The last turn counted (events come in the order of their turns)."""

    def count(self, story: Story, actor: str) -> int:
        events = story.simulation.events
        taken_back = len(events) < self.read or (self.read and events[self.read - 1] is not self.last)
        if id(events) != self.events or taken_back:
            self.events, self.read, self.turns, self.turn = id(events), 0, 0, 0
        for event in events[self.read :]:
            # Turn 0 is the opening, in which each playable actor looks around: no move of anyone's.
            if event.turn != self.turn and event.turn and event.cause == "command" and event.action.agent == actor:
                self.turns, self.turn = self.turns + 1, event.turn
        self.read, self.last = len(events), events[-1] if events else None
        return self.turns


@dataclass(eq=False)
class Session:
    """One player in one instance: its token, its actor, its name, and its Player (spin and discourse)."""

    token: str
    instance: Instance
    actor: str
    name: str
    author: bool
    player: Player
    listeners: set[Notify] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Holds one request of this session at a time, so its requests are handled in the order received."""
    bucket: Bucket = field(init=False)
    """Its rate limit, on its instance's clock (the host's)."""
    seen: float = field(init=False)
    """When it last made a request, lost its last socket, or was brought back (on the host's clock): a session
    unseen for a while with no socket is detached, and long after that it expires."""
    detached: bool = False
    """Away: not seated in its instance (its actor follows its script, anyone may take it up) until it is
    seated again by `resume` or a call acting for it."""
    sequence: Sequence = field(default_factory=Sequence)
    """Its numbered replies and notifications, the recent ones kept for `resume`."""
    moves: Moves = field(default_factory=Moves)
    """The turns its actor took, as `state` reports them."""

    def __post_init__(self) -> None:
        self.bucket = Bucket(self.instance.clock)
        self.seen = self.instance.clock()

    def admit(self, limits: Limits, cost: float = 1) -> bool:
        self.seen = self.instance.clock()
        return self.bucket.admit(limits, cost)

    def listen(self, listener: Notify) -> None:
        """A connection (a socket) is bound to this session: it hears its notifications."""
        self.listeners.add(listener)

    def unlisten(self, listener: Notify) -> None:
        """A connection is no longer bound to it: the time it has been without one counts from now."""
        if listener in self.listeners:
            self.listeners.discard(listener)
            self.seen = self.instance.clock()

    def notify(self, method: str, params: m.Result) -> None:
        """Numbered and kept (for a resume, whether or not a connection hears it now), then sent."""
        numbered = self.sequence.stamp(method, params)
        for listener in list(self.listeners):
            listener(method, numbered)


@dataclass(eq=False)
class Instance:
    """One running world: its story, its seed and creation spin, and who plays it."""

    id: str
    world: str
    seed: int
    story: Story
    clock: Callable[[], float]
    """The host's clock: what its idleness, and its sessions' idleness and rates, are measured on."""
    sessions: dict[str, Session] = field(default_factory=dict)
    """The sessions seated in it, by token: its players."""
    away: dict[str, Session] = field(default_factory=dict)
    """Its detached sessions, by token: they play nobody until seated again."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held by each call that reads or changes the story."""
    turns: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held by one message of its sessions at a time (taken by the dispatcher, which sees whole batches)."""
    creator: str = ""
    """The address it was made from, for the quota per address."""
    kept: bool = False
    """Made by an author: never retired for being idle."""
    active: float = field(init=False)
    """When it last changed, or last had a session seated (on its clock)."""

    def __post_init__(self) -> None:
        self.active = self.clock()

    def player_of(self, actor: str) -> Session | None:
        return next((s for s in self.sessions.values() if s.actor == actor), None)

    def info(self) -> m.InstanceInfo:
        players = [m.PlayerInfo(name=s.name, actor=s.actor) for s in self.sessions.values()]
        return m.InstanceInfo(
            instance=self.id, world=self.world, turn=self.story.turn, ended=self.story.ended, players=players
        )
