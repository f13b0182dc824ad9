"""Two players in one porch, and a lamp: the smallest world with company, for the clients' tests (loaded by path)."""

from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room, Thing

WORLD = WorldDefinition(
    name="pair",
    title="Pair",
    summary="Ann and Bob on a porch, a lamp between them.",
    items=(
        Room(tag="@porch", called="porch", sight="[this] is a wooden porch"),
        Actor(tag="@ann", called="Ann", article="", gender="female", where="in @porch"),
        Actor(tag="@bob", called="Bob", article="", gender="male", where="in @porch"),
        Thing(tag="@lamp", called="brass lamp", where="in @porch", sight="[@lamp/s] [be/v] brass"),
    ),
    player="@ann",
    playable=("@ann", "@bob"),
    spin={"narratee": "@ann"},
)
