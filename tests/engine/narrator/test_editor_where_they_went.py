"""Where someone went, read by an editor: a telling through an actor that saw someone leave by a way out says
which way they went, whether the going named its way or only where it led — swept over every world, played
through its walkthrough and then at random (seeded) among the commands that would work."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from server.catalog import load_world
from server.engine.actions.action import Configure, Event
from server.engine.english.words import direction_name
from server.engine.player import Player
from server.engine.story import Story
from server.engine.world.items import Door, Room
from tests.engine.editor import WORLDS, turns


def way_out(story: Story, event: Event) -> str | None:
    """The way out of the room left that leads where the going took its agent."""
    action, items = event.action, story.simulation.items
    room = items.get(event.room or "")
    if not isinstance(action, Configure) or not isinstance(room, Room):
        return action.direction
    target = action.destination()[1]
    for direction, way in room.exits.items():
        door = items.get(way)
        if way == target or (isinstance(door, Door) and target in door.connects):
            return action.direction or direction
    return action.direction


@pytest.mark.parametrize("world", WORLDS)
def test_an_onlooker_says_which_way_someone_went(world):
    walked = 0
    for story, events in turns(world):
        walked += 1
        interactive = story.definition.interactive
        for event in events:
            if event.action.verb != "leave" or not event.done:
                continue
            direction = way_out(story, event)
            for onlooker in sorted(event.perceivers & story.simulation.concepts.keys() - {event.action.agent}):
                if direction is None:
                    continue
                spin = replace(story.spin, focalizer=onlooker, window="turn" if interactive else "all")
                told = story.tell(spin).text
                assert f"heading {direction_name(direction)}" in told, f"{world}: through {onlooker}: {told}"
    assert walked, f"{world}: no turns walked (a story walked twice?)"


def test_the_visitor_sees_which_way_the_trash_collector_went():
    player = Player(Story(load_world("lost_one")), None)
    player.opening()
    player.command("z")
    assert "The trash collector leaves the south side, heading east." in player.command("z").text
