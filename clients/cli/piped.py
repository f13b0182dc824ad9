"""Play in plain lines, for scripts and pipes: text as the server words it, on stdout, nothing styled or
wrapped; statuses on stderr. At a terminal that is not one both ways (output to a file), a bare `> ` prompt.

Stdout is flushed whenever play waits for the next line, and once a notification is told: a program that
writes a line and reads the answer has it whole as soon as it is told (Python holds a pipe's output back
until its buffer fills), and lines given all at once are answered in blocks, as any program writes to a pipe."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Sequence
from typing import ClassVar

from clients.cli.lines import piped_lines, read_line
from clients.cli.screen import Notice, Screen
from clients.cli.status import show_retry, show_status
from clients.connection import Retrying, Status
from protocol import messages as m

PROMPT = "\n> "


class PipedScreen(Screen):
    """Each reply is followed by a blank line when nobody types (so a transcript reads turn by turn); what
    arrives meanwhile starts on a line of its own, and the prompt, if there is one, is given again after it."""

    patient: ClassVar[bool] = False

    def __init__(self, *, prompting: bool) -> None:
        self.prompting = prompting
        self.reading = False
        """Whether a line is being read now (something printed meanwhile needs the prompt again)."""

    async def lines(self) -> AsyncIterator[str]:
        if not self.prompting:
            async for line in piped_lines():
                yield line
            return
        while True:
            self.reading = True
            try:
                typed = await read_line(PROMPT)
            finally:
                self.reading = False
            if typed is None:
                break
            yield typed
        print()

    def echo(self, line: str) -> None:
        print(f"\n> {line}")

    def story(self, blocks: Sequence[m.Block], text: str, *, news: bool = False) -> None:
        if news:
            self._meanwhile(text)
        else:
            print(text)

    def listing(self, text: str) -> None:
        print(text)

    def notice(self, text: str, kind: Notice) -> None:
        if kind == "error":
            print(text)
        else:
            self._meanwhile(text)

    def turn_done(self) -> None:
        if not self.prompting:
            print()

    def status(self, status: Status) -> None:
        show_status(status)

    def retrying(self, retrying: Retrying) -> None:
        show_retry(retrying)

    def _meanwhile(self, text: str) -> None:
        print(f"\n{text}")
        if self.prompting and self.reading:
            print(PROMPT, end="")
        sys.stdout.flush()
