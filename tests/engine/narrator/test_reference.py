"""Referring to things: articles by sound, "the" once mentioned, proper and subsequent names, lists, and the
discourse that carries what was said from one telling to the next."""

from __future__ import annotations

import pytest

from server.engine.actions.action import Behave
from server.engine.actions.verbs import look
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, ProperName, Room, Thing
from tests.helpers import sentences, story, tell

ITEMS = (
    Room(
        tag="@parlor",
        called="parlor",
        sight="[this] [be/v] a dusty parlor",
        views={"@garden": (0.9, "out in the garden")},
    ),
    Room(tag="@garden", called="garden"),
    Actor(
        tag="@ada",
        called="mathematician",
        gender="female",
        where="in @parlor",
        proper=ProperName(given="Ada", family="Lovelace", title="Ms."),
    ),
    Actor(tag="@cb", called="engineer", gender="male", where="in @parlor", proper=ProperName(given="Charles")),
    Actor(tag="@wolf", called="big bad wolf", subsequent="wolf", gender="male", where="in @garden"),
    Thing(tag="@egg", called="egg", where="in @parlor"),
    Thing(tag="@urn", called="urn", where="in @parlor"),
    Thing(tag="@tea", called="tea", article="some", where="in @parlor"),
    Thing(tag="@bag", called="bag", where="in @parlor", holds=("in",), open=True),
    Thing(tag="@coin", called="coin", where="in @bag"),
    Thing(tag="@hat", called="hat", where="on @cb"),
    Thing(tag="@pipe", called="pipe", where="of @cb"),
    Thing(tag="@dust", called="dust", article="", where="in @parlor", mention=False),
    Thing(tag="@hourglass", called="hourglass", where="in @garden"),
    Thing(tag="@unicorn", called="unicorn", where="in @garden"),
    Thing(tag="@mirror", called="one-way mirror", where="in @garden"),
    Thing(tag="@needle", called="needle", where="in @garden", prominence=0.2, mention=False),
)


def parlor(*events: Behave | tuple[str, str]) -> WorldDefinition:
    """Events a tick apart: an action, or an (agent, template) pair."""
    timeline = tuple(
        (tick, made if isinstance(made, Behave) else Behave(verb="act", agent=made[0], template=made[1]))
        for tick, made in enumerate(events, start=1)
    )
    return WorldDefinition(
        name="parlor", title="Parlor", items=ITEMS, player="@ada", interactive=False, timeline=timeline
    )


def looking() -> WorldDefinition:
    timeline = ((1, look("@ada")), (2, Behave(verb="nod", agent="@cb")))
    return WorldDefinition(
        name="parlor", title="Parlor", items=ITEMS, player="@ada", interactive=False, timeline=timeline
    )


# -- articles -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("@egg", "an egg"),
        ("@urn", "an urn"),
        ("@hourglass", "an hourglass"),
        ("@unicorn", "a unicorn"),
        ("@mirror", "a one-way mirror"),
        ("@tea", "some tea"),
        ("@wolf", "a big bad wolf"),
    ],
)
def test_an_item_is_introduced_with_the_article_its_sound_takes(tag, expected):
    assert tell(parlor(("@ada", f"[agent/s] [think/v] of [{tag}/o]"))) == f"Ms. Ada Lovelace thinks of {expected}."


def test_once_mentioned_an_item_is_the_item():
    world = parlor(("@ada", "[agent/s] [pour/v] [@tea/o] into [@urn/o]"), ("@cb", "[agent/s] [sip/v] [@tea/o]"))
    assert tell(world) == "Ms. Ada Lovelace pours some tea into an urn. Charles sips the tea."


def test_an_item_with_no_article_never_takes_one():
    world = parlor(("@ada", "[agent/s] [sweep/v] [@dust/o]"), ("@cb", "[agent/s] [sneeze/v] at [@dust/o]"))
    assert tell(world) == "Ms. Ada Lovelace sweeps dust. Charles sneezes at dust."


def test_adjectives_take_part_in_the_article():
    assert tell(parlor(("@ada", "[agent/s] [see/v] [@egg/big/o]"))) == "Ms. Ada Lovelace sees a big egg."
    assert tell(parlor(("@ada", "[agent/s] [see/v] [@hourglass/huge/o]"))) == "Ms. Ada Lovelace sees a huge hourglass."


# -- names -------------------------------------------------------------------------------------------------------


def test_a_proper_name_is_given_in_full_first_then_shorter():
    world = parlor(
        ("@ada", "[agent/s] [greet/v] [@cb/o]"),
        ("@cb", "[agent/s] [bow/v]"),
        ("@ada", "[agent/s] [smile/v]"),
    )
    assert tell(world) == "Ms. Ada Lovelace greets Charles. Charles bows. Ms. Lovelace smiles."


def test_a_proper_name_never_takes_an_article():
    assert "the Ms." not in tell(parlor(("@cb", "[agent/s] [see/v] [@ada/o]"), ("@cb", "[agent/s] [see/v] [@ada/o]")))


def test_an_item_may_have_a_shorter_subsequent_name():
    world = parlor(
        ("@wolf", "[agent/s] [howl/v]"),
        ("@cb", "[agent/s] [hear/v] [@wolf/o]"),
        ("@cb", "[agent/s] [fear/v] [@wolf/o]"),
    )
    # The subsequent name is "the wolf", never "the big bad wolf" again.
    assert tell(world) == "A big bad wolf howls. Charles hears the wolf. Charles fears the wolf."


