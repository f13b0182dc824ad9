"""Servers run as real processes by the tests: a free loopback port for one, and waiting until it is healthy."""

from __future__ import annotations

import os
import select
import socket
import subprocess
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


def wait_for_line(process: subprocess.Popen[str], text: str, deadline: float) -> None:
    """Until `process` prints a line holding `text` on its stdout; past `deadline` (a `time.monotonic()` value),
    or if it ends first, an AssertionError with what it said. Read straight from the pipe, so lines a buffered
    reader would hold back are never waited on."""
    assert process.stdout is not None
    said = b""
    while text.encode() not in said:
        left = deadline - time.monotonic()
        ready, _, _ = select.select([process.stdout.fileno()], [], [], max(left, 0))
        chunk = os.read(process.stdout.fileno(), 65536) if ready else b""
        if not chunk:
            why = "ended" if ready else "was still silent"
            raise AssertionError(
                f"the process {why} before printing {text!r}; it said: {said.decode(errors='replace')}"
            )
        said += chunk
