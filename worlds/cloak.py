"""Cloak of Darkness: the standard small demonstration of interactive fiction, in our own words.

One blunder in the dark bar is forgiven and two trample the message (`DISTURBED_TOO_MUCH`): a design choice, not
a defect, which Cloak Plus shares. Under it `cplus_lose`, a 2011 Cloak Plus walkthrough that loses there, wins here.
"""

from dataclasses import replace

from server.engine.authoring import (
    VISIBLE_AT,
    Action,
    Actor,
    Behave,
    CommandKind,
    Configure,
    Item,
    Modify,
    Perception,
    Reason,
    Refusal,
    Request,
    Room,
    Thing,
    WorldDefinition,
    WorldState,
    direction_name,
    verbs,
)
from worlds._scenery import leave_be, like, scenery, standard, through

DISTURBED_TOO_MUCH = 2
"""Blundering about this many times in the dark tramples the message past reading: a first misstep is forgiven."""

WAY_OUT = frozenset({"n", "out"})
"""Going north (the bar's one way out) is the only thing done in the dark bar that leaves the sawdust be."""

# Light: rooms glow 1, the bar only 0.5, and the cloak drinks 0.5 wherever it is. So the cloak dims the foyer
# and cloakroom a little, and leaves the bar pitch dark.


def in_the_dark(world: WorldState, actor: str) -> bool:
    """Whether it is too dark where `actor` is to see anything (the cloak's world, or a lamp's, decides)."""
    sight = Perception(world)
    return sight.light(sight.compartment(actor)) < VISIBLE_AT


def blundering(world: WorldState, actor: str) -> bool:
    """Whether `actor` is in the dark where the message is, so that whatever it does stirs up the sawdust."""
    return world.room_of(actor) == world.room_of("@message") and in_the_dark(world, actor)


def _lighting_up(action: Action, world: WorldState) -> bool:
    """Switching on a light one carries is done by feel, and disturbs nothing."""
    item = action.direct
    if not isinstance(action, Modify) or item is None or action.feature != "on" or action.value is not True:
        return False
    return "light" in world.items[item].qualities and world.is_descendant(item, action.agent)


def blunder(action: Action, world: WorldState) -> Reason | None:
    """In the dark bar, anything but heading back north stirs up the sawdust (arriving, and the look that comes
    with it, are not things done)."""
    if action.data.get("arriving") or action.verb == "disturb" or action.direction in WAY_OUT:
        return None
    if not in_the_dark(world, action.agent) or _lighting_up(action, world):
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
    """Reading the message ends the story: won if it is legible (a point, noted first: nothing happens after
    the ending), lost if it was trampled."""
    if action.verb != "read" or action.direct != "@message":
        return []
    if world.get("@message", "disturbed") < DISTURBED_TOO_MUCH:
        ending = "the message, neatly marked in the sawdust, [read/v]: [begin-caps]you have won[end-caps]"
        verb = "win"
        noted = note(world, "@message", "read")
    else:
        ending = (
            "the message [have/v] been trampled almost to nothing; only a few words [remain/2/v]: "
            "[begin-caps]you have lost[end-caps]"
        )
        verb, noted = "lose", []
    return [*noted, Behave(verb=verb, agent=action.agent, template=ending, salience=0.9, final=True)]


# -- the score, as the standard specification keeps it ------------------------------------------------------


def note(world: WorldState, tag: str, feature: str) -> list[Action]:
    """Silent bookkeeping (never told): `feature` of `tag` becomes true, once; a point is kept by it."""
    if world.get(tag, feature):
        return []
    return [Modify(verb="note", agent=tag, feature=feature, value=True, salience=0.0)]


def hanging(action: Action, world: WorldState) -> list[Action]:
    """The cloak hung on the hook earns its point the first time, and keeps it if it is taken down again."""
    if isinstance(action, Configure) and action.direct == "@cloak" and action.destination() == ("on", "@hook"):
        return note(world, "@cloak", "hung")
    return []


def score(world: WorldState) -> tuple[int, int]:
    """A point for hanging the cloak, one for reading the message: two in all."""
    return int(bool(world.get("@cloak", "hung"))) + int(bool(world.get("@message", "read"))), 2


def _not_in_cloakroom(action: Action, world: WorldState) -> bool:
    return world.room_of(action.agent) != "@cloakroom"


SMART_CLOAK = "[this] [be/not/v] the place to leave a smart cloak lying about"
JUST_ARRIVED = "[agent/s] [have/v] only just arrived, and besides, the weather outside [be/v] turning nasty"


# -- the cloak's own ways with some commands ---------------------------------------------------------------


