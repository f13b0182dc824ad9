"""Chronicle: events in the order they happened."""

from __future__ import annotations

from server.engine.narrator.draft import Draft, Told


def order(draft: Draft) -> tuple[Told, ...]:
    return draft.told
