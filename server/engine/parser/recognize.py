"""Recognizing one command: matching its words to the grammar, resolving what they name, asking when unclear."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from server.engine.actions.action import Action
from server.engine.parser.grammar import GRAMMAR, CommandKind, Request, Scope
from server.engine.parser.words import (
    ALL_WORDS,
    ARTICLES,
    CONJUNCTIONS,
    DIRECTIONS,
    OWNER_WORDS,
    PRONOUNS,
    SELF_WORDS,
    words_of,
)
from server.engine.world.items import Room
from server.engine.world.perception import Perception
from server.engine.world.state import WorldState


@dataclass(frozen=True, slots=True)
class Memory:
    """What pronouns refer to: the things last named by the player."""

    it: str | None = None
    them: tuple[str, ...] = ()
    him: str | None = None
    her: str | None = None


@dataclass(frozen=True, slots=True)
class Understood:
    """A command recognized and turned into actions for the commanded actor."""

    kind: CommandKind
    actions: tuple[Action, ...]
    memory: Memory


@dataclass(frozen=True, slots=True)
class Clarify:
    """An ambiguous name: the question to ask, and what is needed to finish once it is answered."""

    question: str
    kind: CommandKind
    slots: dict[str, list[str]]
    slot: str
    candidates: tuple[str, ...]
    chosen: dict[str, str] = field(default_factory=dict)
    """Slots already settled by earlier answers."""


@dataclass(frozen=True, slots=True)
class NotUnderstood:
    """A command that cannot be acted on, and the message that says why."""

    message: str


Parsed = Understood | Clarify | NotUnderstood


class _Unresolved(Exception):
    """A slot's words name nothing usable; carries the message. Caught inside the recognizer only."""

    def __init__(self, message: str, rank: int) -> None:
        super().__init__(message)
        self.message = message
        self.rank = rank


class _Ambiguous(Exception):
    def __init__(self, slot: str, candidates: tuple[str, ...]) -> None:
        super().__init__(slot)
        self.slot = slot
        self.candidates = candidates


