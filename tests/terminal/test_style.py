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
