"""Water in Cloak of Darkness Plus, as a player types it: filling the bottle, drinking, pouring it over someone,
into the basin or out, and naming the water itself ("x water", "take water", "pour water in basin")."""

from __future__ import annotations

from server.catalog import load_world
from server.engine.player import Player
from server.engine.story import Story


def cloakroom(*lines: str) -> tuple[Player, list[str]]:
    """The operagoer in the cloakroom with the bottle in hand, and what each of `lines` was answered."""
    player = Player(Story(load_world("cloak_plus")))
    player.opening()
    player.command("w")
    assert player.command("take bottle").text == "You take the bottle."
    return player, [player.command(line).text for line in lines]


def contents(player: Player) -> object:
    return player.story.simulation.world.get("@bottle", "contents")


def test_filling_drinking_and_filling_again_from_the_basin():
    player, replies = cloakroom("fill bottle", "drink from bottle", "x bottle", "fill bottle from basin", "x bottle")
    assert replies == [
        "You fill the bottle from the stone basin.",
        "You drink some water from the bottle.",
        "The bottle is clear glass, and empty.",
        "You fill the bottle from the stone basin.",
        "The bottle is clear glass, and full of water.",
    ]
    assert contents(player) == "@water"


def test_a_full_bottle_is_not_filled_again():
    _, replies = cloakroom("fill bottle", "fill bottle from basin")
    assert replies[1] == "The bottle is already full."


def test_pouring_the_water_over_the_mime_and_over_oneself():
    player, replies = cloakroom("fill bottle", "e", "pour water on mime")
    assert replies[2].startswith("You pour some water over the dazed mime.")
    assert contents(player) is None
    assert player.command("pour water on me").text == "You have no water to pour."
    player.command("w")
    player.command("fill bottle")
    assert player.command("pour water on me").text == "You pour the water over yourself."
    assert contents(player) is None


def test_pour_water_in_basin_means_the_water_in_the_bottle():
    player, replies = cloakroom("fill bottle", "pour water in basin")
    assert replies[1] == "You pour some water into the stone basin."
    assert contents(player) is None
    # The basin's own water is not the player's to pour.
    assert player.command("pour water in basin").text == "You have no water to pour."


def test_pouring_water_from_the_bottle():
    player, replies = cloakroom("fill bottle", "pour water from bottle", "pour water from bottle")
    assert replies[1:] == ["You pour some water out of the bottle.", "The bottle is empty."]
    player.command("fill bottle")
    told = player.command("pour the water from the bottle into the basin").text
    assert told == "You pour the water into the stone basin."
    player.command("fill bottle")
    assert player.command("pour wine out of bottle").text == "There is no wine in the bottle."
    assert contents(player) == "@water"
    assert player.command("pour it out of the bottle").text == "You pour the water out of the bottle."


def test_drinking_from_the_basin_leaves_the_bottle_as_it_was():
    player, replies = cloakroom("fill bottle", "drink from basin", "x bottle")
    assert replies[1] == "You drink a little cold water from the stone basin."
    assert replies[2] == "The bottle is clear glass, and full of water."
    assert contents(player) == "@water"


def test_drink_water_is_the_water_in_hand_then_the_basins():
    player, replies = cloakroom("fill bottle", "drink water", "drink water")
    assert replies[1] == "You drink some water from the bottle."
    assert replies[2] == "You drink a little cold water from the stone basin."
    assert contents(player) is None


def test_x_water_describes_the_water_one_holds_or_else_the_basins():
    _, replies = cloakroom("x water", "fill bottle", "x water")
    assert replies[0] == "The stone basin is full of clear water, fed by a thin pipe."
    assert replies[2] == "The bottle is clear glass, and full of water."


def test_water_set_down_and_in_the_basin_alike_is_asked_about():
    _, replies = cloakroom("fill bottle", "drop bottle", "x water", "bottle")
    assert replies[2] == "Which do you mean, the clear glass bottle or the stone basin?"
    assert replies[3] == "The bottle is clear glass, and full of water."


def test_water_cannot_be_taken_in_bare_hands():
    player = Player(Story(load_world("cloak_plus")))
    player.opening()
    player.command("w")
    told = player.command("take water").text
    assert told == "You cannot carry the water in your bare hands; you need something to carry it in."
    player.command("take bottle")
    told = player.command("take the water from the basin").text
    assert told == "You cannot carry the water in your bare hands, but you can fill the bottle with it."
    player.command("fill bottle")
    told = player.command("get water").text
    assert told == "You cannot carry the water in your bare hands; the bottle holds some already."
    assert player.story.simulation.world.parent("@water") != "@operagoer"


def test_without_water_to_hand_the_player_is_told_so():
    player = Player(Story(load_world("cloak_plus")))
    player.opening()
    assert player.command("pour water on mime").text == "You have no water to pour."
    assert player.command("drink water").text == "You have no water to drink."
    assert player.command("x water").text == "You see no water here."
