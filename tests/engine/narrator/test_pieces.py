"""A telling in pieces (`Story.telling`, for a server to give its loop back between them) is the telling told at
once, word for word, under every kind of spin; its pieces grow with the story, so none grows with it."""

from __future__ import annotations

import pytest

from protocol.spin import apply
from server.engine.narrator.pieces import PIECE, drained
from server.engine.player import Player
from server.engine.story import Story
from tests.helpers import story as made

SPINS = (
    {},
    {"order": "retrograde", "time": "after"},
    {"frequency": "iterative", "time_words": True},
    {"order": "analepsis", "filters": ["hesitant", "surprise"]},
)


def played(turns: int) -> Story:
    story = made("cloak")
    player = Player(story, story.definition.player)
    story.take(player.actor)
    player.opening()
    for index in range(turns):
        player.command(("look", "w", "e", "x cloak")[index % 4])
    return story


def pieces(story: Story, settings: dict[str, object]) -> tuple[int, str]:
    steps = story.telling(apply(story.spin, settings) if settings else story.spin)
    count = 0
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return count, done.value.text
        count += 1


@pytest.mark.parametrize("settings", SPINS, ids=lambda s: ",".join(s) or "default")
def test_a_telling_in_pieces_is_the_telling_told_at_once(settings: dict[str, object]) -> None:
    story = played(300)
    spin = apply(story.spin, settings) if settings else story.spin
    _, text = pieces(story, settings)
    assert text == story.tell(spin).text
    assert drained(story.telling(spin)) == story.tell(spin)


def test_a_longer_story_is_told_in_more_pieces_not_longer_ones() -> None:
    short, long = pieces(played(100), {})[0], pieces(played(1000), {})[0]
    events = len(played(1000).simulation.events)
    assert long > 5 * short, f"{short} pieces for 100 turns, {long} for 1,000"
    assert long >= events / PIECE, "a piece for every PIECE events at least"
