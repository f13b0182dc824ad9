"""For the browser client's tests: Debian's Chromium driven by Playwright, one browser for the whole session,
a fresh context (its own storage) per test, and real `curveship serve` processes on free ports."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from tests.processes import free_port, wait_for_health

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu"]
SHOTS = Path(__file__).resolve().parent / "screenshots"
"""Where the tests leave pictures of each view, light and dark (not committed: see .gitignore)."""
WAIT = 20_000
"""Milliseconds to wait for what the page should show: generous, for a loaded two-core machine."""
expect.set_options(timeout=WAIT)
CURVESHIP = Path(sys.executable).with_name("curveship")

MISSING = CHROMIUM is None
"""Skip where Chromium is missing, except in CI ($CI set), where the tests fail and say why."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not MISSING or os.environ.get("CI"):
        return
    why = "Chromium is not installed (apt-get install -y chromium), and $CI is not set"
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.skip(reason=why))


class _Driving:
    """Playwright's sync API runs its event loop in this thread and leaves it marked as running between calls;
    an asyncio test run later in the same process (the server's, under pytest-asyncio) could then not start
    its own. So the mark is lifted between browser tests and put back only while one runs."""

    loop: asyncio.AbstractEventLoop | None = None

    @classmethod
    @contextlib.contextmanager
    def driving(cls) -> Iterator[None]:
        asyncio.events._set_running_loop(cls.loop)
        try:
            yield
        finally:
            asyncio.events._set_running_loop(None)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One Chromium for every test of the session (a worker's, under xdist): starting one costs a second."""
    assert CHROMIUM is not None, "Chromium is not installed: apt-get install -y chromium"
    playwright = sync_playwright().start()
    launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    _Driving.loop = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(None)
    yield launched
    with _Driving.driving():
        launched.close()
        playwright.stop()


class Server:
    """A `curveship serve` process on a port of its own with a data directory, started from a directory that
    is not the repository (the client must be found wherever the server runs). It may be killed and started
    again on the same port, keeping its instances and sessions."""

    def __init__(self, data: Path, *, author: bool = False, token: str | None = None) -> None:
        self.data = data
        self.author = author
        self.token = token
        """The author token it is given ($CURVESHIP_AUTHOR_TOKEN); None: one of its own making."""
        self.port = free_port()
        self.process: subprocess.Popen[str] | None = None
        self.printed: list[str] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [str(CURVESHIP), "serve", "--port", str(self.port), "--data", str(self.data)]
        self.process = subprocess.Popen(
            [*command, *(["--author"] if self.author else [])],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=self.data.parent,
            env={**os.environ, **({"CURVESHIP_AUTHOR_TOKEN": self.token} if self.token else {})},
        )
        assert self.process.stdout is not None
        self.printed = []
        while not self.printed or not self.printed[-1].startswith("Ctrl-C"):
            line = self.process.stdout.readline()
            assert line, f"serve ended: {self.printed}"
            self.printed.append(line.rstrip("\n"))
        wait_for_health(self.url, time.monotonic() + WAIT / 1000)

    def kill(self) -> None:
        """Killed outright (SIGKILL), as a crash or an unplugged machine would: no goodbye to any socket."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        self.process.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server for the tests that share one: each makes instances of its own."""
    running = Server(tmp_path_factory.mktemp("served") / "data")
    running.start()
    yield running
    running.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server for one test alone (one that kills it, say)."""
    running = Server(tmp_path / "data")
    running.start()
    yield running
    running.stop()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser profile: its own storage, so nothing a previous test kept is found."""
    with _Driving.driving():
        made = browser.new_context(viewport={"width": 1100, "height": 900})
        made.set_default_timeout(WAIT)
        yield made
        made.close()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    opened = context.new_page()
    errors: list[Any] = []
    opened.on("pageerror", lambda error: errors.append(error))
    refused: list[str] = []
    opened.on("console", lambda message: "Content Security Policy" in message.text and refused.append(message.text))
    yield opened
    assert not errors, f"the page's script failed: {errors}"
    assert not refused, f"the page broke its own content-security policy: {refused}"


def shoot(page: Page, name: str, region: str | None = None) -> None:
    """A picture of the page as it is, light and dark, for people to look at (tests/web/screenshots/); and of
    one `region` of it alone, when named."""
    SHOTS.mkdir(exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.screenshot(path=SHOTS / f"{name}-{scheme}.png", full_page=True)
        if region is not None:
            page.get_by_role("region", name=region).screenshot(path=SHOTS / f"{name}-alone-{scheme}.png")
    page.emulate_media(color_scheme="light")
