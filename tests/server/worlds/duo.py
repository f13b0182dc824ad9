"""Two players in a hall with a ball, a cat in the yard: a small world for the server's tests, loaded by path."""

from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room, Thing

ITEMS = (
    Room(tag="@hall", called="hall", sight="[this] is a bare hall; a yard lies to the north", exits={"n": "@yard"}),
    Room(tag="@yard", called="yard", sight="[this] is a walled yard; the hall is to the south", exits={"s": "@hall"}),
    Actor(tag="@ann", called="Ann", article="", gender="female", where="in @hall"),
    Actor(tag="@bob", called="Bob", article="", gender="male", where="in @hall"),
    Actor(tag="@cat", called="cat", where="in @yard"),
    Thing(tag="@ball", called="red ball", where="in @hall", sight="[@ball/s] [be/v] red and bouncy"),
)

WORLD = WorldDefinition(
    name="duo",
    title="Duo",
    summary="Ann and Bob in a hall, a ball between them; a cat, whom nobody may play, in the yard.",
    items=ITEMS,
    player="@ann",
    playable=("@ann", "@bob"),
    spin={"narratee": "@ann"},
)
