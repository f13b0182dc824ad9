"""Stage: select the events to tell — what the focalizer perceived, in the window, salient enough, not elided."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from protocol.spin import Spin
from server.engine.actions.action import NEVER_TOLD, Event
from server.engine.narrator.draft import Draft, Told
from server.engine.narrator.pieces import PIECE, Steps, drained


def run(draft: Draft) -> Draft:
    return drained(steps(draft))


def steps(draft: Draft) -> Steps[Draft]:
    """`run` in pieces (narrator/pieces.py)."""
    spin = draft.spin
    events = draft.record.events
    first_turn = _first_turn(spin, draft.turn)
    elided = elided_events(spin.ellipsis)
    threshold = salience_threshold(spin.speed)
    perceived = draft.concept.events
    # Event numbers and turns only grow, so the window's first event is found by bisection: telling the last
    # turn costs the same on turn 10,000 as on turn 10.
    start = bisect_left(perceived, first_turn, key=lambda number: events[number].turn)
    answering = _answering(events, spin.commanded, perceived[start:])
    told: list[Told] = []
    for seen, number in enumerate(perceived[start:], 1):
        event = events[number]
        if event.id not in elided and _salient(event, threshold, event.id in answering):
            told.append(Told(event=event))
        if seen % PIECE == 0:
            yield
    return draft.decided(told=tuple(told))


def _salient(event: Event, threshold: float, answers: bool) -> bool:
    """Whether an event is told at this speed. Nothing is told whose action was never to be told at all (a
    world's silent bookkeeping). What `answers` a command is told however fast the telling, so a fast spin never
    answers a command with silence; speed trims the rest. A failure counts as salience 0.5 at least."""
    salience = event.action.salience
    if salience < NEVER_TOLD:
        return False
    if answers:
        return True
    return (salience if event.done else max(salience, 0.5)) >= threshold


def _answering(events: Sequence[Event], commanded: str | None, numbers: Sequence[int]) -> frozenset[int]:
    """Of the events numbered, those that answer a command: the commanded actor's own, done, failed or refused,
    when they came of its command (directly, or entailed by or in reaction to what did: arriving, looking
    around), and not of a script or the timeline."""
    if commanded is None:
        return frozenset()
    return frozenset(n for n in numbers if events[n].action.agent == commanded and root_cause(events, n) == "command")


def root_cause(events: Sequence[Event], number: int) -> str:
    """What set an event going, followed back through what entailed it or what it reacted to: "command",
    "script", "timeline"…"""
    cause = events[number].cause
    while True:
        _, _, origin = cause.rpartition(" ")
        if not cause.startswith(("entailed by ", "reaction to ")) or not origin.isdigit():
            return cause
        cause = events[int(origin)].cause


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
