"""Playing the interactive worlds: walkthroughs win, Cloak can be lost, undo and saves are exact, directives work."""

from __future__ import annotations

import pytest

from server.catalog import load_spin, load_world, walked_worlds, walkthrough
from server.engine.errors import Forbidden, StoryEnded, UnknownName
from server.engine.player import Player
from server.engine.story import Story

WORLDS = tuple(walked_worlds())
"""Every shipped world with a walkthrough, as the catalog finds them."""


def play(world: str, lines: list[str] | tuple[str, ...] = (), **options: object) -> tuple[Player, list[str]]:
    """A fresh game of `world`, with `lines` played; the replies' texts."""
    player = Player(Story(load_world(world)), named_spins=load_spin, **options)  # type: ignore[arg-type]
    replies = [player.opening().text]
    replies += [player.command(line).text for line in lines]
    return player, replies


@pytest.mark.parametrize("world", WORLDS)
def test_each_walkthrough_reaches_its_ending(world):
    player, _ = play(world, walkthrough(world))
    assert player.story.ended
    with pytest.raises(StoryEnded):
        player.command("wait")


@pytest.mark.parametrize("world", WORLDS)
@pytest.mark.parametrize("spin", ["prophecy", "retrograde", "memoir", "hesitant"])
def test_each_walkthrough_plays_under_other_spins(world, spin):
    player, _ = play(world)
    player.change_spin([spin])
    replies = [player.command(line).text for line in walkthrough(world)]
    assert player.story.ended
    assert all("[" not in reply and "@" not in reply for reply in replies)
    told = player.recount().text
    assert told.strip()


def test_cloak_is_won_by_reading_the_message_in_the_light():
    _, replies = play("cloak", walkthrough("cloak"))
    assert replies[-1].endswith("The message, neatly marked in the sawdust, reads: YOU HAVE WON.")


def test_cloak_is_lost_by_blundering_about_in_the_dark():
    lines = ["s", "look", "inventory", "n", "w", "hang cloak on hook", "e", "s", "read message"]
    player, replies = play("cloak", lines)
    assert "You blunder around in the dark" in replies[2]
    assert player.story.ended
    assert replies[-1].endswith("YOU HAVE LOST.")


def test_one_blunder_is_forgiven():
    _, replies = play("cloak", ["s", "look", "n", "w", "drop cloak", "e", "s", "read message"])
    assert replies[-1].endswith("YOU HAVE WON.")


def test_a_failed_action_is_told_with_its_reason():
    _, replies = play("cloak", ["w", "take hook"])
    assert replies[-1] == "You are unable to take the hook because it is fixed to the wall."


def test_a_refusal_is_told_in_the_actors_own_terms():
    _, replies = play("cloak", ["n", "drop cloak"])
    assert replies[1] == "You have only just arrived, and besides, the weather outside is turning nasty."
    # Dropping what one wears means first taking it off; only the dropping is refused.
    assert replies[2] == "You take off your velvet cloak. This is not the place to leave a smart cloak lying about."


def test_undo_restores_the_world_and_the_narration_exactly():
    player, _ = play("cloak_plus", ["w", "take bottle", "fill bottle"])
    story = player.story
    before = (story.simulation.world.digest(), story.turn, len(story.simulation.events), player.discourse)
    told_before = player.recount().text
    tree_before = player.concept_listing("@operagoer")
    after_take = player.command("take lamp").text
    assert story.simulation.world.digest() != before[0]
    assert player.command("undo").text == "The last turn is taken back. You are in the cloakroom."
    assert (story.simulation.world.digest(), story.turn, len(story.simulation.events), player.discourse) == before
    assert player.recount().text == told_before
    assert player.concept_listing("@operagoer") == tree_before
    # The same command again is told the same way: "the lamp" was not yet mentioned, so "a" again.
    assert player.command("take lamp").text == after_take


def test_undo_goes_back_several_turns_and_says_when_it_cannot():
    player, _ = play("artmaking", ["open box", "take sculpture"])
    assert player.command("undo").text == "The last turn is taken back. You are in the studio."
    assert player.command("undo").text == "The last turn is taken back. You are in the studio."
    assert player.story.simulation.world.get("@box", "open") is False
    assert player.command("undo").text == "There is nothing to undo."


