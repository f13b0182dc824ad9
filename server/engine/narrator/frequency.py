"""Stage: frequency — singulative tells each event; iterative tells a repeated event once, with how often."""

from __future__ import annotations

from dataclasses import replace

from server.engine.actions.action import Event, SenseAction
from server.engine.narrator.draft import Draft, Told


def run(draft: Draft) -> Draft:
    if draft.spin.frequency == "singulative":
        return draft
    counts: dict[tuple[object, ...], int] = {}
    for item in draft.told:
        key = _same_event(item.event, draft.focalizer)
        counts[key] = counts.get(key, 0) + 1
    folded: list[Told] = []
    seen: set[tuple[object, ...]] = set()
    for item in draft.told:
        key = _same_event(item.event, draft.focalizer)
        if key in seen:
            continue
        seen.add(key)
        folded.append(replace(item, count=counts[key]))
    return replace(draft, told=tuple(folded))


def _same_event(event: Event, focalizer: str) -> tuple[object, ...]:
    """Events that would be told in the same words: same action, same outcome, same reason."""
    action = event.action
    if isinstance(action, SenseAction) and action.description and action.agent == focalizer:
        # One's own look is told as what it showed, a description of a moment: each is its own.
        return ("description", event.id)
    return (
        action.verb,
        action.agent,
        action.direct,
        action.indirect,
        action.told_as,
        getattr(action, "to", None),
        event.outcome,
        None if event.reason is None else (event.reason.name, event.reason.template),
    )
