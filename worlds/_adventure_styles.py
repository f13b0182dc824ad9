"""The brass lamp's twelve styles and three switches: the spin each sets, and the dynamic-spin hook that changes the
telling of whoever changed the lamp's controls, from the next turn on.

A change is stamped by the cave (`worlds/adventure.py`'s clock) at the tick it happened, as
`[controls before, controls after, tick, actor]` in the lamp's `style_change`; the hook, after that actor's turn,
takes the old style's settings back and puts the new one's on. A setting the old style made that the player has
since changed on purpose (`spin time before`) is the player's, and stays; so do filters the player chose.
"""

from __future__ import annotations

from typing import Any

from server.engine.authoring import SpinChange, WorldState

LAMP = "@lamp"

STYLE_NAMES = {
    1: "typical",
    2: "memoir",
    3: "royal",
    4: "impersonal",
    5: "prophecy",
    6: "retrograde",
    7: "flashback",
    8: "double entry",
    9: "oriented",
    10: "in medias res",
    11: "finished by then",
    12: "tell it to the lamp",
}
DIAL_WORDS = {name: number for number, name in STYLE_NAMES.items()}

FOCALIZER = "focalizer"
STYLES: dict[int, dict[str, Any]] = {
    1: {},
    2: {"narrator": FOCALIZER, "narratee": None, "time": "after"},
    3: {"narrator": FOCALIZER, "narratee": None},
    4: {"narrator": None, "narratee": None},
    5: {"time": "before"},
    6: {"order": "retrograde", "window": 7, "room_headings": False, "time_words": True},
    7: {"order": "analepsis"},
    8: {"narratee": None, "filters": ("double_entry",)},
    9: {"known_directions": True, "room_headings": False},
    10: {"progressive": True},
    11: {"perfect": True, "time": "before"},
    12: {"narrator": None, "narratee": LAMP},
}
"""Each style's settings, over the world's own spin (the adventurer addressed as "you", in the present)."""

FILTER_SWITCHES = (("@hesitant", "hesitant"), ("@surprise", "surprise"), ("@valley_girl", "valley_girl"))

NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
}
STYLE_WORDS = {name.split()[0]: number for name, number in DIAL_WORDS.items()} | {"lamp": 12, "tell": 12}

Controls = list[Any]
"""[lit, dial setting, HESITANT on, SURPRISE on, VALLEY GIRL on] — a list, as it is kept in a snapshot."""


def read_setting(word: str) -> tuple[int | None, str]:
    """What turning the dial to `word` sets it to, and the word as said: "7", "seven" and "flashback" are 7; a
    number out of range (0, 13) sets 1; anything else, None."""
    text = word.strip().lower()
    if text.isdigit():
        number = int(text)
    elif text in NUMBER_WORDS:
        number = NUMBER_WORDS[text]
    elif text in STYLE_WORDS:
        return STYLE_WORDS[text], str(STYLE_WORDS[text])
    else:
        return None, text
    return (number if 1 <= number <= 12 else 1), text


def controls_of(world: WorldState) -> Controls:
    return [
        bool(world.get(LAMP, "on")),
        int(world.get("@dial", "setting")),
        *(bool(world.get(tag, "on")) for tag, _name in FILTER_SWITCHES),
    ]


INITIAL: Controls = [False, 2, False, False, False]


def style_change(world: WorldState, tick: int) -> list[Any] | None:
    """[before, now, tick] when the lamp's controls differ from those last stamped; None when they do not."""
    stamped = world.get(LAMP, "style_change")
    last = list(stamped[1]) if stamped else INITIAL
    now = controls_of(world)
    return None if now == last else [last, now, tick]


def overlay(controls: Controls) -> dict[str, Any]:
    """The settings a lamp set so makes: nothing while it is dark; its style and its switches' filters when lit."""
    lit, setting, *switches = controls
    if not lit:
        return {}
    found = dict(STYLES.get(int(setting), {}))
    filters = [*found.get("filters", ())] + [
        name for (_tag, name), on in zip(FILTER_SWITCHES, switches, strict=True) if on
    ]
    if filters:
        found["filters"] = tuple(filters)
    return found


def lamp_spin(change: SpinChange) -> dict[str, Any] | None:
    """The world's dynamic spin: after the turn in which the lamp's controls changed, the telling of the one who
    changed them leaves the old style and takes on the new. What the player set since stays."""
    stamped = change.world.get(LAMP, "style_change")
    if not stamped or stamped[2] != change.turn + 1 or stamped[3] != change.spin.focalizer:
        return None
    spin, actor = change.spin, change.spin.focalizer
    before, after = overlay(list(stamped[0])), overlay(list(stamped[1]))
    base: dict[str, Any] = {
        "narrator": None,
        "narratee": actor,
        "time": "during",
        "order": "chronicle",
        "window": "all",
        "room_headings": True,
        "time_words": False,
        "known_directions": False,
        "progressive": False,
        "perfect": False,
    }
    settings: dict[str, Any] = {}
    for field, value in before.items():
        if field != "filters" and field not in after and getattr(spin, field) == value:
            settings[field] = base[field]
    settings |= {field: value for field, value in after.items() if field != "filters"}
    old, new = before.get("filters", ()), after.get("filters", ())
    kept = [name for name in spin.filters if name not in old or name in new]
    filters = tuple(dict.fromkeys([*kept, *new]))
    if filters != spin.filters:
        settings["filters"] = filters
    return settings
