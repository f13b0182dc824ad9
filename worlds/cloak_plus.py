"""Cloak of Darkness Plus: the cloak's opera house with a mime, water to carry, sacks to climb into and a lamp."""

import random
from dataclasses import replace

from server.engine.actions.action import Action, Behave, Reason
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Item, Substance, Thing
from server.engine.world.state import WorldState
from worlds import cloak


def mime(actor: str, world: WorldState, tick: int, rng: random.Random) -> Action | None:
    """The dazed mime waves every other turn, at no one in particular."""
    if tick % 2:
        return None
    return Behave(verb="wave", agent=actor, template="[agent/s] [wave/v] vaguely at nothing", salience=0.4)


def _bar_is_dark(world: WorldState) -> bool:
    """Dark while the cloak is in the bar, unless the lamp is lit there."""
    lamp_here = world.room_of("@lamp") == "@bar" and world.get("@lamp", "on")
    return world.room_of("@cloak") == "@bar" and not lamp_here


def blunder(action: Action, world: WorldState) -> Reason | None:
    """As in Cloak of Darkness, but a lit lamp lets the operagoer move about the bar safely."""
    if not _bar_is_dark(world):
        return None
    return cloak.blunder(action, world)


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
            features={"contents": None},
            sight="[@bottle/s] [be/v] clear glass, with nothing in it but what was last poured",
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
            sight="[@massive_sack/s] [be/v] a plain sack so massive that a person could climb into it",
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
            sight="[@lamp/s] [be/v] shiny brass, the kind miners carry; it [be/v] [@lamp/on/a]",
        ),
    )


def _with_plus_hooks(item: Item) -> Item:
    return replace(item, prevent=blunder) if item.tag == "@message" else item


ITEMS = tuple(_with_plus_hooks(item) for item in cloak.ITEMS) + _extra_items()

WORLD = WorldDefinition(
    name="cloak_plus",
    title="Cloak of Darkness Plus",
    summary="The cloak's opera house with more to try: a mime, water and a bottle, sacks, and a carbide lamp.",
    author="after Roger Firth's Cloak of Darkness",
    interactive=True,
    items=ITEMS,
    player="@operagoer",
    spin={"narratee": "@operagoer"},
    prologue=cloak.WORLD.prologue,
    scripts={"@mime": mime},
    refusals=cloak.WORLD.refusals,
)
