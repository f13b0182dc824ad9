"""Where piped play's lines come from: the --auto file's, then stdin's (a pipe, or a terminal at a bare prompt)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path


class Unreadable(Exception):
    """The --auto file cannot be read."""


def auto_lines(auto: Path) -> list[str]:
    """The file's lines to play, blank lines and # comments skipped."""
    try:
        text = auto.read_bytes().decode("utf-8")
    except OSError as error:
        raise Unreadable(f"cannot read {auto}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        line = auto.read_bytes()[: error.start].count(b"\n") + 1
        raise Unreadable(
            f"cannot read {auto}: line {line} is not UTF-8 text (byte 0x{error.object[error.start]:02x})"
        ) from None
    return [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def readable(line: str) -> str:
    """A line as text that can be sent: bytes that were not UTF-8 (which Python keeps as lone surrogates) become
    U+FFFD, so the story answers that it does not know the word instead of the client failing to encode it."""
    try:
        raw = line.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that no decoder escaped (pasted, or from a terminal library)
        raw = line.encode("utf-8", "surrogatepass")
    return raw.decode("utf-8", "replace")


def _keeping_bytes() -> None:
    # Bytes that are not UTF-8 are kept (as surrogates, which `readable` replaces), never an error that would
    # read as the end of input.
    if isinstance(sys.stdin, io.TextIOWrapper) and sys.stdin.errors != "surrogateescape":
        sys.stdin.reconfigure(errors="surrogateescape")


async def piped_lines() -> AsyncIterator[str]:
    """Stdin's lines without their newlines, read ahead by one daemon thread for the whole game (a pipe or a
    file: nobody is prompted, so reading ahead changes nothing one sees), so a line is there as soon as the
    last one is answered and notifications print meanwhile."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()

    def read() -> None:
        _keeping_bytes()
        while True:
            try:
                line: str | None = sys.stdin.readline() or None
            except (OSError, ValueError):
                line = None
            try:
                loop.call_soon_threadsafe(lines.put_nowait, None if line is None else line.rstrip("\n"))
            except RuntimeError:  # the loop closed meanwhile: nobody is waiting
                return
            if line is None:
                return

    threading.Thread(target=read, name="curveship-stdin", daemon=True).start()
    while True:
        if lines.empty():
            # About to wait for the next line: whoever writes it may be waiting for what was told so far.
            # While lines are already there, output goes out in blocks, as any program's into a pipe.
            sys.stdout.flush()
        line = await lines.get()
        if line is None:
            return
        yield line


async def read_line(prompt: str | None) -> str | None:
    """One line of stdin without its newline, after `prompt`; None at the end of input. Read in a daemon thread
    of its own, asked for each line (the prompt shows only when a line is wanted), so notifications print
    meanwhile and Ctrl-C never waits on it."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str | None] = loop.create_future()
    sys.stdout.flush()  # what was told, out before the wait (as input() does for its prompt)

    def give(line: str | None) -> None:
        if not answer.done():
            answer.set_result(line)

    def read() -> None:
        _keeping_bytes()
        try:
            line: str | None = input(prompt) if prompt is not None else sys.stdin.readline() or None
        except (EOFError, OSError, ValueError):
            line = None
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody is waiting
            loop.call_soon_threadsafe(give, None if line is None else line.rstrip("\n"))

    threading.Thread(target=read, name="curveship-stdin", daemon=True).start()
    return await answer
