"""Ann and Bob in a hall; whoever of them nobody plays hums, every tick: a world where a player who goes away
can be heard to, as their actor goes back to its script."""

from __future__ import annotations

import random

from server.engine.actions import verbs
from server.engine.actions.action import Action
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room
from server.engine.world.state import WorldState


def hum(actor: str, world: WorldState, tick: int, rng: random.Random) -> Action | None:
    return verbs.gesture("hum", actor, template="[agent/s] [hum/v] a tune", salience=0.9)


WORLD = WorldDefinition(
    name="hummers",
    title="Hummers",
    summary="Ann and Bob in a hall; an actor nobody plays hums.",
    items=(
        Room(tag="@hall", called="hall", sight="[this] is a bare hall"),
        Actor(tag="@ann", called="Ann", article="", gender="female", where="in @hall"),
        Actor(tag="@bob", called="Bob", article="", gender="male", where="in @hall"),
    ),
    player="@ann",
    playable=("@ann", "@bob"),
    scripts={"@ann": hum, "@bob": hum},
)
