"""Who perceives an action: whoever sees its agent; through the thing acted on only when the action moves,
changes or touches it. No one notices being looked at (or waved at) by someone they cannot see."""

from __future__ import annotations

from server.engine.actions import verbs
from server.engine.actions.action import Action, Behave, Configure, SenseAction
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room, Thing
from tests.helpers import sentences, tell


def parlour(*timeline: Action) -> WorldDefinition:
    """Lou in a parlour, and a spy hidden in it (too hard to make out); each action happens a tick apart."""
    return WorldDefinition(
        name="parlour",
        title="The Parlour",
        interactive=False,
        items=(
            Room(tag="@parlour", called="parlour"),
            Actor(tag="@lou", called="Lou", article="", gender="female", where="in @parlour"),
            Actor(tag="@spy", called="spy", gender="male", prominence=0.1, where="in @parlour"),
            Thing(tag="@cup", called="cup", where="in @parlour"),
        ),
        player="@lou",
        spin={"narratee": "@lou"},
        timeline=tuple((tick, action) for tick, action in enumerate(timeline, start=1)),
    )


def test_being_looked_at_by_someone_unseen_is_not_perceived():
    world = parlour(
        SenseAction(verb="see", agent="@spy", direct="@lou"),
        verbs.look(agent="@spy", at="@lou"),
        Behave(verb="wave", agent="@lou", template="[agent/s] [wave/v]"),
    )
    assert tell(world) == "You wave."
    assert (
        tell(world, focalizer="@spy", narratee=None) == "A spy sees Lou. He sees nothing special about Lou. Lou waves."
    )


def test_a_gesture_at_someone_by_someone_unseen_is_not_perceived_but_a_touch_is():
    world = parlour(
        Behave(verb="wave", agent="@spy", direct="@lou", template="[agent/s] [wave/v] at [direct/o]"),
        verbs.sense("@spy", "touch", "@lou"),
        verbs.gesture("poke", "@spy", "@lou", "[agent/s] [poke/v] [direct/o]", touching=True),
    )
    assert sentences(tell(world)) == ["Something touches you.", "Something pokes you."]


def test_what_an_unseen_agent_does_to_a_thing_in_view_is_perceived_as_done_by_something():
    world = parlour(
        Configure(verb="take", agent="@spy", direct="@cup", to="of @spy", template="[agent/s] [take/v] [direct/o]")
    )
    assert tell(world) == "Something takes a cup."


def test_the_robber_never_hears_of_the_guard_watching_him_through_the_mirror():
    told = tell("robbery")
    assert "sees" not in told and "Something" not in told
    assert "He sees a twitchy man." in sentences(tell("robbery", focalizer="@guard"))
