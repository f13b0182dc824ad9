"""Directives as a player meets them: found wherever they stand in a line, a wrong form told how it is used,
values with dots kept whole, messages as sentences (never Python's None or a tuple), undo and restore saying
where the player is, and a spin's window deciding how much recount retells."""

from __future__ import annotations

import re

import pytest

from server.catalog import load_spin, load_world
from server.engine.errors import EngineError, Forbidden, SpinError, StoryEnded, UnknownName
from server.engine.player import Player
from server.engine.story import Story


def play(world: str, *lines: str, author: bool = True) -> tuple[Player, list[str]]:
    player = Player(Story(load_world(world)), named_spins=load_spin, author=author)
    player.opening()
    return player, [player.command(line).text for line in lines]


def refusal(player: Player, line: str) -> str:
    with pytest.raises(EngineError) as raised:
        player.command(line)
    return str(raised.value)


def _is_sentence(message: str) -> bool:
    return (message[0] == "'" or message[0].isupper()) and message.rstrip().endswith((".", "?", "!"))


# -- values with dots ----------------------------------------------------------------------------------------------


def test_a_number_with_a_point_is_one_value_not_two_commands():
    player, replies = play("cloak", "spin time 6.5", "spin speed 0.5")
    assert player.spin.time == 6.5 and player.spin.speed == 0.5
    assert all("not a verb" not in reply and "know the word" not in reply for reply in replies)


def test_a_save_name_with_a_dot_is_kept_whole():
    player, replies = play("cloak", "w", "save my.game", "e", "restore my.game")
    assert replies[1] == "Saved as my.game."
    assert player.story.simulation.world.room_of("@operagoer") == "@cloakroom"


def test_a_spin_file_by_path_is_read(tmp_path):
    spin = tmp_path / "later.toml"
    spin.write_text('summary = "afterwards"\ntime = "after"\n')
    player, _ = play("cloak", f"spin {spin}")
    assert player.spin.time == "after"


def test_a_full_stop_still_ends_a_command():
    player, _ = play("cloak", "w. e.")
    assert player.story.turn == 2


# -- wrong forms and directives along a line -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "usage"),
    [
        ("save a b", "Save takes one name, like: save kitchen."),
        ("restore a b", "Restore takes one name, like: restore kitchen."),
        ("undo undo", 'Undo takes no more words: just "undo".'),
        ("concept tree tree", 'Concept tree takes at most an actor: "concept tree", or "concept @guard tree".'),
        ("ticks please", 'Ticks takes no more words: just "ticks".'),
        ("again and again", 'Again takes no more words: just "again", or "g".'),
    ],
)
def test_a_directive_in_a_form_it_does_not_take_says_how_it_is_used(line, usage):
    player, replies = play("cloak", line)
    assert replies == [usage]
    assert player.story.turn == 0 and not player.story.saves


def test_a_directive_anywhere_in_a_line_is_a_directive():
    player, replies = play("cloak", "w; save there; e; undo undo; ticks")
    assert "Saved as there." in replies[0] and 'Undo takes no more words: just "undo".' in replies[0]
    assert replies[0].endswith("3 ticks, 2 turns.")
    assert "there" in player.story.saves


def test_a_word_that_begins_a_command_and_a_directive_is_the_command():
    _, replies = play("cloak_plus", "w", "take lamp", "light lamp", "light")
    assert "You turn on the lamp." in replies[2]
    assert replies[3].startswith("The light level here is")


def test_spin_with_a_setting_and_no_value_tells_that_setting():
    player, replies = play("cloak", "spin focalizer")
    assert replies[0].startswith("The spin's focalizer is @operagoer. To change it: spin focalizer VALUE, where VALUE")
    assert player.spin.focalizer is None or player.spin.focalizer == "@operagoer"


# -- messages ------------------------------------------------------------------------------------------------------


def test_ticks_and_turns_agree_with_their_numbers():
    _, replies = play("cloak", "ticks", "w", "ticks")
    assert replies[0] == "1 tick, 0 turns."
    assert replies[2] == "2 ticks, 1 turn."


