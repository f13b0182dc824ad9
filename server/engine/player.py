"""A player's place in a story: the actor it plays, its own spin, and what it has been told so far.

A line from a player, in order:
1. Split into commands at `;` and at a `.` that ends a sentence (not inside quotation marks, numbers or names).
2. "again" (or "g") stands for the last command given to the actor.
3. Each command is a directive (answered by the system; a directive called in a wrong form says how it is
   used) or a command to the actor (recognized by the story, then one tick); an unrecognized command is
   answered and never re-runs another (a 2011 defect).
4. Each tick is told at once through this player's spin, continuing what it was already told: a reply is
   always its own turn, whatever the spin's window (which is how much `recount` retells).
5. The world's dynamic-spin hook may then change this player's spin.
Every error a line raises carries a sentence a player can be shown as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from msgspec.structs import replace

from protocol.commands import split_commands
from protocol.spin import Spin, allowed_values, apply, describe, spin_argument
from server.engine.directives import AGAIN, AGAIN_USAGE, Directives, normalize, standard
from server.engine.english.text import capitalize_first, sentence
from server.engine.english.words import direction_name
from server.engine.errors import EngineError, Forbidden, SpinError, StoryEnded, UnknownName
from server.engine.narrator import Block, Discourse, Steps, Telling
from server.engine.spin import SpinFile, SpinLibrary, spun
from server.engine.story import Story, Turn
from server.engine.trees import listing
from server.engine.world.definition import SpinChange
from server.engine.world.items import Door, Item

ENDED = "The story has ended. You may undo, restart, or recount."


def no_named_spins(name: str) -> SpinFile:
    raise UnknownName(f"unknown spin {name!r}")


class Player:
    """One reader or player of a story. Tellings continue from what this player was already told, so
    "a mask" becomes "the mask" across replies; its spin is its own and changes only through it."""

    def __init__(
        self,
        story: Story,
        actor: str | None = None,
        *,
        spin: Spin | None = None,
        author: bool = True,
        directives: Directives | None = None,
        named_spins: SpinLibrary = no_named_spins,
    ) -> None:
        self.story = story
        self.actor = actor or story.definition.player
        story.check_actor(self.actor)
        base = spin or story.spin
        if actor is not None and actor != story.definition.player:
            # The world's spin is written for its default player: whoever is addressed or speaks as that
            # player is this player's actor instead.
            default = story.definition.player
            base = replace(
                base,
                focalizer=actor,
                commanded=actor,
                narratee=actor if base.narratee == default else base.narratee,
                narrator=actor if base.narrator == default else base.narrator,
            )
        self.spin = base
        self.author = author
        self.directives = directives or standard()
        self.discourse = Discourse()
        self.named_spins = named_spins
        """Finds a named spin; given by the edge that reads spins/, since the engine reads no files."""
        self._turns: list[_Before] = []
        """For each turn this player took, what undo gives back."""
        self._last: str | None = None
        """The last command given to the actor, which "again" gives again: when a question was asked and
        answered, the command that asked it (the answer alone would mean nothing)."""
        self._asking: str | None = None
        self._saved: dict[str, _Saved] = {}
        """What this player had with each save it made: its spin, what it had been told, its turns to undo."""

    # -- telling ------------------------------------------------------------------------------------

    def opening(self) -> Telling:
        """The beginning: the title and prologue of an interactive world, then what has been told so far."""
        definition = self.story.definition
        told = self.told()
        if not definition.interactive:
            return told
        blocks = [Block("heading", definition.title)]
        if definition.prologue:
            blocks.append(Block("paragraph", definition.prologue))
        return _joined([*blocks, *told.blocks], self.discourse)

    def told(self, spin: Spin | None = None) -> Telling:
        """Tell what the spin's window takes, continuing this player's discourse."""
        spin = spin or self.spin
        self.check_focalizer(spin)
        telling = self.story.tell(spin, discourse=self.discourse)
        self.discourse = telling.discourse
        return telling

    def recount(self, spin: Spin | None = None) -> Telling:
        """Retell the story so far, as to a new listener: as much as the spin's window takes (all of it, by
        default; the last N turns for a window of N)."""
        spin = spin or self.spin
        self.check_focalizer(spin)
        return self.story.tell(spin)

    def recounting(self, spin: Spin | None = None) -> Steps[Telling]:
        """`recount` in pieces, pausing between them (narrator/pieces.py); the spin is checked at once."""
        spin = spin or self.spin
        self.check_focalizer(spin)
        return self.story.telling(spin)

    @property
    def may_choose_any_actor(self) -> bool:
        """Whether this player may tell through, and read the concept of, any actor: in a story that is not
        interactive, or as an author; otherwise only its own actor."""
        return self.author or not self.story.definition.interactive

    def focalizers(self) -> list[str]:
        """The actors this player may tell the story through."""
        return list(self.story.simulation.concepts) if self.may_choose_any_actor else [self.actor]

    def readable_concepts(self) -> list[str]:
        """The actors whose concepts this player may read (the same rule as focalizers: a concept read is a
        telling's raw material)."""
        return self.focalizers()

    def check_focalizer(self, spin: Spin) -> None:
        """In an interactive world a player tells only through its own actor, and commands only it (authors
        excepted)."""
        if self.may_choose_any_actor:
            return
        focalizer = self.story.focalizer(spin)
        if focalizer != self.actor:
            raise Forbidden(f"You play {self.actor}; the story cannot be told through {focalizer}.")
        if spin.commanded not in (None, self.actor):
            raise Forbidden(f"You play {self.actor}; you cannot command {spin.commanded}.")

    def change_spin(self, words: list[str]) -> None:
        """`time after`, `narrator @guard`, `filters hesitant,surprise`, `hesitant surprise time=after`: the
        contract's one reading of spin words, resolved with this player's named spins."""
        changed = spun(self.spin, spin_argument(words), self.named_spins, self.story.check_spin)
        self.check_focalizer(changed)
        self.spin = changed

    def spin_setting(self, field: str) -> str:
        """What one setting of the spin is now, and how to change it."""
        shown = dict(line.split(" = ", 1) for line in describe(self.spin).splitlines())[field]
        allowed = allowed_values(field)
        return f"The spin's {field} is {shown}. To change it: spin {field} VALUE, where VALUE is {allowed}."

    # -- playing ------------------------------------------------------------------------------------

    def command(self, line: str, on_turn: Callable[[Turn], None] | None = None) -> Telling:
        """Everything a line of input does, told: directives answered, commands acted on and narrated.
        `on_turn` hears of each turn the line takes, as it is taken (others in the story are told of it)."""
        blocks: list[Block] = []
        try:
            for index, part in enumerate(split_commands(line) or [line]):
                if index and self.story.ended:
                    break  # the story ended partway along the line: what came before it is the reply
                blocks.extend(self._one(part, on_turn).blocks)
        except StoryEnded:
            raise StoryEnded(ENDED) from None
        except (EngineError, SpinError) as error:
            raise type(error)(_as_sentence(str(error))) from None
        return _joined(blocks, self.discourse)

    def _one(self, command: str, on_turn: Callable[[Turn], None] | None) -> Telling:
        words = normalize(command).lower().split()
        if words and words[0] in AGAIN:
            if len(words) > 1:
                return _said(AGAIN_USAGE, self.discourse)
            if self._last is None:
                return _said("There is no command to give again yet.", self.discourse)
            command = self._last
        answered = self.directive(command)
        if answered is not None:
            return answered
        before = self.discourse
        commanded = self.spin.commanded
        turn = self.story.idle() if commanded is None else self.story.command(commanded, command)
        if commanded is not None:
            # An answer to a question begins with no verb ("the second", "brass"): the command is what asked.
            first = normalize(command).split()[:1]
            answering = self._asking is not None and not (
                first and self.story.recognizer.begins_command(first[0].lower())
            )
            self._last = self._asking if answering and self._asking else command
            asked = not turn.advanced and turn.message.endswith("?")
            self._asking = self._last if asked else None
        if not turn.advanced:
            return _said(turn.message, self.discourse)
        telling = self.tell_turn(before)
        if on_turn is not None:
            on_turn(turn)
        return telling

    def news(self, turn: Turn) -> Telling | None:
        """What this player is told of a turn another player (or nobody) took: its actor's perception of it,
        through its own spin; None when its actor perceived nothing of it."""
        if not any(self.actor in event.perceivers for event in turn.events):
            return None
        telling = self.told(replace(self.spin, window="turn"))
        return telling if telling.blocks else None

    def tell_turn(self, before: Discourse) -> Telling:
        """Tell the turn this player's actor just took (begun with `before` told), then let the world's dynamic
        spin change the spin, remembering both so undo can take them back."""
        telling = self.told(replace(self.spin, window="turn"))
        spin = self.spin
        self._apply_dynamic_spin()
        self._turns.append(_Before(before, spin, self.spin))
        return telling

    def _apply_dynamic_spin(self) -> None:
        """Let the world's dynamic-spin hook change this player's spin after a turn (when the spin allows it)."""
        hook = self.story.definition.dynamic_spin
        if hook is None or not self.spin.dynamic:
            return
        change = hook(SpinChange(self.story.simulation.world, self.spin, self.story.turn))
        if change:
            self.spin = apply(self.spin, dict(change), source=f"world {self.story.definition.name}")

    def undo(self) -> bool:
        if not self.story.undo():
            return False
        if self._turns:
            last = self._turns.pop()
            self.discourse = last.discourse
            self._undrift(last)
        return True

    def _undrift(self, turn: _Before) -> None:
        """Take back what the world's dynamic spin changed after `turn`, unless the player has set the spin
        since (what a player chose stays)."""
        if self.spin == turn.drifted:
            self.spin = turn.spin

    def restart(self) -> Telling:
        self.story.restart()
        self.discourse = Discourse()
        for turn in reversed(self._turns):
            self._undrift(turn)
        self._turns.clear()
        return self.opening()

    def save(self, name: str) -> str:
        """Save the story under `name`, and with it this player's spin and what it has been told."""
        self.story.save(name)
        self._saved[name] = _Saved(self.spin, self.discourse, tuple(self._turns))
        return f"Saved as {name}."

    def restore(self, name: str) -> str:
        """Go back to a save, and to the spin and what was told with it (as undo does), so that what was known
        then is known again ("the dazed mime"); what is said of it: that it is done, and where the actor is.
        A save another player (or an earlier session) made gives back what this spin tells of the story."""
        saves = self.story.saves
        if name not in saves:
            known = f"The saves are {', '.join(sorted(saves))}." if saves else "Nothing has been saved yet."
            raise UnknownName(f"There is no save named {name}. {known}")
        self.story.restore(name)
        saved = self._saved.get(name)
        if saved is not None:
            self.spin, self.discourse, self._turns = saved.spin, saved.discourse, list(saved.turns)
        else:
            self.discourse = self.story.tell(replace(self.spin, window="all")).discourse
            self._turns.clear()
        return f"Restored. {self.situation()}".strip()

    def situation(self) -> str:
        """Where the player's actor is, said plainly ("You are in the massive sack, in the foyer."); empty for
        an actor nowhere in particular."""
        world = self.story.simulation.world
        room = world.room_of(self.actor)
        if room is None:
            return ""
        places = []
        holder = world.parent(self.actor)
        if holder is not None and holder != room:
            places.append(f"{world.link(self.actor) or 'in'} {_the(world.items[holder])}")
        places.append(f"in {_the(world.items[room])}")
        return f"You are {', '.join(places)}."

    # -- directives ---------------------------------------------------------------------------------

    def directive(self, line: str) -> Telling | None:
        """Answer `line` if it is a directive; None if it is not one. A directive called in a form it does not
        take says how it is used, unless its first word also begins one of the world's commands."""
        found = self.directives.match(line)
        if found is None:
            called = self.directives.called(line)
            if called is None or self.story.recognizer.begins_command(normalize(line).split()[0].lower()):
                return None
            if called.author_only and not self.author:
                raise Forbidden(f"{capitalize_first(called.name)} is for authors only.")
            return _said(called.usage, self.discourse)
        directive, match = found
        if directive.author_only and not self.author:
            raise Forbidden(f"{capitalize_first(directive.name)} is for authors only.")
        result = directive.handler(self, match)
        if isinstance(result, Telling):
            return result
        return _said(result, self.discourse)

    def exits(self) -> str:
        """The ways out of the actor's room: where each leads, if the actor knows."""
        world = self.story.simulation.world
        concept = self.story.simulation.concepts[self.actor]
        room = world.items.get(world.room_of(self.actor) or "")
        lines = []
        for direction, way in getattr(room, "exits", {}).items():
            if not way.startswith("@"):
                lines.append(f"{direction_name(direction)}: no way through")
                continue
            target = world.items[way]
            if isinstance(target, Door):
                ahead = [r for r in target.connects if r != room.tag] if room else []
                beyond = ahead[0] if ahead and concept.knows(ahead[0]) else None
                where = f"through {target.called}" + (f" to {world.items[beyond].called}" if beyond else "")
            else:
                where = target.called if concept.knows(way) else "somewhere you have not been"
            lines.append(f"{direction_name(direction)}: {where}")
        return "\n".join(lines) or "There is no way out that you know of."

    def world_listing(self) -> str:
        return listing(self.story.world_tree())

    def known_names(self) -> list[str]:
        """The names of everything this player's actor knows of (itself and the cosmos aside), each once."""
        names: dict[str, None] = {}
        waiting = [self.story.concept_tree(self.actor)]
        while waiting:
            node = waiting.pop()
            if node.link is not None and node.tag != self.actor:
                names[node.name] = None
            waiting.extend(reversed(node.children))
        return list(names)

    def concept_listing(self, actor: str) -> str:
        self.story.check_actor(actor)
        if actor not in self.readable_concepts():
            raise Forbidden(f"You play {self.actor}; {actor}'s concept is not yours to read.")
        return listing(self.story.concept_tree(actor))


def _as_sentence(message: str) -> str:
    """An error's message as a player is shown it: a sentence (messages written as sentences are kept)."""
    return message if message.rstrip().endswith((".", "!", "?")) else sentence(message)


def _the(item: Item) -> str:
    """An item's name with "the" before it, unless it is a proper name (no article)."""
    return f"the {item.called}" if item.article else item.called


@dataclass(frozen=True, slots=True)
class _Before:
    """What one turn changed for its player: the discourse it began with, and the spin before and after the
    world's dynamic spin changed it (the same when it did not)."""

    discourse: Discourse
    spin: Spin
    drifted: Spin


@dataclass(frozen=True, slots=True)
class _Saved:
    """What a player had when it saved: its spin, its discourse, and its turns (for undo after restoring)."""

    spin: Spin
    discourse: Discourse
    turns: tuple[_Before, ...]


def _said(text: str, discourse: Discourse) -> Telling:
    return Telling((Block("paragraph", text),), text, discourse)


def _joined(blocks: list[Block], discourse: Discourse) -> Telling:
    kept = tuple(block for block in blocks if block.text)
    return Telling(kept, "\n\n".join(block.text for block in kept), discourse)
