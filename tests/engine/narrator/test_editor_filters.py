"""Filters read by an editor: their words go between phrases, never inside a noun phrase a template wrote ("Paving,
um, stones"), and words from two filters do not run together ("he, totally uh, dies"). Swept over every world,
every sentence filter alone and in pairs, and several seeds."""

from __future__ import annotations

import itertools
import re

import pytest

from server.catalog import spun
from server.engine.narrator import tell
from server.engine.narrator.templates import Text, Verb, parse
from server.engine.spin import apply
from tests.engine.editor import WORLDS, played, world_templates

FILTERS = ("hesitant", "valley_girl", "hedges", "surprise")
COMBINATIONS = [(name,) for name in FILTERS] + list(itertools.combinations(FILTERS, 2))
RUN_TOGETHER = re.compile(r"\b(?:totally|uh|um|er|like|evidently|apparently),? (?:uh|um|er|well|like)\b(?!,)")


def written_subjects(world: str) -> set[str]:
    """Noun phrases of two words or more that a world's templates write just before a verb slot."""
    found = set()
    for template in world_templates(world):
        tokens = parse(template)
        for before, token in itertools.pairwise(tokens):
            if isinstance(token, Verb) and isinstance(before, Text):
                subject = re.split(r"[,;:]\s|\b(?:and|but|or|though|that|where|while|because)\s", before.text)[-1]
                if len(subject.split()) >= 2 and not subject.strip().startswith(("only", "no ")):
                    found.add(subject.strip().lower())
    return found


def telling(world: str, filters: tuple[str, ...], seed: int) -> str:
    story = played(world)
    spin = apply(spun(story.spin, [], []), {"filters": list(filters), "time": "after"})
    return tell(story.simulation, spin, focalizer=story.focalizer(spin), seed=seed, turn=story.turn).text


@pytest.mark.parametrize("world", WORLDS)
@pytest.mark.parametrize("filters", COMBINATIONS, ids="+".join)
def test_filters_never_break_a_written_noun_phrase_nor_run_their_words_together(world, filters):
    subjects = written_subjects(world)
    plain = telling(world, (), 0).lower()
    for seed in range(4):
        text = telling(world, filters, seed)
        lowered = text.lower()
        for subject in subjects:
            if subject in plain:
                assert lowered.count(subject) >= plain.count(subject), f"seed {seed}: {subject!r} broken in {text}"
        run = RUN_TOGETHER.search(text)
        assert run is None, f"seed {seed}: …{text[max(0, run.start() - 40) : run.end() + 20]}…"


def test_the_sweep_knows_the_editors_phrases():
    assert {"paving stones", "cafe tables"} <= written_subjects("lost_one")
