"""Stage: decide the templates that tell each event — the action, a failure and its reason, or a description."""

from __future__ import annotations

from collections.abc import Mapping

from server.engine.actions.action import FULLY_TOLD, Action, Configure, Event, SenseAction
from server.engine.english import times
from server.engine.english.words import direction_name, list_separators, whereabouts
from server.engine.narrator.draft import Draft, Told
from server.engine.narrator.pieces import Steps, drained, mapped
from server.engine.narrator.reference import protect
from server.engine.narrator.select import root_cause
from server.engine.narrator.templates import Ref, State, Text, Token, infinitive, parse
from server.engine.world.items import ROOT, Door, Item, Room

DESCRIBE_BELOW_SPEED = 0.75
"""Spins slower than this describe what a look shows; faster ones only list it, unless the look was asked for."""

TOO_DARK = "it [be/v] too dark to see"
"""A look around a dark room: nothing in it is told, not even what the room looks like."""


def run(draft: Draft) -> Draft:
    return drained(steps(draft))


def steps(draft: Draft) -> Steps[Draft]:
    """`run` in pieces (narrator/pieces.py)."""
    told = yield from mapped(draft.told, lambda item: _compose(item, draft))
    return draft.decided(told=told)


def _compose(item: Told, draft: Draft) -> Told:
    event = item.event
    heading = ""
    if event.outcome == "refused" or (event.reason is not None and event.reason.alone):
        # A refusal, or a reason meant to stand alone ("You can't go that way."), is told in place of the attempt.
        # What it says held at the attempt's time, a state ("you have only just arrived", never "you have had
        # only just arrived"), unless something happens instead of the attempt: then it tells that happening,
        # an event placed in time as events are ("you had blundered around in the dark").
        assert event.reason is not None
        reason = parse(event.reason.template)
        templates = [reason if event.reason.instead else (State(), *reason)]
    elif event.outcome in ("failed", "prevented"):
        assert event.reason is not None
        templates = [_failure(event)]
    elif describes(event, draft):
        # What a look showed is what was there at the time: a state, however the look itself is placed.
        sensed, heading = _sensed(event, draft)
        templates = [(State(), *template) for template in sensed]
    else:
        templates = [(*parse(event.action.told_as), *_heading_off(event, draft))]
    counted = ""
    if item.count > 1 and templates:
        if event.done:
            templates[0] = (*templates[0], Text(" " + times(item.count)))
        else:
            # "…unable to open the box because it is locked twice" would count the lock: the count leads.
            counted = f"{times(item.count)},"
    # A time word is said as one ("after that"), so its words are joined: no filter puts an "er" inside it.
    said = f"{protect(item.time_word)}," if item.time_word else ""
    opening = " ".join(part for part in (item.lead, said, counted) if part)
    if opening and templates:
        templates[0] = (*parse(opening), Text(" "), *templates[0])
    return item.decided(templates=tuple(templates), heading=heading)


def _heading_off(event: Event, draft: Draft) -> tuple[Token, ...]:
    """Where someone seen leaving went, as the onlooker saw it: "the operagoer leaves the foyer, heading west".
    The way is the one the going took, or else the way out of the room left that leads where it went (the punk
    wandering off across the plaza). (The one who leaves is told where it arrives.)"""
    action = event.action
    if action.verb != "leave" or not event.done or action.agent == draft.focalizer:
        return ()
    direction = action.direction or _way_to(draft.record.items, event.room, action)
    return (Text(f", heading {direction_name(direction)}"),) if direction else ()


def _way_to(items: Mapping[str, Item], room: str | None, action: Action) -> str | None:
    """The exit of `room` that leads where `action` took its agent (through a door, or straight there)."""
    if not isinstance(action, Configure) or room is None or room not in items:
        return None
    place = items[room]
    target = action.destination()[1]
    for direction, way in place.exits.items() if isinstance(place, Room) else ():
        door = items.get(way)
        if way == target or (isinstance(door, Door) and target in door.connects and room in door.connects):
            return direction
    return None


def _failure(event: Event) -> tuple[Token, ...]:
    assert event.reason is not None
    clause = infinitive(parse(event.action.told_as))
    return (
        *parse("[agent/s] [be/v] unable to "),
        *clause,
        Text(" because "),
        State(),  # the reason held when it was tried: "…because you already had it", never "had had"
        *parse(event.reason.template),
    )


def describes(event: Event, draft: Draft) -> bool:
    """Whether an event is told as what the focalizer's own perceiving showed (a room, a thing, a sound, a
    reading), a state at its time, rather than as something done: a look that failed is told by its reason,
    and a reading that showed no writing the focalizer knows is told as the reading."""
    action = event.action
    if not isinstance(action, SenseAction) or not action.description or action.agent != draft.focalizer:
        return False
    if event.outcome != "done":
        return False
    if action.verb == "read" and action.modality == "sight" and action.direct is not None:
        view = draft.concept.view(action.direct, event.id)
        return view is not None and bool(view.feature("writing"))
    return True