def _going(r: Request) -> list[Action]:
    """Going a way: "out" of a sack one is in climbs out of it; in the dark bar, any way but north (there is no
    other) is only a stumble in the dark, which the message's sawdust feels."""
    direction = r.direction or ""
    parent = r.world.parent(r.actor)
    if direction == "out" and parent is not None and not isinstance(r.world.items[parent], Room):
        return [verbs.get_out(r.actor, r.world)]
    if direction not in WAY_OUT and blundering(r.world, r.actor):
        return [
            Behave(
                verb="go",
                agent=r.actor,
                direction=direction,
                template=f"[agent/s] [go/v] {direction_name(direction)}",
            )
        ]
    return standard("go").build(r)


def _examining(r: Request) -> list[Action]:
    """Examining the message is reading it; anything else is examined as ever."""
    examine = standard("examine").build
    actions: list[Action] = []
    for item in r.objects:
        if item == "@message":
            actions.append(verbs.read(r.actor, item))
        else:
            actions.extend(examine(replace(r, objects=(item,))))
    return actions


COMMANDS: tuple[CommandKind, ...] = (like("go", _going), like("examine", _examining), through(_going))


# -- the opera house -------------------------------------------------------------------------------------


ITEMS: tuple[Item, ...] = (
    Room(
        tag="@foyer",
        called="foyer",
        heading="Foyer of the Opera House",
        sight=(
            "[this] hall [be/v] grand, all crimson and gilt, with chandeliers glittering overhead; the street "
            "door [be/v] to the north, and doorways [lead/2/v] south and west"
        ),
        exits={"n": JUST_ARRIVED, "s": "@bar", "w": "@cloakroom"},
    ),
    Room(
        tag="@cloakroom",
        called="cloakroom",
        sight=(
            "the walls of [this] small room [be/2/v] pocked with the holes of hooks long gone, and only one "
            "[be/1/v] left; the way out [be/1/v] a door to the east"
        ),
        exits={"e": "@foyer", "out": "@foyer"},
    ),
    Room(
        tag="@bar",
        called="bar",
        glow=0.5,
        heading="Foyer Bar",
        # In the dark the sawdust is all around: naming it (or the message in it) names the bar one stumbles in.
        referring="sawdust message scrawl",
        sight=(
            "the bar [be/v] far plainer than the foyer to the north, and empty; "
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
    scenery(
        "@chandeliers",
        "chandeliers",
        "@foyer",
        "[@chandeliers/s] [glitter/v] high overhead, every crystal catching the light",
        article="the",
        plural=True,
        referring="chandelier crystal crystals lights",
    ),
    scenery(
        "@street_door",
        "street door",
        "@foyer",
        "[@street_door/s] [be/v] shut against the rain, and the street [be/v] behind it",
        referring="front entrance",
        open=False,
        leads="n",
    ),
    scenery(
        "@street",
        "street",
        "@foyer",
        "rain [sweep/v] the dark street outside; [agent/s] [have/v] no wish to go back out into it",
        article="the",
        referring="outside rain weather night",
        leads="n",
    ),
    scenery(
        "@doorways",
        "doorways",
        "@foyer",
        "one doorway [lead/v] south, another west",
        article="the",
        plural=True,
        referring="doorway arch arches",
    ),
    Thing(tag="@wall", called="wall", where="part_of @cloakroom", article="the", mention=False),
    scenery(
        "@cloakroom_door",
        "door",
        "@cloakroom",
        "[@cloakroom_door/s] [stand/v] open onto the foyer, to the east",
        article="the",
        referring="doorway",
        open=True,
        leads="e",
    ),
    Thing(
        tag="@hook",
        called="small brass hook",
        subsequent="hook",
        where="part_of @wall",
        referring="peg",
        holds=("on",),
        sight="[@hook/s] [be/v] a small brass hook, screwed firmly to the wall",
    ),
    Thing(tag="@floor", called="floor", article="the", where="part_of @bar", mention=False, referring="ground"),
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

FIXTURES = ("@chandeliers", "@street_door", "@street", "@doorways", "@cloakroom_door")


def _the_street(action: Action, world: WorldState) -> bool:
    return action.direct in ("@street_door", "@street")


REFUSALS: tuple[Refusal, ...] = (
    Refusal(verb="drop", direct="@cloak", when=_not_in_cloakroom, reason=SMART_CLOAK),
    Refusal(verb="put", direct="@cloak", when=_not_in_cloakroom, reason=SMART_CLOAK),
    Refusal(verb="throw", direct="@cloak", when=_not_in_cloakroom, reason=SMART_CLOAK),
    Refusal(verb="open", when=_the_street, reason=JUST_ARRIVED),
    Refusal(verb="take", direct="@chandeliers", reason="[direct/s] [hang/v] far out of reach"),
    Refusal(verb="close", direct="@cloakroom_door", reason="[agent/s] [see/v] no reason to shut [direct/o]"),
    leave_be(FIXTURES, "[direct/s] [be/v] part of the opera house, not a souvenir to carry off"),
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
    refusals=REFUSALS,
    reactions=(hanging,),
    commands=COMMANDS,
    score=score,
)
