"""Where play's lines come from: a file first (each echoed as `> line`), then the keyboard or a pipe."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path


class Unreadable(Exception):
    """The --auto file cannot be read."""


async def lines(auto: Path | None, *, prompt: str | None) -> AsyncIterator[str]:
    """The --auto file's lines (blank lines and # comments skipped), then stdin's, at `prompt` if given.
    Stdin is read in a daemon thread, so notifications print meanwhile and Ctrl-C never waits on it."""
    if auto is not None:
        try:
            text = auto.read_text(encoding="utf-8")
        except OSError as error:
            raise Unreadable(f"cannot read {auto}: {error.strerror}") from None
        for line in text.splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                print(f"\n> {line}")
                yield line
    while (typed := await read_line(prompt)) is not None:
        yield typed
    if prompt is not None:
        print()


async def read_line(prompt: str | None) -> str | None:
    """One line of stdin without its newline; None at the end of input."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str | None] = loop.create_future()

    def give(line: str | None) -> None:
        if not answer.done():
            answer.set_result(line)

    def read() -> None:
        try:
            line: str | None = input(prompt) if prompt is not None else sys.stdin.readline() or None
        except (EOFError, OSError, ValueError):
            line = None
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody is waiting
            loop.call_soon_threadsafe(give, None if line is None else line.rstrip("\n"))

    threading.Thread(target=read, name="curveship-stdin", daemon=True).start()
    return await answer
