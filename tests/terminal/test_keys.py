"""The prompt's keys, driven through prompt_toolkit's pipe input: Emacs and Vi editing, F4 switching between
them, Ctrl-L showing the last reply again, Ctrl-C clearing the line and Ctrl-D leaving."""

from __future__ import annotations

import asyncio

import pytest

from clients.cli.meta import standard
from clients.cli.terminal.app import TerminalScreen
from clients.cli.terminal.keys import mode_name
from clients.cli.terminal.options import Options
from protocol.messages import Block
from tests.terminal.conftest import WAIT
from tests.terminal.scenes import cloakroom

pytestmark = pytest.mark.asyncio

F4 = "\x1bOS"
ESCAPE = "\x1b"


def screen(keyboard, recording, *, vi: bool = False) -> TerminalScreen:
    return TerminalScreen(cloakroom(), Options(vi=vi), standard().names, input=keyboard, output=recording)


async def typed(terminal: TerminalScreen, keys: str) -> list[str]:
    """The lines read from these keys, until the end of input (Ctrl-D)."""
    terminal.session.app.input.send_text(keys)  # type: ignore[attr-defined]
    return [line async for line in _within(terminal.lines())]


async def _within(lines):
    async with asyncio.timeout(WAIT):
        async for line in lines:
            yield line


async def test_emacs_keys_by_default(keyboard, recording):
    assert await typed(screen(keyboard, recording), "bc\x01a\x05d\r\x04") == ["abcd"]  # Ctrl-A, Ctrl-E


async def test_vi_keys_with_vi(keyboard, recording):
    # Escape to normal mode, 0 to the start, i to insert there.
    assert await typed(screen(keyboard, recording, vi=True), f"bc{ESCAPE}0ia\r\x04") == ["abc"]


async def test_f4_switches_between_emacs_and_vi(keyboard, recording):
    terminal = screen(keyboard, recording)
    assert mode_name(terminal.session.app) == "emacs"
    assert await typed(terminal, f"{F4}bc{ESCAPE}0ia\r\x04") == ["abc"]
    assert mode_name(terminal.session.app) == "vi"
    assert terminal.keys(None) == "key bindings: emacs"
    assert terminal.keys("vi") == "key bindings: vi"


async def test_ctrl_c_clears_the_line_and_ctrl_d_on_an_empty_line_leaves(keyboard, recording):
    assert await typed(screen(keyboard, recording), "never mind\x03look\r\x04") == ["look"]


async def test_ctrl_l_clears_the_screen_and_shows_the_last_reply_again(keyboard, recording):
    terminal = screen(keyboard, recording)
    terminal.story([Block(kind="paragraph", text="You leave the foyer.")], "You leave the foyer.")
    assert await typed(terminal, "\x0c\x04") == []
    assert recording.text.count("You leave the foyer.") == 2