NOTHING_SENSED = {
    "hearing": "[*/s] [hear/v] nothing out of the ordinary",
    "smell": "[*/s] [smell/v] nothing out of the ordinary",
    "taste": "[*/s] [taste/v] nothing out of the ordinary",
    "touch": "[*/s] [feel/v] nothing out of the ordinary",
}


def _sensed(event: Event, draft: Draft) -> tuple[list[tuple[Token, ...]], str]:
    """One's own perceiving, told as what was perceived: a look, a reading, a sound, a smell, one's things."""
    action = event.action
    assert isinstance(action, SenseAction)
    if action.modality != "sight":
        sensed = action.direct or event.room
        text = draft.record.items[sensed].sense_text(action.modality) if sensed else ""
        return [parse(text or NOTHING_SENSED[action.modality])], ""
    if action.direct == action.agent:
        return [*_self_regard(event, draft), *_belongings(event, draft)], ""
    if action.verb == "read":
        view = draft.concept.view(action.direct, event.id) if action.direct else None
        writing = view.feature("writing") if view is not None else None
        return [parse(writing)] if isinstance(writing, str) and writing else [], ""
    return _describe(event, draft)


def _self_regard(event: Event, draft: Draft) -> list[tuple[Token, ...]]:
    """Looking oneself over (not taking inventory) tells how one looks, as the actor's own `sight` says,
    told as fully as a look at anything else would be."""
    action = event.action
    sight = draft.record.items[action.agent].sight
    if action.verb != "look" or not sight or not _full(event, draft):
        return []
    return [parse(sight)]


def _belongings(event: Event, draft: Draft) -> list[tuple[Token, ...]]:
    """Taking stock of oneself: what one carries (a vessel with what is in it) and what one wears."""
    agent = event.action.agent
    held: list[str] = []
    worn: list[str] = []
    for tag in event.observed:
        view = draft.concept.view(tag, event.id)
        if view is not None and view.parent == agent:
            (worn if view.link == "on" else held).append(tag)
    templates: list[tuple[Token, ...]] = []
    if held:
        filled = {tag: _filled_with(tag, event, draft) for tag in held}
        templates.append((*parse("[*/s] [have/v] "), *_listing(held, owned=False, after=filled)))
    if worn:
        templates.append((*parse("[*/s] [be/v] wearing "), *_listing(worn, owned=False)))
    return templates or [parse("[*/s] [be/v] empty-handed")]


def _filled_with(tag: str, event: Event, draft: Draft) -> tuple[Token, ...]:
    """ "full of water" after a vessel the looker knows to have a substance in it; nothing otherwise."""
    items = draft.record.items
    if "vessel" not in items[tag].qualities:
        return ()
    view = draft.concept.view(tag, event.id)
    substance = view.feature("contents") if view is not None else None
    if not isinstance(substance, str) or substance not in items:
        return ()
    return (Text(f" full of {items[substance].called}"),)


def _full(event: Event, draft: Draft) -> bool:
    """Whether a look is told in full (descriptions too), or only lists what it showed."""
    return draft.spin.speed < DESCRIBE_BELOW_SPEED or event.action.salience > FULLY_TOLD or _asked_for(event, draft)


def _enclosures(event: Event, draft: Draft, room: str) -> list[tuple[str, str]]:
    """What the looker is in or on inside the room (the massive sack), innermost first, as (link, tag)."""
    items = draft.record.items
    chain: list[tuple[str, str]] = []
    view = draft.concept.view(event.action.agent, event.id)
    while view is not None and view.parent is not None and view.link is not None and view.parent != room:
        if view.parent == ROOT or isinstance(items.get(view.parent), Room) or view.parent in (t for _, t in chain):
            break
        chain.append((view.link, view.parent))
        view = draft.concept.view(view.parent, event.id)
    return chain


