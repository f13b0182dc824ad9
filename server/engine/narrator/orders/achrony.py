"""Achrony: a random order, the same for the same story seed."""

from __future__ import annotations

import random

from server.engine.narrator.draft import Draft, Told


def order(draft: Draft) -> tuple[Told, ...]:
    shuffled = list(draft.told)
    # Seeded from the story and not from any shared generator, so retelling gives the same order.
    random.Random(f"achrony:{draft.seed}").shuffle(shuffled)
    return tuple(shuffled)
