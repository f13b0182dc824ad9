"""The terminal screen: a prompt_toolkit prompt for the reader's lines while the story, and whatever others
do, is printed above it.

In order:
1. One PromptSession for the whole game: history kept in a file, the completer, the key bindings, the bottom
   toolbar drawn from the scene, the looks (colour, mono or plain).
2. On entering, stdout and stderr are patched, so anything printed while the prompt is up (a notification,
   a connection status, a library's warning) appears above it and never through the line being typed; the
   scene is refreshed, and the named spins asked for, in the background.
3. `lines` awaits `prompt_async` again and again: Ctrl-C clears the line, Ctrl-D (or the end of input) ends.
   While the connection is down, a line that needs the server is kept: Enter leaves it in the input, says
   it is kept, and it is sent by itself once the connection is back (the session resumed); editing it
   unkeeps it. While it is kept, Ctrl-C and Ctrl-D leave. The toolbar says meanwhile how many tries have
   found no server and when the next is (counting down); with --plain, notices say it now and then.
4. Meanwhile, play's notification task prints through the Printer, which erases the prompt, prints, and
   draws the prompt again with the half-typed line as it was; each turn and notification refreshes the scene,
   and the toolbar is redrawn when it changes.
5. When the terminal's width changes, the last narration is shown again, wrapped to the new width; Ctrl-L
   clears the screen and shows it again at once, before any key typed after it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, ClassVar

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.buffer import ValidationState
from prompt_toolkit.cursor_shapes import ModalCursorShapeConfig
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.history import History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output, create_output
from prompt_toolkit.patch_stdout import patch_stdout
from prompt_toolkit.shortcuts import CompleteStyle
from prompt_toolkit.validation import ValidationError, Validator

from clients.cli.meta import LEADER, is_meta
from clients.cli.scene import Scene
from clients.cli.screen import KeyMode, Notice, Screen
from clients.cli.status import SAYINGS, not_answering, worth_saying
from clients.cli.terminal.completer import StoryCompleter
from clients.cli.terminal.history import open_history
from clients.cli.terminal.keys import KEYS_HELP, bindings, mode_name, switch
from clients.cli.terminal.options import Options
from clients.cli.terminal.printer import Printer
from clients.cli.terminal.style import color_depth, style
from clients.cli.terminal.toolbar import toolbar
from clients.cli.terminal.wrap import HANGING
from clients.connection import Retrying, Status
from protocol import messages as m

PROMPT: StyleAndTextTuples = [("", "\n"), ("class:prompt", "> ")]
PLAIN_PROMPT = "> "
MENU_LINES = 6
"""Lines kept free below the prompt for the completion menu."""
OFFLINE = ("quit", "q", "exit game", ":quit", ":help", ":keys")
"""Lines answered without the server (play's own words for leaving, and meta commands that need no call)."""
KEPT = "kept: the server is not answering; this line is sent once it is back (Ctrl-C or Ctrl-D leaves)"
TICK = 0.5
"""Seconds between redraws of the toolbar's countdown while the server is not answering."""


class TerminalScreen(Screen):
    patient: ClassVar[bool] = True

    def __init__(
        self,
        scene: Scene,
        options: Options,
        metas: Sequence[str],
        *,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.scene = scene
        self.output = output or create_output()
        self.plain = options.look == "plain"
        self.printer = Printer(self.output, options.look)
        history: History = InMemoryHistory()
        self.trouble: str | None = None
        self.kept = False
        """Whether the line in the input waits to be sent once the connection is back."""
        if options.history is not None:
            history, self.trouble = open_history(options.history)
        self.session: PromptSession[str] = PromptSession(
            PLAIN_PROMPT if self.plain else PROMPT,
            history=history,
            completer=StoryCompleter(scene, metas),
            complete_while_typing=False,
            complete_style=CompleteStyle.READLINE_LIKE if self.plain else CompleteStyle.COLUMN,
            reserve_space_for_menu=0 if self.plain else MENU_LINES,
            auto_suggest=None if self.plain else AutoSuggestFromHistory(),
            bottom_toolbar=None if self.plain else self._toolbar,
            key_bindings=bindings(self.printer.cleared, lambda: self.kept),
            validator=Connected(scene, metas, self._keep),
            validate_while_typing=False,
            style=style(options.look),
            color_depth=color_depth(options.look),
            include_default_pygments_style=False,
            vi_mode=options.vi,
            cursor=None if self.plain else ModalCursorShapeConfig(),
            enable_suspend=True,
            input=input,
            output=self.output,
        )
        self.session.app.before_render += self._rendering
        self.session.default_buffer.on_text_changed += self._edited
        scene.listeners.append(self._changed)
        self._exits = contextlib.ExitStack()
        self._learning: asyncio.Task[None] | None = None
        self._ticking: asyncio.Task[None] | None = None

    async def __aenter__(self) -> TerminalScreen:
        self._exits.enter_context(patch_stdout(raw=True))
        if self.trouble:
            self.notice(self.trouble, "error")
        self.scene.stale()
        self._learning = asyncio.create_task(self.scene.learn_spins())
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        for task in (self._learning, self._ticking):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._exits.close()

    # -- the reader's lines ---------------------------------------------------------------------------------

    async def lines(self) -> AsyncIterator[str]:
        while True:
            try:
                line = await self.session.prompt_async()
            except KeyboardInterrupt:
                continue
            except EOFError:
                return
            yield line

    # -- what is shown -----------------------------------------------------------------------------------------

    def echo(self, line: str) -> None:
        self.printer.text(f"> {line}", "echo")

    def story(self, blocks: Sequence[m.Block], text: str, *, news: bool = False) -> None:
        if not blocks and text:
            blocks = [m.Block(kind="paragraph", text=text)]
        self.printer.story(blocks, news=news)
        if news:
            self.scene.stale()

    def listing(self, text: str) -> None:
        self.printer.text(text, "listing", hanging=HANGING)

    def items(self, items: Sequence[str]) -> None:
        self.printer.items(items)

    def notice(self, text: str, kind: Notice) -> None:
        self.printer.text(text, f"notice.{kind}")

    def turn_done(self) -> None:
        self.scene.stale()

    def status(self, status: Status) -> None:
        self.scene.heard(status)  # first: whether a line may be sent now is asked of the scene
        self.notice(SAYINGS[status], "link")
        buffer = self.session.default_buffer
        buffer.validation_state = ValidationState.UNKNOWN  # Enter asks again whether a line can be sent
        if status is Status.RECONNECTING:
            return
        buffer.validation_error = None  # "kept" no longer holds
        kept, self.kept = self.kept, False
        if kept and status is Status.RESUMED and self.session.app.is_running:
            buffer.validate_and_handle()  # the kept line goes now, as if Enter were pressed again

    def retrying(self, retrying: Retrying) -> None:
        self.scene.retried(retrying)
        if self.plain and worth_saying(retrying):  # no toolbar to count down in
            self.notice(f"[{not_answering(retrying)}]", "link")
        if self._ticking is None or self._ticking.done():
            self._ticking = asyncio.create_task(self._tick())

    def keys(self, mode: KeyMode | None) -> str:
        return f"key bindings: {switch(self.session.app, mode)}"

    def keys_help(self) -> list[str]:
        return KEYS_HELP

    # -- keeping the prompt up to date -------------------------------------------------------------------------

    def _toolbar(self) -> StyleAndTextTuples:
        return toolbar(self.scene, mode_name(self.session.app), self.output.get_size().columns)

    def _changed(self) -> None:
        if self.session.app.is_running:
            self.session.app.invalidate()

    async def _tick(self) -> None:
        """Redraw the toolbar's countdown now and then, while the server is not answering."""
        while self.scene.offline:
            self._changed()
            await asyncio.sleep(TICK)

    def _keep(self) -> None:
        self.kept = True

    def _edited(self, _buffer: Any) -> None:
        self.kept = False  # a line changed after Enter is sent only with Enter again

    def _rendering(self, _app: Any) -> None:
        """Before each drawing of the prompt: after a change of width, show the last narration again."""
        if self.printer.resized():
            self.printer.redraw(clear=True)


class Connected(Validator):
    """Enter takes a line only if it can be sent: while the connection is down, a line that needs the server
    is kept (`keep` is told) and stays in the input, saying so, with the prompt still up for Ctrl-C and
    Ctrl-D, rather than being taken to a call that would wait with no prompt at all."""

    def __init__(self, scene: Scene, metas: Sequence[str], keep: Callable[[], None] = lambda: None) -> None:
        self.scene = scene
        self.metas = list(metas)
        self.keep = keep

    def validate(self, document: Document) -> None:
        if self.scene.offline and document.text.strip() and not self._offline(document.text):
            self.keep()
            raise ValidationError(len(document.text), KEPT)

    def _offline(self, line: str) -> bool:
        words = line.strip().lower().split()
        said = " ".join(words)
        if is_meta(line):  # a shortened meta command, as it would be found
            name = LEADER + words[0].removeprefix(LEADER)
            fits = [meta for meta in self.metas if meta.startswith(name)]
            said = name if name in self.metas or len(fits) != 1 else fits[0]
        return said in OFFLINE
