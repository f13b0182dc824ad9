"""Stage: put the selected events in the spin's order (one small module per order, in orders/); mark the events
told out of order, and move a segment's lead off a description."""

from __future__ import annotations

from collections.abc import Callable

from server.engine.narrator.compose import describes
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
    return draft.decided(told=_leads_off_descriptions(mark_out_of_order(told), draft))


def _leads_off_descriptions(told: tuple[Told, ...], draft: Draft) -> tuple[Told, ...]:
    """A segment's lead ("earlier,", "now,") goes on its first event that is something done: on a description it
    would date the state ("Earlier, that hall was grand"), not the return or the flashback."""
    result = list(told)
    for index, item in enumerate(result):
        if not item.lead or not describes(item.event, draft):
            continue
        result[index] = item.decided(lead="")
        for later in range(index + 1, len(result)):
            if result[later].segment != item.segment:
                break
            if not describes(result[later].event, draft):
                result[later] = result[later].decided(lead=item.lead)
                break
    return tuple(result)


def mark_out_of_order(told: tuple[Told, ...]) -> tuple[Told, ...]:
    """An event told after a later one of its own segment is out of order, and takes the perfect ("had
    fallen"). Segments are separate threads (syllepsis groups), except where an order marks a whole
    segment as going back in time (a flashback)."""
    latest: dict[int, int] = {}
    marked = []
    for item in told:
        behind = item.event.id < latest.get(item.segment, -1)
        marked.append(item.decided(out_of_order=item.out_of_order or behind))
        latest[item.segment] = max(latest.get(item.segment, -1), item.event.id)
    return tuple(marked)
