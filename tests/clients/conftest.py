"""A real server on a real loopback socket for the clients' tests; one that can stop listening and start again
on the same port, keeping its sessions; and a `curveship serve` process for the command line's."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import web

from server.app import SOCKETS, Config, create_app
from tests.processes import wait_for_health

ROOT = Path(__file__).resolve().parents[2]
AUTHOR = "author-token-of-the-client-tests"
PAIR = os.path.relpath(Path(__file__).with_name("pair.py"), ROOT)
"""The two-player test world, as a path the server loads (relative to the repository, where tests run)."""
FAST = (0.01, 0.1)
"""Reconnecting backoff for tests: first wait and longest wait, in seconds."""
WAIT = 20.0
"""Seconds to wait for what should come: generous, for a loaded two-core machine (a new process imports a lot)."""


class Running:
    """The server's app on a loopback port. It may stop listening (closing every socket, as a restart or a
    network failure would) and listen again on the same port, its sessions kept; or give way to a new app."""

    def __init__(self, data: Path | None = None, **settings: Any) -> None:
        self.config = Config(author_token=AUTHOR, data=data, **settings)
        self.app = create_app(self.config)
        self.runner: web.AppRunner | None = None
        self.site: web.TCPSite | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def listen(self) -> None:
        if self.runner is None:
            self.runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=0.5)
            await self.runner.setup()
        self.site = web.TCPSite(self.runner, "127.0.0.1", self.port)
        await self.site.start()
        self.port = self.runner.addresses[-1][1]

    async def drop(self) -> None:
        """Stop listening and close every socket from the server's side."""
        assert self.site is not None
        await self.site.stop()
        for socket in list(self.app[SOCKETS]):
            await socket.close(code=1012, message=b"restarting")

    async def replace(self) -> None:
        """Stop this app altogether and start a new one on the same port: it knows no sessions, unless it
        keeps them in a data directory."""
        assert self.runner is not None
        await self.runner.cleanup()
        self.app, self.runner = create_app(self.config), None
        await self.listen()

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()


@pytest_asyncio.fixture
async def running() -> AsyncIterator[Running]:
    server = Running()
    await server.listen()
    yield server
    await server.close()


@pytest_asyncio.fixture
async def keeping(tmp_path: Path) -> AsyncIterator[Running]:
    """A server that keeps its instances and sessions in a data directory."""
    server = Running(tmp_path / "data")
    await server.listen()
    yield server
    await server.close()


@dataclass(frozen=True)
class Served:
    """A `curveship serve` process: its URL and the author token it printed."""

    url: str
    token: str
    lines: list[str]


def curveship(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clients.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`curveship serve --port 0` until the module's tests are done; stopped with Ctrl-C (SIGINT)."""
    data = tmp_path_factory.mktemp("data") / "instances"
    process = subprocess.Popen(
        [sys.executable, "-m", "clients.cli.main", "serve", "--port", "0", "--data", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert process.stdout is not None
    lines = []
    while not any(line.startswith("author token: ") for line in lines):
        line = process.stdout.readline()
        assert line, f"serve ended: {process.communicate()}"
        lines.append(line.rstrip("\n"))
    url = lines[0].split()[2]
    token = next(line for line in lines if line.startswith("author token: ")).split(": ", 1)[1]
    wait_for_health(url, time.monotonic() + WAIT)
    try:
        yield Served(url, token, lines)
    finally:
        process.send_signal(2)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        process.kill()
