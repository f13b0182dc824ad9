"""What the command line says when its connection to the server drops and comes back (on stderr)."""

from __future__ import annotations

import sys

from clients.connection import Status

SAYINGS = {
    Status.RECONNECTING: "[the connection to the server dropped; reconnecting…]",
    Status.RESUMED: "[reconnected]",
    Status.SESSION_LOST: "[reconnected, but the server no longer knows this session]",
}


def show_status(status: Status) -> None:
    print(SAYINGS[status], file=sys.stderr, flush=True)
