"""Where play shows the story and gets the reader's lines: the base every screen shares (plain lines for
scripts and pipes in `piped.py`, the prompt_toolkit terminal in `terminal/app.py`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from typing import ClassVar, Literal

from clients.connection import Retrying, Status
from protocol import messages as m

Notice = Literal["presence", "ended", "link", "error"]
"""What a notice is about: someone joining or leaving, the ending, the connection, a refusal or failure."""

KeyMode = Literal["emacs", "vi"]


class Screen(ABC):
    """One way of playing. `async with screen:` around the game; then the story and notices go to it as they
    come (from the reader's turns and from notifications alike), and its `lines` are what the reader types."""

    patient: ClassVar[bool]
    """A person is there: a call that fails for want of the server is told, and play goes on (a script's
    play ends instead, with a status that says so)."""

    async def __aenter__(self) -> Screen:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        return None

    @abstractmethod
    def lines(self) -> AsyncIterator[str]:
        """What the reader types, a line at a time, until the end of input."""

    @abstractmethod
    def echo(self, line: str) -> None:
        """A line played from the --auto file, shown as if typed."""

    @abstractmethod
    def story(self, blocks: Sequence[m.Block], text: str, *, news: bool = False) -> None:
        """Narration: the opening, a reply, a retelling; `news` when it is what someone else's turn showed."""

    @abstractmethod
    def listing(self, text: str) -> None:
        """What a meta command answers: lines laid out already (a concept tree, the state, a list)."""

    def items(self, items: Sequence[str]) -> None:
        """A list (the commands that would succeed, the players): one a line unless laid out better."""
        self.listing("\n".join(items))

    @abstractmethod
    def notice(self, text: str, kind: Notice) -> None:
        """A word from the system rather than the story."""

    @abstractmethod
    def turn_done(self) -> None:
        """A reply to the reader's line has been shown in full."""

    @abstractmethod
    def status(self, status: Status) -> None:
        """The connection dropped, came back, or came back without the session."""

    @abstractmethod
    def retrying(self, retrying: Retrying) -> None:
        """A try to reach the server again found none: how many so far, and when the next is."""

    def keys(self, mode: KeyMode | None) -> str:
        """Switch the key bindings to `mode` (None: the other one); what they are now, said for people."""
        return "key bindings are for the terminal; here lines are read as they come"

    def keys_help(self) -> list[str]:
        """What the keys do, for :help (nothing where lines are read as they come)."""
        return []
