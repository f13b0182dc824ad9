"""Giving the last command again ("again", "g"), as players of interactive fiction expect to."""

from __future__ import annotations

from protocol.commands import split_commands
from server.catalog import load_spin, load_world
from server.engine.player import Player
from server.engine.story import Story


def play(world: str, *lines: str) -> tuple[Player, list[str]]:
    player = Player(Story(load_world(world)), named_spins=load_spin)
    player.opening()
    return player, [player.command(line).text for line in lines]


def test_again_and_g_give_the_last_command_again():
    player, replies = play("cloak", "x cloak", "g", "w", "e", "again")
    assert replies[1].endswith("so black that it seems to drink the light around it.")
    assert replies[4] == "You cannot go that way."  # "e" again, from the foyer
    assert player.story.turn == 5
    # What was given again is in the log as itself, so a restore replays it exactly.
    assert [logged.text for logged in player.story.log if logged.entry == "command"] == ["x cloak"] * 2 + [
        "w",
        "e",
        "e",
    ]


def test_again_with_nothing_given_yet_says_so():
    player, replies = play("cloak", "g")
    assert replies == ["There is no command to give again yet."]
    assert player.story.turn == 0


def test_again_gives_a_command_not_a_directive():
    player, replies = play("cloak", "w", "ticks", "g")
    assert player.story.turn == 2
    assert replies[2] == "You cannot go that way."  # "w" again, from the cloakroom


def test_again_after_a_question_was_answered_asks_it_again():
    _, replies = play("cloak_plus", "x sack", "the first", "g", "2")
    assert replies[2] == "Which do you mean, the large sack or the massive sack?"
    assert replies[3].startswith("The massive sack is")


def test_a_new_command_after_a_question_is_what_again_gives():
    player, replies = play("cloak_plus", "x sack", "w", "g")
    assert player.story.simulation.world.room_of("@operagoer") == "@cloakroom"
    assert replies[2] == "You cannot go that way."


def test_a_full_stop_inside_a_word_or_number_does_not_split_a_line():
    assert split_commands("spin time 6.5") == ["spin time 6.5"]
    assert split_commands("save my.game; restore my.game") == ["save my.game", "restore my.game"]
    assert split_commands('w. n. say "hi. bye".') == ["w", "n", 'say "hi. bye"']
