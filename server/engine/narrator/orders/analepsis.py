"""Analepsis: begin in the middle, flash back to what came before, then return to the main line."""

from __future__ import annotations

from server.engine.narrator.draft import Draft, Told

FLASHBACK_LEAD = "earlier,"
RETURN_LEAD = "[now],"


def order(draft: Draft) -> tuple[Told, ...]:
    """Tell the middle event, then everything before it as a flashback, then the rest.

    The flashback holds only events before the one just told, so it never recalls that event itself."""
    told = draft.told
    if len(told) < 3:
        return told
    pivot = len(told) // 2
    opening = told[pivot]
    past = told[:pivot]
    rest = told[pivot + 1 :]
    flashback = [t.decided(segment=1, out_of_order=True) for t in past]
    flashback[0] = flashback[0].decided(lead=FLASHBACK_LEAD)
    after = [t.decided(segment=2) for t in rest]
    if after:
        after[0] = after[0].decided(lead=RETURN_LEAD)
    return (opening.decided(segment=0), *flashback, *after)
