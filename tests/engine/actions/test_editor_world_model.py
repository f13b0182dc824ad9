"""The world model, read by an editor: no one is carried about as a thing, putting oneself in something is
entering it, what was given away is not shown or waved, and what is fixed stays fixed — swept over every world,
as it begins and once its walkthrough is played, and never offered by `actions` where it would be refused."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.catalog import load_world
from server.engine.actions import verbs
from server.engine.actions.preconditions import failure
from server.engine.parser.recognize import Memory, Understood
from server.engine.player import Player
from server.engine.snapshot import capture, resume
from server.engine.story import Story
from tests.engine.editor import WORLDS, played

INTERACTIVE = [name for name in WORLDS if load_world(name).interactive]


def moments(name: str) -> Iterator[Story]:
    """The world's story as it begins, and a copy of it once its walkthrough is played."""
    definition = load_world(name)
    yield Story(definition, seed=0)
    yield resume(definition, capture(played(name)))


def tried(story: Story, command: str) -> list[str] | None:
    """The reasons each action of `command` would fail for the player, tried and not done (None: the command
    is not understood here, or asks which thing was meant)."""
    actor, simulation = story.definition.player, story.simulation
    parsed = story.recognizer.recognize(command, actor, simulation.sight, Memory())
    if not isinstance(parsed, Understood):
        return None
    reasons = [failure(action, simulation.world, simulation.sight) for action in parsed.actions]
    return [reason.name if reason else "" for reason in reasons]


def names(story: Story, tags: list[str]) -> list[tuple[str, str]]:
    """Each tag with the name a player types for it (only what has a name of its own)."""
    items = story.simulation.world.items
    return [(tag, items[tag].called.lower()) for tag in tags if items[tag].called]


@pytest.mark.parametrize("world", INTERACTIVE)
def test_no_one_is_carried_put_away_or_handed_over_by_another(world):
    for story in moments(world):
        live, player = story.simulation.world, story.definition.player
        others = [tag for tag, item in live.items.items() if item.kind == "actor" and tag != player]
        holders = [tag for tag, item in live.items.items() if item.holds and item.kind == "thing"]
        for other in others:
            moves = [verbs.take(player, other), verbs.give(player, other, player)]
            moves += [verbs.put(player, other, link, holder) for holder in holders for link in live.items[holder].holds]
            moves += [verbs.remove(player, other, holder) for holder in holders]
            for move in moves:
                reason = failure(move, live, story.simulation.sight)
                assert reason is not None, f"{world}: {move.told_as} would be done to {other}"
        for command in story.possible_commands(player):
            parsed = story.recognizer.recognize(command, player, story.simulation.sight, Memory())
            assert isinstance(parsed, Understood)
            moved = [a.direct for a in parsed.actions if a.verb in ("take", "put", "remove", "give")]
            assert not set(moved) & set(others), f"{world}: actions offers {command!r}"


def test_the_mime_cannot_be_put_in_the_large_sack_and_taken_out_as_something_had():
    player = Player(Story(load_world("cloak_plus")), None)
    player.opening()
    player.command("take large sack")
    told = player.command("put mime in large sack").text
    assert "he is not something to carry about" in told
    assert "dazed mime" not in player.command("i").text.split(". You are wearing")[0]


@pytest.mark.parametrize("world", INTERACTIVE)
def test_putting_oneself_in_something_is_getting_into_it(world):
    for story in moments(world):
        live, player = story.simulation.world, story.definition.player
        seen = story.simulation.sight.visible_items(player)
        containers = [tag for tag in seen if "in" in live.items[tag].holds and live.items[tag].kind == "thing"]
        for tag, name in names(story, containers):
            put_in, entered = tried(story, f"put me in {name}"), tried(story, f"enter {name}")
            assert put_in == entered, f"{world}: put me in {tag}: {put_in}, enter: {entered}"


def test_put_me_in_the_large_sack_says_what_enter_says():
    replies = []
    for command in ("put me in large sack", "enter large sack"):
        player = Player(Story(load_world("cloak_plus")), None)
        player.opening()
        replies.append(player.command(command).text.split(".")[0])
    assert replies[0] == replies[1] == "You are unable to get into the large sack because it is not a place to get into"


@pytest.mark.parametrize("world", INTERACTIVE)
def test_what_another_has_is_not_shown_waved_or_done_with(world):
    for story in moments(world):
        live, player = story.simulation.world, story.definition.player
        seen = story.simulation.sight.visible_items(player)
        others = [tag for tag in seen if live.items[tag].kind == "actor" and tag != player]
        theirs = [tag for tag in seen if live.parent(tag) in others and live.items[tag].kind == "thing"]
        struck = [n for t, n in names(story, seen) if live.items[t].kind == "thing" and t not in theirs][:1]
        for tag, name in names(story, theirs):
            showing = [f"show {name} to {n}" for _, n in names(story, others)]
            for command in (f"wave {name}", *showing, *(f"strike {n} with {name}" for n in struck)):
                reasons = tried(story, command)
                assert reasons is None or all(reasons), f"{world}: {command!r} would be done with {tag}"
            done_with = (f"wave {name} at ", f"show {name} to ")
            offered = [c for c in story.possible_commands(player) if c == f"wave {name}" or c.startswith(done_with)]
            assert not offered, f"{world}: actions offers {offered}"


def test_the_ticket_given_to_the_mime_cannot_be_shown_to_him():
    player = Player(Story(load_world("cloak_plus")), None)
    player.opening()
    player.command("give ticket to mime")
    assert "because you do not have it" in player.command("show ticket to mime").text
    assert "because you do not have it" in player.command("wave ticket").text


@pytest.mark.parametrize("world", INTERACTIVE)
def test_what_is_fixed_is_not_freed_waved_or_shaken(world):
    for story in moments(world):
        live, player = story.simulation.world, story.definition.player
        seen = story.simulation.sight.visible_items(player)
        fixed = [tag for tag in seen if live.link(tag) == "part_of" and live.items[tag].mention]
        offered = story.possible_commands(player)
        for tag, name in names(story, fixed):
            for verb in ("free", "wave", "shake"):
                reasons = tried(story, f"{verb} {name}")
                assert reasons is None or all(reasons), f"{world}: {verb} {tag} would be done"
                assert f"{verb} {name}" not in offered, f"{world}: actions offers {verb} {name}"


def test_the_hook_is_fixed_to_the_wall():
    player = Player(Story(load_world("cloak")), None)
    player.opening()
    player.command("w")
    for verb in ("free", "wave", "shake"):
        told = player.command(f"{verb} hook").text
        assert f"You are unable to {verb} the hook because it is fixed to the wall." in told
