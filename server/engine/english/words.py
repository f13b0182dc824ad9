"""Closed-class words the narrator needs: deictics, feature adjectives, time words and list separators."""

from __future__ import annotations

from typing import Any

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

SIMULTANEOUS = "meanwhile"
JUST_BEFORE = "before that"
LONG_BEFORE = "earlier"


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
