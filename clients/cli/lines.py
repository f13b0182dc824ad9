"""Where piped play's lines come from: the --auto file's, then stdin's (a pipe, or a terminal at a bare prompt)."""

from __future__ import annotations

import asyncio
import codecs
import collections
import contextlib
import io
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

BLOCK = 65536
"""Bytes of piped input read at most at once (a pipe's buffer here)."""


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
    lines: collections.deque[str | None] = collections.deque()
    more = asyncio.Event()

    def arrived(block: list[str | None]) -> None:
        lines.extend(block)
        more.set()

    def read() -> None:
        partial = ""
        try:
            for text in _stdin_blocks():
                *whole, partial = (partial + text).split("\n")
                block: list[str | None] = list(whole)
                loop.call_soon_threadsafe(arrived, block)
        except (OSError, ValueError):
            pass  # stdin unreadable (closed under it): the end of input, as for readline
        except RuntimeError:
            return  # the loop closed meanwhile: nobody is waiting
        ending: list[str | None] = [partial, None] if partial else [None]  # a last line needs no newline
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(arrived, ending)

    threading.Thread(target=read, name="curveship-stdin", daemon=True).start()
    while True:
        while not lines:
            # About to wait for the next line: whoever writes it may be waiting for what was told so far.
            # While lines are already there, output goes out in blocks, as any program's into a pipe.
            sys.stdout.flush()
            more.clear()
            await more.wait()
        line = lines.popleft()
        if line is None:
            return
        yield line


def _stdin_blocks() -> Iterator[str]:
    """Stdin's text as it comes, a block at a time: all the lines a block holds are handed over at once (a line
    a wake-up of the loop cost piped play a twentieth of a Cloak command). Read as sys.stdin reads: universal
    newlines, and bytes that are not UTF-8 kept as surrogates for `readable`, never an error that would read as
    the end of input."""
    read1 = getattr(getattr(sys.stdin, "buffer", None), "read1", None)
    if read1 is None:  # a text stream put in stdin's place (a program running play inside itself)
        while line := sys.stdin.readline():
            yield line
        return
    decoder = io.IncrementalNewlineDecoder(codecs.getincrementaldecoder("utf-8")("surrogateescape"), True)
    while chunk := read1(BLOCK):  # (what a pipe holds, up to BLOCK)
        yield decoder.decode(chunk)
    yield decoder.decode(b"", final=True)


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
