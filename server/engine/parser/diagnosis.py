"""Diagnosis: why a command that fits no word order, or fits one only in part, is not acted on, said as a
question ("What do you want to take?") or as how far it was understood."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from server.engine.parser.kinds import ABBREVIATIONS, SCOPES, SLOTS, CommandKind
from server.engine.parser.lexicon import Lexicon
from server.engine.parser.names import Names
from server.engine.parser.pronouns import Memory
from server.engine.parser.readings import match
from server.engine.parser.words import (
    ALL_WORDS,
    ARTICLES,
    CONJUNCTIONS,
    DIRECTIONS,
    OWNER_WORDS,
    PRONOUNS,
    SELF_WORDS,
    unquoted,
)
from server.engine.world.perception import Perception


@dataclass(frozen=True, slots=True)
class Near:
    """What judging a command that is not whole needs: who gives it, what it can name, what pronouns mean."""

    actor: str
    present: tuple[str, ...]
    memory: Memory
    sight: Perception


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """Says why one world's commands are not whole."""

    grammar: Sequence[CommandKind]
    lexicon: Lexicon
    names: Names

    def not_a_command(self, words: list[str], near: Near) -> str:
        """Why nothing fits: a command that stops short of its last slot is asked about; one with words after
        a whole command that name nothing is understood only as far as that command; else not understood."""
        cut_short = self.cut_short(words, near) or self.as_far(words, near)
        if cut_short:
            return cut_short
        if words[0].startswith('"'):
            return 'To say something, begin with "say": say "hello".'
        if words[0] not in self.lexicon.heads and words[0] not in DIRECTIONS:
            return f'"{words[0]}" is not a verb I know.'
        return "I don't understand that."

    def cut_short(self, words: list[str], near: Near, *, lead_in: bool = True) -> str | None:
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
                    spans = next(match(head, words, 0, 0), None)
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

    def as_far(self, words: list[str], near: Near) -> str | None:
        """ "I only understood you as far as wanting to look." for a whole command followed by words that name
        nothing ("look look", "wait around the clock"); None when the words after it could name something."""
        for end in range(len(words) - 1, 0, -1):
            if any(self.lexicon.names_anything(word) for word in words[end:]):
                return None
            for kind in self.grammar:
                for pattern in kind.tokens:
                    spans = next(match(pattern, words[:end], 0, 0), None)
                    if spans is not None and self._fit(kind, spans, words, near):
                        return (
                            f"I only understood you as far as wanting to {self._phrase(pattern, spans, words, near)}."
                        )
        return None

    def _fit(self, kind: CommandKind, spans: Mapping[str, list[int]], words: list[str], near: Near) -> int:
        """How well the things named in a (partial) command fit it: 2 all in their slots' scopes, 1 all here
        but not all in scope, 0 a name that fits nothing here."""
        fit = 2
        world = self.names.world
        for slot, scope in (("OBJ", kind.scope), ("OBJ2", kind.scope2)):
            if slot not in spans:
                continue
            named = self._quickly(words, spans[slot], near)
            if named is None:
                continue  # a list, "all", a pronoun: not judged here
            if not named:
                return 0
            if not any(SCOPES[scope](world, near.sight, near.actor, t, ()) for t in named):
                fit = 1
        return fit

    def _quickly(self, words: list[str], span: list[int], near: Near) -> list[str] | None:
        """What a slot's words name here, without asking anything; None when they are not one plain name."""
        phrase = [w for i in span for w in unquoted(words[i]) if w not in ARTICLES]
        if not phrase or any(w in CONJUNCTIONS or w in ALL_WORDS or w in PRONOUNS for w in phrase):
            return None
        if len(phrase) == 1 and phrase[0] in SELF_WORDS:
            return [near.actor]
        phrase = [self.lexicon.singular(w) for w in phrase if w not in OWNER_WORDS]
        return [t for t in near.present if phrase and self.lexicon.fits(phrase, t)]

    def _phrase(self, pattern: tuple[str, ...], spans: Mapping[str, list[int]], words: list[str], near: Near) -> str:
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
                    said.append(self.names.called(named))
                elif named:  # several things fit: the name as typed, as the story would say it
                    said.append("the " + " ".join(words[i] for i in span if words[i] not in ARTICLES))
                else:
                    said.append(typed)
        return " ".join(said)
