"""Laying text out to a width: headings flush, paragraphs indented and wrapped between words, listings keep
their own lines, plain keeps each paragraph on one line; lists in columns."""

from __future__ import annotations

from clients.cli.terminal.wrap import MARGIN, columns, story, text, usable, wrapped
from protocol.messages import Block

HALL = (
    "This hall is grand, all crimson and gilt, with chandeliers glittering overhead; the street door is to "
    "the north, and doorways lead south and west."
)
BLOCKS = [Block(kind="heading", text="Foyer of the Opera House"), Block(kind="paragraph", text=HALL)]


def test_a_heading_is_flush_and_a_paragraph_indented_and_wrapped_between_words():
    lines = story(BLOCKS, 40, plain=False)
    assert lines[0] == ("heading", "Foyer of the Opera House")
    assert lines[1] == ("", "")
    body = [line for kind, line in lines[2:]]
    assert all(line.startswith(" " * MARGIN) and not line.startswith(" " * (MARGIN + 1)) for line in body)
    assert all(len(line) <= 40 for line in body) and len(body) > 3
    assert " ".join(line.strip() for line in body) == HALL  # no word broken, none lost


def test_the_same_text_wrapped_wider_takes_fewer_lines():
    assert len(story(BLOCKS, 99, plain=False)) < len(story(BLOCKS, 49, plain=False))


def test_news_is_styled_as_news():
    assert {kind for kind, _ in story(BLOCKS[1:], 60, plain=False, news=True)} == {"news"}


def test_plain_keeps_each_paragraph_on_one_line_unindented():
    assert story(BLOCKS, 40, plain=True) == [
        ("heading", "Foyer of the Opera House"),
        ("", ""),
        ("paragraph", HALL),
    ]


def test_a_listing_keeps_its_line_breaks_and_leading_spaces():
    tree = "@cosmos: cosmos\n    @foyer: foyer [of]\n        @cloak: velvet cloak [on]"
    assert wrapped(tree, 80) == tree.split("\n")


def test_a_long_listing_line_wraps_under_itself_further_in():
    said = "save NAME — remember the story as it is now, under NAME, to come back to later with restore"
    lines = wrapped(said, 40, hanging=4)
    assert lines[0].startswith("save NAME") and all(line.startswith("    ") for line in lines[1:])


def test_a_notice_is_wrapped_in_its_class():
    lines = text("[the connection dropped; reconnecting…] " * 3, 30, "notice.link", plain=False)
    assert len(lines) > 3 and {kind for kind, _ in lines} == {"notice.link"}


def test_never_narrower_than_twenty_and_one_short_of_the_terminal():
    assert usable(100) == 99 and usable(5) == 20


def test_columns_read_down_then_across_and_fit_the_width():
    rows = columns(["look", "listen", "smell", "wait", "jump"], 30)
    assert rows == ["look     smell    jump", "listen   wait"]
    assert columns(["a very long command that fills the line"], 20) == ["a very long command that fills the line"]
    assert columns([], 20) == []
