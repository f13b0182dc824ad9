"""Recognizing one command, stage by stage: its readings (`readings`), the names in them resolved (`names`,
`pronouns`), a question when a name is unclear (`clarify`), and why it is not understood (`diagnosis`)."""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from server.engine.actions.action import Action, Event
from server.engine.parser import pronouns, substances
from server.engine.parser.clarify import Clarify, asked, chosen_by
from server.engine.parser.diagnosis import Diagnosis, Near
from server.engine.parser.failures import Ambiguous, Unresolved
from server.engine.parser.grammar import GRAMMAR
from server.engine.parser.kinds import CommandKind, Request
from server.engine.parser.lexicon import Lexicon, lexicon_of
from server.engine.parser.names import Choices, Context, Names, starts_with_all
from server.engine.parser.pronouns import Memory
from server.engine.parser.readings import Reading, WordOrders, readings, word_orders
from server.engine.parser.words import DIRECTIONS, MAX_WORDS, plain, tokens_of, unquoted
from server.engine.world.items import ROOT, Item
from server.engine.world.perception import Perception
from server.engine.world.state import WorldState

__all__ = ["Clarify", "Memory", "NotUnderstood", "Parsed", "Recognizer", "Understood"]


@dataclass(frozen=True, slots=True)
class Understood:
    """A command recognized and turned into actions for the commanded actor."""

    kind: CommandKind
    actions: tuple[Action, ...]
    memory: Memory
    objects: tuple[str, ...] = ()
    """What the command is about (OBJ), and the second thing it names (OBJ2), as resolved."""
    second: str | None = None


@dataclass(frozen=True, slots=True)
class NotUnderstood:
    """A command that cannot be acted on, and the message that says why."""

    message: str


Parsed = Understood | Clarify | NotUnderstood


_Built = tuple[tuple[Item, ...], tuple[CommandKind, ...], Lexicon, WordOrders]
_BUILT: dict[tuple[int, ...], _Built] = {}
"""The lexicon and word orders of the worlds recognized lately, by the identities of their items and grammar
(kept with them, so an identity is not reused while its entry stands): built once per world, not per story.
The root is made afresh for each story, so it is compared by value."""
_KEPT = 16


_BUILDING = threading.Lock()
"""Stories may be made in more than one thread (a server restoring instances while it serves)."""


def _built(items: Mapping[str, Item], grammar: Sequence[CommandKind]) -> tuple[Lexicon, WordOrders]:
    key = (*(0 if tag == ROOT else id(item) for tag, item in items.items()), -1, *map(id, grammar))
    with _BUILDING:
        found = _BUILT.pop(key, None)
        if found is None or found[0] != tuple(items.values()):
            found = (tuple(items.values()), tuple(grammar), lexicon_of(items, grammar), word_orders(grammar))
        _BUILT[key] = found  # the most recently used last
        while len(_BUILT) > _KEPT:
            del _BUILT[next(iter(_BUILT))]
    return found[2], found[3]


