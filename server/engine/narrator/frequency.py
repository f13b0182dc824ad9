"""Stage: frequency — singulative tells each event; iterative tells a run of the same event once, with how often.

Only events that follow one another in the telling fold: "you wait three times" would say nothing came between
the waits, and "you fill the bottle twice" would hide the drink between the fills."""

from __future__ import annotations

from server.engine.actions.action import Event, SenseAction
from server.engine.narrator.draft import Draft, Told


def run(draft: Draft) -> Draft:
    if draft.spin.frequency == "singulative":
        return draft
    folded: list[Told] = []
    last: tuple[object, ...] | None = None
    for item in draft.told:
        key = _same_event(item.event, draft.focalizer)
        if folded and key == last and item.segment == folded[-1].segment:
            folded[-1] = folded[-1].decided(count=folded[-1].count + 1)
            continue
        folded.append(item)
        last = key
    return draft.decided(told=tuple(folded))


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
