"""The toolbar: world, actor, room, turn, spin and key bindings; trouble first; the least needed left out
when the terminal is narrow."""

from __future__ import annotations

from clients.cli.scene import spin_summary
from clients.cli.terminal.toolbar import toolbar
from clients.connection import Status
from protocol.spin import Spin
from tests.terminal.scenes import cloakroom


def shown(scene, width=100, keys="emacs") -> str:
    return "".join(text for _, text, *_ in toolbar(scene, keys, width))


def test_world_actor_room_turn_spin_and_keys():
    assert shown(cloakroom()) == " cloak · @operagoer · cloakroom · turn 1 · during, chronicle · emacs (F4)"


def test_an_ended_story_says_so():
    scene = cloakroom()
    scene.ended = True
    assert "turn 1, ended" in shown(scene)


def test_trouble_with_the_connection_comes_first():
    scene = cloakroom()
    scene.link = Status.RECONNECTING
    assert shown(scene).startswith(" reconnecting… ")
    scene.link = Status.RESUMED
    assert "reconnecting" not in shown(scene)


def test_a_narrow_terminal_drops_the_keys_then_the_spin():
    assert shown(cloakroom(), width=60) == " cloak · @operagoer · cloakroom · turn 1 · during, chronicle"
    assert shown(cloakroom(), width=40) == " cloak · @operagoer · cloakroom · turn 1"
    assert shown(cloakroom(), width=20) == " cloak · turn 1"


def test_the_spin_in_a_few_words_names_only_what_departs_from_the_actors_own_telling():
    actor = "@teller"
    own = {"time": "during", "order": "chronicle", "narrator": None, "narratee": actor, "focalizer": actor}
    assert spin_summary(Spin(**own), actor) == "during, chronicle"
    told = own | {"time": "after", "narrator": "@guard", "focalizer": "@guard", "filters": ("hesitant",)}
    assert spin_summary(Spin(**told), actor) == "after, chronicle, told by @guard, through @guard, hesitant"
    assert spin_summary(Spin(**own | {"time": 6.5}), actor) == "time 6.5, chronicle"
    assert spin_summary(None, actor) == ""
    # memoir: told by whoever the story is told through — here the teller herself, then the guard.
    memoir = own | {"time": "after", "narrator": "focalizer"}
    assert spin_summary(Spin(**memoir), actor) == "after, chronicle, told by you"
    assert (
        spin_summary(Spin(**memoir | {"focalizer": "@guard"}), actor)
        == "after, chronicle, told by @guard, through @guard"
    )
