"""What a command kind is: its word orders and slots, the scopes its slots look in (with the table that judges
them), and the request its builder turns into actions.

A pattern is words and slots: OBJ (the thing acted on; a list or "all" where the kind allows many), OBJ2
(a second thing), DIR (a direction), WORD (one free word, a setting) and TEXT (free text, as said aloud).
A scope says which things a slot looks at first ("take" looks at what can be taken); when nothing in scope
fits, anything the actor perceives may be named, and the action's own preconditions say why it fails.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from server.engine.actions import verbs
from server.engine.actions.action import Action, Reason
from server.engine.copying import replace
from server.engine.world.perception import Perception
from server.engine.world.state import WorldState

Scope = Literal[
    "visible",
    "takeable",
    "held",
    "worn",
    "reachable",
    "actor",
    "container",
    "supporter",
    "enterable",
    "holder",
    "source",
]
"""`holder` (for a second thing only): what holds the first ("take the coin from the box"); `source`: a source of
a substance ("fill the bottle from the basin")."""

InScope = Callable[[WorldState, Perception, str, str, tuple[str, ...]], bool]
"""Whether a thing is in a scope: (world, sight, the actor, the thing, the first things when judging a second)."""


def _takeable(world: WorldState, sight: Perception, actor: str, tag: str, related: tuple[str, ...]) -> bool:
    """Within reach, not already one's own (even in a bag one carries), not a person, not fixed."""
    return (
        sight.can_reach(actor, tag)
        and tag != actor
        and not world.is_descendant(tag, actor)
        and world.items[tag].kind == "thing"
        and world.link(tag) != "part_of"
    )


SCOPES: dict[Scope, InScope] = {
    "visible": lambda world, sight, actor, tag, related: True,
    "held": lambda world, sight, actor, tag, related: world.parent(tag) == actor,
    "worn": lambda world, sight, actor, tag, related: world.parent(tag) == actor and world.link(tag) == "on",
    "actor": lambda world, sight, actor, tag, related: world.items[tag].kind == "actor" and tag != actor,
    "container": lambda world, sight, actor, tag, related: "in" in world.items[tag].holds,
    "supporter": lambda world, sight, actor, tag, related: "on" in world.items[tag].holds,
    "enterable": lambda world, sight, actor, tag, related: bool(world.get(tag, "enterable")),
    "source": lambda world, sight, actor, tag, related: bool(world.get(tag, "source_of")),
    "holder": lambda world, sight, actor, tag, related: any(world.parent(t) == tag for t in related),
    "reachable": lambda world, sight, actor, tag, related: sight.can_reach(actor, tag),
    "takeable": _takeable,
}
"""How each scope is judged: one predicate a scope, beside the names they judge."""

SLOTS = frozenset({"OBJ", "OBJ2", "DIR", "WORD", "TEXT"})


@dataclass(frozen=True, slots=True)
class Request:
    """A recognized command, its slots filled with items, ready to become actions."""

    actor: str
    world: WorldState
    objects: tuple[str, ...] = ()
    second: str | None = None
    direction: str | None = None
    word: str | None = None
    text: str | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    substance: str | None = None
    """The substance OBJ named ("drink the water"), when it did: `objects` are then what holds it here."""

    @property
    def obj(self) -> str:
        return self.objects[0]


Builder = Callable[[Request], list[Action]]


@dataclass(frozen=True, slots=True)
class CommandKind:
    """One kind of command: its name, its word orders, what it makes, and where its slots look first."""

    name: str
    patterns: tuple[str, ...]
    build: Builder
    scope: Scope = "visible"
    scope2: Scope = "visible"
    many: bool = False
    help: str = ""
    implied: bool = False
    """A word order without OBJ2 means the one thing in scope2 there is ("hang the cloak": on the only hook);
    with several, or none, the player is asked ("What do you want to hang the cloak on?")."""
    tokens: tuple[tuple[str, ...], ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tokens", tuple(tuple(p.split()) for p in self.patterns))
        for pattern in self.tokens:
            slots = [word for word in pattern if word.isupper()]
            unknown = set(slots) - SLOTS
            if unknown:
                raise ValueError(f"command {self.name!r}: unknown slot {unknown} in {' '.join(pattern)!r}")

    def literal_words(self) -> Iterator[str]:
        for pattern in self.tokens:
            yield from (word for word in pattern if not word.isupper())


ABBREVIATIONS = {"x": "examine", "l": "look", "i": "inventory", "z": "wait", "inv": "inventory"}


def verb_of(pattern: tuple[str, ...]) -> str:
    """The verb of a word order, for messages: its words before the first slot, and any particle after the
    last ("pick OBJ up" is "pick up"); abbreviations spelled out ("x OBJ" is "examine")."""
    head: list[str] = []
    for word in pattern:
        if word.isupper():
            break
        head.append(word)
    if head and head[0] in ABBREVIATIONS:
        head[0] = ABBREVIATIONS[head[0]]
    ends_in_particle = len(head) < len(pattern) and not pattern[-1].isupper()
    return " ".join(head + ([pattern[-1]] if ends_in_particle else []))


def refusal(template: str) -> Callable[[Action, WorldState, object], Reason | None]:
    """A check that always refuses, told by `template` alone."""

    def check(action: Action, world: WorldState, sight: object) -> Reason | None:
        return Reason("refused", template, alone=True)

    return check


def refused(verb: str, r: Request, reason: str) -> Action:
    """An action on the first thing named that is refused, told by `reason` alone."""
    action = verbs.gesture(verb, r.actor, r.obj, f"[agent/s] [{verb}/v] [direct/o]")
    return replace(action, checks=(refusal(reason),))
