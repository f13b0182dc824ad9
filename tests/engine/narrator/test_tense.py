"""Tense and aspect as a reader hears them: the time of narrating, perfect and progressive, out-of-order events."""

from __future__ import annotations

import re

import pytest

from server.engine.actions.action import Behave, SenseAction
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room
from tests.helpers import sentences, tell


def garden(*templates: str, progressive: bool = False) -> WorldDefinition:
    """A gardener who does one thing a tick, each told by its own template; a postman is there to be seen."""
    items = (
        Room(tag="@garden", called="garden"),
        Actor(tag="@kim", called="gardener", gender="female", where="in @garden"),
        Actor(tag="@lou", called="postman", gender="male", where="in @garden"),
    )
    timeline = tuple(
        (tick, Behave(verb="act", agent="@kim", template=template, progressive=progressive))
        for tick, template in enumerate(templates, start=1)
    )
    return WorldDefinition(
        name="garden", title="Garden", items=items, player="@kim", interactive=False, timeline=timeline
    )


# -- the time of narrating and the aspects, on the teller's laugh ---------------------------------------------


@pytest.mark.parametrize(
    ("time", "perfect", "progressive", "expected"),
    [
        ("during", False, False, "The bank teller laughs."),
        ("after", False, False, "The bank teller laughed."),
        ("before", False, False, "The bank teller will laugh."),
        ("during", True, False, "The bank teller has laughed."),
        ("after", True, False, "The bank teller had laughed."),
        ("before", True, False, "The bank teller will have laughed."),
        ("during", False, True, "The bank teller is laughing."),
        ("after", False, True, "The bank teller was laughing."),
        ("before", False, True, "The bank teller will be laughing."),
        ("during", True, True, "The bank teller has been laughing."),
        ("after", True, True, "The bank teller had been laughing."),
        ("before", True, True, "The bank teller will have been laughing."),
    ],
)
def test_time_of_narrating_and_aspect_give_the_tense(time, perfect, progressive, expected):
    told = sentences(tell("robbery", focalizer="@teller", time=time, perfect=perfect, progressive=progressive))
    assert expected in told


def test_a_time_point_between_events_tells_what_came_before_it_as_past_and_the_rest_as_future():
    told = sentences(tell("robbery", focalizer="@teller", time=8.5))
    # Event 8 is the wave, event 9 the brandishing: the narrator speaks between them.
    wave = told.index("The bank teller waved to him.")
    assert told[wave + 1] == "The twitchy man will brandish a gun-shaped object at her."
    assert all(" will " not in s for s in told[: wave + 1])
    assert all(" will " in s for s in told[wave + 1 :])
    assert told[-1] == "The bank teller will cry."


def test_a_time_point_with_the_perfect_is_pluperfect_before_it_and_future_perfect_after_it():
    told = sentences(tell("robbery", focalizer="@teller", time=8.5, perfect=True))
    assert "The bank teller had waved to him." in told
    assert "The bank teller will have laughed." in told


def test_a_time_point_before_every_event_is_a_prophecy_and_after_every_event_a_memoir():
    assert tell("robbery", time=-0.5) == tell("robbery", "prophecy")
    assert tell("robbery", time=1000) == tell("robbery", "memoir", narrator=None)


# -- out of order: anterior ------------------------------------------------------------------------------------


def test_retrograde_told_afterwards_puts_each_earlier_event_in_the_pluperfect():
    told = sentences(tell("robbery", "retrograde", time="after"))
    assert told[:2] == ["A twitchy man died.", "Before that, he had fallen."]
    assert told[-1].endswith(", he had put on a Dora the Explorer mask.")


def test_retrograde_prophecy_puts_each_earlier_event_in_the_future_perfect():
    told = sentences(tell("robbery", "retrograde", "prophecy"))
    assert told[:2] == ["A twitchy man will die.", "Before that, he will have fallen."]


def test_retrograde_told_in_the_present_recalls_earlier_events_in_the_simple_past():
    told = sentences(tell("robbery", "retrograde"))
    assert told[:2] == ["A twitchy man dies.", "Before that, he fell."]