def _describe(event: Event, draft: Draft) -> tuple[list[tuple[Token, ...]], str]:
    """A look, told as what it showed: the room (or item) and what was seen there."""
    items = draft.record.items
    looked = event.action.direct or event.room
    if looked is None:
        return [], ""
    concept = draft.concept
    full = _full(event, draft)
    templates: list[tuple[Token, ...]] = []
    is_room = isinstance(items[looked], Room)
    heading = _heading(items[looked]) if is_room and draft.spin.room_headings else ""
    if is_room and not event.lit:
        return [parse(TOO_DARK)], heading
    if full and items[looked].sight:
        templates.append(parse(items[looked].sight))
    elif not is_room and full:
        templates.append(parse("[*/s] [see/v] nothing special about [direct/o]"))
    # Rooms are told by what is in them, never listed as things seen: neither the room looked at, nor the
    # rooms in view, whose contents follow their own phrase ("out in the lobby, you see …").
    shown = [tag for tag in event.observed if items[tag].mention and tag != looked and not isinstance(items[tag], Room)]
    where = {tag: concept.view(tag, event.id) for tag in shown}
    by_parent: dict[tuple[str, str], list[str]] = {}
    for tag in shown:
        view = where[tag]
        if view is not None and view.parent is not None and view.link is not None:
            by_parent.setdefault((view.link, view.parent), []).append(tag)
    # Where the looker is, inside the room, is said first ("You are in the massive sack."), and what it is in
    # is not listed among the things seen.
    enclosures = _enclosures(event, draft, looked) if is_room else []
    if enclosures:
        link, parent = enclosures[0]
        templates.append((*parse(f"[*/s] [be/v] {'on' if link == 'on' else 'in'} "), Ref(parent, "o")))
        enclosing = {tag for _, tag in enclosures}
        for key in list(by_parent):
            by_parent[key] = [t for t in by_parent[key] if t not in enclosing]
            if not by_parent[key]:
                del by_parent[key]
    if is_room:
        # The room's own fixtures (a basin part of the cloakroom) and shared things (the sky, which hangs from
        # the root) are seen here, with what is in the room.
        here = [*by_parent.pop(("in", looked), []), *by_parent.pop(("part_of", looked), [])]
        here += by_parent.pop(("of", ROOT), [])
        # A door stands in one of the rooms it joins, but is as much here, seen from the other side.
        for key in list(by_parent):
            doors = [t for t in by_parent[key] if _joins(items[t], looked)]
            here += doors
            by_parent[key] = [t for t in by_parent[key] if t not in doors]
            if not by_parent[key]:
                del by_parent[key]
        here = [t for t in here if t != event.action.agent]
        if here:
            templates.append((*parse("[*/s] [see/v] "), *_listing(here), *parse(" [here]")))
        room = items[looked]
        assert isinstance(room, Room)
        for seen_room, (_visibility, phrase) in room.views.items():
            there = by_parent.pop(("in", seen_room), [])
            if there:
                templates.append((Text(phrase + ", "), *parse("[*/s] [see/v] "), *_listing(there)))
    looker = event.action.agent
    for (link, parent), things in by_parent.items():
        if parent == looker:
            continue
        if looker in things:
            # From inside the sack one looks at: "You are in it.", not "In it, you see yourself."
            templates.append((*parse(f"[*/s] [be/v] {'on' if link == 'on' else 'in'} "), Ref(parent, "o")))
            things = [t for t in things if t != looker]
            if not things:
                continue
        templates.append(_contents(link, parent, things, is_actor=items[parent].kind == "actor"))
    if is_room and draft.spin.known_directions:
        templates.extend(_directions(looked, event.id, draft))
    return templates, heading


def _asked_for(event: Event, draft: Draft) -> bool:
    """A look the commanded actor was told to take ("look", "examine the hook"), not one that came with arriving:
    what it shows is the whole answer, so even a fast spin describes it."""
    return (
        event.action.agent == draft.spin.commanded
        and root_cause(draft.record.events, event.id) == "command"
        and not event.action.data.get("arriving", False)
    )


def _joins(item: Item, room: str) -> bool:
    return isinstance(item, Door) and room in item.connects


def _heading(room: Item) -> str:
    assert isinstance(room, Room)
    return room.title


def _listing(
    tags: list[str], owned: bool = True, after: dict[str, tuple[Token, ...]] | None = None
) -> tuple[Token, ...]:
    """Things named in a list ("a ticket, a lamp, and a bottle"), each followed by what `after` says of it."""
    tokens: list[Token] = []
    separators = list_separators(len(tags))
    for index, tag in enumerate(tags):
        tokens.append(Ref(tag, "o", owned=owned))
        tokens.extend((after or {}).get(tag, ()))
        if index < len(separators):
            tokens.append(Text(separators[index]))
    return tuple(tokens)


def _contents(link: str, parent: str, things: list[str], is_actor: bool) -> tuple[Token, ...]:
    if is_actor:
        verb = "[wear/v]" if link == "on" else "[have/v]"
        return (Ref(parent, "s"), Text(" "), *parse(verb), Text(" "), *_listing(things))
    # A fixture is on what it is part of: the hook on the wall, the message on the floor, the knob on the door.
    preposition = "on" if link in ("on", "part_of") else "in"
    return (Text(f"{preposition} "), Ref(parent, "o"), *parse(", [*/s] [see/v] "), *_listing(things))


def _directions(room_tag: str, moment: int, draft: Draft) -> list[tuple[Token, ...]]:
    """Each room the focalizer knows one step away, named once however many ways lead there: "The foyer is
    outside, to the east." A door's way leads to the room on its other side. Only rooms known at `moment` count."""
    room = draft.record.items[room_tag]
    assert isinstance(room, Room)
    ways: dict[str, list[str]] = {}
    for direction, way in room.exits.items():
        there = _beyond(way, room_tag, draft)
        if there is not None and draft.concept.knows(there, moment):
            ways.setdefault(there, []).append(direction)
    return [(Ref(there, "s"), *parse(f" [be/v] {whereabouts(directions)}")) for there, directions in ways.items()]


def _beyond(way: str, room: str, draft: Draft) -> str | None:
    """The room an exit leads to: the room itself, or the one on the far side of a door; None for a sentence."""
    item = draft.record.items.get(way) if way.startswith("@") else None
    if isinstance(item, Room):
        return way
    if isinstance(item, Door):
        return next((other for other in item.connects if other != room), None)
    return None
