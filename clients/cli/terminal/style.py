"""The terminal's looks: semantic style classes (what a piece of text is, not how it looks), their colours,
and the same without colour (--no-color, or $NO_COLOR set) or without any styling at all (--plain)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from prompt_toolkit.output import ColorDepth
from prompt_toolkit.styles import Style

Look = Literal["color", "mono", "plain"]
"""`color`; `mono`: bold, italic and reverse but no colour; `plain`: nothing but the text."""

CLASSES: dict[str, tuple[str, str]] = {
    # class: (in colour, without colour)
    "heading": ("bold ansicyan", "bold"),
    "paragraph": ("", ""),
    "news": ("italic", "italic"),
    "echo": ("ansigreen", "bold"),
    "listing": ("", ""),
    "notice.presence": ("italic ansicyan", "italic"),
    "notice.ended": ("bold ansimagenta", "bold"),
    "notice.link": ("bold ansiyellow", "bold"),
    "notice.error": ("ansired", "bold"),
    "prompt": ("bold ansigreen", "bold"),
    "bottom-toolbar": ("noreverse bg:ansiblue ansiwhite", "reverse"),
    "toolbar.world": ("bold", "bold"),
    "toolbar.separator": ("ansicyan", ""),
    "toolbar.quiet": ("italic", "italic"),
    "toolbar.alert": ("bold bg:ansired ansiwhite", "bold noreverse"),
}
"""Each class's style rule. Text is tagged with these (`class:heading`) and never with colours directly."""


def look_of(*, plain: bool, no_color: bool, environ: Mapping[str, str]) -> Look:
    """--plain wins; then --no-color or a non-empty $NO_COLOR (https://no-color.org); else colour."""
    if plain:
        return "plain"
    if no_color or environ.get("NO_COLOR"):
        return "mono"
    return "color"


def style(look: Look) -> Style:
    """The style sheet for a look; `plain` styles nothing, not even the toolbar (which it does not show)."""
    if look == "plain":
        return Style([(name, "") for name in CLASSES])
    return Style([(name, rules[0] if look == "color" else rules[1]) for name, rules in CLASSES.items()])


def color_depth(look: Look) -> ColorDepth | None:
    """One bit (no colours at all, even prompt_toolkit's own menus') unless in colour; None: the terminal's."""
    return None if look == "color" else ColorDepth.DEPTH_1_BIT
