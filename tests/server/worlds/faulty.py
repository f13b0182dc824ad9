"""A world with a defect: its reaction to jumping raises. The server must answer -32603 and tell nothing of it."""

from server.engine.actions.action import Action
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room
from server.engine.world.state import WorldState

SECRET = "secret-detail-of-a-broken-world"


def broken(action: Action, world: WorldState) -> list[Action]:
    if action.verb == "jump":
        raise RuntimeError(f"{SECRET} at {__file__}")
    return []


WORLD = WorldDefinition(
    name="faulty",
    title="Faulty",
    summary="One room where jumping breaks the world.",
    items=(
        Room(tag="@room", called="room", sight="[this] is a room"),
        Actor(tag="@jumper", called="jumper", where="in @room"),
    ),
    player="@jumper",
    reactions=(broken,),
)
