"""Recognizing one command: matching its words to the grammar, resolving what they name, asking when unclear."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from server.engine.actions.action import Action, Event
from server.engine.actions.verbs import substance_in
from server.engine.english.nouns import join_list, plural
from server.engine.parser.grammar import ABBREVIATIONS, GRAMMAR, SLOTS, CommandKind, Request, Scope, verb_of
from server.engine.parser.words import (
    ALL_WORDS,
    ANSWER_FILLERS,
    ARTICLES,
    CONJUNCTIONS,
    DIRECTIONS,
    EXCEPT_WORDS,
    MAX_WORDS,
    ORDINALS,
    OWNER_WORDS,
    PREPOSITIONS,
    PRONOUNS,
    SELF_WORDS,
    Token,
    plain,
    tokens_of,
    unquoted,
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
    objects: tuple[str, ...] = ()
    """What the command is about (OBJ), and the second thing it names (OBJ2), as resolved."""
    second: str | None = None


@dataclass(frozen=True, slots=True)
class Reading:
    """One way a command's words fit one word order of the grammar: the words each slot took."""

    kind: CommandKind
    pattern: tuple[str, ...]
    slots: Mapping[str, tuple[str, ...]]
    text: str | None = None
    """The free text (TEXT) exactly as typed, brackets and all."""

    @property
    def verb(self) -> str:
        return verb_of(self.pattern)


Choices = Mapping[tuple[str, int], tuple[str, ...]]
"""Answers already given: (slot, which listed phrase of it) -> the things chosen."""


@dataclass(frozen=True, slots=True)
class Clarify:
    """An ambiguous name: the question to ask, and what is needed to finish once it is answered."""

    question: str
    reading: Reading
    slot: str
    phrase: int
    candidates: tuple[str, ...]
    chosen: Choices = field(default_factory=dict)
    """Phrases already settled by earlier answers."""

    @property
    def kind(self) -> CommandKind:
        return self.reading.kind


@dataclass(frozen=True, slots=True)
class NotUnderstood:
    """A command that cannot be acted on, and the message that says why."""

    message: str


Parsed = Understood | Clarify | NotUnderstood


class _Unresolved(Exception):
    """A slot's words name nothing usable; carries the message. Caught inside the recognizer only.

    `rank` orders the messages of different readings of one command: the most telling one is shown."""

    def __init__(self, message: str, rank: int) -> None:
        super().__init__(message)
        self.message = message
        self.rank = rank


class _Ambiguous(Exception):
    """A phrase fits several things equally well: which slot, which phrase of its list, and the candidates;
    `question` when it is not "Which do you mean…?" (a thing left unnamed: "What do you want to hang…on?")."""

    def __init__(self, slot: str, phrase: int, candidates: tuple[str, ...], question: str = "") -> None:
        super().__init__(slot)
        self.slot = slot
        self.phrase = phrase
        self.candidates = candidates
        self.question = question


@dataclass(frozen=True, slots=True)
class _Context:
    """What resolving one reading needs at hand."""

    reading: Reading
    actor: str
    sight: Perception
    memory: Memory
    present: tuple[str, ...]
    chosen: Choices


@dataclass(frozen=True, slots=True)
class _Near:
    """What judging a command that is not whole needs: who gives it, what it can name, what pronouns mean."""

    actor: str
    present: tuple[str, ...]
    memory: Memory
    sight: Perception


