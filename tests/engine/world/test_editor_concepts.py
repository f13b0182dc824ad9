"""What an actor takes in, read by an editor: someone seen is seen with what they visibly wear and carry, someone
seen going is pictured where they went, and an actor's unwillingness is its own — swept over every world, played
through its walkthrough and then at random (seeded) among the commands that would work."""

from __future__ import annotations

import pytest

from server.catalog import load_world
from server.engine.actions.action import Configure, Event
from server.engine.player import Player
from server.engine.story import Story
from tests.engine.editor import WORLDS, turns


@pytest.mark.parametrize("world", WORLDS)
def test_an_actor_seen_is_seen_with_what_it_visibly_wears_and_carries(world):
    walked = 0
    for story, events in turns(world):
        walked += 1
        simulation = story.simulation
        live, sight = simulation.world, simulation.sight
        for onlooker, concept in simulation.concepts.items():
            seen = {e.action.agent for e in events if onlooker in e.perceivers and e.action.agent != onlooker}
            for other in seen:
                if other not in simulation.concepts or not sight.sees(onlooker, other):
                    continue
                for held in live.children[other]:
                    if sight.sees(onlooker, held):
                        view = concept.view(held)
                        assert view is not None and view.parent == other, (
                            f"{world}: {onlooker} saw {other} but does not picture {held} on them"
                        )
    assert walked, f"{world}: no turns walked (a story walked twice?)"


@pytest.mark.parametrize("world", WORLDS)
def test_an_actor_seen_going_is_pictured_where_it_went(world):
    walked = 0
    for story, events in turns(world):
        walked += 1
        simulation = story.simulation
        last_move: dict[str, Event] = {}
        for event in events:
            if isinstance(event.action, Configure) and event.done and event.action.direct:
                last_move[event.action.direct] = event
        for moved, event in last_move.items():
            for onlooker in event.perceivers & simulation.concepts.keys():
                if simulation.concepts[onlooker].view(moved, event.id - 1) is None:
                    continue  # what one never saw one cannot see go ("the bank teller puts something in…")
                view = simulation.concepts[onlooker].view(moved)
                assert view is not None and view.parent == simulation.world.parent(moved), (
                    f"{world}: {onlooker} saw {moved} go ({event.action.told_as}) but pictures it in {view}"
                )
    assert walked, f"{world}: no turns walked (a story walked twice?)"


@pytest.mark.parametrize("world", WORLDS)
def test_an_actors_unwillingness_is_perceived_by_nobody_else(world):
    walked = 0
    for _story, events in turns(world):
        walked += 1
        for event in events:
            if event.reason is not None and (event.outcome == "refused" or event.reason.alone):
                assert event.perceivers == {event.action.agent}, f"{world}: {event.reason.template}"
    assert walked, f"{world}: no turns walked (a story walked twice?)"


def test_the_mime_watching_the_operagoer_go_west_pictures_them_gone_and_says_where():
    player = Player(Story(load_world("cloak_plus")), None)
    player.opening()
    player.command("w")
    mime = player.story.simulation.concepts["@mime"]
    view = mime.view("@operagoer")
    assert view is not None and view.parent == "@cloakroom"
    told = player.story.tell(player.spin.__class__(focalizer="@mime", narratee="@operagoer")).text
    assert "You leave the foyer, heading west." in told


def test_the_teller_sees_the_robbers_mask():
    story = Story(load_world("robbery"))
    story.run_to_end()
    mask = story.simulation.concepts["@teller"].view("@mask")
    assert mask is not None and mask.parent == "@robber"


def test_the_punk_is_not_told_what_the_adrift_visitor_meant_to_do():
    player = Player(Story(load_world("lost_one")), None)
    player.opening()
    for line in ["n", "e", "s", "s", "w", "w", "take shirt", "wait", "take shirt", "n", "take shirt"]:
        player.command(line)
    for actor in player.story.simulation.concepts:
        if actor == "@visitor":
            continue
        told = player.story.tell(player.spin.__class__(focalizer=actor)).text
        assert "mean" not in told, actor
