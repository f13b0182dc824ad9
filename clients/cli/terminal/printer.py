"""Printing the story and notices above the prompt: laid out to the terminal's width at the moment they are
printed, styled by class; the last narration kept, to be shown again when the width changes or the screen
is cleared."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from prompt_toolkit.application import get_app_or_none, run_in_terminal
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.output import Output
from prompt_toolkit.renderer import print_formatted_text

from clients.cli.terminal import wrap
from clients.cli.terminal.style import Look, color_depth, style
from protocol import messages as m

LayOut = Callable[[int], list[wrap.Line]]
"""Lines for a width."""


class Printer:
    """Everything the terminal prints goes through here. While the prompt is up, printing erases it, prints,
    and draws it again below (the reader's half-typed line intact); otherwise it prints at once."""

    def __init__(self, output: Output, look: Look) -> None:
        self.output = output
        self.plain = look == "plain"
        self.style = style(look)
        self.depth = color_depth(look) or output.get_default_color_depth()
        self.last: tuple[list[m.Block], bool] | None = None
        """The last narration and whether it was news, for showing again."""
        self.width: int | None = None
        """The terminal's width when the last thing was printed."""

    def story(self, blocks: Sequence[m.Block], *, news: bool = False) -> None:
        self.last = (list(blocks), news)
        self._show(lambda width: wrap.story(blocks, width, plain=self.plain, news=news))

    def text(self, said: str, kind: str, *, hanging: int = 0) -> None:
        self._show(lambda width: wrap.text(said, width, kind, plain=self.plain, hanging=hanging))

    def items(self, items: Sequence[str]) -> None:
        if self.plain:
            self.text("\n".join(items), "listing")
        else:
            self._show(lambda width: [("listing", row) for row in wrap.columns(items, width)])

    def redraw(self, *, clear: bool = False) -> None:
        """Show the last narration again at the width as it is now, on a cleared screen if `clear`."""
        if self.last is not None:
            self._show(self._again, clear=clear)

    def cleared(self) -> None:
        """Ctrl-L: clear the screen and show the last narration again, at once, while the key is handled. Keys
        typed after it (a line, Enter) are handled only after it, so what they bring is printed below the
        narration and never cleared with it."""
        found = get_app_or_none()
        app = found if found is not None and found.is_running else None
        if app is not None:
            app.renderer.erase()  # the prompt, drawn again below what is printed
        self._render(None if self.last is None else self._again, clear=True)
        if app is not None:
            app.renderer.request_absolute_cursor_position()
            app.invalidate()

    def _again(self, width: int) -> list[wrap.Line]:
        assert self.last is not None
        blocks, news = self.last
        return wrap.story(blocks, width, plain=self.plain, news=news)

    def resized(self) -> bool:
        """Whether the width changed since the last thing was printed (its text is wrapped for the old one)."""
        return self.width is not None and self.output.get_size().columns != self.width

    def _show(self, lay_out: LayOut, *, clear: bool = False) -> None:
        app = get_app_or_none()
        if app is not None and app.is_running:
            self.width = self.output.get_size().columns  # so one resize asks for one redraw, however many renders
            run_in_terminal(lambda: self._render(lay_out, clear=clear))  # laid out when printed, at the width then
        else:
            self._render(lay_out, clear=clear)

    def _render(self, lay_out: LayOut | None, *, clear: bool) -> None:
        """Print now (None: nothing, on a cleared screen)."""
        columns = self.output.get_size().columns
        self.width = columns
        if clear:
            self.output.erase_screen()
            self.output.cursor_goto(0, 0)
        if lay_out is not None:
            lines = self._framed(lay_out(wrap.usable(columns)))
            print_formatted_text(self.output, lines, self.style, None, self.depth)
        self.output.flush()

    def _framed(self, lines: list[wrap.Line]) -> StyleAndTextTuples:
        """A blank line before (after, in plain, where the prompt has no line of its own), a newline after each."""
        framed = [*lines, ("", "")] if self.plain else [("", ""), *lines]
        fragments: StyleAndTextTuples = []
        for kind, line in framed:
            fragments.append((f"class:{kind}" if kind else "", line))
            fragments.append(("", "\n"))
        return fragments
