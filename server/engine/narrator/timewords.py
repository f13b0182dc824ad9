"""Stage: time words — relate each told event to the one told before it (then, meanwhile, before that, earlier)."""

from __future__ import annotations

from dataclasses import replace

from server.engine.actions.action import SenseAction
from server.engine.english.words import FORWARD, JUST_BEFORE, LONG_BEFORE, SIMULTANEOUS
from server.engine.narrator.draft import Draft, Told


def run(draft: Draft) -> Draft:
    if not draft.spin.time_words:
        return draft
    rank = {number: index for index, number in enumerate(sorted(item.event.id for item in draft.told))}
    result: list[Told] = []
    forward = 0
    previous: Told | None = None
    for item in draft.told:
        word = ""
        # A segment (a flashback, a syllepsis group) is its own thread, opened by its lead or a new paragraph:
        # its first event is not related to the last one of another thread ("Earlier, the man enters").
        # One's own look is told as a room's description under its heading: "Then, this hall is grand" would
        # time the hall, not the look.
        if previous is not None and previous.segment == item.segment and not item.lead and not _described(item, draft):
            word = _relation(previous, item, rank, forward)
            if word in FORWARD:
                forward += 1
        result.append(replace(item, time_word=word))
        previous = item
    return replace(draft, told=tuple(result))


def _relation(before: Told, now: Told, rank: dict[int, int], forward: int) -> str:
    earlier, later = before.event, now.event
    if later.id > earlier.id:
        if earlier.end > earlier.tick and later.tick <= earlier.end:
            return SIMULTANEOUS  # it happened while the earlier activity went on
        return FORWARD[forward % len(FORWARD)]
    # Told after something that happened later: just before it, or further back.
    return JUST_BEFORE if rank[earlier.id] - rank[later.id] <= 1 else LONG_BEFORE


def _described(item: Told, draft: Draft) -> bool:
    action = item.event.action
    return isinstance(action, SenseAction) and action.description and action.agent == draft.focalizer