def test_recalled_events_are_there_and_then_not_here_and_now():
    world = garden("[agent/s] [be/v] [here] [now]", "[agent/s] [sing/v]")
    assert tell(world) == "A gardener is here now. She sings."
    assert tell(world, order="retrograde") == "A gardener sings. She was there then."


# -- the progressive: never for states -------------------------------------------------------------------------


@pytest.mark.parametrize("time", ["before", "during", "after", 8.5])
@pytest.mark.parametrize("perfect", [False, True])
def test_the_progressive_is_never_given_to_seeing_or_being(time, perfect):
    text = tell("robbery", focalizer="@guard", time=time, perfect=perfect, progressive=True)
    assert "seeing" not in text
    world = garden("[agent/s] [be/v] [here]", "[agent/s] [see/v] [@lou/o]")
    told = tell(world, time=time, perfect=perfect, progressive=True)
    assert "being" not in told
    assert "seeing" not in told


def test_progressive_seeing_stays_simple_while_the_laughing_goes_on():
    told = sentences(tell("robbery", focalizer="@teller", time="after", progressive=True))
    assert "The bank teller was laughing." in told
    watched = sentences(tell("robbery", focalizer="@guard", time="after", progressive=True))
    assert "He was waking up." in watched
    assert "He saw a twitchy man." in watched


def test_anterior_progressive_is_had_been_laughing_and_never_had_been_seen():
    told = sentences(tell("robbery", "retrograde", focalizer="@guard", time="after", progressive=True))
    assert any(s.endswith(", he had seen the twitchy man.") for s in told), told
    assert any(s.endswith(", he had been snoozing.") for s in told), told
    text = " ".join(told)
    assert "had been seen" not in text
    assert "had been seeing" not in text


def test_anterior_progressive_of_an_active_verb():
    told = sentences(tell("robbery", "retrograde", focalizer="@teller", time="after", progressive=True))
    assert any(s.endswith(", the bank teller had been laughing.") for s in told), told


# -- flags in templates -----------------------------------------------------------------------------------------


def test_the_perfect_flag_on_one_verb_does_not_leak_to_the_next():
    world = garden("[agent/s] [finish/ed/v] [agent's] tea and [@lou/s] [laugh/v]")
    assert tell(world) == "A gardener has finished her tea and a postman laughs."
    assert tell(world, time="after") == "A gardener had finished her tea and a postman laughed."
    assert tell(world, time="before") == "A gardener will have finished her tea and a postman will laugh."


def test_the_progressive_flag_on_one_verb_does_not_leak_to_the_next():
    world = garden("[agent/s] [dig/ing/v] when [@lou/s] [arrive/v]")
    assert tell(world, time="after") == "A gardener was digging when a postman arrived."


def test_authored_activities_are_progressive_in_every_tense():
    assert sentences(tell("robbery", focalizer="@guard"))[0] == "A burly guard is snoozing."
    assert sentences(tell("robbery", "told_and_focalized_by_guard"))[0] == "I was snoozing."
    assert sentences(tell("robbery", "prophecy", focalizer="@guard"))[0] == "A burly guard will be snoozing."
    assert sentences(tell("robbery", focalizer="@guard", perfect=True))[0] == "A burly guard has been snoozing."


def test_an_authored_progressive_of_a_stative_verb_stays_simple():
    world = garden("[agent/s] [know/v] [@lou/o]", progressive=True)
    assert tell(world, time="after") == "A gardener knew a postman."


def test_a_look_at_someone_is_told_as_seeing_in_each_tense():
    items = (
        Room(tag="@garden", called="garden"),
        Actor(tag="@kim", called="gardener", gender="female", where="in @garden"),
        Actor(tag="@lou", called="postman", gender="male", where="in @garden"),
    )
    world = WorldDefinition(
        name="g",
        title="G",
        items=items,
        player="@kim",
        interactive=False,
        timeline=((1, SenseAction(verb="see", agent="@kim", direct="@lou")),),
    )
    assert [tell(world, time=t) for t in ("before", "during", "after")] == [
        "A gardener will see a postman.",
        "A gardener sees a postman.",
        "A gardener saw a postman.",
    ]


def test_every_verb_of_a_past_telling_is_past():
    text = tell("robbery", "memoir", focalizer="@teller")
    assert not re.search(r"\b(laughs|cries|reads|puts|is|has|will)\b", text)