@dataclass
class Recognizer:
    """Recognizes commands for one world's grammar; the lexicon is built once."""

    world: WorldState
    grammar: Sequence[CommandKind] = GRAMMAR
    lexicon: frozenset[str] = field(init=False)
    _item_words: dict[str, frozenset[str]] = field(init=False)
    _all_item_words: frozenset[str] = field(init=False)
    _plurals: dict[str, str] = field(init=False)
    _heads: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        words: set[str] = set(ARTICLES | PRONOUNS | SELF_WORDS | ALL_WORDS | EXCEPT_WORDS | CONJUNCTIONS | OWNER_WORDS)
        words.update(DIRECTIONS)
        for kind in self.grammar:
            words.update(kind.literal_words())
        self._item_words = {tag: item.words() for tag, item in self.world.items.items()}
        self._all_item_words = frozenset(w for found in self._item_words.values() for w in found)
        known = words | self._all_item_words
        # "keys" names every key. Only things have plurals here: the plural of "me" is "us", of no use.
        self._plurals = {}
        for tag, item in self.world.items.items():
            if item.kind in ("thing", "door", "substance"):
                for word in self._item_words[tag]:
                    for form in (plural(word), word + "s"):
                        if form not in known:
                            self._plurals.setdefault(form, word)
        self.lexicon = frozenset(known | self._plurals.keys())
        self._heads = frozenset(
            pattern[0] for kind in self.grammar for pattern in kind.tokens if not pattern[0].isupper()
        )

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
        readings = list(self._readings(command, tokens))
        free = {i for _, spans in readings for name, span in spans.items() if name in ("TEXT", "WORD") for i in span}
        unknown = [w for i, w in enumerate(words) if i not in free and not w.startswith('"') and not self._known(w)]
        if unknown:
            return NotUnderstood(f'I don\'t know the word "{unknown[0]}".')
        near = _Near(actor, self._present(actor, sight), memory, sight)
        if not readings:
            return NotUnderstood(self._not_a_command(words, near))
        best: _Unresolved | None = None
        for reading, _ in readings:
            try:
                return self._finish(reading, actor, sight, memory, rng)
            except _Unresolved as failure:
                if best is None or failure.rank > best.rank:
                    best = failure
            except _Ambiguous as question:
                return self._clarify(reading, question, {})
        assert best is not None
        # "look at" reads as looking at something called "at"; that it stops short is the likelier trouble.
        # "look look": the words after a whole command name nothing at all; that is the likelier trouble too.
        return NotUnderstood(self._cut_short(words, near, lead_in=False) or self._as_far(words, near) or best.message)

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
        words = [w for token in tokens_of(plain(reply)) for w in unquoted(token.text)]
        words = [w for w in words if w not in ARTICLES and w not in ANSWER_FILLERS and w not in CONJUNCTIONS]
        while words[1:] and words[0] in PREPOSITIONS:
            words = words[1:]  # "on the hook", to "What do you want to hang the cloak on?"
        if not words:
            return None
        if set(words) <= ALL_WORDS and pending.kind.many:
            chosen = pending.candidates
        elif set(words) <= {"either", "any", "whichever"}:
            chosen = pending.candidates[:1]
        else:
            fitting = tuple(t for t in pending.candidates if set(words) <= self._item_words[t])
            place = _position(words, len(pending.candidates))
            if not fitting and place is not None:
                fitting = (pending.candidates[place],)  # "2", "the second", "the last one"
            if not fitting:
                return pending if _position(words, 10) is not None else None
            chosen = self._narrowed(fitting, words)
            if len(chosen) > 1:
                return Clarify(
                    self._question(chosen), pending.reading, pending.slot, pending.phrase, chosen, pending.chosen
                )
        choices = {**pending.chosen, (pending.slot, pending.phrase): chosen}
        try:
            return self._finish(pending.reading, actor, sight, memory, rng, choices)
        except _Unresolved as failure:
            return NotUnderstood(failure.message)
        except _Ambiguous as question:
            return self._clarify(pending.reading, question, choices)

    # -- matching words to patterns -----------------------------------------------------------------

    def _readings(self, command: str, tokens: list[Token]) -> Iterator[tuple[Reading, dict[str, list[int]]]]:
        words = [token.text for token in tokens]
        found = []
        for order, (kind, pattern) in enumerate((k, p) for k in self.grammar for p in k.tokens):
            for spans in _match(pattern, words, 0, 0):
                literals = sum(1 for p in pattern if not p.isupper())
                found.append((-literals, order, kind, pattern, spans))
        # Patterns that account for more of the words literally are the more specific readings.
        for _, _, kind, pattern, spans in sorted(found, key=lambda f: (f[0], f[1])):
            slots = {name: tuple(words[i] for i in span) for name, span in spans.items()}
            text = _free_text(command, tokens, spans["TEXT"]) if "TEXT" in spans else None
            yield Reading(kind, pattern, slots, text), spans

    def _known(self, word: str) -> bool:
        if word in self.lexicon or word.isdigit():
            return True
        # "the boy's ball": a possessive of anything nameable
        return word.endswith("'s") and word[:-2] in self._all_item_words

    def _not_a_command(self, words: list[str], near: _Near) -> str:
        """Why nothing fits: a command that stops short of its last slot is asked about; one with words after
        a whole command that name nothing is understood only as far as that command; else not understood."""
        cut_short = self._cut_short(words, near) or self._as_far(words, near)
        if cut_short:
            return cut_short
        if words[0].startswith('"'):
            return 'To say something, begin with "say": say "hello".'
        if words[0] not in self._heads and words[0] not in DIRECTIONS:
            return f'"{words[0]}" is not a verb I know.'
        return "I don't understand that."

    def begins_command(self, word: str) -> bool:
        """Whether a word begins some command of this grammar ("light", "take"), or is a direction."""
        return word in self._heads or word in DIRECTIONS

    def _cut_short(self, words: list[str], near: _Near, *, lead_in: bool = True) -> str | None:
        """ "What do you want to take?" for a command that stops where a word order's last slot would begin;
        "What do you want to give the bread to?" for one that stops before the word leading to it too ("put the
        bread" might go in or on: that is not asked). The second is a guess, made only when `lead_in`. Where
        several word orders could be meant, the one whose named things fit best is asked about ("feed the mime"
        asks for the food: the mime is someone to feed, not food); a name that fits nothing here is not asked
        about at all (what fails is the name). The question names things as the story does, never echoing the
        words typed ("What do you want to feed the dazed mime?")."""
        asked: dict[str, tuple[int, int]] = {}
        for kind in self.grammar:
            for pattern in kind.tokens:
                if len(pattern) < 2 or pattern[-1] not in SLOTS:
                    continue
                if len(words) == 1 and pattern[0] == words[0] and pattern[1] in ("OBJ", "OBJ2"):
                    # "take", "pick": only the verb is typed, and only what to do it to is asked.
                    asked.setdefault(f"What do you want to {ABBREVIATIONS.get(words[0], words[0])}?", (2, 1))
                # A command cut short just before the last slot is surely that; one cut short before the word
                # leading to it too is a guess, made only when no such command fits as well.
                heads = [(pattern[:-1], 1)]
                leads_in = (
                    len(pattern) > 2 and not pattern[-2].isupper() and pattern[-3] in SLOTS and pattern[-2] not in words
                )
                if lead_in and leads_in:
                    heads.append((pattern[:-2], 0))
                for head, sure in heads:
                    spans = next(_match(head, words, 0, 0), None)
                    fit = 0 if spans is None else self._fit(kind, spans, words, near)
                    if spans is None or fit == 0:
                        continue
                    said = self._phrase(pattern[:-1], spans, words, near)
                    question = (
                        f"Which way do you want to {said}?" if pattern[-1] == "DIR" else f"What do you want to {said}?"
                    )
                    asked[question] = max(asked.get(question, (0, 0)), (fit, sure))
        if not asked:
            return None
        best = max(asked.values())
        questions = [question for question, rank in asked.items() if rank == best]
        return questions[0] if len(questions) == 1 else None

    def _as_far(self, words: list[str], near: _Near) -> str | None:
        """ "I only understood you as far as wanting to look." for a whole command followed by words that name
        nothing ("look look", "wait around the clock"); None when the words after it could name something."""
        for end in range(len(words) - 1, 0, -1):
            if any(self._names_anything(word) for word in words[end:]):
                return None
            for kind in self.grammar:
                for pattern in kind.tokens:
                    spans = next(_match(pattern, words[:end], 0, 0), None)
                    if spans is not None and self._fit(kind, spans, words, near):
                        return (
                            f"I only understood you as far as wanting to {self._phrase(pattern, spans, words, near)}."
                        )
        return None

    def _names_anything(self, word: str) -> bool:
        return (
            word in self._all_item_words
            or word in self._plurals
            or word in PRONOUNS
            or word in SELF_WORDS
            or word in ALL_WORDS
            or word.startswith('"')
            or word.isdigit()
        )

    def _fit(self, kind: CommandKind, spans: Mapping[str, list[int]], words: list[str], near: _Near) -> int:
        """How well the things named in a (partial) command fit it: 2 all in their slots' scopes, 1 all here
        but not all in scope, 0 a name that fits nothing here."""
        fit = 2
        for slot, scope in (("OBJ", kind.scope), ("OBJ2", kind.scope2)):
            if slot not in spans:
                continue
            named = self._quickly(words, spans[slot], near)
            if named is None:
                continue  # a list, "all", a pronoun: not judged here
            if not named:
                return 0
            context = _Context(Reading(kind, (), {}), near.actor, near.sight, near.memory, near.present, {})
            if not any(self._in_scope(t, scope, context, ()) for t in named):
                fit = 1
        return fit

    def _quickly(self, words: list[str], span: list[int], near: _Near) -> list[str] | None:
        """What a slot's words name here, without asking anything; None when they are not one plain name."""
        phrase = [w for i in span for w in unquoted(words[i]) if w not in ARTICLES]
        if not phrase or any(w in CONJUNCTIONS or w in ALL_WORDS or w in PRONOUNS for w in phrase):
            return None
        if len(phrase) == 1 and phrase[0] in SELF_WORDS:
            return [near.actor]
        phrase = [w for w in phrase if w not in OWNER_WORDS]
        phrase = [self._plurals.get(w, w) if w not in self._all_item_words else w for w in phrase]
        return [t for t in near.present if phrase and set(phrase) <= self._item_words[t]]

    def _phrase(self, pattern: tuple[str, ...], spans: Mapping[str, list[int]], words: list[str], near: _Near) -> str:
        """A word order said back with what it names: "feed the dazed mime", "hang the velvet cloak on", "look";
        abbreviations spelled out, a slot not yet filled left out, and words that are not one name as typed."""
        said: list[str] = []
        for position, token in enumerate(pattern):
            if token not in SLOTS:
                said.append(ABBREVIATIONS.get(token, token) if position == 0 else token)
            elif token in spans:
                span = spans[token]
                named = self._quickly(words, span, near) if token in ("OBJ", "OBJ2") else None
                typed = " ".join(words[i] for i in span)
                if named and len(named) == 1:
                    said.append(self._called(named))
                elif named:  # several things fit: the name as typed, as the story would say it
                    said.append("the " + " ".join(words[i] for i in span if words[i] not in ARTICLES))
                else:
                    said.append(typed)
        return " ".join(said)

    def _called(self, tags: Sequence[str]) -> str:
        """Things as a question names them: "the velvet cloak", "the hook and the ticket"."""
        return join_list([f"the {self.world.items[tag].called}" for tag in tags])

    # -- resolving names to items ---------------------------------------------------------------------

    def _finish(
        self,
        reading: Reading,
        actor: str,
        sight: Perception,
        memory: Memory,
        rng: random.Random | None,
        chosen: Choices | None = None,
    ) -> Understood:
        kind, slots = reading.kind, reading.slots
        context = _Context(reading, actor, sight, memory, self._present(actor, sight), chosen or {})
        objects: tuple[str, ...] = ()
        second = None
        # "take all from the box", "put everything in the box": what "all" means depends on the box, so the
        # box is found first.
        if "OBJ2" in slots and "OBJ" in slots and _starts_with_all(slots["OBJ"]):
            second = self._resolve_one(context, "OBJ2", kind.scope2, ())
            within = second if kind.scope2 == "holder" else None
            objects = self._resolve(context, "OBJ", kind.scope, kind.many, within, exclude=second)
        else:
            if "OBJ" in slots:
                objects = self._resolve(context, "OBJ", kind.scope, kind.many, None)
            if "OBJ2" in slots:
                second = self._resolve_one(context, "OBJ2", kind.scope2, objects)
            elif kind.implied:
                second = self._implied(context, objects)
        direction = DIRECTIONS[slots["DIR"][0]] if "DIR" in slots else None
        word = slots["WORD"][0] if "WORD" in slots else None
        substance = self._substance_named(slots["OBJ"], context) if objects else None
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
        several = "OBJ" in slots and self._names_several(slots["OBJ"])
        return Understood(kind, actions, self._remember(memory, actor, objects, second, several), objects, second)

    def _present(self, actor: str, sight: Perception) -> tuple[str, ...]:
        """What the actor can name now: itself, what it sees and what it carries (even in the dark), and
        last the room it is in ("examine the cloakroom")."""
        world = self.world
        found = [actor]
        for tag in sight.visible_items(actor):
            if tag not in found and not isinstance(world.items[tag], Room):
                found.append(tag)
        for tag in world.descendants(actor):
            if tag not in found:
                found.append(tag)
        room = world.room_of(actor)
        if room is not None:
            found.append(room)
        return tuple(found)

    def _implied(self, context: _Context, objects: tuple[str, ...]) -> str:
        """The second thing a word order leaves unnamed ("hang the cloak"): the one thing here in its scope that
        is not the actor's own; several, or none, are asked about by what the command lacks."""
        settled = context.chosen.get(("OBJ2", 0))
        if settled and settled[0] in context.present:
            return settled[0]
        world, kind = self.world, context.reading.kind
        others = [
            t
            for t in context.present
            if t != context.actor
            and t not in objects
            and not isinstance(world.items[t], Room)
            and not world.is_descendant(t, context.actor)
        ]
        fits = [t for t in others if self._in_scope(t, kind.scope2, context, objects)]
        if len(fits) == 1:
            return fits[0]
        full = next((p for p in kind.tokens if p[0] == context.reading.pattern[0] and "OBJ2" in p), None)
        lacking = full[: full.index("OBJ2")] if full else context.reading.pattern
        said = " ".join(self._called(objects) if token == "OBJ" else token for token in lacking)
        candidates = tuple(fits or [t for t in others if world.items[t].kind in ("thing", "door")])
        if not candidates:
            raise _Unresolved(f"There is nothing here to {said}.", 3)
        raise _Ambiguous("OBJ2", 0, candidates, f"What do you want to {said}?")

    def _resolve_one(self, context: _Context, slot: str, scope: Scope, related: tuple[str, ...]) -> str:
        found = self._resolve(context, slot, scope, False, None, related=related)
        return found[0]

    def _resolve(
        self,
        context: _Context,
        slot: str,
        scope: Scope,
        many: bool,
        within: str | None,
        *,
        exclude: str | None = None,
        related: tuple[str, ...] = (),
    ) -> tuple[str, ...]:
        """The things a slot's words name. `within`: the second thing, when "all" means what it holds;
        `exclude`: the second thing, which "all" never includes; `related`: the first things, when the
        second is what holds them."""
        words = context.reading.slots[slot]
        # "all but the lamp and the keys" is one phrase: the list is what is left out.
        phrases = [list(words)] if _starts_with_all(words) else _split_list(words)
        if not phrases:
            raise _Unresolved("Which thing do you mean?", 1)
        if len(phrases) > 1 and not many:
            raise _Unresolved("You can only do that with one thing at a time.", 2)
        found: list[str] = []
        for index, phrase in enumerate(phrases):
            settled = context.chosen.get((slot, index))
            if settled is not None and all(t in context.present for t in settled):
                found.extend(settled)
                continue
            found.extend(self._resolve_phrase(context, phrase, slot, index, scope, many, within, exclude, related))
        if not many and len(found) > 1:
            raise _Unresolved("You can only do that with one thing at a time.", 2)
        return tuple(dict.fromkeys(found))

    def _resolve_phrase(
        self,
        context: _Context,
        phrase: list[str],
        slot: str,
        index: int,
        scope: Scope,
        many: bool,
        within: str | None,
        exclude: str | None,
        related: tuple[str, ...],
    ) -> list[str]:
        words = [w for token in phrase for w in unquoted(token) if w not in ARTICLES]
        if not words:
            raise _Unresolved("Which thing do you mean?", 1)
        if len(words) == 1 and words[0] in PRONOUNS:
            return self._pronoun(words[0], context, slot, index)
        if len(words) == 1 and words[0] in SELF_WORDS:
            return [context.actor]
        if words[0] in ALL_WORDS:
            if not many:
                raise _Unresolved("You can only do that with one thing at a time.", 2)
            return self._all(context, words[1:], scope, within, exclude)
        owners, words = self._owners(words, context)
        if not words:
            raise _Unresolved("Which thing do you mean?", 1)
        several = any(w in self._plurals and w not in self._all_item_words for w in words)
        words = [self._plurals.get(w, w) if w not in self._all_item_words else w for w in words]
        if any(w in DIRECTIONS and w not in self._all_item_words for w in words):
            raise _Unresolved("I don't understand that.", 0)
        matching = [t for t in context.present if set(words) <= self._item_words[t]]
        if not matching:
            matching = self._holding_substance(words, context, scope, related)
            if not matching and scope == "held" and self._substances(words):
                # "pour the water" with none to hand: what is missing is the player's own.
                verb = context.reading.verb.split()
                while verb[1:] and verb[-1] in PREPOSITIONS:
                    verb.pop()  # "drink from": "You have no water to drink."
                raise _Unresolved(f"You have no {' '.join(words)} to {' '.join(verb)}.", 3)
        if owners is not None:
            anyones = matching
            matching = [t for t in matching if any(self.world.is_descendant(t, owner) for owner in owners)]
            if anyones and not matching:
                named = " ".join(words)
                if owners == (context.actor,):
                    raise _Unresolved(f"You have no {named}.", 3)
                if len(owners) == 1:
                    raise _Unresolved(f"The {self.world.items[owners[0]].called} has no {named}.", 3)
                raise _Unresolved(f"No one here has that {named}.", 3)
        if not matching:
            raise _Unresolved(self._nothing_called(words, context), 3)
        preferred = self._preferred(matching, context, scope, related)
        if several:
            if not many and len(preferred) > 1:
                raise _Unresolved("You can only do that with one thing at a time.", 2)
            return preferred
        if len(preferred) > 1:
            narrowed = self._narrowed(tuple(preferred), words)
            if len(narrowed) > 1:
                raise _Ambiguous(slot, index, narrowed)
            return list(narrowed)
        return preferred

    def _preferred(self, matching: list[str], context: _Context, scope: Scope, related: tuple[str, ...]) -> list[str]:
        """Of the things a phrase fits, those the command is likeliest about: in scope, then not the room."""
        preferred = [t for t in matching if self._in_scope(t, scope, context, related)] or matching
        return [t for t in preferred if not isinstance(self.world.items[t], Room)] or preferred

    def _narrowed(self, candidates: tuple[str, ...], words: list[str]) -> tuple[str, ...]:
        """One of several candidates, where the words settle it: the one they name exactly; or, when the
        candidates cannot be told apart by name at all, any one of them."""
        phrase = " ".join(words)
        exact = [t for t in candidates if phrase in self._names(t)]
        if len(exact) == 1:
            return (exact[0],)
        if len({self.world.items[t].called for t in candidates}) == 1:
            return candidates[:1]
        return candidates

    def _names(self, tag: str) -> set[str]:
        item = self.world.items[tag]
        return {name.lower() for name in (item.called, item.subsequent) if name}

    def _all(
        self, context: _Context, rest: list[str], scope: Scope, within: str | None, exclude: str | None
    ) -> list[str]:
        """ "all", "all the sacks", "everything but the lamp", "all from the box": the things in scope a
        player would mean, never fixtures, people, the room, or what is worn (unless taking it off)."""
        cut = next((i for i, w in enumerate(rest) if w in EXCEPT_WORDS), len(rest))
        kept, excepted = [w for w in rest[:cut] if w not in ARTICLES and w != "of"], rest[cut + 1 :]
        world, actor = self.world, context.actor
        candidates = [
            t
            for t in context.present
            if t not in (actor, within, exclude)
            and world.items[t].kind in ("thing", "door")
            and world.get(t, "mention", True)
            and world.link(t) != "part_of"
        ]
        if within is not None:
            candidates = [t for t in candidates if world.parent(t) == within]
        elif scope == "takeable":
            # Only what lies about: "take all" does not empty the containers in the room.
            candidates = [t for t in candidates if world.parent(t) == world.parent(actor)]
        if within is None or scope != "takeable":
            # (What a bag one carries holds is out of the takeable scope, yet "take all from my bag" means it.)
            candidates = [t for t in candidates if self._in_scope(t, scope, context, ())]
        if scope == "held":
            candidates = [t for t in candidates if world.link(t) != "on"]
        if kept:
            words = [self._plurals.get(w, w) if w not in self._all_item_words else w for w in kept]
            candidates = [t for t in candidates if set(words) <= self._item_words[t]]
        if excepted:
            others = self._left_out(excepted, context)
            candidates = [t for t in candidates if t not in others]
        if not candidates:
            verb = context.reading.verb
            if scope == "held" and within is None:
                raise _Unresolved(
                    f"You have no {' '.join(kept)} to {verb}." if kept else f"You have nothing to {verb}.", 3
                )
            if scope == "worn" and within is None and not kept:
                raise _Unresolved("You are wearing nothing.", 3)
            where = f" in the {world.items[within].called}" if within else " here"
            raise _Unresolved(f"There is nothing{where} to {verb}.", 3)
        return candidates

    def _left_out(self, words: list[str], context: _Context) -> set[str]:
        """What "all but…" leaves out: everything each listed phrase fits, with no question asked ("all but
        the lamp" leaves out every lamp)."""
        left: set[str] = set()
        for phrase in _split_list(words):
            named = [w for w in phrase if w not in ARTICLES]
            if len(named) == 1 and named[0] in PRONOUNS:
                left.update(self._pronoun(named[0], context, "", 0))
                continue
            named = [self._plurals.get(w, w) if w not in self._all_item_words else w for w in named]
            fits = [t for t in context.present if named and set(named) <= self._item_words[t]]
            if not fits:
                raise _Unresolved(self._nothing_called(named, context), 3)
            left.update(fits)
        return left

    def _owners(self, words: list[str], context: _Context) -> tuple[tuple[str, ...] | None, list[str]]:
        """Take the possessives out of a phrase: "my cloak", "his ball", "the boy's ball". Returns whose
        things the phrase is narrowed to (None: anyone's) and the words left."""
        owners: list[str] = []
        narrowed = False
        rest: list[str] = []
        memory = context.memory
        for position, word in enumerate(words):
            last = position == len(words) - 1
            if word in OWNER_WORDS and last and word != "her":
                continue  # "take my": no name follows
            if word in OWNER_WORDS and not last:
                narrowed = True
                if word == "my":
                    owners.append(context.actor)
                elif word == "his" and memory.him:
                    owners.append(memory.him)
                elif word == "her" and memory.her:
                    owners.append(memory.her)
                elif word == "its" and memory.it:
                    owners.append(memory.it)
                elif word == "their":
                    owners.extend(memory.them)
                else:
                    # "his ball" with no "him" yet: any present man's ball will do.
                    gender = {"his": "male", "her": "female"}.get(word)
                    for tag in context.present:
                        item = self.world.items[tag]
                        if item.kind == "actor" and gender in (None, item.gender):
                            owners.append(tag)
            elif word.endswith("'s") and not last and word[:-2] in self._all_item_words:
                narrowed = True
                owners.extend(t for t in context.present if word[:-2] in self._item_words[t])
            else:
                rest.append(word)
        return (tuple(owners) if narrowed else None), rest

    def _substances(self, words: Sequence[str]) -> set[str]:
        """The substances a phrase names ("water", "the liquid")."""
        items = self.world.items
        return {t for t, item in items.items() if item.kind == "substance" and set(words) <= self._item_words[t]}

    def _holding_substance(
        self, words: list[str], context: _Context, scope: Scope, related: tuple[str, ...]
    ) -> list[str]:
        """ "drink the water", "fill the bottle with water": a substance is named by what holds it here. Of those,
        what is in the slot's scope ("from the water" is from a source), then what the actor holds ("pour the
        water" is the water in the bottle it carries, not the basin's), then what it can reach; several left
        are asked about."""
        named = self._substances(words)
        if not named:
            return []
        holders = [t for t in context.present if substance_in(self.world, t) in named]
        fitting = [t for t in holders if self._in_scope(t, scope, context, related)] or holders
        held = [t for t in fitting if self.world.is_descendant(t, context.actor)]
        reached = [t for t in fitting if context.sight.can_reach(context.actor, t)]
        return held or reached or fitting

    def _substance_named(self, words: Sequence[str], context: _Context) -> str | None:
        """The substance a slot's words name, when they name it rather than anything here ("take the water");
        None for anything else."""
        phrase = [w for token in words for w in unquoted(token) if w not in ARTICLES and w not in OWNER_WORDS]
        if not phrase or any(w in CONJUNCTIONS or w in ALL_WORDS or w in PRONOUNS for w in phrase):
            return None
        if any(set(phrase) <= self._item_words[t] for t in context.present):
            return None
        named = self._substances(phrase)
        return next(iter(named)) if len(named) == 1 else None

    def _nothing_called(self, words: list[str], context: _Context) -> str:
        """The message when a phrase names nothing present; a room seen across the way is only too far off."""
        here = self.world.room_of(context.actor)
        for tag in context.sight.visible_items(context.actor):
            if tag != here and isinstance(self.world.items[tag], Room) and set(words) <= self._item_words[tag]:
                return f"The {self.world.items[tag].called} is too far away for that."
        return f"You see no {' '.join(words)} here."

    def _pronoun(self, word: str, context: _Context, slot: str, index: int) -> list[str]:
        """What a pronoun means: what was last named as it would be ("it" after a list of things asks which of
        them; "it" with nothing named yet, the one thing here it could mean; "him", the one man here)."""
        memory, present, world = context.memory, context.present, self.world
        meant: list[str]
        if word in ("them", "they"):
            meant = [t for t in memory.them if t in present] or list(memory.them)
        elif word == "it" and memory.it is None and len(memory.them) > 1:
            listed = tuple(t for t in memory.them if t in present and not world.items[t].plural)
            if len(listed) > 1 and slot:
                raise _Ambiguous(slot, index, listed)
            meant = list(listed[:1])
        elif word == "it" and memory.it is None:
            things = [t for t in present if self._could_be_it(t, context.actor)]
            meant = things if len(things) == 1 else []
        else:
            last = {"it": memory.it, "him": memory.him, "her": memory.her}[word]
            meant = [last] if last else []
            if not meant and word != "it":
                # No one named yet, but only one person here it could mean.
                gender = "male" if word == "him" else "female"
                people = [t for t in present if t != context.actor and world.items[t].gender == gender]
                meant = people[:1] if len(people) == 1 and world.items[people[0]].kind == "actor" else []
        if not meant:
            raise _Unresolved(f'I\'m not sure what "{word}" refers to.', 3)
        absent = [t for t in meant if t not in present]
        if absent:
            called = world.items[absent[0]].called
            raise _Unresolved(f'"{word.capitalize()}" would be the {called}, which you cannot see now.', 3)
        return meant

    def _could_be_it(self, tag: str, actor: str) -> bool:
        """A thing "it" could mean when nothing has been named: one that is told of, not a fixture or a room."""
        item, world = self.world.items[tag], self.world
        return (
            item.kind in ("thing", "door")
            and not item.plural
            and world.get(tag, "mention", True)
            and world.link(tag) != "part_of"
            and tag != actor
        )

    def _in_scope(self, tag: str, scope: Scope, context: _Context, related: tuple[str, ...]) -> bool:
        world, actor, sight = self.world, context.actor, context.sight
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
        if scope == "source":
            return bool(world.get(tag, "source_of"))
        if scope == "holder":
            return any(world.parent(t) == tag for t in related)
        reachable = sight.can_reach(actor, tag)
        if scope == "reachable":
            return reachable
        # takeable: within reach, not already one's own (even in a bag one carries), not a person, not fixed
        return (
            reachable
            and tag != actor
            and not world.is_descendant(tag, actor)
            and item.kind == "thing"
            and world.link(tag) != "part_of"
        )

    def _names_several(self, words: tuple[str, ...]) -> bool:
        """Whether a phrase is a list, "all…" or a plural: "them" then means what it named."""
        return any(w in CONJUNCTIONS or w in ALL_WORDS for w in words) or any(
            w in self._plurals and w not in self._all_item_words for w in words
        )

    def mentioned(self, memory: Memory, actor: str, events: Sequence[Event]) -> Memory:
        """What pronouns mean once `actor` is told `events`: the things the telling mentions, the last of each
        kind ("You see a box here. You frown at it." makes "it" the box; "The mime waves." makes "him" the
        mime). What the actor's own command named is already remembered, as the command said it (a list stays
        "them"), so what its commanded actions name is passed over; what it saw looking around is mentioned, in
        the order it is told."""
        said: list[str] = []
        for event in events:
            action = event.action
            if actor not in event.perceivers:
                continue
            if action.agent == actor and action.direct is None and event.observed:
                said.extend(t for t in event.observed if self.world.get(t, "mention", True))
            if not (event.cause == "command" and action.agent == actor):
                said.extend(t for t in (action.agent, action.direct, action.indirect) if t is not None)
        told = [t for t in said if t != actor and t in self.world.items and not isinstance(self.world.items[t], Room)]
        return self._noted(memory, actor, told)

    def _noted(self, memory: Memory, actor: str, tags: Sequence[str]) -> Memory:
        """Memory with each of `tags` taken as the latest thing its pronoun means, in order."""
        it, them, him, her = memory.it, memory.them, memory.him, memory.her
        for tag in tags:
            if tag == actor:
                continue
            item = self.world.items[tag]
            if item.kind == "actor" and item.gender == "male":
                him = tag
            elif item.kind == "actor" and item.gender == "female":
                her = tag
            elif item.plural or (item.kind == "actor" and item.gender in ("nonbinary", "unknown")):
                them = (tag,)
            else:
                it = tag
        return Memory(it, them, him, her)

    def _remember(
        self, memory: Memory, actor: str, objects: tuple[str, ...], second: str | None, several: bool
    ) -> Memory:
        # The first thing acted on is the likeliest "it" next ("put the coin in the box. take it"), so it
        # is remembered last.
        noted = self._noted(memory, actor, (*((second,) if second else ()), *reversed(objects)))
        it, them, him, her = noted.it, noted.them, noted.him, noted.her
        if several or len(objects) > 1:
            them = tuple(t for t in objects if t != actor)
            if len(them) > 1:
                it = None  # "it", after a list, is asked about: which of them?
        return Memory(it, them, him, her)

    def _clarify(self, reading: Reading, question: _Ambiguous, chosen: Choices) -> Clarify:
        return Clarify(
            question.question or self._question(question.candidates),
            reading,
            question.slot,
            question.phrase,
            question.candidates,
            chosen,
        )

    def _question(self, candidates: tuple[str, ...]) -> str:
        names = [f"the {self.world.items[t].called}" for t in candidates]
        listed = ", ".join(names[:-1]) + (", or " if len(names) > 2 else " or ") + names[-1]
        return f"Which do you mean, {listed}?"


