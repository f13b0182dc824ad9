"""What the client knows of its session between turns: the world, actor, room, turn, spin, the names its actor
knows and the commands that would succeed now.

It is refreshed after each turn with one batch (`state`, `spin`, `concept` — cheap, and one round trip); the
terminal's toolbar shows it and its completer offers its names. The commands that would succeed now
(`actions`) are asked for only when Tab needs them, once a turn: working them out tries every command (0.2-0.4
s of engine in Lost One), which a server charges to the player's allowance as the work it is. Refreshes are
coalesced: one runs at a time, and turns that come meanwhile ask for one more after it, never a queue.

A concept's nodes say what kind each item is (actor, room, thing…); `state` names the room as the story heads
it ("Foyer Bar") and says whose concepts this session may read and whom it may tell through. The words every
story understands (`vocabulary`) are asked for once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from clients.cli.vocabulary import Vocabulary
from clients.connection import CallError, Connection, ConnectionLost, Retrying, Status
from protocol import messages as m
from protocol.spin import Spin

COSMOS = "@cosmos"
"""The root of every tree: no name anyone types."""


@dataclass(eq=False)
class Scene:
    conn: Connection
    instance: str
    actor: str
    turn: int = 0
    world: str = ""
    room: str | None = None
    room_title: str = ""
    """The room as the story heads it ("Foyer Bar"), from `state`."""
    ended: bool = False
    spin: Spin | None = None
    known: dict[str, str] = field(default_factory=dict)
    """Tag to name, for everything the actor's concept holds (the actor and the cosmos aside)."""
    actions: list[str] = field(default_factory=list)
    """Commands that would succeed now, as the server words them ("hang velvet cloak on small brass hook")."""
    actions_turn: int | None = None
    """The turn `actions` were asked at (None: not yet): they are asked again at Tab once a turn has passed."""
    link: Status | None = None
    """The connection's last status, if it ever dropped."""
    retry: Retrying | None = None
    """While it is down: the last try to reach the server that found none, if one has been made."""
    actors: list[str] = field(default_factory=list)
    """The actors the concept holds (besides this session's own)."""
    readable: list[str] = field(default_factory=list)
    """The actors whose concepts this session may read (`state` says)."""
    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    """The words every story understands, once asked for (completion never waits for the server)."""
    rooms: set[str] = field(default_factory=set)
    """The rooms the actor knows."""
    listeners: list[Callable[[], None]] = field(default_factory=list)
    """Called after each refresh and status change (the terminal redraws its toolbar)."""
    _named: list[m.SpinInfo] | None = None
    _refreshing: asyncio.Task[None] | None = None
    _again: bool = False

    @classmethod
    def of(cls, conn: Connection, joined: m.JoinResult) -> Scene:
        return cls(conn, joined.instance, joined.actor, turn=joined.turn)

    @property
    def room_name(self) -> str:
        """The room as the story heads it ("Foyer Bar"), else as its concept names it ("bar"), else its tag,
        else nothing."""
        if self.room is None:
            return ""
        return self.room_title or self.known.get(self.room, self.room)

    @property
    def names(self) -> list[str]:
        """The names of things the actor knows, each once, in the concept's order."""
        return list(dict.fromkeys(self.known.values()))

    def things(self, *, looking: bool = False) -> list[str]:
        """The names a command's object may be, each once: what the actor knows but rooms;
        with `looking` (after a verb that looks at what it names), the room it is in too."""
        away = self.rooms - {self.room} if looking else self.rooms
        return list(dict.fromkeys(name for tag, name in self.known.items() if tag not in away))

    @property
    def askable(self) -> list[str]:
        """The actors whose concepts this session may read: its own, then the others it may."""
        return [self.actor, *(tag for tag in self.readable if tag != self.actor)]

    @property
    def actor_tags(self) -> list[str]:
        """Every actor known to be one, this session's own first."""
        return [self.actor, *self.actors]

    # -- keeping up ---------------------------------------------------------------------------------------

    def stale(self) -> None:
        """Something happened (a turn, a notification, a reconnection): refresh soon, coalesced."""
        if self._refreshing is not None and not self._refreshing.done():
            self._again = True
            return
        self._refreshing = asyncio.get_running_loop().create_task(self._refresh_while_stale())

    async def settled(self) -> None:
        """Wait for the refreshes under way (tests, and a reader who wants the scene as it is now)."""
        while self._refreshing is not None and not self._refreshing.done():
            await asyncio.shield(self._refreshing)

    async def close(self) -> None:
        if self._refreshing is not None:
            self._refreshing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._refreshing

    async def _refresh_while_stale(self) -> None:
        self._again = True
        while self._again:
            self._again = False
            with contextlib.suppress(ConnectionLost):  # said by the status; the next turn refreshes again
                await self.refresh()

    async def fetch_actions(self) -> list[str]:
        """The commands that would succeed now: asked for at most once a turn (the last ones kept if the server
        cannot say)."""
        if self.actions_turn != self.turn:
            turn = self.turn
            with contextlib.suppress(ConnectionLost, CallError):
                listed: m.ActionsResult = await self.conn.call("actions")
                self.actions, self.actions_turn = listed.commands, turn
        return self.actions

    async def refresh(self) -> None:
        """Ask for state, spin and concept in one batch (and the vocabulary, the first time); keep whatever
        came back."""
        calls: list[tuple[str, dict[str, Any]]] = [("state", {}), ("spin", {}), ("concept", {})]
        answers = await self.conn.batch(calls + ([("vocabulary", {})] if not self.vocabulary.verbs else []))
        state, spin, concept = answers[:3]
        if isinstance(state, m.StateResult):
            self.world, self.turn, self.room, self.ended = state.world, state.turn, state.room, state.ended
            self.room_title = state.room_name
            self.readable = state.concepts
        if isinstance(spin, m.SpinResult):
            self.spin = spin.spin
        if isinstance(concept, m.ConceptResult):
            nodes = [node for node in _walk(concept.tree) if node.tag not in (COSMOS, self.actor)]
            self.known = {node.tag: node.name for node in nodes}
            self.rooms = {node.tag for node in nodes if node.kind == "room"}
            self.actors = [node.tag for node in nodes if node.kind == "actor"]
        if answers[3:] and isinstance(answers[3], m.VocabularyResult):
            self.vocabulary = Vocabulary.of(answers[3])
        self.changed()

    @property
    def offline(self) -> bool:
        """Whether the connection is down (calls wait until it is back)."""
        return self.link is Status.RECONNECTING

    def heard(self, status: Status) -> None:
        self.link = status
        if status is not Status.RECONNECTING:
            self.retry = None
        self.changed()
        if status is Status.RESUMED:
            self.stale()

    def retried(self, retrying: Retrying) -> None:
        self.retry = retrying
        self.changed()

    def changed(self) -> None:
        for listener in self.listeners:
            listener()

    # -- named spins ----------------------------------------------------------------------------------------

    async def named_spins(self) -> list[m.SpinInfo]:
        """The server's named spins, asked for once."""
        if self._named is None:
            self._named = (await self.conn.call("spins")).spins
        return self._named

    @property
    def spin_names(self) -> list[str]:
        """The named spins, if they were asked for already (completion never waits for the server)."""
        return [each.name for each in self._named or []]

    async def learn_spins(self) -> None:
        """Ask for the named spins in the background, so completion can offer them."""
        with contextlib.suppress(CallError, ConnectionLost):
            await self.named_spins()


def _walk(node: m.Node) -> Iterator[m.Node]:
    yield node
    for child in node.children:
        yield from _walk(child)


def spin_summary(spin: Spin | None, actor: str) -> str:
    """A spin in a few words, for the toolbar: its time and order, then only what departs from the actor's own
    telling — who narrates, to whom, through whose eyes, which filters ("after, retrograde, told by @guard")."""
    if spin is None:
        return ""
    words = [f"time {spin.time}" if isinstance(spin.time, int | float) else spin.time, spin.order]
    if spin.narrator is not None:
        narrating = spin.focalizer or actor if spin.narrator == "focalizer" else spin.narrator
        words.append("told by you" if narrating == actor else f"told by {narrating}")
    if spin.narratee not in (None, actor):
        words.append(f"to {spin.narratee}")
    if spin.focalizer not in (None, actor):
        words.append(f"through {spin.focalizer}")
    if spin.filters:
        words.append("+".join(spin.filters))
    return ", ".join(words)
