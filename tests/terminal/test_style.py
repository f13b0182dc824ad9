"""The looks: colour unless --no-color or $NO_COLOR; without colour, bold and reverse stay; plain styles nothing."""

from __future__ import annotations

from prompt_toolkit.output import ColorDepth

from clients.cli.terminal.style import CLASSES, color_depth, look_of, style


def test_no_color_is_asked_by_the_option_or_a_non_empty_environment_variable():
    assert look_of(plain=False, no_color=False, environ={}) == "color"
    assert look_of(plain=False, no_color=True, environ={}) == "mono"
    assert look_of(plain=False, no_color=False, environ={"NO_COLOR": "1"}) == "mono"
    assert look_of(plain=False, no_color=False, environ={"NO_COLOR": ""}) == "color"
    assert look_of(plain=True, no_color=False, environ={}) == "plain"


def test_without_colour_attributes_stay_and_colours_go():
    heading = style("mono").get_attrs_for_style_str("class:heading")
    assert heading.bold and not heading.color
    toolbar = style("mono").get_attrs_for_style_str("class:bottom-toolbar")
    assert toolbar.reverse and not toolbar.bgcolor
    assert color_depth("mono") is ColorDepth.DEPTH_1_BIT and color_depth("color") is None


def test_colour_colours_and_plain_styles_nothing():
    assert style("color").get_attrs_for_style_str("class:heading").color == "ansicyan"
    for name in CLASSES:
        attrs = style("plain").get_attrs_for_style_str(f"class:{name}")
        assert not (attrs.bold or attrs.italic or attrs.reverse or attrs.color or attrs.bgcolor), name


XTERM = {
    "ansiblue": (0, 0, 238),
    "ansiwhite": (229, 229, 229),
    "ansicyan": (0, 205, 205),
    "ansibrightblack": (127, 127, 127),
    "ansibrightblue": (92, 92, 255),
}
"""xterm's default colours for the names the toolbar uses (terminals differ, but not by much)."""


def _luminance(rgb: tuple[int, int, int]) -> float:
    def linear(value: int) -> float:
        channel = value / 255
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(value) for value in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(part: str) -> float:
    """WCAG's contrast ratio of a toolbar part's text against the toolbar, in colour."""
    attrs = style("color").get_attrs_for_style_str(f"class:bottom-toolbar class:{part}")
    lighter, darker = sorted((_luminance(XTERM[attrs.color]), _luminance(XTERM[attrs.bgcolor])), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_every_word_on_the_toolbar_is_easy_to_read():
    for part in ("toolbar.world", "toolbar.quiet"):  # "emacs (F4)" is quiet: set apart, not dimmed to grey
        assert contrast(part) >= 4.5, part  # WCAG AA for text
    assert style("color").get_attrs_for_style_str("class:bottom-toolbar class:toolbar.quiet").italic
    assert contrast("toolbar.separator") >= 3.0  # WCAG for what is not text
