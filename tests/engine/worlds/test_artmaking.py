"""Artmaking as a player finds it: no way out but through the work, a studio whose walls, floor and door can be
looked at, and an artist who can look herself over."""

from __future__ import annotations

import pytest

from server.catalog import load_spin, load_world
from server.engine.player import Player
from server.engine.story import Story

WORK_TO_DO = "You have work to do, and to leave now is to give up."


def play(lines: list[str]) -> tuple[Player, list[str]]:
    player = Player(Story(load_world("artmaking")), named_spins=load_spin)
    return player, [player.command(line).text for line in lines]


@pytest.mark.parametrize("line", ["wander", "n", "out", "leave", "go through door", "enter door", "open door"])
def test_every_way_out_is_refused_because_there_is_work_to_do(line):
    player, replies = play([line])
    assert replies == [WORK_TO_DO]
    assert player.story.simulation.world.room_of("@artist") == "@studio"


def test_the_artist_looks_herself_over():
    _, (told,) = play(["x me"])
    assert told.startswith("You are empty-handed. You are an artist")
    assert "nothing less than a breakthrough" in told


@pytest.mark.parametrize(
    ("line", "told"),
    [
        ("x walls", "The walls are white and bare"),
        ("x wall", "The walls are white and bare"),
        ("x floor", "The floor is grey concrete"),
        ("x door", "The door leads north"),
        ("take walls", "The walls are not the work; the sculpture is."),
        ("push door", "The door is not the work; the sculpture is."),
    ],
)
def test_the_studio_the_description_names_is_there_to_look_at(line, told):
    _, (reply,) = play([line])
    assert reply.startswith(told)


def test_the_scenery_is_not_listed_among_what_the_studio_holds():
    player = Player(Story(load_world("artmaking")))
    opening = player.opening().text
    assert "You see a box here." in opening
    assert "walls" in opening and "You see the walls" not in opening
