"""Closed-class words the narrator needs: deictics, feature adjectives, time words, list separators, and the
subject words and conjunctions that tell where a clause begins."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from server.engine.english.nouns import join_list

_DEICTICS = {"here": "there", "now": "then", "this": "that", "these": "those"}

# The words for a feature's two values; a feature not listed reads as its name, or "not" and its name.
_FEATURE_WORDS = {
    "open": ("open", "closed"),
    "locked": ("locked", "unlocked"),
    "lit": ("lit", "unlit"),
    "on": ("on", "off"),
    "alive": ("alive", "dead"),
    "awake": ("awake", "asleep"),
    "transparent": ("transparent", "opaque"),
    "accessible": ("within reach", "out of reach"),
}

# Light from none to blinding, for the glow feature: each word covers glows up to its bound.
_GLOW_LADDER = (
    (0.0, "unlit"),
    (0.2, "faintly glowing"),
    (0.5, "glowing"),
    (0.8, "bright"),
    (1.0, "radiant"),
)

FORWARD = ("then", "next", "after that")
"""Time words for an event told after the one before it, used in turn so a telling does not drone."""

BACKWARD = ("before that", "just before that", "previously", "prior to that")
"""Time words for an event told after the one that followed it (retrograde), used in turn likewise."""

SIMULTANEOUS = "meanwhile"
LONG_BEFORE = "earlier"
"""For an event told after one that came well after it, with others between."""


SUBJECT_WORDS: dict[str, tuple[int, bool]] = {
    "i": (1, False),
    "we": (1, True),
    "you": (2, False),
    "he": (3, False),
    "she": (3, False),
    "it": (3, False),
    "one": (3, False),
    "this": (3, False),
    "there": (3, False),
    "something": (3, False),
    "someone": (3, False),
    "nothing": (3, False),
    "nobody": (3, False),
    "everything": (3, False),
    "everyone": (3, False),
    "they": (3, True),
    "these": (3, True),
    "those": (3, True),
}
"""Words that can open a clause as its subject, with the person and number a verb after them agrees with.
"that" is left out: after a verb it is far more often a conjunction ("knows that it is late")."""

DETERMINERS: dict[str, bool] = dict.fromkeys(
    ("the", "a", "an", "this", "that", "my", "your", "his", "her", "its", "our", "their", "no", "every", "each"),
    False,
) | dict.fromkeys(("these", "those", "both", "many", "several", "few"), True)
"""Words that open a noun phrase, and whether that phrase is plural for certain. After "the" or "my" the noun
decides, and it is taken as singular: "the weather outside is", as a narrator's scene-setting mostly is."""

CLAUSE_OPENERS = frozenset(
    {"and", "but", "or", "nor", "so", "yet", "because", "while", "when", "whenever", "as", "since", "if"}
    | {"unless", "until", "though", "although", "that", "where", "before", "after", "then", "once"}
)
"""Conjunctions after which a new clause, with a subject of its own, may begin."""


SEPARABLE: frozenset[tuple[str, str]] = frozenset(
    (verb, particle)
    for verb, particles in (
        ("put", "on off out down away back"),
        ("take", "off out away back up"),
        ("turn", "on off up down over"),
        ("switch", "on off"),
        ("pick", "up"),
        ("set", "down up"),
        ("wake", "up"),
        ("light", "up"),
        ("hang", "up"),
        ("throw", "away out"),
        ("give", "back away up"),
        ("lock", "up"),
        ("shut", "off down"),
        ("blow", "out"),
        ("fill", "up"),
        ("try", "on"),
        ("knock", "over down"),
        ("tip", "over"),
        ("pull", "out down up"),
        ("let", "out in"),
    )
    for particle in particles.split()
)
"""Phrasal verbs whose particle goes after a pronoun object: "turn on the lamp", but "turn it on", never
"turn on it". (A preposition stays put: "sit on it".)"""


def deictic(word: str, present: bool) -> str:
    """here/now/this/these in the present; there/then/that/those otherwise."""
    return word if present else _DEICTICS[word]


def feature_word(feature: str, value: Any) -> str:
    """The adjective for a feature's value: ("open", False) -> "closed", ("glow", 0.6) -> "bright"."""
    if feature == "glow" and isinstance(value, int | float):
        for bound, word in _GLOW_LADDER:
            if value <= bound:
                return word
        return "searingly radiant"
    if isinstance(value, bool):
        yes, no = _FEATURE_WORDS.get(feature, (feature, f"not {feature}"))
        return yes if value else no
    return str(value)


def list_separators(count: int, conjunction: str = "and") -> list[str]:
    """What goes between `count` listed phrases: 2 -> [" and "], 3 -> [", ", ", and "]."""
    if count < 2:
        return []
    if count == 2:
        return [f" {conjunction} "]
    return [", "] * (count - 2) + [f", {conjunction} "]


_DIRECTIONS = {
    "n": "north",
    "s": "south",
    "e": "east",
    "w": "west",
    "ne": "northeast",
    "nw": "northwest",
    "se": "southeast",
    "sw": "southwest",
    "u": "up",
    "d": "down",
}


def direction_name(direction: str) -> str:
    """The full word for a compass abbreviation: "sw" -> "southwest"; other directions as they are."""
    return _DIRECTIONS.get(direction, direction)


COMPASS = frozenset({"north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest"})
"""The directions said "to the north": a way across, not up, down, in or out."""

_WHEREABOUTS = {"up": "above", "down": "below", "in": "inside", "out": "outside"}
"""Where a room lies that is reached going up, down, in or out: "the belfry is above", "the den is inside"."""


def whereabouts(directions: Sequence[str]) -> str:
    """Where a place lies that the given ways lead to, as what follows "is": ["w"] -> "to the west",
    ["u"] -> "above", ["e", "out"] -> "outside, to the east", ["n", "ne"] -> "to the north and northeast".
    A direction of a world's own (not a compass point, up, down, in or out) is said as it is: "upstream"; beside
    a standard one it goes unsaid (["e", "in", "house"] -> "inside, to the east", not "house, inside…")."""
    names = [direction_name(direction) for direction in directions]
    across = [name for name in names if name in COMPASS]
    standard = [name for name in names if name in COMPASS or name in _WHEREABOUTS]
    other = [
        _WHEREABOUTS.get(name, name) for name in names if name not in COMPASS and (name in standard or not standard)
    ]
    parts = [join_list(other)] if other else []
    if across:
        parts.append(f"to the {join_list(across)}")
    return ", ".join(parts)
