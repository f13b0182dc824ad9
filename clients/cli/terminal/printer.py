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
        if self.last is None:
            return
        blocks, news = self.last
        self._show(lambda width: wrap.story(blocks, width, plain=self.plain, news=news), clear=clear)

    def resized(self) -> bool:
        """Whether the width changed since the last thing was printed (its text is wrapped for the old one)."""
        return self.width is not None and self.output.get_size().columns != self.width

    def _show(self, lay_out: LayOut, *, clear: bool = False) -> None:
        def render() -> None:
            columns = self.output.get_size().columns
            self.width = columns
            if clear:
                self.output.erase_screen()
                self.output.cursor_goto(0, 0)
            print_formatted_text(self.output, self._framed(lay_out(wrap.usable(columns))), self.style, None, self.depth)
            self.output.flush()

        app = get_app_or_none()
        if app is not None and app.is_running:
            self.width = self.output.get_size().columns  # so one resize asks for one redraw, however many renders
            run_in_terminal(render)  # laid out when it is printed, at the width then
        else:
            render()

    def _framed(self, lines: list[wrap.Line]) -> StyleAndTextTuples:
        """A blank line before (after, in plain, where the prompt has no line of its own), a newline after each."""
        framed = [*lines, ("", "")] if self.plain else [("", ""), *lines]
        fragments: StyleAndTextTuples = []
        for kind, line in framed:
            fragments.append((f"class:{kind}" if kind else "", line))
            fragments.append(("", "\n"))
        return fragments
