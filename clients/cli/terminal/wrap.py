"""Laying text out to the terminal's width: headings flush, paragraphs indented and wrapped between words,
a listing's own line breaks and leading spaces kept; in plain, each paragraph one line, as it came."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence

from protocol import messages as m

Line = tuple[str, str]
"""A style class (see style.py) and the line's text."""

MARGIN = 2
"""Spaces before each line of a paragraph."""
HANGING = 4
"""Further spaces before the continuation of a listing's line that had to be wrapped."""
NARROWEST = 20
"""Text is never wrapped narrower than this, however narrow the terminal."""


def usable(columns: int) -> int:
    """The width to wrap to: one column short of the terminal's, so no line ends in the last column (where
    some terminals wrap at once and leave a blank line)."""
    return max(NARROWEST, columns - 1)


def story(blocks: Sequence[m.Block], width: int, *, plain: bool, news: bool = False) -> list[Line]:
    """Narration's blocks, a blank line between each; `news` styles what someone else's turn showed."""
    body = "news" if news else "paragraph"
    lines: list[Line] = []
    for index, block in enumerate(blocks):
        if index:
            lines.append(("", ""))
        kind = "heading" if block.kind == "heading" else body
        if plain:
            lines.extend((kind, line) for line in block.text.split("\n"))
        else:
            lines.extend((kind, line) for line in wrapped(block.text, width, margin=0 if kind == "heading" else MARGIN))
    return lines


def text(said: str, width: int, kind: str, *, plain: bool, hanging: int = 0) -> list[Line]:
    """Text that is not narration (a notice, a listing), in one style class; in plain, as it came."""
    if plain:
        return [(kind, line) for line in said.split("\n")]
    return [(kind, line) for line in wrapped(said, width, hanging=hanging)]


def wrapped(said: str, width: int, *, margin: int = 0, hanging: int = 0) -> list[str]:
    """Each of the text's lines wrapped between words to `width`, after `margin` spaces and its own leading
    spaces; the continuation of a wrapped line `hanging` spaces further in."""
    lines: list[str] = []
    for raw in said.split("\n"):
        words = raw.lstrip(" ")
        if not words.strip():
            lines.append("")
            continue
        indent = " " * (margin + len(raw) - len(words))
        lines.extend(
            textwrap.wrap(
                words,
                width=max(width, len(indent) + hanging + NARROWEST),
                initial_indent=indent,
                subsequent_indent=indent + " " * hanging,
                break_on_hyphens=False,
                drop_whitespace=True,
            )
        )
    return lines


def columns(items: Sequence[str], width: int, *, gap: int = 3) -> list[str]:
    """Items in as many columns as fit, read down then across (like `ls`); one a line if any is too wide."""
    if not items:
        return []
    each = max(len(item) for item in items) + gap
    across = max(1, (width + gap) // each)
    down = math.ceil(len(items) / across)
    rows = []
    for row in range(down):
        cells = [items[index] for index in range(row, len(items), down)]
        rows.append("".join(cell.ljust(each) for cell in cells[:-1]) + cells[-1])
    return rows
