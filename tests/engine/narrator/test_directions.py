"""known_directions: a described room names each room the focalizer knows one step away, once, in plain English."""

from __future__ import annotations

import pytest

from server.catalog import load_spin, load_world
from server.engine.english.words import whereabouts
from server.engine.player import Player
from server.engine.story import Story
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Door, Room

SEEN = 0.8

HOUSE = WorldDefinition(
    name="house",
    title="A House",
    summary="A hall with a belfry above, a den inside (also to the north), a yard outside and a study through a door.",
    interactive=True,
    items=(
        Room(
            tag="@hall",
            called="hall",
            sight="[this] is a plain hall",
            exits={"up": "@belfry", "in": "@den", "n": "@den", "out": "@yard", "e": "@door", "w": "no way west"},
            views={
                "@belfry": (SEEN, "up in the belfry"),
                "@den": (SEEN, "in the den"),
                "@yard": (SEEN, "out in the yard"),
            },
        ),
        Room(tag="@belfry", called="belfry", sight="bells hang [here]", exits={"down": "@hall"}),
        Room(tag="@den", called="den", sight="[this] is a snug den", exits={"out": "@hall", "s": "@hall"}),
        Room(tag="@yard", called="yard", sight="grass grows [here]", exits={"in": "@hall"}),
        Room(tag="@study", called="study", sight="books line the walls", exits={"w": "@door"}),
        Door(tag="@door", called="oak door", where="in @hall", connects=("@hall", "@study")),
        Actor(tag="@owner", called="owner", where="in @hall", referring="me self"),
    ),
    player="@owner",
    spin={"narratee": "@owner", "known_directions": True, "room_headings": False},
)


def look_in_hall(*lines: str, **settings: object) -> str:
    player = Player(Story(HOUSE), named_spins=load_spin)
    player.opening()
    for line in lines:
        player.command(line)
    for key, value in settings.items():
        player.change_spin([f"{key}={value}"])
    return player.command("look").text


@pytest.mark.parametrize(
    ("directions", "said"),
    [
        (["n"], "to the north"),
        (["sw"], "to the southwest"),
        (["up"], "above"),
        (["u"], "above"),
        (["down"], "below"),
        (["in"], "inside"),
        (["out"], "outside"),
        (["e", "out"], "outside, to the east"),
        (["n", "ne"], "to the north and northeast"),
        (["upstream"], "upstream"),
        (["upstream", "gully"], "upstream and gully"),
        (["e", "in", "house", "enter"], "inside, to the east"),
    ],
)
def test_where_a_room_lies_is_said_in_plain_english(directions: list[str], said: str) -> None:
    assert whereabouts(directions) == said


def test_each_known_room_is_named_once_where_it_lies() -> None:
    told = look_in_hall()
    assert "The belfry is above." in told
    assert "The den is inside, to the north." in told
    assert "The yard is outside." in told
    assert told.count("den is") == 1
    assert "toward" not in told and "the up" not in told and "the in" not in told and "the out" not in told


def test_a_room_through_a_door_is_named_once_it_is_known() -> None:
    assert "study" not in look_in_hall()
    told = look_in_hall("open door", "e", "w")
    assert "The study is to the east." in told


def test_where_rooms_lie_is_told_in_the_tense_of_the_telling() -> None:
    told = look_in_hall(time="after")
    assert "The belfry was above." in told and "The den was inside, to the north." in told


def test_the_cloakroom_names_the_foyer_once() -> None:
    player = Player(Story(load_world("cloak")), named_spins=load_spin)
    player.opening()
    player.change_spin(["known_directions=on"])
    told = player.command("w").text
    assert told.count("The foyer is") == 1 and "The foyer is outside, to the east." in told
