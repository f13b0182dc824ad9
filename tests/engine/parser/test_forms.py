"""Command forms players reach for, and what they are told: speech in its several word orders, gestures with a
second thing, a thing left unnamed that only one thing could be, pushing something somewhere, questions worded
as the story names things, answers by place, pronouns after lists and from the narration, and words left over."""

from __future__ import annotations

import pytest

from server.catalog import load_spin, load_world
from server.engine.parser.recognize import Memory
from server.engine.player import Player
from server.engine.story import Story
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room, Thing


def play(world: str | WorldDefinition, *lines: str) -> tuple[Player, list[str]]:
    """A fresh game, `lines` played; the reply to each."""
    definition = load_world(world) if isinstance(world, str) else world
    player = Player(Story(definition), named_spins=load_spin)
    player.opening()
    return player, [player.command(line).text for line in lines]


def last(world: str | WorldDefinition, *lines: str) -> str:
    return play(world, *lines)[1][-1]


# -- speech --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["tell mime hello", "say hello to mime", 'say to mime "hello"', 'tell mime "hello"'])
def test_each_way_of_saying_hello_to_the_mime_says_hello_to_him(line):
    assert last("cloak_plus", line).startswith('You say "hello" to the dazed mime.')


def test_telling_someone_to_do_something_is_told_as_such():
    assert last("cloak_plus", "tell mime to wave").startswith("You tell the dazed mime to wave.")


def test_asking_about_a_thing_here_names_it_and_about_anything_else_as_typed():
    assert last("cloak_plus", "ask mime about cloak").startswith("You ask the dazed mime about your velvet cloak.")
    assert last("cloak_plus", "ask the mime about the opera").startswith("You ask the dazed mime about the opera.")


def test_telling_someone_not_here_says_so_rather_than_asking_a_question():
    assert last("cloak_plus", "w", "tell mime hello") == "You see no mime here."


# -- a second thing ------------------------------------------------------------------------------------------------


def test_waving_a_thing_at_someone():
    assert last("cloak_plus", "wave ticket at mime").startswith("You wave your ticket at the dazed mime.")


def test_feeding_someone_with_a_thing_is_feeding_it_to_them():
    reply = last("cloak_plus", "feed mime with ticket")
    assert "unable to feed your ticket to the dazed mime because it is not something to eat." in reply


def test_feeding_someone_asks_for_the_food_in_plain_english():
    assert last("cloak_plus", "feed mime") == "What do you want to feed the dazed mime?"
    assert last("cloak_plus", "give ticket") == "What do you want to give the ticket to?"


# -- hanging the cloak, and what is left unnamed -------------------------------------------------------------------


@pytest.mark.parametrize("line", ["hang cloak", "hang up cloak", "hang cloak up", "hang it up"])
def test_hanging_the_cloak_puts_it_on_the_only_hook(line):
    player, replies = play("cloak", "w", "x cloak", line)
    assert "velvet cloak on the hook." in replies[-1]
    assert player.story.simulation.world.parent("@cloak") == "@hook"


def _hall(*supporters: str) -> WorldDefinition:
    return WorldDefinition(
        name="hall",
        title="Hall",
        items=(
            Room(tag="@hall", called="hall", exits={"n": "@yard"}),
            Room(tag="@yard", called="yard", exits={"s": "@hall"}),
            Actor(tag="@me", called="visitor", where="in @hall"),
            Thing(tag="@coat", called="wool coat", where="of @me"),
            Thing(tag="@cart", called="handcart", where="in @hall", features={"pushable": True}),
            Thing(tag="@crate", called="crate", where="in @hall"),
            *(Thing(tag=f"@{name}", called=name, where="part_of @hall", holds=("on",)) for name in supporters),
        ),
        player="@me",
        spin={"narratee": "@me"},
    )


def test_with_several_places_to_hang_a_thing_the_question_names_it_and_the_answer_may_lead_with_on():
    player, replies = play(_hall("peg", "rail"), "hang coat", "on the rail")
    assert replies[0] == "What do you want to hang the wool coat on?"
    assert replies[1] == "You put your wool coat on the rail."
    assert player.story.simulation.world.parent("@coat") == "@rail"


def test_with_nowhere_to_hang_a_thing_it_is_said_plainly():
    hall = _hall()
    bare = WorldDefinition(
        name="bare",
        title="Bare",
        items=tuple(item for item in hall.items if item.tag not in ("@cart", "@crate")),
        player="@me",
    )
    assert last(bare, "hang coat") == "There is nothing here to hang the wool coat on."


# -- pushing something somewhere -----------------------------------------------------------------------------------


def test_pushing_what_can_be_pushed_takes_it_along_that_way():
    player, replies = play(_hall(), "push handcart north")
    world = player.story.simulation.world
    assert world.room_of("@cart") == "@yard" and world.room_of("@me") == "@yard"
    assert replies[0].startswith("You push the handcart north.")
    assert "Yard" in replies[0]


def test_pushing_anything_else_somewhere_is_refused_plainly():
    player, replies = play(_hall(), "push crate north")
    assert replies[0] == "The crate cannot be pushed from place to place."
    assert player.story.simulation.world.room_of("@me") == "@hall"
    assert last("cloak_plus", "push large sack north").startswith(
        "The large sack cannot be pushed from place to place."
    )


def test_pushing_something_where_there_is_no_way_stays_put():
    player, replies = play(_hall(), "push handcart west")
    assert player.story.simulation.world.room_of("@cart") == "@hall"
    assert "go that way" in replies[0]


# -- questions, answers and words left over ------------------------------------------------------------------------


@pytest.mark.parametrize(("answer", "meant"), [("2", "massive"), ("the second", "massive"), ("first", "large")])
def test_a_question_may_be_answered_by_place(answer, meant):
    _, replies = play("cloak_plus", "x sack", answer)
    assert replies[0] == "Which do you mean, the large sack or the massive sack?"
    assert replies[1].startswith(f"The {meant} sack is a plain sack")


def test_an_answer_by_a_place_not_offered_asks_again():
    _, replies = play("cloak_plus", "x sack", "5")
    assert replies[1] == "Which do you mean, the large sack or the massive sack?"


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("look look", "I only understood you as far as wanting to look."),
        ("wait wait", "I only understood you as far as wanting to wait."),
        ("x mime look", "I only understood you as far as wanting to examine the dazed mime."),
    ],
)
def test_words_after_a_whole_command_that_name_nothing(line, said):
    assert last("cloak_plus", line) == said


# -- pronouns ------------------------------------------------------------------------------------------------------


def test_it_at_the_start_is_the_one_thing_it_could_be():
    _, replies = play("artmaking", "open it")
    assert replies[0].startswith("You open the box.")


def test_after_a_list_them_is_the_list_and_it_asks_which():
    _, replies = play("cloak_plus", "x large sack and massive sack", "drop it", "x them")
    assert replies[1] == "Which do you mean, the large sack or the massive sack?"
    assert "large sack" in replies[2] and "massive sack" in replies[2]


def test_the_narration_says_what_pronouns_mean():
    # (What the story tells each player as it opens, and after each turn, passed to `mentioned`.)
    story = Story(load_world("artmaking"))
    memory = story.recognizer.mentioned(Memory(), "@artist", story.simulation.events)
    assert memory.it == "@box"
    plus = Story(load_world("cloak_plus"))
    seen = plus.recognizer.mentioned(Memory(), "@operagoer", plus.simulation.events)
    assert seen.him == "@mime" and seen.it == "@massive_sack"  # the last thing told of: "…and a massive sack"
