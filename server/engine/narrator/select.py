"""Stage: select the events to tell — what the focalizer perceived, in the window, salient enough, not elided."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import replace

from server.engine.actions.action import NEVER_TOLD, Event
from server.engine.narrator.draft import Draft, Told
from server.engine.spin import Spin


def run(draft: Draft) -> Draft:
    spin = draft.spin
    events = draft.record.events
    first_turn = _first_turn(spin, draft.turn)
    elided = elided_events(spin.ellipsis)
    threshold = salience_threshold(spin.speed)
    perceived = draft.concept.events
    # Event numbers and turns only grow, so the window's first event is found by bisection: telling the last
    # turn costs the same on turn 10,000 as on turn 10.
    start = bisect_left(perceived, first_turn, key=lambda number: events[number].turn)
    told = tuple(
        Told(event=event)
        for event in (events[number] for number in perceived[start:])
        if event.id not in elided and _salient(event, threshold)
    )
    return replace(draft, told=told)


def _salient(event: Event, threshold: float) -> bool:
    # A failure is news to whoever tried: it is told however fast the telling — unless the action was never
    # to be told at all (a world's silent bookkeeping).
    salience = event.action.salience
    if salience < NEVER_TOLD:
        return False
    return (salience if event.done else max(salience, 0.5)) >= threshold


def salience_threshold(speed: float) -> float:
    """Up to speed 0.5 every event from salience 0.2 is told; faster, the bar rises to 0.75 at speed 1."""
    return NEVER_TOLD if speed <= 0.5 else NEVER_TOLD + (speed - 0.5) * 1.1


def _first_turn(spin: Spin, turn: int) -> int:
    if spin.window == "all":
        return 0
    if spin.window == "turn":
        return turn
    return turn - spin.window + 1


class Elided:
    """A set of event numbers given as ranges ("0;2;4-9"), tested without expanding the ranges."""

    def __init__(self, ranges: list[tuple[int, int]]) -> None:
        self.ranges = ranges

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int) and any(low <= number <= high for low, high in self.ranges)


def elided_events(text: str) -> Elided:
    ranges: list[tuple[int, int]] = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        low, _, high = part.partition("-")
        start = int(low)
        end = int(high) if high.strip() else start
        ranges.append((min(start, end), max(start, end)))
    return Elided(ranges)
