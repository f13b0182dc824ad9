"""A running story: one world instance, its simulation, the commands given to it, and tellings of it.

A story, in order:
1. Made from a world definition and a seed: the world is set up, every actor takes in what it sees, and in
   an interactive world each playable actor looks around (the opening, turn 0).
2. Run: a non-interactive world runs its whole timeline as one turn; in an interactive one each command is
   recognized for the actor that gave it and becomes one tick (a turn), with every other actor acting too.
3. Told: the narrator tells what a focalizer perceived, under the story's spin or any other.
Everything that can change the story — each command line that reached the parser, each tick nobody commanded,
each actor taken up or let go by a player — is logged, so a story can be rebuilt exactly (restore, replay).
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from protocol.spin import Spin
from server.engine.actions import verbs
from server.engine.actions.action import Event
from server.engine.english import join_list
from server.engine.errors import EngineError, StoryEnded, UnknownName
from server.engine.narrator import Discourse, Steps, Telling, Trace, tell, telling
from server.engine.parser.grammar import GRAMMAR
from server.engine.parser.recognize import Clarify, Memory, NotUnderstood, Recognizer
from server.engine.parser.suggest import possible_commands, trying
from server.engine.simulate import Simulation
from server.engine.trees import Node, concept_tree, world_tree
from server.engine.world.definition import WorldDefinition


@dataclass(frozen=True, slots=True)
class Turn:
    """What one command did: the events of its tick, or, when nothing happened, what the parser said."""

    events: tuple[Event, ...] = ()
    message: str = ""

    @property
    def advanced(self) -> bool:
        return not self.message


Entry = Literal["command", "idle", "take", "release"]


@dataclass(frozen=True, slots=True)
class Logged:
    """One entry of a story's log: a command for an actor, a tick nobody commanded, or an actor taken up or
    let go by a player (a played actor waits; an unplayed one follows its script)."""

    entry: Entry
    actor: str = ""
    text: str = ""


@dataclass(frozen=True, slots=True)
class _Parsing:
    """An actor's parser state: what its pronouns refer to, and a question awaiting an answer."""

    memory: Memory = field(default_factory=Memory)
    pending: Clarify | None = None


@dataclass(frozen=True, slots=True)
class _Undo:
    log: int
    parsing: dict[str, _Parsing]


def _memories(parsing: dict[str, _Parsing]) -> dict[str, Memory]:
    # The records themselves, not their builtins: msgspec encodes them as it would those, in C, and a long
    # story's undo marks hold thousands (converting them first was most of a snapshot's first step).
    return {actor: state.memory for actor, state in parsing.items()}


def _parsings(memories: dict[str, Any]) -> dict[str, _Parsing]:
    return {actor: _Parsing(msgspec.convert(memory, Memory)) for actor, memory in memories.items()}


