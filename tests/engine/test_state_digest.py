"""The world's state hash, kept part by part, is the hash of the whole state worked out afresh, after every
command, undo and restart: a server checks a replayed story against the hash it stored, so a hash that lagged
behind the world would refuse a good instance, or an older server's store, after an upgrade."""

from __future__ import annotations

import hashlib
import random

import pytest

from bench.play import random_commands
from server.catalog import load_world
from server.engine.errors import EngineError
from server.engine.player import Player
from server.engine.story import Story
from server.engine.world.state import WorldState


def _afresh(world: WorldState) -> str:
    """The state hash as servers have stored it all along: each item's place and sorted features, in order."""
    hasher = hashlib.blake2b(digest_size=12)
    for tag in world.items:
        place = world.places.get(tag)
        hasher.update(f"{tag}|{place.link if place else ''}|{place.parent if place else ''}|".encode())
        for name, value in sorted(world.features[tag].items()):
            hasher.update(f"{name}={value!r};".encode())
    return hasher.hexdigest()


@pytest.mark.parametrize("world", ["lost_one", "bank", "cloak_plus", "adventure"])
def test_the_kept_hash_is_the_whole_state_hashed_afresh_over_a_random_session(world: str) -> None:
    story = Story(load_world(world), seed=5)
    player = Player(story)
    player.opening()
    hashes = set()
    for index, line in enumerate(random_commands(story, 80, random.Random(f"digest:{world}"))):
        try:
            player.command(line)
        except EngineError:
            player.restart()
        if index % 7 == 6:
            story.undo()
        state = story.simulation.world
        assert state.digest() == _afresh(state)
        hashes.add(state.digest())
    assert len(hashes) > 1  # the world changed along the way, and so did its hash
