"""Lost One as a player finds it: landmarks to look at, a sky that is not a thing lying about, an opening for each
actor, and a drift that never leaves the visitor without their own actions or a way to meet the friend."""

from __future__ import annotations

import pytest

from server.catalog import load_spin, load_world
from server.engine.player import Player
from server.engine.story import Story
from worlds.lost_one import FARTHEST, GRID, STEPS

WANDER_OFF = ["n", "e", "s", "s", "w", "w"]
"""Six steps without standing still: the visitor goes adrift."""


def play(lines: list[str] | tuple[str, ...] = (), actor: str | None = None) -> tuple[Player, list[str]]:
    player = Player(Story(load_world("lost_one")), actor, named_spins=load_spin)
    replies = [player.opening().text]
    replies += [player.command(line).text for line in lines]
    return player, replies


def distance(player: Player) -> int:
    return int(player.story.simulation.world.get("@visitor", "distance"))


def way_to_center(player: Player) -> str | None:
    """The direction of the one step from where the visitor is to the center (None: there already)."""
    x, y = GRID[player.story.simulation.world.room_of("@visitor") or "@center"]
    step = (1 - x, 1 - y)
    return next((direction for direction, d in STEPS.items() if d == step), None)


# -- what the plaza has in it ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "told"),
    [
        ("x statue", "The bronze statue shows a general nobody remembers"),
        ("x obelisk", "The obelisk rises slender and grey"),
        ("x fountain", "Water splashes in the fountain"),
        ("x tree", "The old tree is broad and old"),
        ("drink from fountain", "You think better of drinking from the fountain."),
        ("take statue", "The bronze statue belongs to the plaza, not to you."),
    ],
)
def test_the_landmarks_are_seen_from_the_center_of_the_plaza(line, told):
    player, replies = play([line])
    assert replies[-1].startswith(told)
    assert player.story.simulation.world.room_of("@visitor") == "@center"


def test_the_sky_overhead_is_not_listed_as_something_lying_about():
    _, (opening, north) = play(["n"])
    assert "You see a plastic scrap here." in opening
    assert "sky" not in opening and "sky" not in north
    assert "You see the newspaper here." in north


def test_the_punk_kicks_what_lies_about_and_never_a_landmark():
    player, _ = play(["wait"] * 20, actor="@boy")  # (the visitor, left alone, drifts about the plaza)
    kicked = {e.action.direct for e in player.story.simulation.events if e.action.verb == "kick" and e.done}
    assert kicked and not kicked & {"@statue", "@obelisk", "@fountain", "@tree", "@tables", "@pigeons"}


# -- openings ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("actor", "told"),
    [
        ("@visitor", "You have come back to the plaza where you used to live, to meet someone in its center"),
        ("@punk", "You are bored, and the plaza is full of things to kick."),
        ("@boy", "You have a ball, and the whole afternoon to throw it."),
        ("@collector", "You have the whole plaza to sweep clean before evening."),
        ("@flaneur", "You have nowhere to be, and all day to get there."),
    ],
)
def test_each_actor_opens_with_a_moment_of_their_own(actor, told):
    _, (opening,) = play(actor=actor)
    assert told in opening
    assert opening.count("You have come back") == (1 if actor == "@visitor" else 0)


# -- drifting, and coming back ------------------------------------------------------------------------------


def test_wandering_too_far_sets_the_visitor_adrift_and_says_so():
    player, replies = play(WANDER_OFF)
    assert distance(player) == FARTHEST
    assert "lost track of why they had been there, and had drifted along" in replies[-1]
    assert player.spin.commanded == "@visitor"  # still the player's to command


def test_adrift_whatever_the_visitor_means_to_do_their_feet_carry_them_on():
    player, _ = play(WANDER_OFF)
    where = player.story.simulation.world.room_of("@visitor")
    told = player.command("take shirt").text
    assert "meant to, but instead had wandered on, hardly knowing where" in told
    assert player.story.simulation.world.room_of("@visitor") != where
    assert player.story.simulation.world.parent("@tortilla") == "@visitor"


def test_adrift_the_visitor_still_sees_their_own_waiting_and_comes_back_to_themselves():
    player, _ = play(WANDER_OFF)
    told = player.command("wait").text
    assert "the visitor" in told.lower() and "waited" in told
    assert "stood still, and had remembered the friend they had been to meet in the center of the plaza" in told
    assert distance(player) == FARTHEST - 1
    assert "lost track" not in player.command("look").text


def test_from_adrift_waiting_then_going_to_the_center_and_waiting_brings_the_friend():
    player, replies = play(WANDER_OFF)
    for _ in range(FARTHEST):
        replies.append(player.command("wait").text)
    assert distance(player) == 0 and player.spin.time == "during" and player.spin.narratee == "@visitor"
    way = way_to_center(player)
    if way is not None:
        replies.append(player.command(way).text)
    for _ in range(5):
        if player.story.ended:
            break
        replies.append(player.command("wait").text)
    assert player.story.ended
    assert replies[-1].endswith("You turn and see your friend; you smile.")


def test_standing_still_in_the_center_brings_the_friend():
    player, replies = play(["wait", "wait", "wait"])
    assert player.story.ended
    assert replies[-1].endswith("You turn and see your friend; you smile.")
