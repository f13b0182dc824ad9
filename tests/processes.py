"""Servers run as real processes by the tests: a free loopback port for one, and waiting until it is healthy."""

from __future__ import annotations

import socket
import time
import urllib.request

POLL = 0.05


def free_port() -> int:
    """A loopback port nothing listens on now (the server binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_health(url: str, deadline: float) -> None:
    """Until `GET url/health` answers 200; past `deadline` (a `time.monotonic()` value) the last error is raised."""
    while True:
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=1) as answer:
                if answer.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
        time.sleep(POLL)
