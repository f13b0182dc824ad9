"""Syllepsis: events grouped by where they happened or by who did them, each group in its own paragraph."""

from __future__ import annotations

from server.engine.actions.action import Event, SenseAction
from server.engine.english.words import place_preposition
from server.engine.narrator.draft import Draft, Told
from server.engine.narrator.templates import Ref, parse


def order(draft: Draft) -> tuple[Told, ...]:
    groups: dict[str, list[Told]] = {}
    concept = draft.concept
    by_place = draft.spin.group_by == "place"
    for item in draft.told:
        key = item.event.room if by_place else item.event.action.agent
        # A place or agent the focalizer never perceived cannot head a group: "in something" says nothing.
        if key is None or not concept.knows(key, item.event.id):
            key = ""
        groups.setdefault(key, []).append(item)
    result: list[Told] = []
    for segment, (key, members) in enumerate(groups.items()):
        # A group that opens with the focalizer's own look is headed by the room's name and told as what it
        # saw: a lead before the room's description ("As for you, this hall is grand") would not fit.
        lead = "" if _own_look(members[0].event, draft.focalizer) else _lead(key, by_place, members[0].event, draft)
        for index, item in enumerate(members):
            result.append(item.decided(segment=segment, lead=lead if index == 0 else ""))
    return tuple(result)


def _lead(key: str, by_place: bool, first: Event, draft: Draft) -> str:
    if not key:
        return ""
    if by_place:
        # "In the lobby, the twitchy man enters the lobby" says the place twice, and "enters it" would refer
        # back to the lead itself: when the group's first sentence names its place, that says where we are.
        preposition = place_preposition(draft.record.items[key].called)  # "on the west side", "in the lobby"
        return "" if _names(first, key) else f"{preposition} [{key}/the/o],"
    # A lead names a topic, so "the" even at first: "As for the child, they…", never "As for a child".
    return f"as for [{key}/the/o],"


def _own_look(event: Event, focalizer: str) -> bool:
    action = event.action
    return isinstance(action, SenseAction) and action.description and action.agent == focalizer


def _names(event: Event, tag: str) -> bool:
    """Whether the templates that tell `event` mention `tag` (directly or through one of the event's roles)."""
    action = event.action
    destination = getattr(action, "to", "").split()
    roles = {
        "agent": action.agent,
        "direct": action.direct,
        "indirect": action.indirect,
        "parent": event.parent,
        "room": event.room,
        "target": destination[-1] if destination else None,
    }
    templates = [action.told_as] + ([event.reason.template] if event.reason is not None else [])
    return any(
        isinstance(token, Ref) and (token.role == tag or roles.get(token.role) == tag)
        for template in templates
        for token in parse(template)
    )