def _position(words: list[str], count: int) -> int | None:
    """Which of `count` things an answer picks by its place: "2", "the second", "the last"; None if none."""
    if len(words) != 1:
        return None
    word = words[0]
    place = int(word) - 1 if word.isdigit() else ORDINALS.get(word)
    if place is None or not -count <= place < count:
        return None
    return place % count


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
        if w < len(words) and (words[w] in DIRECTIONS if token == "DIR" else _SETTING.fullmatch(words[w])):
            for rest in _match(pattern, words, p + 1, w + 1):
                yield {token: [w], **rest}
        return
    if p == len(pattern) - 1:
        # A last slot takes every word left.
        if w < len(words) and _could_name(token, words[w:], last=True):
            yield {token: list(range(w, len(words)))}
        return
    ends = range(w + 1, len(words) + 1)
    # Before free text, the longest name that works is meant: "tell the dazed mime hello", not "tell the
    # dazed" "mime hello".
    for end in reversed(ends) if pattern[p + 1] == "TEXT" else ends:
        if _could_name(token, words[w:end], last=False):
            for rest in _match(pattern, words, p + 1, end):
                yield {token: list(range(w, end)), **rest}


# A setting is a plain word: not quoted text, not a comma, and not "_the_x", which a template would read as a phrase.
_SETTING = re.compile(r"[^\W_][\w'-]*")
_NOT_LAST = ARTICLES | CONJUNCTIONS | OWNER_WORDS | EXCEPT_WORDS


