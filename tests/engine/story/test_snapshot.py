"""A story captured and resumed is the same story: state, tellings, knowledge, undo, and what comes next."""

from __future__ import annotations

import contextlib
import random

import pytest

from bench.play import random_commands
from server.catalog import load_world, walked_worlds
from server.engine import snapshot
from server.engine.errors import EngineError, SnapshotError
from server.engine.player import Player
from server.engine.snapshot import capture, capturing, resume
from server.engine.story import Story


def _played(world: str, commands: int) -> Story:
    story = Story(load_world(world), seed=3)
    player = Player(story)
    for line in random_commands(story, commands, random.Random(world)):
        if story.ended:
            break
        with contextlib.suppress(EngineError):
            player.command(line)
    if not story.settled:
        player.command("look")
    return story


@pytest.mark.parametrize("world", walked_worlds())
def test_a_resumed_story_is_the_same_story(world):
    story = _played(world, 120)
    again = resume(load_world(world), capture(story))
    assert again.turn == story.turn and again.ended == story.ended
    assert again.simulation.world.digest() == story.simulation.world.digest()
    assert Player(again).recount().text == Player(story).recount().text
    for actor in story.simulation.concepts:
        assert again.concept_tree(actor) == story.concept_tree(actor)
    assert [entry.text for entry in again.log] == [entry.text for entry in story.log]
    # Undo reaches as far back, and what comes next comes the same way.
    story.undo(), again.undo()
    assert again.simulation.world.digest() == story.simulation.world.digest()
    if not story.ended:
        assert Player(again).command("look").text == Player(story).command("look").text


def test_a_robbery_snapshot_tells_the_same_through_everyone():
    story = Story(load_world("robbery"))
    story.run_to_end()
    again = resume(load_world("robbery"), capture(story))
    for actor in ("@robber", "@teller", "@guard"):
        spin = story.spin.__class__(focalizer=actor, time="after")
        assert again.tell(spin).text == story.tell(spin).text


def test_a_snapshot_of_another_world_or_damaged_is_refused():
    blob = capture(_played("artmaking", 5))
    with pytest.raises(SnapshotError, match="artmaking"):
        resume(load_world("cloak"), blob)
    with pytest.raises(SnapshotError, match="damaged"):
        resume(load_world("artmaking"), blob[: len(blob) // 2])


def test_a_story_waiting_on_a_question_is_not_captured():
    story = Story(load_world("cloak_plus"))
    assert Player(story).command("x sack").text.startswith("Which do you mean")
    assert not story.settled
    with pytest.raises(EngineError, match="question"):
        capture(story)


def test_a_story_captured_in_steps_is_the_story_as_it_stood_at_the_first(monkeypatch: pytest.MonkeyPatch):
    """A server holds a story still only for the capture's first step: the players go on while its events are
    encoded, and the snapshot is still of the moment it began, undo included."""
    monkeypatch.setattr(snapshot, "EVENTS_A_PIECE", 10)
    story = _played("cloak_plus", 60)
    player = Player(story)
    before = Player(story).recount().text
    at_once = capture(story)
    steps = capturing(story)
    next(steps)
    lines = iter(["n", "s", "x cloak", "w", "e", "look"] * 20)
    while True:
        with contextlib.suppress(EngineError):
            player.command(next(lines))
        try:
            next(steps)
        except StopIteration as done:
            blob = snapshot.sealed(done.value)
            break
    assert Player(story).recount().text != before  # the story went on between the steps
    again = resume(load_world("cloak_plus"), blob)
    assert Player(again).recount().text == before
    assert blob == at_once  # byte for byte: the world, concepts, log and undo as they were at the first step
