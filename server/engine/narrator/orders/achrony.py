"""Achrony: a random order, the same for the same story seed."""

from __future__ import annotations

import random

from server.engine.narrator.draft import Draft, Told


def order(draft: Draft) -> tuple[Told, ...]:
    shuffled = list(draft.told)
    # Seeded from the story and not from any shared generator, so retelling gives the same order. One event or
    # none has only one order, and a shuffle of it draws nothing: no generator is seeded for it (8 us each, and
    # most of a player's news in Lost One is a single event).
    if len(shuffled) > 1:
        random.Random(f"achrony:{draft.seed}").shuffle(shuffled)
    return tuple(shuffled)
