"""What the command line says when its connection to the server drops, finds no server, and comes back."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

from clients.connection import Retrying, Status

SAYINGS = {
    Status.RECONNECTING: "[the connection to the server dropped; reconnecting…]",
    Status.RESUMED: "[reconnected]",
    Status.SESSION_LOST: "[reconnected, but the server no longer knows this session]",
}


def not_answering(retrying: Retrying, left: float | None = None) -> str:
    """The server is not answering, since how many tries, and when the next is (`left`: seconds from now, else
    the whole wait)."""
    wait = retrying.wait if left is None else left
    tries = f"{retrying.tries} {'try' if retrying.tries == 1 else 'tries'}"
    if wait <= 0:
        return f"the server is not answering ({tries}); trying again now…"
    shown = f"{math.ceil(wait * 10) / 10:g}" if wait < 1 else f"{math.ceil(wait)}"  # counting down, never to 0
    return f"the server is not answering ({tries}); trying again in {shown} s…"


def worth_saying(retrying: Retrying) -> bool:
    """Whether a try that failed is worth a line where lines scroll away: the 1st, 2nd, 4th, 8th… (a long outage
    is said a few times, not every few seconds)."""
    return retrying.tries & (retrying.tries - 1) == 0


def show_status(status: Status) -> None:
    """On stderr, so that what a script reads on stdout is the story alone."""
    print(SAYINGS[status], file=sys.stderr, flush=True)


def show_retry(retrying: Retrying) -> None:
    if worth_saying(retrying):
        print(f"[{not_answering(retrying)}]", file=sys.stderr, flush=True)


class StatusRelay:
    """Hands each status, and each try that found no server, to whoever shows them now: stderr until a screen
    takes over (the connection is made, and may drop, before play has a screen to show it on)."""

    def __init__(self) -> None:
        self.listener: Callable[[Status], None] = show_status
        self.retry_listener: Callable[[Retrying], None] = show_retry

    def __call__(self, status: Status) -> None:
        self.listener(status)

    def retried(self, retrying: Retrying) -> None:
        self.retry_listener(retrying)
