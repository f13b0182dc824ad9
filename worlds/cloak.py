"""Cloak of Darkness: the standard small demonstration of interactive fiction, in our own words."""

from server.engine.actions.action import Action, Behave, Modify, Reason
from server.engine.actions.preconditions import Refusal
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room, Thing
from server.engine.world.state import WorldState

DISTURBED_TOO_MUCH = 2
"""Blundering about this many times in the dark tramples the message past reading."""

# Light: rooms glow 1, the bar only 0.5, and the cloak drinks 0.5 wherever it is. So the cloak dims the foyer
# and cloakroom a little, and leaves the bar pitch dark.


def _in_the_dark_bar(action: Action, world: WorldState) -> bool:
    return world.room_of(action.agent) == "@bar" and world.room_of("@cloak") == "@bar"


def blunder(action: Action, world: WorldState) -> Reason | None:
    """In the dark bar, anything the operagoer does but head back north stirs up the sawdust (arriving, and
    the look that comes with it, are not things done)."""
    if not _in_the_dark_bar(action, world) or action.direction == "n":
        return None
    if action.data.get("arriving") or action.verb == "disturb":
        return None
    disturbed = world.get("@message", "disturbed")
    trample = Modify(
        verb="disturb",
        agent=action.agent,
        direct="@message",
        feature="disturbed",
        value=disturbed + 1,
        template="[agent/s] [disturb/v] [direct/o]",
        salience=0.1,
    )
    return Reason(
        "blundering",
        "[agent/s] [blunder/v] around in the dark, scuffing the sawdust underfoot",
        alone=True,
        instead=(trample,),
    )


def read_message(action: Action, world: WorldState) -> list[Action]:
    """Reading the message ends the story: won if it is legible, lost if it was trampled."""
    if action.verb != "read" or action.direct != "@message":
        return []
    if world.get("@message", "disturbed") < DISTURBED_TOO_MUCH:
        ending = "the message, neatly marked in the sawdust, [read/v]: [begin-caps]you have won[end-caps]"
        verb = "win"
    else:
        ending = (
            "the message [have/v] been trampled almost to nothing; only a few words remain: "
            "[begin-caps]you have lost[end-caps]"
        )
        verb = "lose"
    return [Behave(verb=verb, agent=action.agent, template=ending, salience=0.9, final=True)]


def _not_in_cloakroom(action: Action, world: WorldState) -> bool:
    return world.room_of(action.agent) != "@cloakroom"


SMART_CLOAK = "this [be/not/v] the place to leave a smart cloak lying about"

ITEMS = (
    Room(
        tag="@foyer",
        called="foyer",
        heading="Foyer of the Opera House",
        sight=(
            "[this] hall [be/v] grand, all crimson and gilt, with chandeliers glittering overhead; the street "
            "door [be/v] to the north, and doorways lead south and west"
        ),
        exits={
            "n": "[agent/s] [have/v] only just arrived, and besides, the weather outside [be/v] turning nasty",
            "s": "@bar",
            "w": "@cloakroom",
        },
    ),
    Room(
        tag="@cloakroom",
        called="cloakroom",
        sight=(
            "hooks once lined the walls of [this] small room, but only one [be/1/v] left; the way out [be/1/v] "
            "a door to the east"
        ),
        exits={"e": "@foyer", "out": "@foyer"},
    ),
    Room(
        tag="@bar",
        called="bar",
        glow=0.5,
        heading="Foyer Bar",
        sight=(
            "the bar, far plainer than the foyer to the north would lead anyone to expect, [be/v] empty; "
            "something [seem/1/v] to be scrawled in the sawdust on the floor"
        ),
        exits={"n": "@foyer", "out": "@foyer"},
    ),
    Actor(
        tag="@operagoer",
        called="operagoer",
        where="in @foyer",
        referring="me self",
    ),
    Thing(
        tag="@cloak",
        called="velvet cloak",
        where="on @operagoer",
        qualities=("clothing",),
        referring="black satin",
        glow=-0.5,
        sight=(
            "[@cloak/s] [be/v] handsome velvet trimmed with satin, a little spattered with rain, and so black "
            "that it [seem/1/v] to drink the light around it"
        ),
    ),
    Thing(tag="@wall", called="wall", where="part_of @cloakroom", article="the", mention=False),
    Thing(
        tag="@hook",
        called="small brass hook",
        subsequent="hook",
        where="part_of @wall",
        referring="peg",
        holds=("on",),
        sight="[@hook/s] [be/v] a small brass hook, screwed firmly to the wall",
    ),
    Thing(tag="@floor", called="floor", article="the", where="part_of @bar", mention=False, referring="sawdust"),
    Thing(
        tag="@message",
        called="message",
        where="part_of @floor",
        referring="scrawl writing words sawdust",
        features={"disturbed": 0},
        prevent=blunder,
        react=read_message,
    ),
)

WORLD = WorldDefinition(
    name="cloak",
    title="Cloak of Darkness",
    summary="A basic IF demonstration: hang up your cloak, then read the message in the bar.",
    author="after Roger Firth's specification",
    interactive=True,
    items=ITEMS,
    player="@operagoer",
    spin={"narratee": "@operagoer"},
    prologue="Hurrying through the rainswept November night, you are glad to see the lights of the opera house.",
    refusals=(
        Refusal(verb="drop", direct="@cloak", when=_not_in_cloakroom, reason=SMART_CLOAK),
        Refusal(verb="put", direct="@cloak", when=_not_in_cloakroom, reason=SMART_CLOAK),
        Refusal(verb="throw", direct="@cloak", when=_not_in_cloakroom, reason=SMART_CLOAK),
    ),
)
