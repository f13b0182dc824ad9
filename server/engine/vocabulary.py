"""The words every story understands, for clients to complete: the standard verbs (the first word of each of
the grammar's word orders), the small words later in them verb by verb, the verbs that take a direction,
directions and directives. A world's own commands are not here: `actions` lists them."""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.directives import standard
from server.engine.parser.grammar import GRAMMAR
from server.engine.parser.words import DIRECTIONS

LOOK = "examine"
"""The kind of command that looks at what it names, a room among them ("x foyer")."""


@dataclass(frozen=True, slots=True)
class Words:
    verbs: list[str]
    particles: dict[str, list[str]]
    directed: list[str]
    looking: list[str]
    directions: list[str]
    directives: list[str]


def standard_words() -> Words:
    """The standard words, read off the grammar and the directives (built once by the caller)."""
    later: dict[str, dict[str, None]] = {}
    directed: dict[str, None] = {}
    looking: dict[str, None] = {}
    for kind in GRAMMAR:
        for pattern in kind.tokens:
            if not pattern or pattern[0].isupper():
                continue
            words = later.setdefault(pattern[0], {})
            words.update(dict.fromkeys(word for word in pattern[1:] if not word.isupper()))
            if "DIR" in pattern:
                directed[pattern[0]] = None
            if kind.name == LOOK and pattern[-1] == "OBJ":
                looking[" ".join(pattern[:-1])] = None
    return Words(
        verbs=list(later),
        particles={verb: list(words) for verb, words in later.items()},
        directed=list(directed),
        looking=list(looking),
        directions=list(DIRECTIONS),
        directives=[directive.name for directive in standard()],
    )
