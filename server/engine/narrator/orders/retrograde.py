"""Retrograde: the last event first, back to the first."""

from __future__ import annotations

from server.engine.narrator.draft import Draft, Told


def order(draft: Draft) -> tuple[Told, ...]:
    return tuple(reversed(draft.told))
