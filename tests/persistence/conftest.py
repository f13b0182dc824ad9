"""A real server in a process of its own, on a data directory, that a test can kill (SIGKILL) and start again;
the tests' one wire client (`tests/wire.py`) reaching it over HTTP or WebSocket; and a mirror that plays the same
story in this process, through the engine alone, to say what the server should have.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from protocol.spin import apply
from server.catalog import load_spin, load_world
from server.engine.player import Player
from server.engine.story import Story, Turn
from tests.processes import free_port
from tests.wire import Address, Client, Http, Socket

ROOT = Path(__file__).resolve().parents[2]
AUTHOR = "the-author-token-of-the-persistence-tests"
DUO = ROOT / "tests" / "server" / "worlds" / "duo.py"
"""Two players in a hall: a world named by path, for copying and changing."""
WAIT = 20.0


# -- the server process ----------------------------------------------------------------------------------------


def _code(data: Path, port: int, settings: dict[str, Any]) -> str:
    config = ", ".join(f"{key}={value!r}" for key, value in settings.items())
    return (
        "import logging; from pathlib import Path; from aiohttp import web; "
        "from server.app import Config, create_app; "
        "logging.basicConfig(level=logging.INFO, format='%(levelname)s %(name)s: %(message)s'); "
        f"web.run_app(create_app(Config(data=Path({str(data)!r}), {config})), "
        f"host='127.0.0.1', port={port}, print=None)"
    )


def _running(pid: int) -> bool:
    """Whether a process is still running: not gone, nor a zombie waiting to be reaped (Linux)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


class Process:
    """One server process on `data`. Its stderr (the log) goes to a file, read with `log()`."""

    def __init__(self, data: Path, port: int | None = None, **settings: Any) -> None:
        settings.setdefault("author_token", AUTHOR)
        # The clients here go as fast as the server answers: no rate limit in their way.
        settings.setdefault("rate", 1e6)
        settings.setdefault("burst", 1e6)
        self.data = data
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        data.parent.mkdir(parents=True, exist_ok=True)
        self.errors = data.parent / f"{data.name}.{self.port}.log"
        with self.errors.open("wb") as errors:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _code(data, self.port, settings)],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=errors,
            )

    def wait_until_serving(self, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the server stopped ({self.process.returncode}):\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"the server did not start:\n{self.log()}")

    def exit_code(self, timeout: float = WAIT) -> int:
        """How it ended, for a server that is to refuse to start."""
        return self.process.wait(timeout=timeout)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last writes; whatever was not committed is gone."""
        writers = self._children()
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=WAIT)
        self._let_go(writers)

    @staticmethod
    def _let_go(writers: list[int]) -> None:
        """Wait until the store's writer, a process of its own that sees its server gone and closes the
        database (removing its WAL), has exited: until then the directory is still changing."""
        deadline = time.monotonic() + WAIT
        while any(_running(pid) for pid in writers):
            if time.monotonic() > deadline:
                raise AssertionError(f"the store's writer ({writers}) did not exit after its server was killed")
            time.sleep(0.01)

    def _children(self) -> list[int]:
        """The processes the server started (its store's writer), from /proc (Linux)."""
        found = []
        for children in Path(f"/proc/{self.process.pid}/task").glob("*/children"):
            with contextlib.suppress(OSError):  # it ended meanwhile
                found += [int(pid) for pid in children.read_text().split()]
        return found

    def stop(self) -> None:
        """SIGTERM: the graceful way."""
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait(timeout=WAIT)

    def log(self) -> str:
        return self.errors.read_text(errors="replace")


@pytest.fixture
def servers() -> Iterator[Any]:
    """start(data, **config): a serving server on `data`; every one started is killed at the end."""
    started: list[Process] = []

    def start(data: Path, port: int | None = None, **settings: Any) -> Process:
        process = Process(data, port, **settings)
        started.append(process)
        process.wait_until_serving()
        return process

    yield start
    for process in started:
        process.kill()


# -- clients ---------------------------------------------------------------------------------------------------


@pytest_asyncio.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=WAIT)) as session:
        yield session


