"""Clarification: the question an ambiguous name raises, and reading the player's answer to it ("the second",
"brass", "both")."""

from __future__ import annotations

from dataclasses import dataclass, field

from server.engine.parser.failures import Ambiguous
from server.engine.parser.kinds import CommandKind
from server.engine.parser.names import Choices, Names
from server.engine.parser.readings import Reading
from server.engine.parser.words import (
    ALL_WORDS,
    ANSWER_FILLERS,
    ARTICLES,
    CONJUNCTIONS,
    ORDINALS,
    PREPOSITIONS,
    plain,
    tokens_of,
    unquoted,
)


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


def asked(names: Names, reading: Reading, question: Ambiguous, chosen: Choices) -> Clarify:
    """The question an ambiguity raises, and what finishing the reading needs."""
    return Clarify(
        question.question or names.question(question.candidates),
        reading,
        question.slot,
        question.phrase,
        question.candidates,
        chosen,
    )


def chosen_by(names: Names, pending: Clarify, reply: str) -> tuple[str, ...] | Clarify | None:
    """What an answer picks of the candidates; the question again (narrowed) when it still fits several; None
    if the reply is not an answer (it is then a new command)."""
    words = [w for token in tokens_of(plain(reply)) for w in unquoted(token.text)]
    words = [w for w in words if w not in ARTICLES and w not in ANSWER_FILLERS and w not in CONJUNCTIONS]
    while words[1:] and words[0] in PREPOSITIONS:
        words = words[1:]  # "on the hook", to "What do you want to hang the cloak on?"
    if not words:
        return None
    if set(words) <= ALL_WORDS and pending.kind.many:
        return pending.candidates
    if set(words) <= {"either", "any", "whichever"}:
        return pending.candidates[:1]
    fitting = tuple(t for t in pending.candidates if names.lexicon.fits(words, t))
    place = _position(words, len(pending.candidates))
    if not fitting and place is not None:
        fitting = (pending.candidates[place],)  # "2", "the second", "the last one"
    if not fitting:
        return pending if _position(words, 10) is not None else None
    chosen = names.narrowed(fitting, words)
    if len(chosen) > 1:
        return Clarify(names.question(chosen), pending.reading, pending.slot, pending.phrase, chosen, pending.chosen)
    return chosen


def _position(words: list[str], count: int) -> int | None:
    """Which of `count` things an answer picks by its place: "2", "the second", "the last"; None if none."""
    if len(words) != 1:
        return None
    word = words[0]
    place = int(word) - 1 if word.isdigit() else ORDINALS.get(word)
    if place is None or not -count <= place < count:
        return None
    return place % count
