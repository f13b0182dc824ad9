"""What the command line says when its connection to the server drops and comes back."""

from __future__ import annotations

import sys
from collections.abc import Callable

from clients.connection import Status

SAYINGS = {
    Status.RECONNECTING: "[the connection to the server dropped; reconnecting…]",
    Status.RESUMED: "[reconnected]",
    Status.SESSION_LOST: "[reconnected, but the server no longer knows this session]",
}


def show_status(status: Status) -> None:
    """On stderr, so that what a script reads on stdout is the story alone."""
    print(SAYINGS[status], file=sys.stderr, flush=True)


class StatusRelay:
    """Hands each status to whoever shows statuses now: stderr until a screen takes over (the connection is
    made, and may drop, before play has a screen to show it on)."""

    def __init__(self) -> None:
        self.listener: Callable[[Status], None] = show_status

    def __call__(self, status: Status) -> None:
        self.listener(status)