def test_unknown_items_are_something_and_stay_unintroduced():
    # From the parlor, a needle out in the garden (prominence 0.2, view 0.9) is too small to see.
    world = parlor(("@ada", "[agent/s] [think/v] of [@needle/o]"), ("@ada", "[agent/s] [think/v] of [@needle/o]"))
    assert tell(world) == "Ms. Ada Lovelace thinks of something. She thinks of something."


def test_an_unknown_possessor_is_somethings():
    items = (*ITEMS, Actor(tag="@ghost", called="ghost", where="in @garden", prominence=0.1))
    timeline = ((1, Behave(verb="act", agent="@ada", template="[agent/s] [hear/v] [@ghost's] moan")),)
    world = WorldDefinition(name="p", title="P", items=items, player="@ada", interactive=False, timeline=timeline)
    assert tell(world) == "Ms. Ada Lovelace hears something's moan."


# -- descriptions and lists -------------------------------------------------------------------------------------


def test_a_look_describes_the_room_and_lists_what_is_seen_with_the_serial_comma():
    assert tell(looking(), room_headings=False) == (
        "This is a dusty parlor. Ms. Ada Lovelace sees Charles, an egg, an urn, some tea, and a bag here. "
        "Out in the garden, she sees a big bad wolf, an hourglass, a unicorn, and a one-way mirror. "
        "Charles wears a hat. He has a pipe. In the bag, Ms. Lovelace sees a coin. Charles nods."
    )


def test_a_look_told_afterwards_by_the_one_looking():
    told = sentences(tell(looking(), narrator="@ada", time="after", room_headings=False))
    assert told[:2] == [
        "That was a dusty parlor.",
        "I saw Charles, an egg, an urn, some tea, and a bag there.",
    ]
    assert "In the bag, I saw a coin." in told


def test_a_look_heads_the_room_with_its_name():
    assert tell(looking()).startswith("Parlor\n\nThis is a dusty parlor.")


def test_two_things_are_listed_with_and_one_alone():
    items = (
        Room(tag="@cell", called="cell"),
        Actor(tag="@ada", called="prisoner", gender="female", where="in @cell"),
        Thing(tag="@cup", called="cup", where="in @cell"),
        Thing(tag="@bowl", called="bowl", where="in @cell"),
        Thing(tag="@box", called="box", where="in @cell", holds=("in",), open=True),
        Thing(tag="@bone", called="bone", where="in @box"),
    )
    world = WorldDefinition(
        name="c",
        title="C",
        items=items,
        player="@ada",
        interactive=False,
        timeline=((1, look("@ada")),),
        spin={"room_headings": False},
    )
    assert tell(world) == "A prisoner sees a cup, a bowl, and a box here. In the box, she sees a bone."
    world = WorldDefinition(
        name="c",
        title="C",
        items=items[:4],
        player="@ada",
        interactive=False,
        timeline=((1, look("@ada")),),
        spin={"room_headings": False},
    )
    assert tell(world) == "A prisoner sees a cup and a bowl here."


def test_a_look_in_the_dark_says_so_and_nothing_more():
    items = (
        Room(tag="@cellar", called="cellar", glow=0.0, sight="a damp cellar"),
        Actor(tag="@ada", called="prisoner", gender="female", where="in @cellar"),
        Thing(tag="@rat", called="rat", where="in @cellar"),
    )
    world = WorldDefinition(
        name="c", title="C", items=items, player="@ada", interactive=False, timeline=((1, look("@ada")),)
    )
    assert tell(world) == "Cellar\n\nIt is too dark to see."
    assert tell(world, time="after", narrator="@ada") == "Cellar\n\nIt was too dark to see."


# -- discourse across tellings ----------------------------------------------------------------------------------


def test_a_later_telling_continues_from_what_was_already_said():
    made = story("robbery")
    first = made.tell()
    again = made.tell(discourse=first.discourse)
    assert sentences(first.text)[0] == "A twitchy man puts on a Dora the Explorer mask."
    assert sentences(again.text)[0] == "The twitchy man puts on the Dora the Explorer mask."


def test_a_fresh_telling_introduces_everything_again():
    made = story("robbery")
    assert made.tell().text == made.tell().text


def test_a_room_may_have_a_heading_of_its_own():
    items = (
        Room(tag="@foyer", called="foyer", heading="Foyer of the Opera House"),
        Actor(tag="@ada", called="operagoer", gender="female", where="in @foyer"),
    )
    world = WorldDefinition(
        name="f", title="F", items=items, player="@ada", interactive=False, timeline=((1, look("@ada")),)
    )
    assert tell(world) == "Foyer of the Opera House"


def test_a_fixture_is_seen_on_what_it_is_part_of():
    items = (
        Room(tag="@cloakroom", called="cloakroom"),
        Actor(tag="@ada", called="operagoer", gender="female", where="in @cloakroom"),
        Thing(tag="@wall", called="wall", article="the", where="part_of @cloakroom", mention=False),
        Thing(tag="@hook", called="small brass hook", subsequent="hook", where="part_of @wall"),
    )
    world = WorldDefinition(
        name="c",
        title="C",
        items=items,
        player="@ada",
        interactive=False,
        timeline=((1, look("@ada")),),
        spin={"room_headings": False},
    )
    assert tell(world, narratee="@ada") == "On the wall, you see a small brass hook."
