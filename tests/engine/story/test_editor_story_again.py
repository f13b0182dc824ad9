"""A story begun again or gone back to, read by an editor: restarting a story that runs by itself tells all of it
again, and restoring a save brings back the spin and what the player had been told with it, as undo does —
swept over every world."""

from __future__ import annotations

import pytest

from server.catalog import load_world
from server.engine.player import Player
from server.engine.story import Story
from tests.engine.editor import ROOT, WORLDS

BY_ITSELF = [name for name in WORLDS if not load_world(name).interactive]
INTERACTIVE = [name for name in WORLDS if load_world(name).interactive]


def begun(name: str) -> Player:
    """A player of the world's story as its maker begins it: a story that runs by itself is run first."""
    definition = load_world(name)
    story = Story(definition, seed=0)
    if not definition.interactive:
        story.run_to_end()
    player = Player(story, None)
    player.opening()
    return player


def walk(name: str) -> list[str]:
    lines = (ROOT / "worlds" / "walks" / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize("world", BY_ITSELF)
def test_a_story_that_runs_by_itself_is_told_whole_after_restart(world):
    player = begun(world)
    whole = player.recount().text
    assert whole.strip()
    assert player.command("restart").text == whole
    assert player.command("recount").text == whole
    player.command("save begun")
    assert player.command("restart").text == whole
    player.command("restore begun")
    assert player.command("recount").text == whole


@pytest.mark.parametrize("world", INTERACTIVE)
def test_restoring_brings_back_the_spin_and_what_was_told(world):
    whole = walk(world)
    lines = whole[: min(6, len(whole) - 1)]  # short of the end: the story goes on
    kept = begun(world)
    for line in lines:
        kept.command(line)
    kept.command("spin time after")
    expected = kept.command("look").text

    player = begun(world)
    for line in lines:
        player.command(line)
    player.command("spin time after")
    player.command("save here")
    player.command("spin time during")
    player.command("restart")
    player.command("look")
    player.command("restore here")
    assert player.spin.time == "after"
    assert player.command("look").text == expected


def test_the_mime_is_the_dazed_mime_after_a_restore_as_after_an_undo():
    player = begun("cloak_plus")
    player.command("save start")
    player.command("w")
    player.command("restore start")
    assert "You see the dazed mime" in player.command("look").text
