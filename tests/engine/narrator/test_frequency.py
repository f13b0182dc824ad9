"""Frequency: singulative tells each event; iterative tells repeated events once, saying how often."""

from __future__ import annotations

from server.engine.actions.action import Behave
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room
from tests.helpers import sentences, tell

SHOT = "The burly guard shoots the twitchy man in the chest"


def knocking(*events: tuple[str, str]) -> WorldDefinition:
    """(agent, template) events a tick apart, at a door with a visitor and a host."""
    items = (
        Room(tag="@porch", called="porch"),
        Actor(tag="@vic", called="visitor", gender="male", where="in @porch"),
        Actor(tag="@hal", called="host", gender="female", where="in @porch"),
    )
    timeline = tuple(
        (tick, Behave(verb="act", agent=agent, template=template))
        for tick, (agent, template) in enumerate(events, start=1)
    )
    return WorldDefinition(
        name="porch", title="Porch", items=items, player="@hal", interactive=False, timeline=timeline
    )


KNOCK = ("@vic", "[agent/s] [knock/v]")


def test_singulative_tells_the_guards_two_shots_twice():
    told = sentences(tell("robbery", focalizer="@teller"))
    assert told.count(f"{SHOT}.") == 2


def test_iterative_folds_the_guards_two_shots_into_one_sentence():
    text = tell("robbery", focalizer="@teller", frequency="iterative")
    assert f"{SHOT} twice." in sentences(text)
    assert text.count("shoots") == 1


def test_iterative_folds_in_every_tense_and_person():
    told = sentences(tell("robbery", "told_and_focalized_by_guard", frequency="iterative"))
    assert "I shot him in the chest twice." in told


def test_three_identical_events_are_told_three_times_over():
    world = knocking(KNOCK, KNOCK, KNOCK, ("@hal", "[agent/s] [open/v] the door"))
    assert tell(world, frequency="iterative") == "A visitor knocks three times. A host opens the door."
    assert tell(world) == "A visitor knocks. He knocks. He knocks. A host opens the door."


def test_iterative_leaves_repeats_apart_where_something_came_between():
    world = knocking(KNOCK, ("@hal", "[agent/s] [call/v] out"), KNOCK)
    assert (
        tell(world, frequency="iterative", time="after") == "A visitor knocked. A host called out. The visitor knocked."
    )


def test_iterative_leaves_different_events_apart():
    world = knocking(KNOCK, ("@hal", "[agent/s] [knock/v]"))
    assert tell(world, frequency="iterative") == "A visitor knocks. A host knocks."


def test_an_event_that_happened_once_has_no_count():
    world = knocking(KNOCK, ("@hal", "[agent/s] [call/v] out"))
    assert tell(world, frequency="iterative") == tell(world)
    assert "once" not in tell(world, frequency="iterative")
