"""What a look tells of where the looker is and what it carries: inside a sack, a full bottle, oneself."""

from __future__ import annotations

from server.catalog import load_world
from server.engine.player import Player
from server.engine.story import Story
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room, Thing

LOOK_AT_KIM = "[@kim/s] [be/v] a gardener with soil on [@kim's] boots"


def cloak_plus() -> Player:
    player = Player(Story(load_world("cloak_plus")))
    player.opening()
    return player


def test_inside_the_massive_sack_a_look_says_so_and_does_not_list_the_sack_as_here():
    player = cloak_plus()
    player.command("enter massive sack")
    told = player.command("look").text
    assert "You are in the massive sack. You see the dazed mime and the large sack here." in told
    assert "massive sack here" not in told


def test_out_of_the_sack_again_it_is_listed_and_nothing_says_one_is_in_it():
    player = cloak_plus()
    player.command("enter massive sack")
    player.command("get out")
    told = player.command("look").text
    assert "You see the dazed mime, the large sack, and the massive sack here." in told
    assert "You are in" not in told


def test_inventory_says_the_bottle_is_full_of_water_and_not_once_it_is_drunk():
    player = cloak_plus()
    for line in ("w", "take bottle"):
        player.command(line)
    assert player.command("i").text == "You have a ticket and the bottle. You are wearing a velvet cloak."
    player.command("fill bottle")
    assert (
        player.command("i").text
        == "You have the ticket and the bottle full of water. You are wearing the velvet cloak."
    )
    player.command("drink from bottle")
    assert player.command("i").text == "You have the ticket and the bottle. You are wearing the velvet cloak."


def kim() -> Player:
    world = WorldDefinition(
        name="garden",
        title="The Garden",
        items=(
            Room(tag="@garden", called="garden"),
            Actor(tag="@kim", called="Kim", article="", gender="female", where="in @garden", sight=LOOK_AT_KIM),
            Thing(tag="@trowel", called="trowel", where="of @kim"),
        ),
        player="@kim",
        spin={"narratee": "@kim"},
    )
    player = Player(Story(world))
    player.opening()
    return player


def test_looking_oneself_over_tells_how_one_looks_once_then_what_one_has():
    told = kim().command("x me").text
    assert told == "You are a gardener with soil on your boots. You have a trowel."


def test_taking_inventory_tells_only_what_one_has():
    assert kim().command("i").text == "You have a trowel."
