"""Random valid play told under random spins never raises and never shows template syntax: every world from the
catalog, commands drawn from those that would work, any time, order, frequency, aspect and filters (seeded)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.catalog import load_world
from server.engine.spin import apply
from server.engine.story import Story
from tests.engine.editor import WORLDS

SPINS = st.fixed_dictionaries(
    {
        "time": st.one_of(st.sampled_from(("during", "after", "before")), st.floats(0.5, 30.5).map(round)),
        "order": st.sampled_from(("chronicle", "retrograde", "achrony", "analepsis", "syllepsis")),
        "frequency": st.sampled_from(("singulative", "iterative")),
        "perfect": st.booleans(),
        "progressive": st.booleans(),
        "time_words": st.booleans(),
        "filters": st.lists(st.sampled_from(("hesitant", "valley_girl", "surprise", "hedges")), max_size=2),
    }
)


@pytest.mark.parametrize("world", WORLDS)
@settings(derandomize=True, deadline=None, max_examples=12, suppress_health_check=[HealthCheck.too_slow])
@given(choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=8), spin=SPINS)
def test_random_valid_play_told_under_any_spin_never_raises(world, choices, spin):
    definition = load_world(world)
    story = Story(definition, seed=15)
    if not definition.interactive:
        story.run_to_end()
    else:
        for choice in choices:
            possible = story.possible_commands(definition.player)
            if story.ended or not possible:
                break
            story.command(definition.player, possible[choice % len(possible)])
    text = story.tell(apply(story.spin, spin)).text
    assert text.strip()
    assert "[" not in text and "]" not in text and "/v" not in text, text