@dataclass
class Recognizer:
    """Recognizes commands for one world's grammar; the lexicon is built once."""

    world: WorldState
    grammar: Sequence[CommandKind] = GRAMMAR
    lexicon: frozenset[str] = field(init=False)
    _item_words: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        words: set[str] = set(ARTICLES | PRONOUNS | SELF_WORDS | ALL_WORDS | CONJUNCTIONS | OWNER_WORDS)
        words.update(DIRECTIONS)
        for kind in self.grammar:
            words.update(kind.literal_words())
        self._item_words = frozenset(w for item in self.world.items.values() for w in item.words())
        self.lexicon = frozenset(words | self._item_words)

    # -- entry points -------------------------------------------------------------------------------

    def recognize(
        self, command: str, actor: str, sight: Perception, memory: Memory, rng: random.Random | None = None
    ) -> Parsed:
        words = words_of(command)
        if not words:
            return NotUnderstood("Say what you want to do.")
        matches = list(self._matches(words))
        free = {i for kind, slots in matches for name, span in slots.items() if name in ("TEXT", "WORD") for i in span}
        unknown = [w for i, w in enumerate(words) if w not in self.lexicon and i not in free and not w.startswith('"')]
        if unknown:
            return NotUnderstood(f'I don\'t know the word "{unknown[0]}".')
        if not matches:
            return NotUnderstood(self._not_a_command(words))
        best: _Unresolved | None = None
        for kind, spans in matches:
            slots = {name: [words[i] for i in span] for name, span in spans.items()}
            try:
                return self._finish(kind, slots, actor, sight, memory, rng)
            except _Unresolved as failure:
                if best is None or failure.rank > best.rank:
                    best = failure
            except _Ambiguous as question:
                return Clarify(self._question(question.candidates), kind, slots, question.slot, question.candidates)
        assert best is not None
        return NotUnderstood(best.message)

    def answer(
        self,
        pending: Clarify,
        reply: str,
        actor: str,
        sight: Perception,
        memory: Memory,
        rng: random.Random | None = None,
    ) -> Parsed | None:
        """Finish an ambiguous command with the player's answer; None if the reply is not an answer."""
        words = [w for w in words_of(reply) if w not in ARTICLES]
        if not words:
            return None
        chosen = [tag for tag in pending.candidates if set(words) <= self.world.items[tag].words()]
        if len(chosen) != 1:
            return None
        chosen_slots = {**pending.chosen, pending.slot: chosen[0]}
        try:
            return self._finish(pending.kind, pending.slots, actor, sight, memory, rng, chosen_slots)
        except _Unresolved as failure:
            return NotUnderstood(failure.message)
        except _Ambiguous as question:
            return Clarify(
                self._question(question.candidates),
                pending.kind,
                pending.slots,
                question.slot,
                question.candidates,
                chosen_slots,
            )

    # -- matching words to patterns -----------------------------------------------------------------

    def _matches(self, words: list[str]) -> Iterator[tuple[CommandKind, dict[str, list[int]]]]:
        found = []
        for kind in self.grammar:
            for pattern in kind.tokens:
                for spans in _match(pattern, words, 0, 0):
                    literals = sum(1 for p in pattern if not p.isupper())
                    found.append((-literals, len(found), kind, spans))
        # Patterns that account for more of the words literally are the more specific readings.
        for _, _, kind, spans in sorted(found, key=lambda f: (f[0], f[1])):
            yield kind, spans

    def _not_a_command(self, words: list[str]) -> str:
        for kind in self.grammar:
            for pattern in kind.tokens:
                head = [p for p in pattern if not p.isupper()]
                if (
                    pattern[-1] in ("OBJ", "OBJ2")
                    and words == list(pattern[: len(words)])
                    and words == head[: len(words)]
                ):
                    return f"What do you want to {' '.join(words)}?"
        return "I don't understand that."

    # -- resolving names to items ---------------------------------------------------------------------

    def _finish(
        self,
        kind: CommandKind,
        slots: dict[str, list[str]],
        actor: str,
        sight: Perception,
        memory: Memory,
        rng: random.Random | None,
        chosen: dict[str, str] | None = None,
    ) -> Understood:
        present = self._present(actor, sight)
        chosen = chosen or {}
        objects: tuple[str, ...] = ()
        second = None
        if "OBJ" in chosen:
            objects = (chosen["OBJ"],)
        elif "OBJ" in slots:
            objects = self._resolve(slots["OBJ"], "OBJ", kind.scope, kind.many, actor, sight, memory, present)
        if "OBJ2" in chosen:
            second = chosen["OBJ2"]
        elif "OBJ2" in slots:
            second = self._resolve(slots["OBJ2"], "OBJ2", kind.scope2, False, actor, sight, memory, present)[0]
        direction = DIRECTIONS[slots["DIR"][0]] if "DIR" in slots else None
        text = " ".join(slots["TEXT"]) if "TEXT" in slots else None
        word = slots["WORD"][0] if "WORD" in slots else None
        request = Request(
            actor=actor,
            world=self.world,
            objects=objects,
            second=second,
            direction=direction,
            word=word,
            text=text,
            rng=rng or random.Random(0),
        )
        actions = tuple(kind.build(request))
        return Understood(kind, actions, self._remember(memory, objects, second))

    def _present(self, actor: str, sight: Perception) -> list[str]:
        """What the actor can name now: what it sees, what it carries (even in the dark), and itself."""
        world = self.world
        found = [tag for tag in sight.visible_items(actor) if not isinstance(world.items[tag], Room)]
        for tag in world.descendants(actor):
            if tag not in found:
                found.append(tag)
        return [actor, *found]

    def _resolve(
        self,
        words: list[str],
        slot: str,
        scope: Scope,
        many: bool,
        actor: str,
        sight: Perception,
        memory: Memory,
        present: list[str],
    ) -> tuple[str, ...]:
        phrases = _split_list(words) if many else [words]
        if len(phrases) > 1 and not many:
            raise _Unresolved("You can only do that with one thing at a time.", 2)
        found: list[str] = []
        for phrase in phrases:
            found.extend(self._resolve_phrase(phrase, slot, scope, many, actor, sight, memory, present))
        return tuple(dict.fromkeys(found))

    def _resolve_phrase(
        self,
        phrase: list[str],
        slot: str,
        scope: Scope,
        many: bool,
        actor: str,
        sight: Perception,
        memory: Memory,
        present: list[str],
    ) -> list[str]:
        words = [w for w in phrase if w not in ARTICLES]
        if not words:
            raise _Unresolved("Which thing do you mean?", 1)
        if len(words) == 1 and words[0] in PRONOUNS:
            return self._pronoun(words[0], memory, present)
        if len(words) == 1 and words[0] in SELF_WORDS:
            return [actor]
        if words[0] in ALL_WORDS and len(words) == 1:
            if not many:
                raise _Unresolved("You can only do that with one thing at a time.", 2)
            chosen = [t for t in present if t != actor and self._in_scope(t, scope, actor, sight) and self._listed(t)]
            if not chosen:
                raise _Unresolved("There is nothing here to do that with.", 3)
            return chosen
        owned = bool(OWNER_WORDS & set(words))
        words = [w for w in words if w not in OWNER_WORDS]
        if any(w in DIRECTIONS and w not in self._item_words for w in words):
            raise _Unresolved("I don't understand that.", 0)
        matching = [t for t in present if set(words) <= self.world.items[t].words()]
        if owned:
            matching = [t for t in matching if self.world.parent(t) == actor]
        if not matching:
            raise _Unresolved(f"You see no {' '.join(words)} here.", 3)
        preferred = [t for t in matching if self._in_scope(t, scope, actor, sight)] or matching
        if len(preferred) > 1:
            exact = [t for t in preferred if " ".join(words) == self.world.items[t].called.lower()]
            if len(exact) == 1:
                return exact
            raise _Ambiguous(slot, tuple(preferred))
        return preferred

    def _listed(self, tag: str) -> bool:
        item = self.world.items[tag]
        return item.mention and item.kind in ("thing", "door")

    def _pronoun(self, word: str, memory: Memory, present: list[str]) -> list[str]:
        if word == "it" and memory.it in present:
            return [memory.it]  # type: ignore[list-item]
        if word in ("them", "they") and memory.them and all(t in present for t in memory.them):
            return list(memory.them)
        if word == "him" and memory.him in present:
            return [memory.him]  # type: ignore[list-item]
        if word == "her" and memory.her in present:
            return [memory.her]  # type: ignore[list-item]
        raise _Unresolved(f'I\'m not sure what "{word}" refers to.', 3)

    def _in_scope(self, tag: str, scope: Scope, actor: str, sight: Perception) -> bool:
        world = self.world
        item = world.items[tag]
        if scope == "visible":
            return True
        if scope == "held":
            return world.parent(tag) == actor
        if scope == "worn":
            return world.parent(tag) == actor and world.link(tag) == "on"
        if scope == "actor":
            return item.kind == "actor" and tag != actor
        if scope == "container":
            return "in" in item.holds
        if scope == "supporter":
            return "on" in item.holds
        if scope == "enterable":
            return bool(world.get(tag, "enterable"))
        reachable = sight.can_reach(actor, tag)
        if scope == "reachable":
            return reachable
        # takeable: within reach, not already one's own, not a person, not fixed in place
        return (
            reachable
            and tag != actor
            and world.parent(tag) != actor
            and item.kind == "thing"
            and world.link(tag) != "part_of"
        )

    def _remember(self, memory: Memory, objects: tuple[str, ...], second: str | None) -> Memory:
        it, them, him, her = memory.it, memory.them, memory.him, memory.her
        for tag in (*objects, *((second,) if second else ())):
            item = self.world.items[tag]
            if item.kind == "actor" and item.gender == "male":
                him = tag
            elif item.kind == "actor" and item.gender == "female":
                her = tag
            elif item.plural:
                them = (tag,)
            else:
                it = tag
        if len(objects) > 1:
            them = objects
        return Memory(it, them, him, her)

    def _question(self, candidates: tuple[str, ...]) -> str:
        names = [f"the {self.world.items[t].called}" for t in candidates]
        listed = ", ".join(names[:-1]) + (", or " if len(names) > 2 else " or ") + names[-1]
        return f"Which do you mean, {listed}?"


def _match(pattern: tuple[str, ...], words: list[str], p: int, w: int) -> Iterator[dict[str, list[int]]]:
    """Every way `words[w:]` fits `pattern[p:]`: slot name -> the word positions it takes."""
    if p == len(pattern):
        if w == len(words):
            yield {}
        return
    token = pattern[p]
    if not token.isupper():
        if w < len(words) and words[w] == token:
            yield from _match(pattern, words, p + 1, w + 1)
        return
    if token in ("DIR", "WORD"):
        if w < len(words) and (token == "WORD" or words[w] in DIRECTIONS):
            for rest in _match(pattern, words, p + 1, w + 1):
                yield {token: [w], **rest}
        return
    last = p == len(pattern) - 1
    for end in range(len(words), w, -1) if last else range(w + 1, len(words) + 1):
        if last and end != len(words):
            continue
        for rest in _match(pattern, words, p + 1, end):
            yield {token: list(range(w, end)), **rest}


def _split_list(words: list[str]) -> list[list[str]]:
    phrases: list[list[str]] = [[]]
    for word in words:
        if word in CONJUNCTIONS:
            phrases.append([])
        else:
            phrases[-1].append(word)
    return [phrase for phrase in phrases if phrase]
