"""Why a reading fails: a name that names nothing usable (ranked, so the most telling message is shown), or one
that fits several things (a question to ask)."""

from __future__ import annotations

from enum import IntEnum


class Rank(IntEnum):
    """How telling a failure's message is; of the failed readings of one command, the highest is shown."""

    NOT_UNDERSTOOD = 0
    """A word order that cannot be meant ("take north"): "I don't understand that"."""
    NO_NAME = 1
    """A slot whose words name no thing at all ("take the")."""
    ONE_AT_A_TIME = 2
    """Several things where the command takes one."""
    NAMES_NOTHING = 3
    """Words that name nothing here, or a pronoun with nothing to mean: the message says what is wrong."""


class Unresolved(Exception):
    """A slot's words name nothing usable; carries the message. Caught inside the recognizer only."""

    def __init__(self, message: str, rank: Rank) -> None:
        super().__init__(message)
        self.message = message
        self.rank = rank


class Ambiguous(Exception):
    """A phrase fits several things equally well: which slot, which phrase of its list, and the candidates;
    `question` when it is not "Which do you mean…?" (a thing left unnamed: "What do you want to hang…on?")."""

    def __init__(self, slot: str, phrase: int, candidates: tuple[str, ...], question: str = "") -> None:
        super().__init__(slot)
        self.slot = slot
        self.phrase = phrase
        self.candidates = candidates
        self.question = question
