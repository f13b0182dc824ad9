"""Cloak of Darkness and Cloak of Darkness Plus as a player finds them: the dark bar, the lamp, the water, the
sack, the scenery the descriptions name, and openings that fit whoever is played."""

from __future__ import annotations

import pytest

from server.catalog import load_spin, load_world
from server.engine.player import Player
from server.engine.story import Story

BLUNDER = "You blunder around in the dark, scuffing the sawdust underfoot."


def play(world: str, lines: list[str] | tuple[str, ...] = (), actor: str | None = None) -> tuple[Player, list[str]]:
    """A fresh game of `world` (as `actor`), with `lines` played; the opening and the replies."""
    player = Player(Story(load_world(world)), actor, named_spins=load_spin)
    replies = [player.opening().text]
    replies += [player.command(line).text for line in lines]
    return player, replies


def disturbed(player: Player) -> int:
    return int(player.story.simulation.world.get("@message", "disturbed"))


# -- the dark bar -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("world", ["cloak", "cloak_plus"])
@pytest.mark.parametrize("line", ["s", "w", "e", "sw", "up", "in", "x message", "read message", "x sawdust", "look"])
def test_in_the_dark_anything_but_going_north_disturbs_the_message(world, line):
    player, replies = play(world, ["s", line])
    assert replies[-1] == BLUNDER
    assert disturbed(player) == 1
    assert player.story.simulation.world.room_of("@operagoer") == "@bar"


@pytest.mark.parametrize("line", ["n", "out"])
def test_going_north_out_of_the_dark_disturbs_nothing(line):
    player, replies = play("cloak", ["s", line])
    assert "Foyer of the Opera House" in replies[-1]
    assert disturbed(player) == 0


def test_walking_into_the_walls_of_the_dark_bar_loses_the_game():
    lines = ["s", "w", "e", "n", "w", "hang cloak on hook", "e", "s", "read message"]
    player, replies = play("cloak", lines)
    assert replies[2] == replies[3] == BLUNDER
    assert player.story.ended
    assert replies[-1].endswith("YOU HAVE LOST.")


def test_in_the_lit_bar_examining_the_message_reads_it():
    player, replies = play("cloak", ["w", "hang cloak on hook", "e", "s", "x message"])
    assert replies[-1].endswith("The message, neatly marked in the sawdust, reads: YOU HAVE WON.")
    assert player.story.ended


# -- what the descriptions name ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "told"),
    [
        ("x chandeliers", "The chandeliers glitter high overhead"),
        ("x chandelier", "The chandeliers glitter high overhead"),
        ("x door", "The street door is shut against the rain"),
        ("x street", "Rain sweeps the dark street outside"),
        ("x doorways", "One doorway leads south, another west."),
        ("take chandeliers", "The chandeliers hang far out of reach."),
        ("take door", "The street door is part of the opera house, not a souvenir to carry off."),
        ("open door", "You have only just arrived, and besides, the weather outside is turning nasty."),
        ("go through door", "You have only just arrived, and besides, the weather outside is turning nasty."),
        ("enter street", "You have only just arrived, and besides, the weather outside is turning nasty."),
    ],
)
def test_the_foyer_scenery_can_be_looked_at_and_is_left_where_it_is(line, told):
    player, replies = play("cloak", [line])
    assert replies[-1].startswith(told)
    assert player.story.simulation.world.room_of("@operagoer") == "@foyer"


def test_the_cloakroom_door_leads_back_to_the_foyer():
    _, replies = play("cloak", ["w", "x door", "close door", "go through door"])
    assert replies[2] == "The door stands open onto the foyer, to the east."
    assert replies[3] == "You see no reason to shut the door."
    assert "Foyer of the Opera House" in replies[4]


@pytest.mark.parametrize("world", ["cloak", "cloak_plus"])
@pytest.mark.parametrize(
    ("spin", "told"),
    [
        ("memoir", "the street door was to the north, and doorways led south and west."),
        ("prophecy", "the street door will be to the north, and doorways will lead south and west."),
    ],
)
def test_the_foyer_is_described_in_the_tense_of_the_telling(world, spin, told):
    player, _ = play(world)
    player.change_spin([spin])
    assert told in player.command("look").text


# -- Cloak of Darkness Plus -------------------------------------------------------------------------------


def test_a_carried_lamp_switched_on_in_the_dark_lights_the_bar():
    player, replies = play("cloak_plus", ["w", "take lamp", "e", "s", "turn on lamp"])
    assert "It is too dark to see." in replies[4]
    assert replies[5].startswith("You turn on the lamp.")
    assert "Foyer Bar" in replies[5] and "On the floor, you see a message." in replies[5]
    assert disturbed(player) == 0
    assert player.command("light").text == "The light level here is 1.00."
    assert player.command("read message").text.endswith("YOU HAVE WON.")


def test_switching_off_the_lamp_leaves_the_bar_dark_again():
    player, _ = play("cloak_plus", ["w", "take lamp", "turn on lamp", "e", "s", "turn off lamp"])
    assert player.command("s").text == BLUNDER
    assert disturbed(player) == 1


def test_a_full_bottle_shows_its_water_and_drinking_it_empties_it():
    _, replies = play(
        "cloak_plus",
        ["w", "take bottle", "x bottle", "fill bottle", "x bottle", "look in bottle", "drink water", "x bottle"],
    )
    assert replies[3] == "The bottle is clear glass, and empty."
    assert replies[5] == replies[6] == "The bottle is clear glass, and full of water."
    assert replies[7] == "You drink some water from the bottle."
    assert replies[8] == "The bottle is clear glass, and empty."


def test_drinking_from_the_basin_which_never_runs_dry():
    _, replies = play("cloak_plus", ["w", "drink from basin", "drink water", "x basin"])
    assert replies[2] == replies[3] == "You drink a little cold water from the stone basin."
    assert replies[4].startswith("The stone basin is full of clear water")


def test_out_of_the_massive_sack():
    player, replies = play("cloak_plus", ["enter massive sack", "out"])
    assert replies[2].startswith("You get out of the massive sack.")
    assert player.story.simulation.world.parent("@operagoer") == "@foyer"


def test_the_mime_opens_in_the_foyer_and_not_with_the_operagoers_arrival():
    _, (opening,) = play("cloak_plus", actor="@mime")
    assert "Foyer of the Opera House" in opening and "You see an operagoer" in opening
    assert "You blink at the glittering foyer" in opening
    assert "you are glad" not in opening
    _, (theirs,) = play("cloak_plus")
    assert "Foyer of the Opera House" in theirs and "blink" not in theirs
