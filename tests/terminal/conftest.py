"""For the terminal's tests: a keyboard (prompt_toolkit's pipe input), an output that records what is printed
at a width the test sets, a server on a loopback port, and a real terminal (tmux) to run `curveship` in."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from server.tools.hosting import hosted, in_process_config
from tests.terminal.tmux import Terminal

WAIT = 10.0


class Recording(DummyOutput):
    """Keeps the text written (prompt_toolkit's drawing of the prompt included; escape codes are not text);
    `columns` is the terminal's width, and may change, as a resized terminal's does."""

    def __init__(self, columns: int = 80) -> None:
        self.columns = columns
        self.written: list[str] = []
        self.erased = 0

    def write(self, data: str) -> None:
        self.written.append(data)

    def erase_screen(self) -> None:
        self.erased += 1

    def get_size(self) -> Size:
        return Size(rows=30, columns=self.columns)

    @property
    def text(self) -> str:
        """What was written, lines ending in plain newlines (the terminal is raw while the prompt is up)."""
        return "".join(self.written).replace("\r\n", "\n")


@pytest.fixture
def keyboard() -> Iterator[PipeInput]:
    with create_pipe_input() as pipe:
        yield pipe


@pytest.fixture
def recording() -> Recording:
    return Recording()


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    """A tmux of its own, HOME and XDG_DATA_HOME in the test's directory; killed at the end."""
    made = Terminal(tmp_path / "home")
    try:
        yield made
    finally:
        made.close()


@pytest_asyncio.fixture
async def server() -> AsyncIterator[tuple[str, str]]:
    """The in-process server tell and play start: its URL and author token."""
    token = secrets.token_urlsafe(24)
    async with hosted(in_process_config(token), "127.0.0.1", 0) as url:
        yield url, token