class Story:
    """One instance of a world, with its spin and the log of commands given to it."""

    def __init__(self, definition: WorldDefinition, *, seed: int = 0, spin: Spin | None = None) -> None:
        self.definition = definition
        self.seed = seed
        self.spin = spin or definition.default_spin()
        self.saves: dict[str, tuple[Logged, ...]] = {}
        self._begin()

    def _begin(self) -> None:
        self.simulation = Simulation(self.definition, self.seed)
        # A world's own commands come first: where they read the same words, the world means its own.
        self.recognizer = Recognizer(self.simulation.world, (*self.definition.commands, *GRAMMAR))
        self.log: list[Logged] = []
        self.log_kept = 0
        """How many entries at the start of the log are unchanged since `log_taken` (what a store has)."""
        self._parsing: dict[str, _Parsing] = {}
        self._undo: list[_Undo] = []
        if self.definition.interactive:
            # Each playable actor takes in where it is: the opening each player is told.
            looks = [verbs.look(actor, private=True) for actor in self.definition.players()]
            self._note_told(self.simulation.advance(looks, new_turn=False))

    # -- state -------------------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        return self.simulation.turn

    @property
    def ended(self) -> bool:
        return self.simulation.ended

    # -- running -----------------------------------------------------------------------------------

    def run_to_end(self) -> list[Event]:
        """Run a world by itself, timeline and scripts, as one turn, until it ends or its time is up."""
        simulation = self.simulation
        last = self.definition.ticks or simulation.last_tick
        produced: list[Event] = []
        first = True
        while simulation.tick < last and not simulation.ended:
            produced.extend(simulation.advance(new_turn=first))
            first = False
        return produced

    def command(self, actor: str, text: str) -> Turn:
        """One command for `actor`: recognized, then (if understood) one tick of the whole world."""
        self.check_actor(actor)
        if self.ended:
            raise StoryEnded("the story has ended; you may undo, restart, or have it retold")
        self.log.append(Logged("command", actor, text))
        state = self._parsing.get(actor, _Parsing())
        sight, simulation = self.simulation.sight, self.simulation
        rng = simulation.rng("parse", actor)
        parsed = None
        if state.pending is not None:
            parsed = self.recognizer.answer(state.pending, text, actor, sight, state.memory, rng)
        if parsed is None:
            parsed = self.recognizer.recognize(text, actor, sight, state.memory, rng)
        if isinstance(parsed, Clarify):
            self._parsing[actor] = _Parsing(state.memory, parsed)
            return Turn(message=parsed.question)
        if isinstance(parsed, NotUnderstood):
            self._parsing[actor] = _Parsing(state.memory, None)
            return Turn(message=parsed.message)
        self._undo.append(_Undo(len(self.log) - 1, dict(self._parsing)))
        self._parsing[actor] = _Parsing(parsed.memory, None)
        try:
            return Turn(self._note_told(simulation.advance(parsed.actions)))
        except Exception:
            # A world's hook failed partway through the tick: the turn did not happen, and is not logged.
            self.undo()
            raise

    def idle(self) -> Turn:
        """A tick in which nobody is commanded: the world runs on by itself."""
        if self.ended:
            raise StoryEnded("the story has ended")
        self._undo.append(_Undo(len(self.log), dict(self._parsing)))
        self.log.append(Logged("idle"))
        try:
            return Turn(self._note_told(self.simulation.advance()))
        except Exception:
            self.undo()
            raise

    def _note_told(self, events: list[Event]) -> tuple[Event, ...]:
        """A pronoun a player has not used yet means what its actor was last told of: "You see a box here. You
        frown at it." makes "it" the box. What the player named itself wins ("take scrap", then "drop it" drops
        the scrap whatever the telling mentioned since), as players of interactive fiction expect."""
        for actor in self.definition.players():
            state = self._parsing.get(actor, _Parsing())
            kept = state.memory
            if kept.it and kept.them and kept.him and kept.her:
                continue  # every pronoun already means what the player named: nothing told can change it
            told = self.recognizer.mentioned(Memory(), actor, events)
            memory = Memory(
                it=kept.it or told.it, them=kept.them or told.them, him=kept.him or told.him, her=kept.her or told.her
            )
            if memory != kept:
                self._parsing[actor] = _Parsing(memory, state.pending)
        return tuple(events)

    def take(self, actor: str) -> None:
        """A player takes up `actor`: from now on it acts only when commanded (otherwise it waits, untold)."""
        self.check_actor(actor)
        if actor not in self.simulation.played:
            self.simulation.played.add(actor)
            self.log.append(Logged("take", actor))

    def release(self, actor: str) -> None:
        """No player has `actor` any more: it goes back to its script, if it has one."""
        if actor in self.simulation.played:
            self.simulation.played.discard(actor)
            self.log.append(Logged("release", actor))

    def undo(self) -> bool:
        """Take back the last turn: world, events, concepts, parser state and log, exactly as before it."""
        if not self._undo or not self.simulation.undo():
            return False
        mark = self._undo.pop()
        del self.log[mark.log :]
        self.log_kept = min(self.log_kept, mark.log)
        self._parsing = mark.parsing
        self._log_who_plays()
        return True

    def _log_who_plays(self) -> None:
        """Players who came or went since the turn undone still do or do not play: the log says so again."""
        logged: set[str] = set()
        for entry in self.log:
            if entry.entry == "take":
                logged.add(entry.actor)
            elif entry.entry == "release":
                logged.discard(entry.actor)
        for actor in sorted(self.simulation.played - logged):
            self.log.append(Logged("take", actor))
        for actor in sorted(logged - self.simulation.played):
            self.log.append(Logged("release", actor))

    def log_changes(self) -> tuple[int, list[Logged]]:
        """Where the log changed since `log_taken`, and what it holds from there on."""
        return self.log_kept, self.log[self.log_kept :]

    def log_taken(self) -> None:
        self.log_kept = len(self.log)

    def restart(self) -> None:
        """Begin again from the world's first state (saves are kept, and so are the players); a world that runs
        by itself runs again, so that there is a whole story to tell once more."""
        played = set(self.simulation.played)
        self._begin()
        self._run_if_by_itself()
        for actor in sorted(played):
            self.take(actor)

    def _run_if_by_itself(self) -> None:
        """A world that is not interactive is its whole timeline: begun again, it runs to its end again (as
        whoever made the story first ran it)."""
        if not self.definition.interactive:
            self.run_to_end()

    def save(self, name: str) -> None:
        self.saves[name] = tuple(self.log)

    def restore(self, name: str) -> None:
        """Rebuild the story from the start by replaying the commands logged when `name` was saved."""
        if name not in self.saves:
            known = ", ".join(sorted(self.saves)) or "none yet"
            raise UnknownName(f"no save named {name!r} (saves: {known})")
        self.replay(self.saves[name])

    def replay(self, log: tuple[Logged, ...]) -> None:
        """Begin again and give the same commands in the same order: the same story results."""
        played = set(self.simulation.played)
        self._begin()
        self._run_if_by_itself()
        self.apply(log)
        # Whoever plays now keeps playing: being played is about the players here, not the story saved.
        for actor in sorted(set(self.simulation.played) - played):
            self.release(actor)
        for actor in sorted(played):
            self.take(actor)

    def apply(self, log: tuple[Logged, ...]) -> None:
        """Carry on with the entries of a log, as they were given the first time."""
        for logged in log:
            if logged.entry == "command":
                with contextlib.suppress(StoryEnded):  # refused then as now, and logged as it was
                    self.command(logged.actor, logged.text)
            elif logged.entry == "idle":
                self.idle()
            elif logged.entry == "take":
                self.take(logged.actor)
            else:
                self.release(logged.actor)

    def possible_commands(self, actor: str) -> list[str]:
        """Commands that would succeed now for `actor` (tried, not done)."""
        self.check_actor(actor)
        simulation = self.simulation
        return possible_commands(self.recognizer, actor, simulation.sight, self.definition.refusals, simulation.hooked)

    def trying_commands(self, actor: str) -> Generator[None, None, list[str]]:
        """`possible_commands` in pieces, pausing between them (see parser/suggest.py `trying`)."""
        self.check_actor(actor)
        simulation = self.simulation
        return trying(self.recognizer, actor, simulation.sight, self.definition.refusals, simulation.hooked)

    # -- as plain data (snapshots) ------------------------------------------------------------------

    @property
    def settled(self) -> bool:
        """Whether no actor has a question waiting to be answered: only then is the story captured whole."""
        return all(state.pending is None for state in self._parsing.values())

    def export(self) -> dict[str, Any]:
        """Everything about this story as data msgspec encodes but its events (see `Simulation.export`); call
        only when `settled`."""
        if not self.settled:
            raise EngineError("a question is waiting for an answer; the story cannot be captured now")
        return {
            "seed": self.seed,
            "spin": msgspec.to_builtins(self.spin),
            "simulation": self.simulation.export(),
            "log": self.log,
            "parsing": _memories(self._parsing),
            "undo": [{"log": mark.log, "parsing": _memories(mark.parsing)} for mark in self._undo],
            "saves": self.saves,
        }

    def load(self, data: dict[str, Any]) -> None:
        """Put back what `export` gave, over a story freshly made from the same world and seed."""
        self.spin = msgspec.convert(data["spin"], Spin)
        self.simulation.load(data["simulation"])
        self.log = msgspec.convert(data["log"], list[Logged])
        self._parsing = _parsings(data["parsing"])
        self._undo = [_Undo(mark["log"], _parsings(mark["parsing"])) for mark in data["undo"]]
        self.saves = msgspec.convert(data["saves"], dict[str, tuple[Logged, ...]])

    # -- telling -----------------------------------------------------------------------------------

    def focalizer(self, spin: Spin | None = None) -> str:
        """Whose concept a spin tells: its focalizer, else the commanded actor, else the world's player."""
        spin = spin or self.spin
        actor = spin.focalizer or spin.commanded or self.definition.player
        self.check_actor(actor)
        return actor

    def check_spin(self, spin: Spin, source: str = "") -> None:
        """The actors a spin names must be in this world: focalizer and commanded actors, narrator and
        narratee any item (a story may be told to the lamp) or the focalizer. An error names `source` (the
        spin file or setting the spin came from) when given, the field, and what it may be here."""
        concepts, items = self.simulation.concepts, self.simulation.items

        def actors() -> str:  # made only for an error: every telling asks, and nearly always passes
            known = list(concepts)
            return ("one of " if len(known) > 1 else "") + join_list(known)

        where = f"{source}: " if source else ""
        for role in ("focalizer", "commanded"):
            tag = getattr(spin, role)
            if tag is not None and tag not in concepts:
                raise UnknownName(
                    f"{where}{role} {tag} is not an actor in {self.definition.name}; it takes {actors()}, or none"
                )
        for role in ("narrator", "narratee"):
            tag = getattr(spin, role)
            if tag not in (None, "focalizer") and tag not in items:
                raise UnknownName(
                    f"{where}{role} {tag} is not in {self.definition.name}; it takes an actor ({actors()}), any "
                    "other item there, focalizer, or none"
                )

    def check_actor(self, tag: str) -> None:
        if tag not in self.simulation.concepts:
            actors = ", ".join(self.simulation.concepts)
            raise UnknownName(f"{tag} is not an actor in {self.definition.name}; actors: {actors}")

    def tell(
        self,
        spin: Spin | None = None,
        *,
        discourse: Discourse | None = None,
        trace: Trace | None = None,
    ) -> Telling:
        """Tell the story so far (as much as the spin's window takes) through the spin's focalizer."""
        spin = spin or self.spin
        self.check_spin(spin)
        return tell(
            self.simulation,
            spin,
            focalizer=self.focalizer(spin),
            seed=self.seed,
            turn=self.turn,
            discourse=discourse,
            trace=trace,
        )

    def telling(self, spin: Spin | None = None) -> Steps[Telling]:
        """`tell` in pieces, pausing between them (narrator/pieces.py); the spin is checked before the first.
        The story must not change until it is done (the caller holds it still)."""
        spin = spin or self.spin
        self.check_spin(spin)
        focalizer = self.focalizer(spin)
        return telling(self.simulation, spin, focalizer=focalizer, seed=self.seed, turn=self.turn)

    def world_tree(self) -> Node:
        return world_tree(self.simulation.world)

    def concept_tree(self, actor: str) -> Node:
        self.check_actor(actor)
        return concept_tree(self.simulation.concepts[actor], self.simulation.items)
