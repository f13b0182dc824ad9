"""Natural phrasings a player of these games types, read by an editor: each is understood in every world where
it applies (at the start and once the walkthrough is played), and the line is split as players type it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from protocol.commands import split_commands
from server.catalog import load_world
from server.engine.parser.recognize import Memory, NotUnderstood
from server.engine.player import Player
from server.engine.snapshot import capture, resume
from server.engine.story import Story
from server.engine.world.items import Room
from tests.engine.editor import ROOT, WORLDS, played

INTERACTIVE = [name for name in WORLDS if load_world(name).interactive]


def moments(name: str) -> Iterator[Story]:
    definition = load_world(name)
    yield Story(definition, seed=0)
    yield resume(definition, capture(played(name)))


def every_step(name: str) -> Iterator[Story]:
    """The world's story before each command of its walkthrough, and at its end."""
    story = Story(load_world(name), seed=0)
    for line in walk(name):
        yield story
        if story.ended:
            return
        story.command(story.definition.player, line)
    yield story


def walk(name: str) -> list[str]:
    lines = (ROOT / "worlds" / "walks" / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def phrasings(story: Story) -> Iterator[str]:
    """The phrasings that apply where the player is: to what it sees, holds and could walk to."""
    live, player = story.simulation.world, story.definition.player
    seen = [t for t in story.simulation.sight.visible_items(player) if live.items[t].called and t != player]
    yield from ("sit", "sit down", "wait for friend", "wait for a while", "extricate", "extricate myself")
    for tag in seen:
        item = live.items[tag]
        name = item.called.lower()
        if isinstance(item, Room):
            yield f"go to {name}"
        elif item.kind == "actor":
            yield from (f"talk to {name}", f"speak with {name}", f"say hello to {name}")
        else:
            yield f"look under {name}"
            if live.get(tag, "lit") is not None or live.get(tag, "on") is not None:
                yield from (f"snuff out {name}", f"snuff {name} out")
        if live.parent(tag) == player:
            yield f"x your {name}"
    room = live.items[live.room_of(player) or ""]
    for way in getattr(room, "exits", {}).values():
        if way in live.items and isinstance(live.items[way], Room):
            yield f"go to {live.items[way].called.lower()}"


@pytest.mark.parametrize("world", INTERACTIVE)
def test_natural_phrasings_are_understood(world):
    for story in moments(world):
        player, sight = story.definition.player, story.simulation.sight
        for command in phrasings(story):
            parsed = story.recognizer.recognize(command, player, sight, Memory())
            assert not isinstance(parsed, NotUnderstood), f"{world}: {command!r}: {parsed.message}"


@pytest.mark.parametrize("world", INTERACTIVE)
def test_nothing_on_a_supporter_is_said_to_be_on_it(world):
    for story in every_step(world):
        live, player, sight = story.simulation.world, story.definition.player, story.simulation.sight
        for tag in sight.visible_items(player):
            item = live.items[tag]
            if item.holds != ("on",) or live.children[tag] or not item.called:
                continue
            parsed = story.recognizer.recognize(f"take all from {item.called.lower()}", player, sight, Memory())
            if isinstance(parsed, NotUnderstood) and parsed.message.startswith("There is nothing"):
                assert f" on the {item.called}" in parsed.message, f"{world}: {parsed.message}"


def test_the_issues_phrasings_do_what_they_say():
    player = Player(Story(load_world("cloak_plus")), None)
    player.opening()
    assert 'You say "hello" to the dazed mime.' in player.command("say hello to mime").text
    assert "a few words with the dazed mime" in player.command("talk to mime").text
    assert player.command("x your cloak").text.startswith("Your velvet cloak is handsome velvet")
    assert "You leave the cloakroom." in player.command("w.e").text
    assert "ellipsis = 0;2" in player.command("spin ellipsis 0;2").text
    player.command("w")
    player.command("take lamp")
    player.command("turn on lamp")
    assert "You turn off the lamp." in player.command("snuff out the lamp").text
    assert "under the hook and find nothing" in player.command("look under hook").text
    assert "nothing on the small brass hook" in player.command("take all from hook").text
    player.command("e")
    player.command("enter massive sack")
    assert "You get out of the massive sack." in player.command("extricate").text


def test_the_visitor_goes_to_the_center_and_waits_for_the_friend():
    player = Player(Story(load_world("lost_one")), None)
    player.opening()
    assert "You are already there." in player.command("go to center").text
    assert "You wait." in player.command("wait for friend").text
    player.command("n")
    assert "Center of the plaza" in player.command("go to center").text


@pytest.mark.parametrize(
    ("line", "commands"),
    [
        ("w.e", ["w", "e"]),
        ("n.w.s", ["n", "w", "s"]),
        ("spin ellipsis 0;2", ["spin ellipsis 0;2"]),
        ("spin ellipsis 0;2;4-9; look", ["spin ellipsis 0;2;4-9", "look"]),
        ("save my.game; restore My.Game", ["save my.game", "restore My.Game"]),
        ("spin spins/odd.toml", ["spin spins/odd.toml"]),
        ("spin time 6.5", ["spin time 6.5"]),
        ('say "hi.bye"', ['say "hi.bye"']),
    ],
)
def test_a_line_is_split_as_players_type_it(line, commands):
    assert split_commands(line) == commands
