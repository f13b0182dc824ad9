"""Speed in play: however fast the spin, a command is answered by what the commanded actor did; speed trims only
the others' minor events and the descriptions that come with arriving."""

from __future__ import annotations

from protocol.spin import apply
from server.catalog import load_spin, load_world
from server.engine.player import Player
from server.engine.story import Story
from tests.helpers import sentences, tell


def played(world: str, lines: list[str], **settings: object) -> list[str]:
    story = Story(load_world(world))
    player = Player(story, named_spins=load_spin)
    player.spin = apply(player.spin, settings)
    player.opening()
    return [player.command(line).text for line in lines]


def test_at_full_speed_every_command_is_answered() -> None:
    replies = played("cloak", ["west", "look", "take hook", "inventory"], speed=1.0)
    assert all(reply.strip() for reply in replies), replies
    went, looked, took, stock = replies
    assert "You leave the foyer." in went and "Cloakroom" in went
    assert "You are unable to take the hook because it is fixed to the wall." in took
    assert stock == "You are wearing a velvet cloak."
    # A look asked for is described in full; the one that came with arriving only says what is there.
    assert "pocked with the holes of hooks" in looked
    assert "pocked with the holes of hooks" not in went and "On the wall, you see a small brass hook." in went


def test_a_refusal_is_told_however_fast_the_spin() -> None:
    replies = played("cloak", ["north"], speed=1.0)
    assert replies == ["You have only just arrived, and besides, the weather outside is turning nasty."]


def test_the_same_commands_tell_the_same_actions_at_any_speed() -> None:
    lines = ["west", "take hook", "e", "s"]
    slow = played("cloak", lines, speed=0.5)
    fast = played("cloak", lines, speed=1.0)
    for quick, full in zip(fast, slow, strict=True):
        told = [s for s in sentences(quick) if s.startswith("You")]
        assert told and all(s in full for s in told), (quick, full)


def test_speed_still_trims_what_no_one_commanded() -> None:
    # In a story that runs by itself nobody is commanded: a fast spin keeps only the most salient events.
    fast = sentences(tell("robbery", speed=1.0))
    assert "A twitchy man puts on a Dora the Explorer mask." not in fast
    assert "The twitchy man falls." in fast
