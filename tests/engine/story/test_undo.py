"""Undo and restart restore the telling exactly, the world's dynamic spin included: a turn told after undoing a
detour is told as if the detour had never been taken (Lost One's drift is part of what undo takes back)."""

from __future__ import annotations

from server.catalog import load_spin, load_world
from server.engine.player import Player
from server.engine.story import Story

DETOUR = ("n", "e", "s", "s")


def replies(lines: tuple[str, ...]) -> list[str]:
    player = Player(Story(load_world("lost_one")), named_spins=load_spin)
    player.opening()
    return [player.command(line).text for line in lines]


def test_a_detour_undone_leaves_the_world_as_it_was() -> None:
    # What undo already restores: where the visitor is, and the telling in force before the detour.
    told = replies(("look", *DETOUR, "undo", "undo", "undo", "undo"))
    assert told[-1].endswith("You are in the center of the plaza.")


def test_after_undoing_a_drift_the_next_turn_is_told_as_if_it_never_happened() -> None:
    straight = replies(("look", "look"))[-1]
    undone = replies(("look", *DETOUR, "undo", "undo", "undo", "undo", "look"))[-1]
    assert undone == straight
    assert "seemed" not in undone and "You see" in undone


def test_after_a_restart_the_first_turn_is_told_as_at_the_start() -> None:
    fresh = replies(("look",))[-1]
    restarted = replies((*DETOUR, "restart", "look"))[-1]
    assert restarted == fresh


def test_a_spin_the_player_chose_is_kept_through_undo_and_restart() -> None:
    player = Player(Story(load_world("lost_one")), named_spins=load_spin)
    player.opening()
    player.command("spin time after")
    player.command("n")
    player.command("undo")
    assert player.spin.time == "after"
    player.command("restart")
    assert player.spin.time == "after"
    told = player.command("look").text
    assert "You saw the plastic scrap there." in told and "You see" not in told
