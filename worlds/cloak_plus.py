"""Cloak of Darkness Plus: the cloak's opera house with a mime, water to carry, sacks to climb into and a lamp.

The message in the dark bar is trampled by a second blunder, not a first, as in Cloak (`cloak.DISTURBED_TOO_MUCH`):
a design choice. So the 2011 walkthrough `cplus_lose`, which loses there, wins here.
"""

import random

from server.engine.authoring import (
    Action,
    Actor,
    Behave,
    CommandKind,
    Configure,
    Item,
    Modify,
    Request,
    Substance,
    Thing,
    WorldDefinition,
    WorldState,
    verbs,
)
from worlds import cloak
from worlds._scenery import like, standard

VESSELS = ("@bottle",)


def mime(actor: str, world: WorldState, tick: int, rng: random.Random) -> Action | None:
    """The dazed mime waves every other turn, at no one in particular."""
    if tick % 2:
        return None
    return Behave(verb="wave", agent=actor, template="[agent/s] [wave/v] vaguely at nothing", salience=0.4)


def lamplight(action: Action, world: WorldState) -> list[Action]:
    """Switching the lamp on in the dark shows whoever did it where they are."""
    switched_on = isinstance(action, Modify) and action.feature == "on" and action.value is True
    if not switched_on or action.direct != "@lamp" or not cloak.in_the_dark(world, action.agent):
        return []
    return [verbs.look(action.agent, salience=0.4, arriving=True)]


def what_it_holds(action: Action, world: WorldState) -> list[Action]:
    """A vessel filled, poured out or drunk from says so when looked at: "full of water" or "empty"."""
    if not isinstance(action, Modify) or action.feature != "contents" or action.target_item not in VESSELS:
        return []
    vessel, substance = action.target_item, action.value
    holding = f"full of {world.items[substance].called}" if substance else "empty"
    if world.get(vessel, "holding") == holding:
        return []
    return [Modify(verb="note", agent=vessel, feature="holding", value=holding, salience=0.0)]


# -- the score: Cloak's two points, and one for the mime -----------------------------------------------------


def scoring(action: Action, world: WorldState) -> list[Action]:
    """Light to read by, noted the first time it is brought (the cloak hung up, or the lamp lit), and the
    ticket handed to the mime, who has been waiting for someone to take it from."""
    if isinstance(action, Configure) and action.direct == "@cloak" and action.destination() == ("on", "@hook"):
        return cloak.note(world, "@message", "lit")
    switched_on = isinstance(action, Modify) and action.feature == "on" and action.value is True
    if switched_on and action.direct == "@lamp":
        return cloak.note(world, "@message", "lit")
    if isinstance(action, Configure) and action.direct == "@ticket" and action.destination() == ("of", "@mime"):
        return cloak.note(world, "@ticket", "given")
    return []


def score(world: WorldState) -> tuple[int, int]:
    """A point for bringing light (cloak or lamp), one for the ticket, one for reading the message: three."""
    points = [world.get("@message", "lit"), world.get("@ticket", "given"), world.get("@message", "read")]
    return sum(1 for point in points if point), 3


# -- drinking from the basin, and from what one holds --------------------------------------------------------


def _drinking(r: Request) -> list[Action]:
    """Drinking from the basin (a source that never runs dry) changes nothing; a vessel is drunk dry as ever.
    "drink water" means what one holds, if it holds water."""
    actions: list[Action] = []
    for item in r.objects:
        if r.world.get(item, "source_of"):
            actions.append(
                verbs.gesture(
                    "drink", r.actor, item, "[agent/s] [drink/v] a little cold water from [direct/o]", touching=True
                )
            )
        else:
            actions.extend(standard("drink").build(Request(r.actor, r.world, (item,))))
    return actions


COMMANDS: tuple[CommandKind, ...] = (*cloak.COMMANDS, like("drink", _drinking, scope="held"))


def _extra_items() -> tuple[Item, ...]:
    return (
        Actor(
            tag="@mime",
            called="dazed mime",
            where="in @foyer",
            gender="male",
            referring="performer",
            sight="[@mime/s] [stare/v] into the middle distance, white-faced and silent",
        ),
        Thing(
            tag="@ticket",
            called="ticket",
            where="of @operagoer",
            referring="stub",
            sight="[@ticket/s] [admit/v] one to tonight's performance",
        ),
        Thing(
            tag="@bottle",
            called="clear glass bottle",
            subsequent="bottle",
            where="in @cloakroom",
            qualities=("vessel",),
            features={"contents": None, "holding": "empty"},
            sight="[@bottle/s] [be/v] clear glass, and [@bottle/holding/a]",
        ),
        Substance(tag="@water", called="water", referring="liquid"),
        Thing(
            tag="@basin",
            called="stone basin",
            where="part_of @cloakroom",
            referring="sink fountain",
            features={"source_of": "@water"},
            sight="[@basin/s] [be/v] full of clear water, fed by a thin pipe",
        ),
        Thing(
            tag="@large_sack",
            called="large sack",
            where="in @foyer",
            referring="plain bag",
            holds=("in",),
            open=True,
            sight="[@large_sack/s] [be/v] a plain sack, large enough to carry a good deal",
        ),
        Thing(
            tag="@massive_sack",
            called="massive sack",
            where="in @foyer",
            referring="plain bag",
            holds=("in",),
            open=True,
            prominence=0.8,
            features={"enterable": True},
            sight="[@massive_sack/s] [be/v] a plain sack so massive that a person [can/1/v] climb into it",
        ),
        Thing(
            tag="@lamp",
            called="shiny brass carbide lamp",
            subsequent="lamp",
            where="in @cloakroom",
            referring="light lantern",
            qualities=("device", "light"),
            on=False,
            glow=1.0,
            sight="[@lamp/s] [be/v] shiny brass, a miner's lamp; it [be/v] [@lamp/on/a]",
            react=lamplight,
        ),
    )


ITEMS = cloak.ITEMS + _extra_items()

MIME_WAKES = Behave(
    verb="blink",
    agent="@mime",
    template="[agent/s] [blink/v] at the glittering foyer, with no idea how long [agent/s] [stand/ed/v] [here]",
    witnessed="agent",
    salience=0.6,
)
"""The mime's own first moment, told only to whoever plays him."""

WORLD = WorldDefinition(
    name="cloak_plus",
    title="Cloak of Darkness Plus",
    summary="The cloak's opera house with more to try: a mime, water and a bottle, sacks, and a carbide lamp.",
    author="after Roger Firth's Cloak of Darkness",
    interactive=True,
    items=ITEMS,
    player="@operagoer",
    playable=("@operagoer", "@mime"),
    spin={"narratee": "@operagoer"},
    # Whoever is played opens with it: the operagoer coming in out of the rain, or the mime already inside.
    prologue="A rainswept November night, and the lights of the opera house shine out across the wet street.",
    timeline=((1, MIME_WAKES),),
    scripts={"@mime": mime},
    reactions=(what_it_holds, scoring),
    refusals=cloak.REFUSALS,
    commands=COMMANDS,
    score=score,
)
