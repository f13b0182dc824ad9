"""Time words: varied in turn, never the same twice running (a segment's lead included), the same every telling."""

from __future__ import annotations

import itertools

from tests.helpers import sentences, tell

BACKWARD = ("Before that", "Just before that", "Previously", "Prior to that")


def openings(told: list[str]) -> list[str]:
    return [s.split(", ")[0] for s in told if ", " in s]


def test_retrograde_varies_the_words_that_walk_back() -> None:
    told = sentences(tell("robbery", "retrograde"))
    said = openings(told[1:])
    assert len(said) == len(told) - 1 and set(said) == set(BACKWARD)
    assert said.count("Before that") <= 4  # not thirteen sentences alike
    assert all(a != b for a, b in itertools.pairwise(said))


def test_time_words_are_the_same_in_every_telling() -> None:
    assert tell("robbery", "retrograde") == tell("robbery", "retrograde")
    assert tell("robbery", "retrograde", seed=1) == tell("robbery", "retrograde", seed=2)


def test_the_return_from_a_flashback_is_not_followed_by_the_same_time_word() -> None:
    told = tell("robbery", order="analepsis", time_words=True, time="after")
    main_line = told.split("\n\n")[-1]
    first, second = sentences(main_line)[:2]
    assert first.startswith("Then, ")  # the return, "[now]," in the past
    assert not second.startswith("Then, "), main_line


def test_no_time_word_is_said_twice_running() -> None:
    for spins in (("retrograde",), ("retrograde", "prophecy")):
        said = openings(sentences(tell("robbery", *spins)))
        assert all(a != b for a, b in itertools.pairwise(said)), said
    for order in ("chronicle", "analepsis", "syllepsis"):
        for paragraph in tell("robbery", order=order, time_words=True, time="after").split("\n\n"):
            said = openings(sentences(paragraph))
            assert all(a != b for a, b in itertools.pairwise(said)), paragraph
