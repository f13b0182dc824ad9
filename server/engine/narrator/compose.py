"""Stage: decide the templates that tell each event — the action, a failure and its reason, or a description."""

from __future__ import annotations

from dataclasses import replace

from server.engine.actions.action import FULLY_TOLD, Event, SenseAction
from server.engine.english import times
from server.engine.english.words import direction_name, list_separators
from server.engine.narrator.draft import Draft, Told
from server.engine.narrator.templates import Ref, Text, Token, infinitive, parse
from server.engine.world.items import Room

DESCRIBE_BELOW_SPEED = 0.75
"""Spins slower than this describe what a look shows; faster ones only list it."""


def run(draft: Draft) -> Draft:
    return replace(draft, told=tuple(_compose(item, draft) for item in draft.told))


def _compose(item: Told, draft: Draft) -> Told:
    event = item.event
    heading = ""
    if event.outcome == "refused":
        assert event.reason is not None
        templates = [parse(event.reason.template)]
    elif event.outcome in ("failed", "prevented"):
        assert event.reason is not None
        templates = [_failure(event)]
    elif _is_own_look(event, draft.focalizer):
        templates, heading = _describe(event, draft)
    else:
        templates = [parse(event.action.told_as)]
    if item.count > 1 and templates:
        templates[0] = (*templates[0], Text(" " + times(item.count)))
    opening = " ".join(part for part in (item.lead, f"{item.time_word}," if item.time_word else "") if part)
    if opening and templates:
        templates[0] = (*parse(opening), Text(" "), *templates[0])
    return replace(item, templates=tuple(templates), heading=heading)


def _failure(event: Event) -> tuple[Token, ...]:
    assert event.reason is not None
    clause = infinitive(parse(event.action.told_as))
    return (
        *parse("[agent/s] [be/v] unable to "),
        *clause,
        Text(" because "),
        *parse(event.reason.template),
    )


def _is_own_look(event: Event, focalizer: str) -> bool:
    action = event.action
    return isinstance(action, SenseAction) and action.description and action.agent == focalizer


def _describe(event: Event, draft: Draft) -> tuple[list[tuple[Token, ...]], str]:
    """A look, told as what it showed: the room (or item) and what was seen there."""
    items = draft.record.items
    looked = event.action.direct or event.room
    if looked is None:
        return [], ""
    concept = draft.concept
    full = draft.spin.speed < DESCRIBE_BELOW_SPEED or event.action.salience > FULLY_TOLD
    templates: list[tuple[Token, ...]] = []
    is_room = isinstance(items[looked], Room)
    heading = items[looked].called if is_room and draft.spin.room_headings else ""
    if full and items[looked].sight:
        templates.append(parse(items[looked].sight))
    elif not is_room and full:
        templates.append(parse("[*/s] [see/v] nothing special about [direct/o]"))
    shown = [tag for tag in event.observed if items[tag].mention]
    where = {tag: concept.view(tag, event.id) for tag in shown}
    by_parent: dict[tuple[str, str], list[str]] = {}
    for tag in shown:
        view = where[tag]
        if view is not None and view.parent is not None and view.link is not None:
            by_parent.setdefault((view.link, view.parent), []).append(tag)
    if is_room:
        here = [t for t in by_parent.pop(("in", looked), []) if t != event.action.agent]
        if here:
            templates.append((*parse("[*/s] [see/v] "), *_listing(here), *parse(" [here]")))
        room = items[looked]
        assert isinstance(room, Room)
        for seen_room, (_visibility, phrase) in room.views.items():
            there = by_parent.pop(("in", seen_room), [])
            if there:
                templates.append((Text(phrase + ", "), *parse("[*/s] [see/v] "), *_listing(there)))
    for (link, parent), things in by_parent.items():
        if parent == event.action.agent:
            continue
        templates.append(_contents(link, parent, things, is_actor=items[parent].kind == "actor"))
    if is_room and draft.spin.known_directions:
        templates.extend(_directions(looked, draft))
    return templates, heading


def _listing(tags: list[str]) -> tuple[Token, ...]:
    tokens: list[Token] = []
    separators = list_separators(len(tags))
    for index, tag in enumerate(tags):
        tokens.append(Ref(tag, "o"))
        if index < len(separators):
            tokens.append(Text(separators[index]))
    return tuple(tokens)


def _contents(link: str, parent: str, things: list[str], is_actor: bool) -> tuple[Token, ...]:
    if is_actor:
        verb = "[wear/v]" if link == "on" else "[have/v]"
        return (Ref(parent, "s"), Text(" "), *parse(verb), Text(" "), *_listing(things))
    preposition = "on" if link == "on" else "in"
    return (Text(f"{preposition} "), Ref(parent, "o"), *parse(", [*/s] [see/v] "), *_listing(things))


def _directions(room_tag: str, draft: Draft) -> list[tuple[Token, ...]]:
    room = draft.record.items[room_tag]
    assert isinstance(room, Room)
    concept = draft.concept
    found = []
    for direction, way in room.exits.items():
        if way.startswith("@") and isinstance(draft.record.items.get(way), Room) and concept.knows(way):
            found.append((Ref(way, "s"), *parse(f" [be/v] toward the {direction_name(direction)}")))
    return found