@pytest.mark.parametrize(
    ("line", "error", "said"),
    [
        ("restore nosuch", UnknownName, "There is no save named nosuch. Nothing has been saved yet."),
        ("spin group_by none", SpinError, "'none' is a bad value for group_by: it takes"),
        ("spin filters nosuch", SpinError, "'nosuch' is a bad value for filters: it takes"),
        ("spin colour red", UnknownName, "Unknown spin 'colour'; spins: flashback"),
        ("spin colour=red", SpinError, "There is no spin setting colour. The settings are focalizer, commanded"),
        ("spin sideways", UnknownName, "Unknown spin 'sideways'"),
    ],
)
def test_refusals_are_sentences_in_the_words_typed(line, error, said):
    player, _ = play("cloak")
    with pytest.raises(error) as raised:
        player.command(line)
    message = str(raised.value)
    assert message.startswith(said) and _is_sentence(message)
    assert "None" not in message and "('" not in message


def test_saves_are_named_when_a_restore_names_none_of_them():
    player, _ = play("cloak", "save kitchen", "save hall")
    assert refusal(player, "restore attic") == "There is no save named attic. The saves are hall, kitchen."


def test_author_only_and_other_players_refusals_are_sentences():
    player, _ = play("cloak_plus", author=False)
    with pytest.raises(Forbidden, match=r"^World tree is for authors only\.$"):
        player.command("world tree")
    with pytest.raises(Forbidden, match=r"^World tree is for authors only\.$"):
        player.command("world tree tree")
    assert _is_sentence(refusal(player, "concept @mime tree"))
    assert _is_sentence(refusal(player, "spin focalizer @mime"))


def test_a_command_after_the_ending_is_refused_in_a_sentence():
    player, _ = play("artmaking", "open box", "take sculpture", "kick it")
    assert player.story.ended
    with pytest.raises(StoryEnded, match=r"^The story has ended\. You may undo, restart, or recount\.$"):
        player.command("wait")


# -- undo and restore say where the player is ----------------------------------------------------------------------


def test_undo_says_where_the_player_is_now():
    _, replies = play("cloak_plus", "w", "e", "undo", "undo", "undo")
    assert replies[2] == "The last turn is taken back. You are in the cloakroom."
    assert replies[3] == "The last turn is taken back. You are in the foyer."
    assert replies[4] == "There is nothing to undo."


def test_undo_inside_something_says_what_and_where():
    _, replies = play("cloak_plus", "enter massive sack", "wait", "undo")
    assert replies[-1] == "The last turn is taken back. You are in the massive sack, in the foyer."


def test_restore_tells_the_situation_not_the_whole_story():
    player, replies = play("cloak_plus", "w", "take bottle", "save here", "e", "restore here")
    assert replies[-1] == "Restored. You are in the cloakroom."
    assert player.story.simulation.world.parent("@bottle") == "@operagoer"


# -- the window ----------------------------------------------------------------------------------------------------


def _paragraphs(text: str) -> int:
    return len(re.findall(r"\n\n", text)) + 1


def test_a_window_of_turns_is_what_recount_retells_and_each_reply_is_its_own_turn():
    player, replies = play("cloak", "w", "e", "w", "spin window 1", "e")
    assert replies[-1].startswith("You leave the cloakroom.") and "You leave the foyer." not in replies[-1]
    whole = player.command("spin window all; recount").text
    player.command("spin window 1")
    last = player.command("recount").text
    assert last.startswith("You leave the cloakroom.") and "Cloak of Darkness" not in last
    assert whole.count("You leave") == 4 and last.count("You leave") == 1
    player.command("spin window 2")
    assert player.command("recount").text.count("You leave") == 2


def test_help_says_what_the_window_does_to_recount():
    _, replies = play("cloak", "help")
    recount = next(line for line in replies[0].splitlines() if line.startswith("recount"))
    assert "window" in recount
    assert "again (or g)" in replies[0]


def test_quit_sent_to_the_story_says_leaving_is_the_clients_and_takes_no_turn():
    # The terminal client quits by itself; a bot that sends "quit" as a command learns how to leave.
    player, told = play("cloak", "w", "quit", "look; q")
    assert told[1] == (
        "Leaving is up to your client: quit there (over the protocol, call leave). The story goes on without you."
    )
    assert player.story.turn == 2  # "w" and "look"; neither quit took a turn
    assert told[2].endswith("The story goes on without you.")
