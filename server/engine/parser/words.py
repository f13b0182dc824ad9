"""Splitting a command into words, and the small words every command shares (a line is split into commands
by the contract's rule, `protocol.commands`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from protocol.commands import plain

ARTICLES = frozenset({"a", "an", "the", "some", "any"})
PRONOUNS = frozenset({"it", "them", "him", "her", "they"})
SELF_WORDS = frozenset({"me", "myself", "self", "yourself"})
ALL_WORDS = frozenset({"all", "everything", "every", "each", "both"})
EXCEPT_WORDS = frozenset({"except", "but", "besides"})
CONJUNCTIONS = frozenset({"and", ","})
OWNER_WORDS = frozenset({"my", "your", "his", "her", "its", "their"})
"""Possessives that narrow a phrase to what someone has; "her" is an owner only when a noun follows it. "Your" is
the player's own, as the telling says it ("You wear your velvet cloak": "x your cloak")."""
PREPOSITIONS = frozenset({"on", "onto", "in", "into", "to", "at", "with", "from", "about"})
"""Words an answer may begin with that the question ended with ("on the hook", to "…hang the cloak on?")."""
ORDINALS = {
    "first": 0,
    "1st": 0,
    "second": 1,
    "2nd": 1,
    "third": 2,
    "3rd": 2,
    "fourth": 3,
    "4th": 3,
    "fifth": 4,
    "5th": 4,
    "last": -1,
    "former": 0,
    "latter": -1,
}
"""Answers that pick one of the things a question listed by its place ("the second", "the last one")."""
ANSWER_FILLERS = frozenset({"one", "ones", "i", "mean"})
"""Words an answer to "Which do you mean…?" may carry that name nothing ("the brass one", "I mean the oil lamp")."""

DIRECTIONS: dict[str, str] = {
    "n": "n",
    "north": "n",
    "ne": "ne",
    "northeast": "ne",
    "e": "e",
    "east": "e",
    "se": "se",
    "southeast": "se",
    "s": "s",
    "south": "s",
    "sw": "sw",
    "southwest": "sw",
    "w": "w",
    "west": "w",
    "nw": "nw",
    "northwest": "nw",
    "u": "u",
    "up": "u",
    "upstairs": "u",
    "d": "d",
    "down": "d",
    "downstairs": "d",
    "in": "in",
    "inside": "in",
    "out": "out",
    "outside": "out",
}

MAX_WORDS = 100
"""Longer commands are refused at once: no one types them, and matching every reading of one would be slow."""

# A word may carry inner apostrophes and hyphens ("boy's", "x-ray"); other punctuation is no part of any word,
# so "take lamp!" is "take lamp". Quoted text is one token: it is what someone says.
_TOKEN = re.compile(r'"[^"]*"?|\w+(?:[\'-]\w+)*|,')
_WORD = re.compile(r"\w+(?:['-]\w+)*")


@dataclass(frozen=True, slots=True)
class Token:
    """A word of a command (lower-cased), quoted text (as typed, quotation marks included) or a comma, with
    where it stands in the command, so free text can be taken exactly as typed."""

    text: str
    start: int
    end: int


def tokens_of(command: str) -> list[Token]:
    """The command's tokens; `command` should already be plain()."""
    return [
        Token(found.group() if found.group().startswith('"') else found.group().lower(), found.start(), found.end())
        for found in _TOKEN.finditer(command)
    ]


def words_of(command: str) -> list[str]:
    """Lower-cased words, with commas kept as words (they separate listed objects); quoted text stays whole."""
    return [token.text for token in tokens_of(plain(command))]


def unquoted(word: str) -> list[str]:
    """The words inside a quoted token (lower-cased); a word that is not quoted stands for itself."""
    return [found.lower() for found in _WORD.findall(word)] if word.startswith('"') else [word]
