"""Adventure in Style as a player finds it: the whole cave and its named ways, the dark, every guardian blocking
with a sentence and giving way, the puzzles solved and failed, the score, the closing and the blast that wins —
and the lamp's twelve styles, each telling a turn as its row says."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.play import random_commands
from server.catalog import load_spin, load_world, walkthrough
from server.engine.errors import EngineError
from server.engine.player import Player
from server.engine.snapshot import capture, resume
from server.engine.story import Story, StoryEnded
from tests.engine.parser.test_fuzz import FUZZ, LINES, _check_reply, _grammatical, _play
from worlds._adventure_map import ROOMS
from worlds._adventure_styles import STYLE_NAMES
from worlds.adventure import MOST_POINTS, NAMED_WAYS, TREASURES

WALK = walkthrough("adventure")
STYLES_WALK = walkthrough("adventure_styles")


def play(lines: list[str] | tuple[str, ...] = (), actor: str | None = None) -> tuple[Player, list[str]]:
    """A fresh game, with `lines` played; the opening and the replies."""
    player = Player(Story(load_world("adventure")), actor, named_spins=load_spin)
    replies = [player.opening().text]
    replies += [player.command(line).text for line in lines]
    return player, replies


def before(command: str, occurrence: int = 1) -> list[str]:
    """The walkthrough up to (not including) the `occurrence`-th time it gives `command`."""
    seen = 0
    for index, line in enumerate(WALK):
        if line == command:
            seen += 1
            if seen == occurrence:
                return WALK[:index]
    raise AssertionError(f"the walkthrough never says {command!r} {occurrence} times")


def where(player: Player, tag: str = "@adventurer") -> str | None:
    return player.story.simulation.world.room_of(tag)


def at(lines: list[str], *more: str) -> tuple[Player, list[str]]:
    player, replies = play([*lines, *more])
    return player, replies[len(lines) + 1 :]


# -- the walkthrough --------------------------------------------------------------------------------------


def test_the_walkthrough_wins_with_every_point():
    player, replies = play(WALK)
    assert player.story.ended
    assert "won the game" in replies[-1]
    world = player.story.simulation.world
    assert player.story.definition.score is not None
    assert player.story.definition.score(world) == (MOST_POINTS, MOST_POINTS)
    with pytest.raises(StoryEnded):
        player.command("wait")


def test_the_score_counts_treasures_lying_in_the_building_not_carried_there():
    player, _ = play(before("drop pyramid"))
    assert player.command("score").text == f"You have scored 0 out of a possible {MOST_POINTS}."
    player.command("drop pyramid")
    assert player.command("score").text == f"You have scored 5 out of a possible {MOST_POINTS}."


def test_every_treasure_home_the_voice_warns_and_the_cave_closes_later():
    player, replies = at(before("drop chest"), "drop chest")
    assert "every treasure was home, and the cave would close soon" in replies[-1]
    player.command("wait")
    assert where(player) != "@northeast_end"


@pytest.mark.parametrize("spin", ["prophecy", "retrograde", "memoir", "hesitant", "flashback"])
def test_the_walkthrough_plays_under_other_spins(spin):
    player, _ = play()
    player.change_spin([spin])
    replies = [player.command(line).text for line in WALK]
    assert player.story.ended
    assert all("[" not in reply and "@" not in reply for reply in replies)


def test_a_resumed_adventure_is_the_same_adventure():
    player, _ = play(WALK[:120])
    story = player.story
    again = resume(load_world("adventure"), capture(story))
    assert again.simulation.world.digest() == story.simulation.world.digest()
    assert Player(again).recount().text == Player(story).recount().text


# -- the map --------------------------------------------------------------------------------------------------


def test_the_cave_has_every_room_and_each_exit_leads_somewhere_or_says_why_not():
    items = load_world("adventure").all_items()
    rooms = [tag for tag in items if tag.removeprefix("@") in ROOMS]
    assert len(rooms) == len(ROOMS) == 126
    for tag in rooms:
        for way in items[tag].exits.values():  # type: ignore[attr-defined]
            assert way in items or " " in way, (tag, way)


def test_the_opening_is_the_end_of_the_road_in_daylight():
    _, (opening,) = play()
    assert opening.startswith("Adventure in Style")
    assert "south, south, south" in opening
    assert "End of the road" in opening and "small brick building" in opening


@pytest.mark.parametrize(
    ("lines", "room"),
    [
        (["xyzzy"], "@end_of_road"),  # no magic here
        (["in", "xyzzy"], "@debris_room"),
        (["in", "plugh"], "@y2"),
        (["in", "plugh", "plover"], "@plover_room"),
        (["in", "plugh", "plugh"], "@building"),
        (["in", "xyzzy", "xyzzy"], "@building"),
        (["downstream"], "@valley"),
        (["forest", "valley", "upstream"], "@end_of_road"),
        (["depression"], "@outside_grate"),
        (["go building"], "@building"),
        (["s", "s", "s"], "@outside_grate"),
    ],
)
def test_named_ways_go_where_they_lead(lines, room):
    player, _ = play(lines)
    assert where(player) == room


def test_every_named_way_is_a_command():
    player, _ = play()
    for name in NAMED_WAYS:
        reply = player.command(name).text
        assert reply and "[" not in reply, name
        player.restart()


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("plover", "You say PLOVER aloud, and nothing happens."),
        ("bedquilt", "You see no way to bedquilt from here."),
        ("upstream", "You cannot go upstream from here."),
        ("climb", "There is nothing to climb here."),
        ("ne", "You cannot go that way."),
    ],
)
def test_a_way_that_is_not_here_is_refused_in_a_sentence(line, said):
    _, replies = play([line])
    assert replies[-1] == said


def test_the_building_refuses_the_way_down_the_spring():
    _, replies = play(["in", "d"])
    assert replies[-1] == "The spring comes up through a pipe far too narrow to follow."


def test_the_cave_is_dark_until_the_lamp_is_lit():
    dark = ["in", "xyzzy"]
    _, replies = play(dark)
    assert "too dark to see" in replies[-1]
    _, replies = play(["in", "take lamp", "xyzzy", "turn on lamp"])
    assert "Debris room" in replies[-1] and "XYZZY" in replies[-1]


def test_the_sky_and_sun_are_over_every_outside_place_and_not_listed():
    _, replies = play(["x sky", "s", "x sun", "take sun"])
    assert "clear and blue" in replies[1]
    assert "shines down warmly" in replies[3]
    assert "sky" not in replies[2].lower()


# -- the grate ------------------------------------------------------------------------------------------------


def test_the_grate_is_locked_until_the_keys_unlock_it():
    player, replies = play(["in", "take keys", "take lamp", "out", "s", "s", "s", "d"])
    assert where(player) == "@outside_grate" and "closed" in replies[-1]
    assert "locked" in player.command("open grate").text
    player.command("unlock grate with keys")
    player.command("open grate")
    player.command("d")
    assert where(player) == "@below_grate"


# -- the bird and the snake -----------------------------------------------------------------------------------


def test_the_snake_bars_the_hall_with_a_sentence_until_the_bird_is_freed_at_it():
    to_hall = before("free bird")
    player, replies = at(to_hall[:-4], "w", "d", "n", "w", "sw", "secret")
    assert where(player) == "@hall_of_mountain_king"
    assert replies[-3:] == ["We rear up, hissing, and bar the way."] * 0 or all(
        "snake reared up, hissing, and barred the way" in reply for reply in replies[-3:]
    )
    told = player.command("free bird").text
    assert "terrified" in told
    player.command("sw")
    assert where(player) == "@secret_east_west_canyon"


def test_the_bird_will_not_be_caged_by_someone_holding_the_black_rod():
    lines = before("drop rod")
    player, replies = at(lines, "put bird in cage")
    assert "frightened of the black rod" in replies[-1]
    assert player.story.simulation.world.parent("@bird") != "@cage"
    assert "flitted out of my reach" in player.command("take bird").text


# -- the fissure ----------------------------------------------------------------------------------------------


def test_the_fissure_is_crossed_only_on_the_bridge_the_rod_calls_up():
    lines = before("wave rod")
    player, replies = at(lines, "w")
    assert where(player) == "@fissure_east"
    assert "far too wide to jump" in replies[-1]
    assert "crystal bridge shimmered" in player.command("wave rod").text
    player.command("w")
    assert where(player) == "@fissure_west"
    player.command("over")
    assert where(player) == "@fissure_east"
    assert "faded away" in player.command("shake rod").text
    assert "far too wide" in player.command("across").text


# -- the plant, the oil and the rusty door --------------------------------------------------------------------


def test_the_plant_watered_twice_is_a_beanstalk_to_climb():
    player, replies = at(before("water plant"), "climb", "water plant", "climb")
    assert "nothing there tall enough to climb" in replies[0]
    assert "twelve feet" in replies[1]
    assert where(player) == "@west_pit"
    player, _ = play(before("climb"))
    assert player.story.simulation.world.get("@plant", "stage") == 2
    player.command("climb")
    assert where(player) == "@narrow_corridor"


def test_oil_kills_the_plant():
    lines = before("fill bottle with oil")
    player, replies = at(lines, "fill bottle with oil", "u", "w", "d", "oil plant", "climb")
    assert "The plant shrivelled and died." in replies[-2]
    assert where(player) == "@west_pit"


def test_the_rusty_door_opens_only_once_oiled():
    lines = before("oil door")
    player, replies = at(lines, "open door", "unlock door", "water door", "n")
    assert "rusted shut" in replies[0]
    assert "no keyhole" in replies[1]
    assert where(player) == "@end_of_immense_passage"
    player.command("oil door")
    player.command("open door")
    player.command("n")
    assert where(player) == "@cavern_with_waterfall"


# -- the vase and the pillow ----------------------------------------------------------------------------------


def test_the_vase_shatters_put_down_anywhere_but_the_pillow_or_the_soft_room():
    lines = before("get vase")
    player, replies = at(lines, "get vase", "drop vase")
    assert "shattered into a thousand pieces" in replies[-1]
    assert where(player, "@vase") == "@limbo"
    player, replies = at(before("put vase on pillow"), "put vase on pillow", "put emerald on pillow")
    assert where(player, "@vase") == "@building"
    assert "room for only one thing" in replies[-1]


def test_the_vase_is_safe_on_the_soft_rooms_moss():
    player, _ = play([*before("get pillow"), "drop vase"])
    assert where(player, "@vase") == "@soft_room"


# -- the oyster and the eggs ----------------------------------------------------------------------------------


def test_the_clam_opens_only_with_the_trident_and_is_an_oyster():
    lines = before("open clam with trident")
    player, replies = at(lines, "drop trident", "open clam", "take trident", "open clam with trident")
    assert "need prying open" in replies[1] or "needed prying open" in replies[1]
    assert "turned out to be an oyster" in replies[-1]
    assert where(player, "@pearl") == "@cul_de_sac"
    assert where(player, "@oyster") == "@shell_room" and where(player, "@clam") == "@limbo"


def test_fee_fie_foe_foo_summons_the_eggs_only_in_the_giant_room():
    player, replies = at(before("say fee fie foe foo"), "say fee fie foe foo")
    assert "golden eggs appeared out of thin air" in replies[-1]
    assert where(player, "@eggs") == "@giant_room"
    _, replies = play(["say fee fie foe foo"])
    assert replies[-1].endswith("Nothing happens.")


# -- the troll ------------------------------------------------------------------------------------------------


def test_the_troll_wants_treasure_and_comes_back_to_bar_the_return():
    lines = before("give eggs to troll")
    player, replies = at(lines, "ne", "give food to troll", "give eggs to troll", "ne", "sw")
    assert "demanded a treasure" in replies[0]
    assert "wanted treasure, nothing less" in replies[1]
    assert "snatched" in replies[2]
    assert replies[-1].startswith("The troll climbed up from under the bridge and barred the way.")
    assert where(player) == "@northeast_side_of_chasm"
    assert "demanded a treasure" in player.command("sw").text
    player.command("get chain")  # (not there: the troll wants the real thing)
    player.command("give eggs to troll")
    assert "wanted treasure" in player.command("give lamp to troll").text
    player.command("n")


def test_paid_again_the_troll_lets_the_adventurer_back_and_bars_the_next_crossing():
    lines = [*before("give eggs to troll"), "give eggs to troll", "ne", "ne", "e", "ne", "e", "get spices"]
    player, replies = at(lines, "w", "s", "w", "w", "sw", "give spices to troll", "sw", "ne")
    assert where(player) == "@southwest_side_of_chasm"
    assert "barred the way" in replies[4]
    assert "snatched" in replies[5]
    assert "Southwest side of chasm" in replies[6]
    assert "barred the way" in replies[7]
    assert where(player, "@troll") == "@southwest_side_of_chasm"


# -- the bear -------------------------------------------------------------------------------------------------


def test_the_angry_bear_keeps_its_chain_and_will_not_eat_what_is_not_food():
    lines = before("feed food to bear")
    player, replies = at(lines, "take chain", "feed keys to bear", "give keys to bear", "feed food to bear")
    assert "growled" in replies[0]
    assert "not something to eat" in replies[1]
    assert "snarled" in replies[2]
    assert "calmed down" in replies[3]
    assert "golden chain" in player.command("take chain").text


def test_the_bear_led_by_its_chain_follows_and_scares_the_troll_off_for_good():
    player, replies = play(before("unchain bear"))
    assert where(player, "@bear") == "@northeast_side_of_chasm"
    assert "fled, never to come back" in replies[-1]
    assert player.story.simulation.world.get("@troll", "scared")


def test_leading_the_bear_onto_the_bridge_brings_it_down():
    player, replies = at(before("unchain bear"), "sw")
    assert player.story.ended
    assert "plunged together into the chasm" in replies[-1]


# -- the dragon -----------------------------------------------------------------------------------------------


def test_the_dragon_bars_the_way_and_guards_its_rug_until_killed():
    lines = before("kill dragon")
    player, replies = at(lines, "n", "take rug", "kill dragon", "take rug", "n")
    assert "barred the way on" in replies[0]
    assert "dragon lay on the rug" in replies[1]
    assert "died" in replies[2]
    assert "Persian rug" in replies[3]
    assert where(player) == "@secret_canyon_above_room"


# -- the ending -----------------------------------------------------------------------------------------------


def test_the_button_does_nothing_while_the_rod_lies_at_its_own_end():
    lines = before("press button")
    player, replies = at(lines[:-4], "press button")
    assert where(player) == "@southwest_end"
    assert replies[-1].endswith("The button clicked, and nothing happened.")
    assert not player.story.ended


# -- the lamp's styles ----------------------------------------------------------------------------------------

LIT = ["in", "take lamp", "light lamp"]


def styled(number: int, *then: str) -> tuple[Player, str]:
    """The lamp lit and turned to `number`; then `then` played; the last reply."""
    player, replies = play([*LIT, f"turn dial to {number}", *(then or ("take keys",))])
    return player, replies[-1]


@pytest.mark.parametrize(
    ("number", "line", "told"),
    [
        (1, "take keys", "You take the keys."),
        (2, "take keys", "I took the keys."),
        (3, "take keys", "We take the keys."),
        (4, "take keys", "The adventurer takes the keys."),
        (5, "take keys", "You will take the keys."),
        (10, "take keys", "You are taking the keys."),
        (11, "take keys", "You will have taken the keys."),
        (12, "x lamp", "You are brass, the kind miners carry"),
    ],
)
def test_each_style_tells_the_next_turn_as_its_row_says(number, line, told):
    _player, reply = styled(number, line)
    assert reply.startswith(told), reply


def test_royal_is_we_with_plural_verbs_and_pronouns_and_singular_again_after():
    player, replies = play([*LIT, "turn dial to 3", "take keys", "i", "turn dial to 4", "drop keys"])
    assert replies[-4] == "We take the keys."
    assert replies[-3] == "We have the keys and the lamp."
    assert replies[-2].startswith("We turn the dial to 4")
    assert replies[-1] == "The adventurer drops the keys."
    player.command("turn dial to 1")
    assert player.command("take keys").text == "You take the keys."


def test_royal_says_our_of_what_is_the_adventurers():
    _, replies = play([*before("put bird in cage"), "turn dial to 3", "take bird"])
    assert replies[-1] == "The little bird flits out of our reach."


def test_retrograde_tells_a_turn_backwards_with_time_words_and_no_heading():
    _, reply = styled(6, "out")
    assert reply.startswith("The road ends here")
    assert reply.endswith("Before that, you left the building's interior.")
    assert "End of the road" not in reply


def test_flashback_tells_the_middle_first():
    _, reply = styled(7, "take all")
    assert reply == "You take the food.\n\nEarlier, you took the keys.\n\nNow, you take the bottle."


def test_retrograde_tells_many_things_done_last_first():
    _, reply = styled(6, "take all", "drop all")
    assert reply.startswith("You drop the lamp. Before that, you dropped the bottle. Just before that,")


def test_double_entry_doubles_each_object():
    _, reply = styled(8, "take keys")
    assert reply.startswith("The adventurer takes the keys, ")


def test_oriented_names_the_rooms_around_and_no_heading():
    _, reply = styled(9, "out")
    assert "The building's interior is inside, to the east." in reply
    assert not reply.startswith("End of the road")


def test_the_lamp_shows_its_style_and_the_dial_refuses_what_is_not_on_it():
    lines = [
        *LIT,
        "turn dial to seven",
        "turn dial to 0",
        "turn dial to 1",
        "turn dial to 4",
        "turn lamp to 13",
        "set dial to banana",
    ]
    _, replies = play(lines)
    assert "showed the word FLASHBACK" in replies[-6]
    assert "to 0; it springs back to 1" in replies[-5] and "TYPICAL" in replies[-5]
    assert replies[-4] == "The dial is already 1."
    assert "13; it springs back to 1" in replies[-2] and "IMPERSONAL" not in replies[-2]
    assert replies[-1] == "There are only the numbers 1 to 12 on the dial, each with the name of a style."


def test_the_switches_add_their_filters_and_take_them_away():
    player, _replies = play([*LIT, "turn dial to 1", "turn on hesitant switch", "look"])
    assert "hesitant" in player.spin.filters
    player.command("turn off hesitant switch")
    player.command("flip surprise switch")
    assert player.spin.filters == ("surprise",)
    player.command("flip surprise switch")
    player.command("wait")
    assert player.spin.filters == ()


def test_switches_set_in_the_dark_change_the_telling_only_once_the_lamp_is_lit():
    player, replies = play(["in", "take lamp", "xyzzy", "turn on valley girl switch"])
    assert "[" not in replies[-1]
    assert player.spin.filters == ()
    player.command("light lamp")
    assert "valley_girl" in player.spin.filters and player.spin.time == "after"


def test_a_spin_the_player_set_on_purpose_is_kept_when_the_style_changes():
    player, _ = play([*LIT, "spin filters hedges", "turn dial to 5", "spin time after", "turn dial to 3"])
    assert player.spin.filters == ("hedges",)
    assert player.spin.time == "after"  # prophecy set "before"; the player set "after": it stays
    assert player.spin.narrator == "focalizer"


def test_undo_and_restart_take_back_a_style_the_lamp_set():
    player, _ = play([*LIT, "turn dial to 5"])
    assert player.spin.time == "before"
    player.command("undo")
    assert player.spin.time == "after"  # memoir, as the lamp was lit
    player.command("undo")
    assert player.spin.time == "during" and player.spin.narrator is None
    player.command("turn dial to 3")
    player.restart()
    assert player.spin.narrator is None and player.spin.narratee == "@adventurer"
    for line in [*LIT, "turn dial to 3", "take keys"]:
        player.command(line)
    assert player.command("drop keys").text == "We drop the keys."
    player.command("undo")
    player.command("undo")
    player.command("undo")  # the dial back at memoir, and the adventurer one again
    assert player.command("take keys").text == "I took the keys."


def test_the_styles_walkthrough_visits_every_style():
    _player, replies = play(STYLES_WALK)
    shown = {name for name in STYLE_NAMES.values() if f"the word {name.upper()}" in " ".join(replies)}
    assert shown == set(STYLE_NAMES.values())
    assert all("[" not in reply and "@" not in reply for reply in replies)


def test_nothing_a_player_tries_at_the_treasures_shows_template_syntax():
    lines = [f"{verb} {name}" for verb in ("x", "take", "drop", "throw") for name in ("vase", "eggs", "chain")]
    _, replies = play([*WALK[:100], *lines])
    assert all("[" not in reply and "@" not in reply for reply in replies)
    assert len(TREASURES) == 15


def test_curveship_plays_the_walkthrough_to_victory_from_the_command_line():
    from tests.test_cli import ROOT, curveship

    done = curveship("play", "adventure", "--auto", str(ROOT / "worlds" / "walks" / "adventure.txt"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Adventure in Style")
    assert "won the game" in done.stdout


# -- whatever a player types --------------------------------------------------------------------------------


@pytest.mark.parametrize("start", [0, 60, 105, 160])
def test_a_thousand_grammar_drawn_commands_find_no_traceback(start):
    """Drawn from the grammar (the cave's own commands too) with the world's names, from four points of the
    walkthrough; an ending or a refusal restarts the game, anything else raised is a defect."""
    player, _ = play(WALK[:start])
    lines = random_commands(player.story, 1000, random.Random(f"adventure:{start}"))
    for line in lines:
        try:
            reply = player.command(line).text
        except EngineError:
            player.restart()
            continue
        _check_reply(line, reply)


@FUZZ
@given(lines=st.lists(st.one_of(LINES, _grammatical("adventure")), min_size=1, max_size=6))
def test_adventure_survives_anything(lines):
    _play("adventure", lines)


# -- the dwarf, and two players -------------------------------------------------------------------------------


def test_the_dwarf_is_playable_and_opens_with_his_own_moment_by_his_own_lantern():
    _, (opening, east) = play(["e"], actor="@dwarf")
    assert "West end of long hall" in opening and "too dark" not in opening
    assert opening.endswith(
        "You have lived in the cave's passages longer than memory, and know every stone of the long hall."
    )
    assert "East end of long hall" in east
    _, (adventurer_opening,) = play()
    assert "You have lived" not in adventurer_opening


def test_the_adventurer_meets_the_dwarf_wandering_the_long_hall():
    lines = [*before("get diamonds"), "get diamonds", "w", "w"]
    player, replies = play([*lines, *["wait"] * 9])
    assert where(player) == "@east_end_of_long_hall"
    assert any("dwarf" in reply for reply in replies[len(lines) :])
    assert player.story.simulation.concepts["@adventurer"].knows("@dwarf")


def test_each_player_is_told_through_their_own_actor_and_the_lamp_styles_only_its_user():
    story = Story(load_world("adventure"))
    adventurer, dwarf = Player(story, named_spins=load_spin), Player(story, "@dwarf", named_spins=load_spin)
    adventurer.opening(), dwarf.opening()
    for line in [*LIT, "turn dial to 3", "take keys"]:
        assert "dwarf" not in adventurer.command(line).text
    assert adventurer.spin.narrator == "focalizer"
    assert dwarf.spin.narrator is None and dwarf.spin.narratee == "@dwarf"
    assert dwarf.command("look").text.startswith(dwarf.story.simulation.world.items[where(dwarf, "@dwarf") or ""].title)
