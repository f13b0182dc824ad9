"""A telling in pieces: a stage that pauses (yields) every PIECE items, so a caller may do other work between
them, and `drained`, which runs such a generator to its end for callers that want the telling at once."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

PIECE = 50
"""Items (events, paragraphs) a stage handles between pauses: about 5 ms of the costliest stage (realize, about
0.1 ms an event of a Cloak look), so a server that gives its loop back at each pause holds it up no longer."""

Steps = Generator[None, None, T]
"""Work in pieces: it yields between them, and returns what it made."""


def drained(steps: Steps[T]) -> T:
    """Run `steps` to its end, with no pause between its pieces: what it returns."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


def mapped(items: Iterable[T], each: Callable[[T], R]) -> Steps[tuple[R, ...]]:
    """`tuple(each(item) for item in items)`, pausing after every PIECE items."""
    made: list[R] = []
    for item in items:
        made.append(each(item))
        if len(made) % PIECE == 0:
            yield
    return tuple(made)
