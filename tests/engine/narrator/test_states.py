"""What held at an event's time — why an attempt failed, what a look showed — is told at that time, even when the
event is told out of order: "you had been unable to take it because you already had it", "that hall was grand";
and a description's verb slots take the telling's tense, so world authors may rely on them."""

from __future__ import annotations

from protocol.spin import apply
from server.catalog import load_spin, load_world
from server.engine.narrator import render
from server.engine.player import Player
from server.engine.story import Story

TWICE = ("w", "take hook", "take hook")


def recounted(lines: tuple[str, ...], *spins: str) -> str:
    player = Player(Story(load_world("cloak")), named_spins=load_spin)
    player.opening()
    for line in lines:
        player.command(line)
    for spin in spins:
        player.change_spin([spin])
    return player.recount().text


def test_a_failure_told_out_of_order_keeps_its_reason_at_its_own_time() -> None:
    told = recounted(TWICE, "retrograde", "time=after")
    assert "you had been unable to take the hook because it was fixed to the wall." in told
    assert "had been fixed" not in told


def test_a_failure_in_order_is_simply_past() -> None:
    told = recounted(TWICE, "time=after")
    assert "You were unable to take the hook because it was fixed to the wall." in told


def test_a_failure_foretold_out_of_order_keeps_its_reason_in_the_future() -> None:
    told = recounted(TWICE, "retrograde", "prophecy")
    assert "you will have been unable to take the hook because it will be fixed to the wall." in told
    assert "will have been fixed" not in told


def test_a_description_told_out_of_order_says_what_was_there_then() -> None:
    told = recounted(TWICE, "retrograde", "time=after")
    assert "only one was left" in told and "had been left" not in told


def test_a_description_template_takes_the_tense_of_the_telling() -> None:
    story = Story(load_world("cloak"))
    spin = story.spin
    template = "[this] hall [be/v] grand, and doorways [lead/2/v] south and west"

    def said(**settings: object) -> str:
        return render(story.simulation, apply(spin, settings), template, focalizer="@operagoer", seed=0)

    assert said() == "This hall is grand, and doorways lead south and west."
    assert said(time="after") == "That hall was grand, and doorways led south and west."
    assert said(time="before") == "That hall will be grand, and doorways will lead south and west."
    # Without /2 a verb after a bare plural noun agrees in the singular, as any verb with no subject slot does.
    assert render(story.simulation, spin, "doorways [lead/v] south", focalizer="@operagoer", seed=0) == (
        "Doorways leads south."
    )
