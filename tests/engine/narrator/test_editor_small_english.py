"""Small English a player notices, swept over every world's tellings: the preposition a place takes ("on the west
side"), "they" never right after a list it could mean, and no one seeing themselves inside what they look at."""

from __future__ import annotations

import re

import pytest

from server.catalog import load_world
from server.engine.player import Player
from server.engine.story import Story
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room, Thing
from tests.engine.editor import TIMES, WORLDS, told

ORDERS = ("chronicle", "syllepsis", "retrograde")
IN_A_SURFACE = re.compile(r"\b[Ii]n the (?:[a-z]+ )?(?:side|street|gallery|balcony|terrace)\b")
THEY_AFTER_A_LIST = re.compile(r", and [^.]+\. They\b")
SEEING_ONESELF = re.compile(r"\b(?:see|saw|sees|seen) (?:yourself|myself|himself|herself|themselves|themself)\b")


@pytest.mark.parametrize("world", WORLDS)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("time", TIMES)
def test_tellings_use_the_places_preposition_and_clear_pronouns(world, order, time):
    text = told(world, order=order, time=time)
    for pattern in (IN_A_SURFACE, THEY_AFTER_A_LIST, SEEING_ONESELF):
        found = pattern.search(text)
        assert found is None, f"…{text[max(0, found.start() - 60) : found.end() + 20]}…"


def test_from_inside_the_massive_sack_looking_at_it_says_you_are_in_it():
    player = Player(Story(load_world("cloak_plus")), None)
    player.opening()
    player.command("enter massive sack")
    told_now = player.command("x massive sack").text
    assert "You are in it." in told_now and "yourself" not in told_now


def test_they_after_a_list_is_named_instead():
    items = (
        Room(tag="@hall", called="hall", sight="[this] [be/v] a hall"),
        Actor(tag="@me", called="watcher", where="in @hall"),
        Thing(tag="@lamp", called="lamp", where="in @hall"),
        Thing(tag="@box", called="box", where="in @hall"),
        Actor(tag="@sam", called="stranger", gender="nonbinary", where="in @hall"),
        Thing(tag="@hat", called="hat", where="on @sam"),
    )
    world = WorldDefinition(name="hall", title="Hall", items=items, player="@me")
    opening = Player(Story(world), None).opening().text
    assert ", and a stranger here. The stranger wears a hat." in opening
