"""Sight answered from perception's caches is what it would be worked out afresh, after people walk about,
carry things, open boxes and light lamps: what a player is told they see never lags behind the world."""

from __future__ import annotations

import random

import pytest

from bench.play import random_commands
from server.catalog import load_world
from server.engine.errors import EngineError
from server.engine.player import Player
from server.engine.story import Story
from server.engine.world.perception import Perception


def _same_as_fresh(story: Story) -> None:
    world, cached = story.simulation.world, story.simulation.sight
    fresh = Perception(world)
    for actor in story.simulation.concepts:
        assert cached.visible_items(actor) == fresh.visible_items(actor), actor
        for item in world.items:
            assert cached.sight(actor, item) == fresh.sight(actor, item), (actor, item)
            assert cached.sees(actor, item) == fresh.sees(actor, item), (actor, item)
        assert cached.compartment(actor) == fresh.compartment(actor)


@pytest.mark.parametrize("world", ["lost_one", "bank", "cloak_plus", "adventure"])
def test_cached_sight_matches_sight_worked_out_afresh_over_a_random_session(world):
    story = Story(load_world(world), seed=3)
    player = Player(story)
    player.opening()
    for line in random_commands(story, 60, random.Random(f"caches:{world}")):
        try:
            player.command(line)
        except EngineError:
            player.restart()
        _same_as_fresh(story)
    story.undo()
    _same_as_fresh(story)