def test_undo_after_the_ending_lets_play_go_on():
    player, _ = play("artmaking", walkthrough("artmaking"))
    assert player.story.ended
    player.command("undo")
    assert not player.story.ended
    assert "You kick the sculpture." in player.command("kick sculpture").text


def test_save_and_restore_round_trip():
    player, _ = play("cloak_plus", ["w", "take bottle"])
    player.command("save here")
    state = player.story.simulation.world.digest()
    told = player.recount().text
    player.command("fill bottle; e; s")
    assert player.story.simulation.world.digest() != state
    restored = player.command("restore here").text
    assert player.story.simulation.world.digest() == state
    assert restored == "Restored. You are in the cloakroom."
    assert player.recount().text == told
    with pytest.raises(UnknownName):
        player.story.restore("nowhere")


def test_restart_begins_again_and_can_be_repeated():
    player, _ = play("artmaking", ["open box"])
    first = player.command("restart").text
    second = player.command("restart").text  # a second restart crashed the 2011 system
    assert first == second
    assert player.story.turn == 0 and player.story.simulation.world.get("@box", "open") is False


def test_several_commands_on_a_line_each_take_a_turn():
    player, replies = play("cloak", ["w; hang cloak on hook. e"])
    assert player.story.turn == 3
    assert "You put your velvet cloak on the hook." in replies[1]
    assert replies[1].index("Cloakroom") < replies[1].index("You put") < replies[1].index("Foyer")


def test_an_unknown_command_after_a_semicolon_does_not_repeat_the_one_before():
    player, replies = play("cloak", ["w; xyzzy"])
    assert player.story.turn == 1
    assert replies[1].endswith('I don\'t know the word "xyzzy".')


def test_directives_exits_inputs_ticks_light_score_title_help():
    player, _ = play("cloak", ["w", "xyzzy", "e"])
    assert player.command("exits").text == "north: no way through\nsouth: somewhere you have not been\nwest: cloakroom"
    assert player.command("inputs").text == "1. w\n2. xyzzy\n3. e"
    assert player.command("ticks").text == "3 ticks, 2 turns."
    assert player.command("light level").text == "The light level here is 0.50."
    assert player.command("score").text == "You have scored 0 out of a possible 2."
    assert player.command("title").text.startswith("Cloak of Darkness")
    helped = player.command("help").text
    assert "undo" in helped and "world tree" in helped


def test_spin_directive_shows_and_changes_every_parameter():
    player, _ = play("cloak", ["w"])
    shown = player.command("spin").text
    assert "time = during" in shown and "narratee = @operagoer" in shown
    assert "time = after" in player.command("spin time after").text
    assert player.command("e").text.startswith("You left the cloakroom.")
    player.command("spin prophecy")
    assert player.spin.time == "before"
    player.command("spin narrator @operagoer")
    assert player.command("w").text.startswith("I will leave the foyer.")
    assert "bad value" in _error(player, "spin order sideways")


def _error(player: Player, line: str) -> str:
    try:
        player.command(line)
    except Exception as error:  # the engine's own errors carry the message a player sees
        return str(error)
    raise AssertionError(f"{line!r} did not fail")


def test_world_and_concept_trees():
    player, _ = play("cloak", ["w", "hang cloak on hook"])
    world = player.command("world tree").text.splitlines()
    assert world[0] == "@cosmos: cosmos"
    assert "            @hook: small brass hook [part_of]" in world
    assert "                @cloak: velvet cloak [on]" in world
    concept = player.command("concept @operagoer tree").text
    assert "@message" not in concept  # never seen: the bar has not been visited
    assert player.command("concept").text == concept


def test_recount_retells_the_story_so_far():
    player, _ = play("artmaking", ["open box", "take sculpture"])
    told = player.command("recount").text
    assert told.startswith("Studio")
    assert "You take the sculpture from the box." in told


def test_player_mode_refuses_author_directives_and_other_actors_concepts():
    player, _ = play("cloak_plus", author=False)
    with pytest.raises(Forbidden):
        player.command("world tree")
    with pytest.raises(Forbidden):
        player.command("concept @mime tree")
    with pytest.raises(Forbidden):
        player.command("spin focalizer @mime")
    assert player.command("concept tree").text.startswith("@cosmos: cosmos")


