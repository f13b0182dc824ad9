"""Random valid play mixed with the directives that go back and begin again (save, restore, undo, restart,
recount) never raises, in every world; a restore always gives back the spin saved with the story (seeded)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.catalog import load_world
from server.engine.errors import StoryEnded
from server.engine.player import Player
from server.engine.story import Story
from tests.engine.editor import WORLDS

DIRECTIVES = ("undo", "restart", "recount", "spin time after", "spin time during", "spin time before", "save two")
STEPS = st.lists(st.one_of(st.integers(0, 10_000), st.sampled_from(DIRECTIVES)), max_size=5)


@pytest.mark.parametrize("world", WORLDS)
@settings(derandomize=True, deadline=None, max_examples=5, suppress_health_check=[HealthCheck.too_slow])
@given(before=STEPS, after=STEPS)
def test_going_back_and_beginning_again_never_raises(world, before, after):
    definition = load_world(world)
    story = Story(definition, seed=15)
    if not definition.interactive:
        story.run_to_end()
    player = Player(story, None)
    player.opening()
    first = player.spin
    whole = player.recount(first).text
    for step in before:
        play(player, step)
    player.command("save one")
    saved, told = player.spin, player.recount(player.spin).text
    for step in [*after, "spin time after"]:
        play(player, step)
    player.command("restore one")
    assert player.spin == saved
    assert player.recount().text == told
    player.command("restart")
    assert player.recount(first).text == whole


def play(player: Player, step: int | str) -> None:
    """One step: a command that would work (picked by number) or a directive; an ending is begun again."""
    story = player.story
    if isinstance(step, int):
        possible = story.possible_commands(story.definition.player) if story.definition.interactive else []
        if not possible:
            return
        step = possible[step % len(possible)]
    try:
        text = player.command(step).text
    except StoryEnded:
        player.restart()
        return
    assert text.strip() or step in ("recount", "save two"), f"{step!r} was answered with nothing"