async def connect(http: aiohttp.ClientSession, url: str, transport: str, token: str | None = None) -> Client:
    server = Address(http, url)
    return Http(server, token) if transport == "http" else await Socket.open(server, token)


async def create(http: aiohttp.ClientSession, url: str, world: str, seed: int) -> str:
    """A new instance, made as an author (who alone may name a world by its path)."""
    return str((await Http(Address(http, url), AUTHOR).ok("create", world=world, seed=seed))["instance"])


# -- the database, read as it is -------------------------------------------------------------------------------


def database(data: Path) -> Path:
    return data / "curveship.sqlite"


def read_rows(data: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Rows of the server's database, read through a read-only connection (the server may be running)."""
    reader = sqlite3.connect(f"{database(data).resolve().as_uri()}?mode=ro", uri=True)
    try:
        return list(reader.execute(sql, args))
    finally:
        reader.close()


def stored_log(data: Path, instance: str) -> list[tuple[str, str, str]]:
    rows = read_rows(data, "SELECT entry, actor, text FROM log WHERE instance = ? ORDER BY seq", instance)
    return [(entry, actor, text) for entry, actor, text in rows]


# -- the mirror: the same story, in this process ---------------------------------------------------------------


@dataclass
class Mirror:
    """One instance played here as the server's host plays it: players join (taking up their actors and being
    told the opening), set their spins, and command, and every other player hears the news of each turn."""

    world: str
    seed: int
    story: Story = field(init=False)
    players: dict[str, Player] = field(default_factory=dict)
    news: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    """What each player was told of others' turns: (turn, text), as `narration` notifications carry them."""

    def __post_init__(self) -> None:
        self.story = Story(load_world(self.world), seed=self.seed)

    def join(self, actor: str, spin: dict[str, Any] | None = None) -> str:
        player = Player(self.story, actor, author=False, named_spins=load_spin)
        self.story.take(actor)
        opening = player.opening()
        self.players[actor] = player
        if spin:
            player.spin = apply(player.spin, spin, source="set")
        return opening.text

    def leave(self, actor: str) -> None:
        self.players.pop(actor)
        self.story.release(actor)

    def command(self, actor: str, text: str) -> str:
        player = self.players[actor]

        def told(turn: Turn) -> None:
            for tag, other in self.players.items():
                telling = other.news(turn) if tag != actor else None
                if telling is not None:
                    self.news.setdefault(tag, []).append((self.story.turn, telling.text))

        return player.command(text, told).text

    @property
    def hash(self) -> str:
        return self.story.simulation.world.digest()

    def narrate(self, actor: str) -> str:
        return self.players[actor].recount().text

    def replay(
        self, log: list[tuple[str, str, str]], spins: dict[str, dict[str, Any]]
    ) -> list[tuple[str, str | None, str, int]]:
        """Play a stored log: its takes as joins (with the spin each player set), its commands as commands.
        Who gave each command, what it was, what it was answered and the turn after it, in order. An idle
        tick is a line from the one player whose spin commands nobody (Lost One's visitor, gone too far): its
        words are not logged (None), and do not matter."""
        replies: list[tuple[str, str | None, str, int]] = []
        for entry, actor, text in log:
            if entry == "take":
                self.join(actor, spins.get(actor))
            elif entry == "release":
                self.leave(actor)
            elif entry == "command":
                replies.append((actor, text, self.command(actor, text), self.story.turn))
            elif entry == "idle":
                idle = [tag for tag, player in self.players.items() if player.spin.commanded is None]
                assert len(idle) == 1, f"an idle tick, and {len(idle)} players commanding nobody"
                replies.append((idle[0], None, self.command(idle[0], "look"), self.story.turn))
            else:
                raise AssertionError(f"an entry this mirror does not play: {entry}")
        return replies


@pytest.fixture
def world_copy(tmp_path: Path) -> Path:
    """A copy of the duo world in its own file, to be changed between runs."""
    path = tmp_path / "worlds" / "duo_copy.py"
    path.parent.mkdir()
    path.write_bytes(DUO.read_bytes())
    return path
