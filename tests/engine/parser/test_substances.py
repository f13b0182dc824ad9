"""Substances: water in a cup, a well that never runs dry. Filling, pouring and drinking, as a player is told."""

from __future__ import annotations

from server.engine.parser import substances
from server.engine.parser.kinds import CommandKind, Request
from server.engine.player import Player
from server.engine.story import Story
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room, Substance, Thing


def _pour(r: Request):
    return [substances.pour(r.actor, r.obj, r.second, r.world)]


COMMANDS = (
    CommandKind("fill", ("fill OBJ from OBJ2",), lambda r: [substances.fill(r.actor, r.obj, r.second, r.world)]),
    CommandKind("pour", ("pour OBJ", "pour OBJ on OBJ2", "pour OBJ into OBJ2"), _pour),
    CommandKind("drink", ("drink from OBJ",), lambda r: [substances.drink(r.actor, r.obj, r.world)]),
)


def yard() -> Player:
    """Kim in a yard with a well, a cup, a jug, a sack and a gardener; the cup is hers."""
    world = WorldDefinition(
        name="yard",
        title="The Yard",
        items=(
            Room(tag="@yard", called="yard"),
            Actor(tag="@kim", called="Kim", article="", gender="female", where="in @yard"),
            Actor(tag="@gardener", called="gardener", gender="male", where="in @yard"),
            Substance(tag="@water", called="water"),
            Thing(tag="@well", called="well", where="part_of @yard", features={"source_of": "@water"}),
            Thing(tag="@cup", called="tin cup", where="of @kim", qualities=("vessel",), features={"contents": None}),
            Thing(tag="@jug", called="jug", where="in @yard", qualities=("vessel",), features={"contents": None}),
            Thing(tag="@sack", called="sack", where="in @yard", holds=("in",), open=True),
            Thing(tag="@stone", called="stone", where="in @yard"),
        ),
        player="@kim",
        spin={"narratee": "@kim"},
        commands=COMMANDS,
    )
    player = Player(Story(world))
    player.opening()
    return player


def test_filling_from_the_well_and_drinking_empties_the_cup():
    kim = yard()
    assert kim.command("fill cup from well").text == "You fill your tin cup from the well."
    assert kim.command("drink from cup").text == "You drink some water from the tin cup."
    assert kim.command("drink from cup").text == "The tin cup is empty."


def test_the_well_never_runs_dry():
    kim = yard()
    assert kim.command("drink from well").text == "You drink some water from the well."
    assert kim.command("drink from well").text == "You drink the water from the well."
    assert kim.command("fill cup from well").text == "You fill your tin cup from the well."


def test_what_is_poured_over_someone_or_oneself_is_gone():
    kim = yard()
    kim.command("fill cup from well")
    assert kim.command("pour cup on gardener").text == "You pour some water over the gardener."
    assert kim.command("pour cup on gardener").text == "The tin cup is empty."
    kim.command("fill cup from well")
    assert kim.command("pour cup on me").text == "You pour the water over yourself."


def test_pouring_into_an_empty_vessel_fills_it_and_into_a_full_one_is_refused():
    kim = yard()
    kim.command("fill cup from well")
    assert kim.command("pour cup into jug").text == "You pour some water into the jug. The jug fills up."
    kim.command("fill cup from well")
    assert kim.command("pour cup into jug").text == "The jug is already full."
    assert kim.command("pour cup into cup").text == "You cannot pour the tin cup into itself."


def test_pouring_into_the_well_or_out_on_the_ground_empties_the_cup():
    kim = yard()
    kim.command("fill cup from well")
    assert kim.command("pour cup into well").text == "You pour some water into the well."
    kim.command("fill cup from well")
    assert kim.command("pour cup").text == "You pour the water out of the tin cup."


def test_only_a_vessel_one_holds_is_poured_or_filled():
    kim = yard()
    kim.command("drop cup")
    kim.command("fill jug from well")
    told = kim.command("pour jug on stone").text
    assert told == "You are unable to pour some water over the stone because you do not have the jug."
    assert kim.command("pour well on gardener").text == "You cannot pour anything out of the well."
    assert kim.command("fill stone from well").text == "The stone cannot hold anything poured in."
    assert kim.command("fill cup from stone").text == "There is nothing here to fill the tin cup from."
    assert kim.command("drink from stone").text == "There is nothing to drink in the stone."
