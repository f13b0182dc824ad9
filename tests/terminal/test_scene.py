"""What the client learns of its session against a real server: which tags are actors and whose concepts it
may read (for :concept's completion), the rooms it knows, and each room as the story heads it (for the
toolbar), and that a turn taken back by someone else is caught up with."""

from __future__ import annotations

import asyncio

import pytest

from clients.cli.scene import Scene
from clients.connection import Connection
from tests.clients.conftest import PAIR
from tests.helpers import until
from tests.terminal.conftest import WAIT
from tests.terminal.test_app import Game

pytestmark = pytest.mark.asyncio


async def test_an_author_may_read_every_actors_concept_and_a_player_only_its_own(server):
    url, token = server
    async with Connection(url, author_token=token) as author, Connection(url) as player:
        instance = (await author.call("create", world=PAIR)).instance
        ann = Scene.of(author, await author.call("join", instance=instance, actor="@ann"))
        bob = Scene.of(player, await player.call("join", instance=instance, actor="@bob"))
        for scene in (ann, bob):
            await scene.refresh()
    assert ann.askable == ["@ann", "@bob"] and bob.askable == ["@bob"]
    assert ann.actor_tags == ["@ann", "@bob"] and bob.actor_tags == ["@bob", "@ann"]  # any of them may narrate
    assert "@lamp" in ann.known and "@lamp" not in ann.actors  # a lamp is no actor


async def test_a_room_is_named_as_the_story_heads_it_and_is_no_thing_to_take(server):
    url, token = server
    async with Connection(url, author_token=token) as conn:
        instance = (await conn.call("create", world="cloak")).instance
        scene = Scene.of(conn, await conn.call("join", instance=instance))
        await scene.refresh()
        assert scene.room_name == "Foyer of the Opera House"
        await conn.call("command", text="s")  # into the dark bar: still headed as the story heads it
        await scene.refresh()
        assert scene.room_name == "Foyer Bar"
        for command in ("n", "w"):
            await conn.call("command", text=command)
        await scene.refresh()
        assert scene.room_name == "Cloakroom"
        assert {"@foyer", "@bar", "@cloakroom"} <= scene.rooms and "@hook" not in scene.rooms
        assert "foyer" not in scene.things() and "foyer" not in scene.things(looking=True)
        assert "cloakroom" in scene.things(looking=True) and "cloakroom" not in scene.things()
        assert "small brass hook" in scene.things()


async def test_a_turn_taken_back_by_an_author_is_caught_up_with_when_it_is_told(server, keyboard, recording):
    """Undo, restart and restore by an author change the story for everyone; the server tells the others
    with a narration of the turn it is back at, and the client then asks where things stand again."""
    url, token = server
    async with Connection(url, author_token=token) as author, Connection(url) as player:
        instance = (await author.call("create", world=PAIR)).instance
        await author.call("join", instance=instance, actor="@ann")
        bob = Game(player, keyboard, recording)
        await bob.join(instance=instance, actor="@bob")
        await player.call("command", text="wave")
        playing = asyncio.create_task(bob.play())
        await until(lambda: bob.scene.turn == 1, "the game under way, at turn 1")
        taken_back = await author.call("command", text="undo")
        assert taken_back.turn == 0
        # The server tells Bob; the client shows it and asks where things stand again.
        await until(lambda: bob.scene.turn == 0, "the turn caught up with")
        await until(lambda: "took back the last turn; it is turn 0 now." in recording.text, "the news shown")
        keyboard.send_text("\x04")
        await asyncio.wait_for(playing, WAIT)
    assert " turn 0 " in bob.toolbar()
