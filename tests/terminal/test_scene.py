"""What the client learns of its session against a real server: which tags are actors and whose concepts it
may read (for :concept's completion), the rooms it has been in, and each room as the story heads it (for the
toolbar), and that a turn taken back by someone else is caught up with."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from clients.cli.scene import Scene
from clients.connection import Connection
from protocol import messages as m
from tests.clients.conftest import PAIR
from tests.terminal.conftest import WAIT, until
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
        joined = await conn.call("join", instance=instance)
        scene = Scene.of(conn, joined)
        scene.told(joined.blocks)  # the opening: the story's title, then the foyer's heading
        await scene.refresh()
        assert scene.room_name == "Foyer of the Opera House"
        for command in ("s", "n", "w"):  # into the dark bar, where a heading is given all the same
            reply = await conn.call("command", text=command)
            scene.told(reply.blocks)
            await scene.refresh()
        assert scene.headings["@bar"] == "Foyer Bar" and scene.room_name == "Cloakroom"
        assert "foyer" not in scene.things() and "foyer" not in scene.things(looking=True)
        assert "cloakroom" in scene.things(looking=True) and "cloakroom" not in scene.things()
        retold = await conn.call("narrate", window="all")  # many headings: none is taken for the room here
        scene.told(retold.blocks)
        await scene.refresh()
        assert scene.room_name == "Cloakroom"


async def test_a_heading_that_does_not_name_the_room_is_not_taken_for_it(server):
    url, token = server
    async with Connection(url, author_token=token) as conn:
        instance = (await conn.call("create", world="cloak")).instance
        scene = Scene.of(conn, await conn.call("join", instance=instance))
        scene.told([m.Block(kind="heading", text="Cloak of Darkness")])  # the title alone
        await scene.refresh()
    assert scene.room_name == "foyer"  # the concept's name, rather than a wrong one


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
        # The notification as the server words it, whether or not this server sends it yet.
        note = m.Narration(instance=instance, turn=0, text="The story is taken back to turn 0.", blocks=[])
        player.receive({"jsonrpc": "2.0", "method": "narration", "params": msgspec.to_builtins(note)})
        await until(lambda: bob.scene.turn == 0, "the turn caught up with")
        await until(lambda: "The story is taken back to turn 0." in recording.text, "the news shown")
        keyboard.send_text("\x04")
        await asyncio.wait_for(playing, WAIT)
    assert " turn 0 " in bob.toolbar()
