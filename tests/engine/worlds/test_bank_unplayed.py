"""The bank when its players do nothing: whoever nobody plays carries the story on to one of its three endings,
and the bank's rooms are described in the tense of the telling."""

from __future__ import annotations

import pytest

from server.catalog import load_spin, load_world
from server.engine.player import Player
from server.engine.story import Story

MOST_TURNS = 25
"""However passive the players, the story ends well within this many turns."""


def idle_players(*played: str) -> tuple[Story, Player, list[str]]:
    """A bank with `played` taken up, the first of them only ever waiting until the story ends (or time is up)."""
    story = Story(load_world("bank"))
    players = {}
    for actor in played:
        story.take(actor)
        players[actor] = Player(story, actor, named_spins=load_spin)
        players[actor].opening()
    waiting = players[played[0]]
    replies = []
    while not story.ended and story.turn < MOST_TURNS:
        replies.append(waiting.command("wait").text)
    return story, waiting, replies


def endings(story: Story) -> list[str]:
    return [e.action.verb for e in story.simulation.events if e.done and e.action.final]


def test_a_teller_who_only_waits_sees_the_robber_grow_impatient_until_his_shout_wakes_the_guard():
    story, _, replies = idle_players("@teller")
    told = " ".join(replies)
    assert "The twitchy man brandishes a gun-shaped object at you." in told
    assert "The twitchy man jabs the gun-shaped object at you again, demanding the money." in told
    assert "The twitchy man shouts through the mask for the money." in told
    assert "A burly guard enters the lobby." in told
    assert story.ended and endings(story) == ["cry"]
    assert replies[-1].endswith("The twitchy man falls. He dies. You cry.")


def test_a_guard_who_only_waits_hears_the_robber_get_away_over_the_counter():
    story, _, replies = idle_players("@guard")
    told = " ".join(replies)
    assert "The twitchy man shouts through the mask for the money." in told
    assert "The twitchy man vaults over the counter." in told
    assert "The twitchy man vaults back over the counter." in told
    assert story.ended and endings(story) == ["escape"]
    assert story.simulation.world.parent("@bag") == "@robber"


def test_with_teller_and_guard_both_idle_the_robber_helps_himself_to_the_bag():
    story, _, replies = idle_players("@teller", "@guard")
    told = " ".join(replies)
    assert "The twitchy man vaults over the counter." in told
    assert "The twitchy man takes the black bag." in told
    assert story.ended and endings(story) == ["escape"]


def test_nobody_playing_tells_no_impatience():
    story = Story(load_world("bank"))
    while not story.ended:
        story.idle()
    verbs = {e.action.verb for e in story.simulation.events if e.done}
    assert not verbs & {"urge", "shout", "vault"}


@pytest.mark.parametrize(
    ("actor", "spin", "told"),
    [
        ("@teller", "memoir", "That was the teller's area, behind a counter."),
        ("@teller", "prophecy", "That will be the teller's area, behind a counter."),
        ("@guard", "memoir", "That was a cramped room with a stool and a one-way mirror."),
        ("@robber", "memoir", "Cars passed along that ordinary street outside the bank."),
    ],
)
def test_the_bank_is_described_in_the_tense_of_the_telling(actor, spin, told):
    story = Story(load_world("bank"))
    story.take(actor)
    player = Player(story, actor, named_spins=load_spin)
    player.opening()
    player.change_spin([spin])
    assert told in player.command("look").text
