"""Events as plain data and back: what a snapshot keeps of an action once it is done (its hooks are not needed)."""

from __future__ import annotations

from typing import Any

from server.engine.actions.action import Action, Behave, Configure, Event, Modify, Reason, SenseAction

_KINDS: dict[str, type[Action]] = {"behave": Behave, "configure": Configure, "modify": Modify, "sense": SenseAction}

_COMMON = ("verb", "agent", "direct", "indirect", "template", "salience", "final", "progressive", "witnessed")
_MORE = ("direction", "utterance", "duration", "data")
_OWN = {"configure": ("to",), "modify": ("feature", "value"), "sense": ("modality", "description")}


def event_data(event: Event) -> dict[str, Any]:
    """An event as plain data: its action's telling fields (checks and entailments are spent), and the rest."""
    action = event.action
    fields = (*_COMMON, *_MORE, *_OWN.get(action.kind, ()))
    reason = event.reason
    return {
        "action": {"kind": action.kind, **{name: getattr(action, name) for name in fields}},
        "id": event.id,
        "tick": event.tick,
        "end": event.end,
        "turn": event.turn,
        "cause": event.cause,
        "outcome": event.outcome,
        "reason": None if reason is None else [reason.name, reason.template, reason.alone],
        "room": event.room,
        "parent": event.parent,
        "perceivers": sorted(event.perceivers),
        "observed": list(event.observed),
        "lit": event.lit,
    }


def event_from(data: dict[str, Any]) -> Event:
    """An event rebuilt from `event_data`: told exactly as before, though it can no longer be done again."""
    fields = dict(data["action"])
    kind = fields.pop("kind")
    action = _KINDS[kind](**fields)
    reason = data["reason"]
    return Event(
        id=data["id"],
        action=action,
        tick=data["tick"],
        end=data["end"],
        turn=data["turn"],
        cause=data["cause"],
        outcome=data["outcome"],
        reason=None if reason is None else Reason(reason[0], reason[1], reason[2]),
        room=data["room"],
        parent=data["parent"],
        perceivers=frozenset(data["perceivers"]),
        observed=tuple(data["observed"]),
        lit=data["lit"],
    )