@dataclass
class Recognizer:
    """Recognizes commands for one world's grammar; the lexicon and the index of word orders are built once
    for each world, however many stories of it are told."""

    world: WorldState
    grammar: Sequence[CommandKind] = GRAMMAR
    words: Lexicon = field(init=False)
    orders: WordOrders = field(init=False)
    names: Names = field(init=False)
    diagnosis: Diagnosis = field(init=False)

    def __post_init__(self) -> None:
        self.words, self.orders = _built(self.world.items, self.grammar)
        self.names = Names(self.world, self.words)
        self.diagnosis = Diagnosis(self.grammar, self.words, self.names)

    @property
    def lexicon(self) -> frozenset[str]:
        """Every word this world's commands could use."""
        return self.words.words

    # -- entry points -------------------------------------------------------------------------------

    def recognize(
        self, command: str, actor: str, sight: Perception, memory: Memory, rng: random.Random | None = None
    ) -> Parsed:
        command = plain(command)
        tokens = tokens_of(command)
        words = [token.text for token in tokens]
        if not any(unquoted(word) != [","] and unquoted(word) for word in words):
            return NotUnderstood("Say what you want to do.")
        if len(words) > MAX_WORDS:
            return NotUnderstood("That is too long a command for me; try saying it in fewer words.")
        found = list(readings(self.orders, command, tokens))
        free = {i for _, spans in found for name, span in spans.items() if name in ("TEXT", "WORD") for i in span}
        unknown = [w for i, w in enumerate(words) if i not in free and not w.startswith('"') and not self._known(w)]
        if unknown:
            return NotUnderstood(f'I don\'t know the word "{unknown[0]}".')
        near = Near(actor, self.names.present(actor, sight), memory, sight)
        if not found:
            return NotUnderstood(self.diagnosis.not_a_command(words, near))
        best: Unresolved | None = None
        for reading, _ in found:
            try:
                return self._finish(reading, actor, sight, memory, rng, near.present)
            except Unresolved as failure:
                if best is None or failure.rank > best.rank:
                    best = failure
            except Ambiguous as question:
                return asked(self.names, reading, question, {})
        assert best is not None
        # "look at" reads as looking at something called "at"; that it stops short is the likelier trouble.
        # "look look": the words after a whole command name nothing at all; that is the likelier trouble too.
        diagnosis = self.diagnosis
        return NotUnderstood(
            diagnosis.cut_short(words, near, lead_in=False) or diagnosis.as_far(words, near) or best.message
        )

    def answer(
        self,
        pending: Clarify,
        reply: str,
        actor: str,
        sight: Perception,
        memory: Memory,
        rng: random.Random | None = None,
    ) -> Parsed | None:
        """Finish an ambiguous command with the player's answer; None if the reply is not an answer (it is
        then a new command). A reply that still fits several of the candidates is asked about again."""
        chosen = chosen_by(self.names, pending, reply)
        if chosen is None or isinstance(chosen, Clarify):
            return chosen
        choices = {**pending.chosen, (pending.slot, pending.phrase): chosen}
        try:
            return self._finish(pending.reading, actor, sight, memory, rng, self.names.present(actor, sight), choices)
        except Unresolved as failure:
            return NotUnderstood(failure.message)
        except Ambiguous as question:
            return asked(self.names, pending.reading, question, choices)

    def begins_command(self, word: str) -> bool:
        """Whether a word begins some command of this grammar ("light", "take"), or is a direction."""
        return self.words.begins_command(word)

    def mentioned(self, memory: Memory, actor: str, events: Sequence[Event]) -> Memory:
        """What pronouns mean once `actor` is told `events` (see `pronouns.mentioned`)."""
        return pronouns.mentioned(self.world, memory, actor, events)

    def _known(self, word: str) -> bool:
        return self.words.known(word)

    # -- a reading made into actions ------------------------------------------------------------------

    def _finish(
        self,
        reading: Reading,
        actor: str,
        sight: Perception,
        memory: Memory,
        rng: random.Random | None,
        present: tuple[str, ...],
        chosen: Choices | None = None,
    ) -> Understood:
        """The actions a reading makes, its names resolved among what is `present` (as `Names.present` says)."""
        kind, slots, names = reading.kind, reading.slots, self.names
        context = Context(reading, actor, sight, memory, present, chosen or {})
        objects: tuple[str, ...] = ()
        second = None
        # "take all from the box", "put everything in the box": what "all" means depends on the box, so the
        # box is found first.
        if "OBJ2" in slots and "OBJ" in slots and starts_with_all(slots["OBJ"]):
            second = names.resolve_one(context, "OBJ2", kind.scope2, ())
            within = second if kind.scope2 == "holder" else None
            objects = names.resolve(context, "OBJ", kind.scope, kind.many, within, exclude=second)
        else:
            if "OBJ" in slots:
                objects = names.resolve(context, "OBJ", kind.scope, kind.many, None)
            if "OBJ2" in slots:
                second = names.resolve_one(context, "OBJ2", kind.scope2, objects)
            elif kind.implied:
                second = names.implied(context, objects)
        direction = DIRECTIONS[slots["DIR"][0]] if "DIR" in slots else None
        word = slots["WORD"][0] if "WORD" in slots else None
        substance = (
            substances.substance_named(self.world, self.words, slots["OBJ"], context.present) if objects else None
        )
        request = Request(
            actor=actor,
            world=self.world,
            objects=objects,
            second=second,
            direction=direction,
            word=word,
            text=reading.text,
            rng=rng or random.Random(0),
            substance=substance,
        )
        actions = tuple(kind.build(request))
        several = "OBJ" in slots and pronouns.names_several(self.words, slots["OBJ"])
        remembered = pronouns.remembered(self.world, memory, actor, objects, second, several)
        return Understood(kind, actions, remembered, objects, second)
