"""Commands that would succeed now for an actor: what bots ask for, found by trying each without acting."""

from __future__ import annotations

import random
from collections.abc import Generator, Iterator

from server.engine.actions.action import Action
from server.engine.actions.preconditions import Refusal, failure, prevention, refusal
from server.engine.parser.recognize import Memory, Recognizer, Understood
from server.engine.parser.words import DIRECTIONS
from server.engine.world.items import Room
from server.engine.world.perception import Perception
from server.engine.world.state import WorldState

ONE_WAY = {code: word for word, code in DIRECTIONS.items() if len(word) > 2 or word in ("up", "in", "out")}
"""Each direction by its full word, as a command reads best: "north", not "n"."""


CHUNK = 8
"""Commands tried between two pauses of `trying` (about 3 ms of work in Lost One): a caller on an event loop
gives the loop back at each, so one `actions` call holds up nobody else's players for longer than that."""


def possible_commands(
    recognizer: Recognizer,
    actor: str,
    sight: Perception,
    refusals: tuple[Refusal, ...],
    hooked: list[str],
) -> list[str]:
    """Every command in the grammar's first word order, with the names of what the actor perceives, that is
    understood and whose every action would pass its refusals, preconditions and prevention — tried, not
    done: nothing in the world changes. Two-object commands pair things the actor holds with things near."""
    steps = trying(recognizer, actor, sight, refusals, hooked)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


def trying(
    recognizer: Recognizer,
    actor: str,
    sight: Perception,
    refusals: tuple[Refusal, ...],
    hooked: list[str],
) -> Generator[None, None, list[str]]:
    """`possible_commands` in pieces: pauses (yields) after every CHUNK commands tried and returns the list.
    The world must not change between pieces (the caller holds the story still)."""
    found: list[str] = []
    seen: set[str] = set()
    rng = random.Random(0)
    tried = 0
    for text in _candidates(recognizer, actor, sight):
        if text in seen:
            continue
        seen.add(text)
        tried += 1
        if tried % CHUNK == 0:
            yield
        parsed = recognizer.recognize(text, actor, sight, Memory(), rng)
        if (
            isinstance(parsed, Understood)
            and parsed.actions
            and all(_would_do(a, recognizer, sight, refusals, hooked) for a in parsed.actions)
        ):
            found.append(text)
    return found


def _would_do(
    action: Action, recognizer: Recognizer, sight: Perception, refusals: tuple[Refusal, ...], hooked: list[str]
) -> bool:
    world = recognizer.world
    return (
        refusal(action, world, refusals) is None
        and failure(action, world, sight) is None
        and prevention(action, world, hooked) is None
    )


def _candidates(recognizer: Recognizer, actor: str, sight: Perception) -> Iterator[str]:
    world = recognizer.world
    # Only what would be named: things that are told of (not a wall's bare fixture), near or carried.
    near = [
        t
        for t in sight.visible_items(actor)
        if t != actor and not isinstance(world.items[t], Room) and _told_of(t, world)
    ]
    held = [t for t in world.descendants(actor) if _told_of(t, world)]
    things = list(dict.fromkeys(held + near))
    room = world.items.get(world.room_of(actor) or "")
    exits = list(room.exits) if isinstance(room, Room) else []
    for kind in recognizer.grammar:
        pattern = kind.tokens[0]
        slots = [token for token in pattern if token.isupper()]
        if "TEXT" in slots or "WORD" in slots:
            continue
        if not slots:
            yield " ".join(pattern)
        elif slots == ["DIR"]:
            for direction in exits:
                yield _fill(pattern, {"DIR": ONE_WAY.get(direction, direction)})
        elif slots == ["OBJ"]:
            for tag in things:
                if _fits(tag, kind.scope, actor, world):
                    yield _fill(pattern, {"OBJ": _name(recognizer, tag)})
        elif sorted(slots) == ["OBJ", "OBJ2"]:
            for tag in (t for t in things if _fits(t, kind.scope, actor, world)):
                for other in (t for t in things if t != tag and _fits(t, kind.scope2, actor, world)):
                    yield _fill(pattern, {"OBJ": _name(recognizer, tag), "OBJ2": _name(recognizer, other)})


def _told_of(tag: str, world: WorldState) -> bool:
    return world.items[tag].mention and world.get(tag, "mention", True) is not False


def _fits(tag: str, scope: str, actor: str, world: WorldState) -> bool:
    """A quick first sifting by the slot's scope ("give" gives what one holds, to a person); recognizing
    and trying the command decides the rest."""
    item = world.items[tag]
    held = world.parent(tag) == actor
    return {
        "held": held,
        "worn": held and world.link(tag) == "on",
        "actor": item.kind == "actor",
        "container": "in" in item.holds,
        "supporter": "on" in item.holds,
        "enterable": bool(world.get(tag, "enterable")),
        "takeable": not held and item.kind == "thing",
    }.get(scope, True)


def _name(recognizer: Recognizer, tag: str) -> str:
    return recognizer.world.items[tag].called.lower()


def _fill(pattern: tuple[str, ...], values: dict[str, str]) -> str:
    return " ".join(values.get(token, token) for token in pattern)