def test_lost_one_drifts_with_distance_and_comes_back_when_waiting():
    player, _ = play("lost_one", ["s"])
    assert player.spin.time == "after"  # one step away: the past
    player.command("n")
    player.command("e")
    assert player.spin.narratee is None  # three steps: third person
    assert "hedges" in player.spin.filters
    for _ in range(3):
        player.command("wait")
    assert player.spin.narratee == "@visitor" and player.spin.time == "during"


def test_lost_one_far_gone_drifts_on_yet_stays_the_players_and_dynamic_off_stops_the_drift():
    player, _ = play("lost_one", ["s", "n", "e", "w", "s", "n", "e"])
    assert player.spin.commanded == "@visitor" and player.spin.order == "achrony"
    turn = player.story.turn
    assert "waited" in player.command("wait").text  # adrift, the player still sees their own doing
    assert player.story.turn == turn + 1
    calm, _ = play("lost_one", ["spin dynamic off", "s", "n", "e"])
    assert calm.spin.time == "during" and calm.spin.narratee == "@visitor"


def test_cloak_plus_lamp_lights_the_dark_bar():
    lines = ["w", "take lamp", "turn on lamp", "e", "s"]
    player, replies = play("cloak_plus", lines)
    assert "It is too dark to see." not in replies[-1]
    assert "message" in replies[-1]
    player.command("turn off lamp")
    assert player.command("look").text.endswith("You blunder around in the dark, scuffing the sawdust underfoot.")


def test_cloak_plus_water_sack_and_mime():
    player, replies = play("cloak_plus", ["enter massive sack", "get out", "w", "take bottle", "fill bottle"])
    assert "You get into the massive sack." in replies[1]
    assert "You get out of the massive sack." in replies[2]
    assert player.story.simulation.world.get("@bottle", "contents") == "@water"
    assert "You drink some water from the bottle." in player.command("drink from bottle").text
    assert "empty" in player.command("drink from bottle").text
    waved = [reply for reply in replies if "waves vaguely at nothing" in reply]
    assert waved, "the mime waves every other turn while the operagoer is with him"


def _doorway_world():
    from server.engine.world.definition import WorldDefinition
    from server.engine.world.items import Actor, Door, Room, Thing

    return WorldDefinition(
        name="doorway",
        title="Doorway",
        items=(
            Room(tag="@hall", called="hall", exits={"n": "@oak_door"}),
            Room(tag="@study", called="study", exits={"s": "@oak_door"}),
            Door(
                tag="@oak_door",
                called="oak door",
                where="in @hall",
                connects=("@hall", "@study"),
                locked=True,
                key="@key",
            ),
            Actor(tag="@you", called="visitor", where="in @hall"),
            Thing(tag="@key", called="iron key", where="of @you"),
            Thing(tag="@globe", called="globe", where="in @study"),
        ),
        player="@you",
        spin={"narratee": "@you"},
    )


def test_a_door_between_rooms_must_be_unlocked_and_opened_to_pass():
    player = Player(Story(_doorway_world()))
    assert "You see an oak door here." in player.opening().text
    assert player.command("n").text == "You are unable to leave the hall because the oak door is closed."
    assert player.command("open door").text == "You are unable to open the oak door because it is locked."
    assert player.command("unlock door").text == "You unlock the oak door."
    assert player.command("open door").text == "You open the oak door."
    entered = player.command("n").text
    assert "Study" in entered and "You see a globe and the oak door here." in entered
    assert "Hall" in player.command("s").text


def test_room_headings_and_known_directions_in_a_description():
    player, _ = play("cloak", ["w", "e"])
    assert player.command("look").text.startswith("Foyer of the Opera House\n\nThis hall is grand")
    player.command("spin room_headings off")
    player.command("spin known_directions on")
    told = player.command("look").text
    assert told.startswith("This hall is grand")
    # The cloakroom has been seen, the bar not: only the known way is named.
    assert told.endswith("The cloakroom is to the west.")


def test_lost_one_drift_is_the_visitors_alone():
    story = Story(load_world("lost_one"))
    visitor, punk = Player(story, "@visitor"), Player(story, "@punk")
    story.take("@visitor"), story.take("@punk")
    visitor.command("s")
    punk.command("wander")
    punk.command("smile")  # still commands the punk, told plainly as "you"
    assert punk.spin.commanded == "@punk" and punk.spin.narratee == "@punk" and punk.spin.time == "during"
    assert visitor.spin.time == "after"