def _could_name(slot: str, words: list[str], *, last: bool) -> bool:
    """Whether words could fill a slot at all: a name does not begin with "and" or end with "the". (A last
    slot of only "the" is let through, to be asked about: "take the" is a command cut short.)"""
    if slot not in ("OBJ", "OBJ2"):
        return True
    alone = len(words) == 1 and (last or words[0] in PRONOUNS)
    return words[0] not in CONJUNCTIONS and (words[-1] not in _NOT_LAST or alone)


def _starts_with_all(words: Sequence[str]) -> bool:
    content = [w for w in words if w not in ARTICLES]
    return bool(content) and content[0] in ALL_WORDS


def _free_text(command: str, tokens: list[Token], span: list[int]) -> str:
    """Free text exactly as typed: from just after the word before it to just before the word after it, so
    brackets, @ signs and other punctuation stay."""
    start = tokens[span[0] - 1].end if span[0] > 0 else 0
    end = tokens[span[-1] + 1].start if span[-1] + 1 < len(tokens) else len(command)
    return command[start:end].strip()


def _split_list(words: Sequence[str]) -> list[list[str]]:
    phrases: list[list[str]] = [[]]
    for word in words:
        if word in CONJUNCTIONS:
            phrases.append([])
        else:
            phrases[-1].append(word)
    return [phrase for phrase in phrases if phrase]
