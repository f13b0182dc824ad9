"""A scene as the client knows it in the cloakroom of Cloak of Darkness, without a server, for the tests of
what is drawn from it (completion, the toolbar, meta commands)."""

from __future__ import annotations

from typing import Any

from clients.cli.scene import Scene
from clients.cli.vocabulary import Vocabulary
from protocol import messages as m
from protocol.spin import Spin
from server.wire import vocabulary_result

CLOAKROOM_ACTIONS = [
    "look",
    "examine small brass hook",
    "take off velvet cloak",
    "put velvet cloak on small brass hook",
    "go east",
    "wait",
]
SPINS = [
    m.SpinInfo(name="prophecy", summary="foretold", spin={"time": "before"}),
    m.SpinInfo(name="retrograde", summary="backwards", spin={"order": "retrograde", "time_words": True}),
    m.SpinInfo(name="memoir", summary="remembered", spin={"time": "after"}),
]


def cloakroom(conn: Any = None) -> Scene:
    scene = Scene(conn, "abc123", "@operagoer")
    scene.world, scene.turn, scene.room = "cloak", 1, "@cloakroom"
    scene.known = {
        "@foyer": "foyer",
        "@cloakroom": "cloakroom",
        "@hook": "small brass hook",
        "@cloak": "velvet cloak",
    }
    scene.rooms = {"@foyer", "@cloakroom"}  # the rooms the operagoer knows
    scene.actions, scene.actions_turn = list(CLOAKROOM_ACTIONS), scene.turn
    scene.spin = Spin(focalizer="@operagoer", narratee="@operagoer")
    scene.readable = ["@operagoer"]
    scene._named = list(SPINS)
    scene.vocabulary = VOCABULARY
    return scene


VOCABULARY = Vocabulary.of(vocabulary_result([]))
"""The words the server's `vocabulary` gives, made as the server makes them."""
