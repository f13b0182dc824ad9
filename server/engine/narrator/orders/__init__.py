"""Stage: put the selected events in the spin's order; one small module per order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from server.engine.narrator.draft import Draft, Told
from server.engine.narrator.orders import achrony, analepsis, chronicle, retrograde, syllepsis

Ordering = Callable[[Draft], tuple[Told, ...]]

ORDERS: dict[str, Ordering] = {
    "chronicle": chronicle.order,
    "retrograde": retrograde.order,
    "achrony": achrony.order,
    "analepsis": analepsis.order,
    "syllepsis": syllepsis.order,
}


def run(draft: Draft) -> Draft:
    told = ORDERS[draft.spin.order](draft)
    return replace(draft, told=mark_out_of_order(told))


def mark_out_of_order(told: tuple[Told, ...]) -> tuple[Told, ...]:
    """An event told after a later one of its own segment is out of order, and takes the perfect ("had
    fallen"). Segments are separate threads (syllepsis groups), except where an order marks a whole
    segment as going back in time (a flashback)."""
    latest: dict[int, int] = {}
    marked = []
    for item in told:
        behind = item.event.id < latest.get(item.segment, -1)
        marked.append(replace(item, out_of_order=item.out_of_order or behind))
        latest[item.segment] = max(latest.get(item.segment, -1), item.event.id)
    return tuple(marked)
