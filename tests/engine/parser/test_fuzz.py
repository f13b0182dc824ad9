"""Whatever a player types, the engine answers: nothing raised but an ending or a directive's refusal, and no
template syntax or tags shown that the player did not type."""

from __future__ import annotations

import re
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.catalog import load_world, walked_worlds, walkthrough
from server.engine.errors import Forbidden, SpinError, StoryEnded, UnknownName
from server.engine.parser.grammar import GRAMMAR
from server.engine.parser.words import DIRECTIONS
from server.engine.player import Player
from server.engine.story import Story

WORLDS = tuple(walked_worlds())
"""Every shipped world with a walkthrough, as the catalog finds them."""

# Derandomized, so a failure found once is found every run; few examples each, so the file runs in seconds.
FUZZ = settings(
    derandomize=True,
    deadline=None,
    max_examples=25,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

TRICKY = ('"', "[", "]", "\\", "@", "@cloak", "[agent/s]", "\\[", ";", ".", ",", "'s", "{", "}", "all", "it", "but")


@cache
def _words() -> tuple[str, ...]:
    """Every word some shipped world's parser knows, and the characters most likely to upset it."""
    words: set[str] = set()
    for name in WORLDS:
        words |= Story(load_world(name)).recognizer.lexicon
    return tuple(sorted(words)) + TRICKY


def _lexical_line() -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(_words()), max_size=10).map(" ".join)


LINES = st.one_of(
    _lexical_line(),
    st.text(max_size=60),
    st.lists(_lexical_line(), min_size=2, max_size=6).map("; ".join),
    st.lists(_lexical_line(), min_size=2, max_size=6).map(". ".join),
    st.integers(min_value=100, max_value=2000).map(lambda n: "take " + "lamp " * n),
    st.integers(min_value=1, max_value=300).map(lambda n: ";" * n),
    st.text(alphabet='[]\\@"; .,', max_size=40),
)


@cache
def _grammatical(world: str) -> st.SearchStrategy[str]:
    """Commands as the grammar writes them, with the world's own names, pronouns, lists and "all" in the slots:
    these reach far further into resolving names than words at random do."""
    items = Story(load_world(world)).simulation.items.values()
    names = sorted({item.called for item in items} | {item.subsequent for item in items if item.subsequent})
    name = st.sampled_from(names)
    thing = st.one_of(
        name,
        st.builds("the {}".format, name),
        st.builds("my {}".format, name),
        st.sampled_from(("it", "them", "him", "her", "all", "everything", "me")),
        st.builds("all but {}".format, name),
        st.builds("{} and {}".format, name, name),
    )
    slot = {
        "OBJ": thing,
        "OBJ2": thing,
        "DIR": st.sampled_from(sorted(DIRECTIONS)),
        "WORD": st.sampled_from(("1", "5", "up", "off", '"[x]"', "_the_x", "@cloak")),
        "TEXT": st.sampled_from(("hello", "[hello] there", "@cloak", "\\[x\\]", '"hi. there"')),
    }

    def line(pattern: tuple[str, ...]) -> st.SearchStrategy[str]:
        return st.tuples(*(slot.get(token, st.just(token)) for token in pattern)).map(" ".join)

    return st.sampled_from([pattern for kind in GRAMMAR for pattern in kind.tokens]).flatmap(line)


def _check_reply(line: str, reply: str) -> None:
    for tag in re.findall(r"@\w+", reply):
        assert tag in line, f"{line!r} leaked the tag {tag}: {reply!r}"
    for mark in "[]\\":
        # Only what the player typed (and said) may show a bracket or a backslash.
        assert mark not in reply or mark in line, f"{line!r} leaked {mark!r}: {reply!r}"


def _play(world: str, lines: list[str]) -> None:
    player = Player(Story(load_world(world)))
    for line in lines:
        try:
            reply = player.command(line).text
        except StoryEnded:
            assert player.story.ended
            player.restart()
            continue
        except (SpinError, UnknownName, Forbidden):
            continue  # a directive refused ("spin time=never", "restore nothing"); any other error is a defect
        _check_reply(line, reply)


@FUZZ
@given(lines=st.lists(st.one_of(LINES, _grammatical("cloak")), min_size=1, max_size=6))
def test_cloak_survives_anything(lines):
    _play("cloak", lines)


@FUZZ
@given(lines=st.lists(st.one_of(LINES, _grammatical("cloak_plus")), min_size=1, max_size=6))
def test_cloak_plus_survives_anything(lines):
    _play("cloak_plus", lines)


@FUZZ
@given(lines=st.lists(st.one_of(LINES, _grammatical("artmaking")), min_size=1, max_size=6))
def test_artmaking_survives_anything(lines):
    _play("artmaking", lines)


@FUZZ
@given(lines=st.lists(st.one_of(LINES, _grammatical("lost_one")), min_size=1, max_size=6))
def test_lost_one_survives_anything(lines):
    _play("lost_one", lines)


@pytest.mark.parametrize("world", WORLDS)
def test_walkthroughs_played_twice_over_show_nothing_of_templates(world):
    # Every command given twice: the second time most fail, and failures are told from their reasons.
    _play(world, [line for line in walkthrough(world) for _ in range(2)])


# Said text: words and the characters a template would read as its own. No ";", "." or quotation marks (they
# end or wrap what is said) and no "to" (it would address someone).
SAID = st.lists(
    st.sampled_from(
        ("hello", "there", "[", "]", "\\", "@cloak", "[agent/s]", "[it]", "\\[", "x]", "[@mime/o]", "_the_dog", "\\_")
    ),
    min_size=1,
    max_size=8,
).map(" ".join)


@FUZZ
@given(said=SAID)
def test_brackets_in_what_is_said_are_shown_literally(said):
    player = Player(Story(load_world("cloak")))
    reply = player.command(f"say hi {said}").text
    assert reply == f'You say "hi {said}".'
