"""The terminal screen playing against a real server on a loopback socket, its keyboard a pipe: the story
printed and wrapped, meta commands answered without reaching the world, the toolbar kept up to date, what
another player does shown while a line is half typed, a dropped connection said and survived, a resize."""

from __future__ import annotations

import asyncio
import re

import pytest

from clients.cli.meta import Desk, standard
from clients.cli.play import game
from clients.cli.scene import Scene
from clients.cli.status import StatusRelay
from clients.cli.terminal.app import TerminalScreen
from clients.cli.terminal.options import Options
from clients.cli.terminal.toolbar import toolbar
from clients.connection import Connection
from tests.clients.conftest import FAST, PAIR, Running
from tests.helpers import until
from tests.terminal.conftest import WAIT, Recording

pytestmark = pytest.mark.asyncio


class Game:
    """One reader at the terminal screen, joined to an instance; `play()` runs the game until the keys end."""

    def __init__(self, conn: Connection, keyboard, recording: Recording, *, look="color") -> None:
        self.conn, self.keyboard, self.recording, self.look = conn, keyboard, recording, look
        self.metas = standard()

    async def join(self, **joining) -> None:
        self.joined = await self.conn.call("join", **joining)
        self.scene = Scene.of(self.conn, self.joined)
        self.screen = TerminalScreen(
            self.scene, Options(look=self.look), self.metas.names, input=self.keyboard, output=self.recording
        )

    async def play(self) -> None:
        async with self.screen:
            await game(Desk(self.conn, self.scene, self.screen), self.metas, self.joined)
        await self.scene.settled()
        await self.scene.close()

    def toolbar(self) -> str:
        return "".join(part[1] for part in toolbar(self.scene, "emacs", 100))


async def test_a_game_played_at_the_terminal(server, keyboard, recording):
    url, token = server
    async with Connection(url, author_token=token) as conn:
        at = Game(conn, keyboard, recording)
        await at.join(instance=(await conn.call("create", world="cloak")).instance)
        keyboard.send_text("w\rhang cloak on hook\r:state\r:spin time after\r:narrate 1\r:nonsense\re\r\x04")
        await asyncio.wait_for(at.play(), WAIT)
    text = recording.text
    assert "Hurrying through the rainswept November night" in text
    assert "\n  You leave the foyer." in text  # paragraphs indented
    assert "\nCloakroom\n" in text  # headings flush
    assert "You put your velvet cloak on the hook." in text
    assert "turn: 2" in text and "room: @cloakroom (cloakroom)" in text  # :state, never a turn of the world
    assert "time = after" in text and "focalizer =" not in text  # :spin shows what it changed
    assert "You put your velvet cloak on a small brass hook." in text.split("time = after")[1]  # :narrate 1
    assert "there is no meta command :nonsense" in text
    assert "You left the cloakroom." in text  # the spin changed the telling
    assert at.toolbar() == " cloak · @operagoer · Foyer of the Opera House · turn 3 · after, chronicle · emacs (F4)"


async def test_what_another_player_does_appears_while_a_line_is_half_typed(server, keyboard, recording):
    url, token = server
    async with Connection(url, author_token=token) as conn, Connection(url) as bob:
        ann = Game(conn, keyboard, recording)
        instance = (await conn.call("create", world=PAIR)).instance
        await ann.join(instance=instance, actor="@ann", name="Ann")
        playing = asyncio.create_task(ann.play())
        buffer = ann.screen.session.default_buffer
        keyboard.send_text("look at the l")
        await until(lambda: buffer.text == "look at the l", "the keys typed")
        await bob.call("join", instance=instance, actor="@bob", name="Bob")
        await bob.call("command", text="wave")
        await until(lambda: "Bob waves." in recording.text, "Bob's wave")
        assert "[Bob joins, as @bob.]" in recording.text
        assert buffer.text == "look at the l" and buffer.cursor_position == len("look at the l")
        keyboard.send_text("\t")  # the line goes on, completed
        await until(lambda: buffer.text == "look at the lamp", "the completion")
        keyboard.send_text("\r\x04")
        await asyncio.wait_for(playing, WAIT)
    assert "brass" in recording.text.split("Bob waves.")[1]


async def test_a_dropped_connection_is_said_shown_in_the_toolbar_and_survived(keyboard, recording):
    running = Running()
    await running.listen()
    relay = StatusRelay()
    try:
        async with Connection(running.url, on_status=relay, backoff=FAST) as conn:
            at = Game(conn, keyboard, recording)
            await at.join(instance=(await conn.call("create", world="cloak")).instance)
            relay.listener = at.screen.status
            playing = asyncio.create_task(at.play())
            await until(lambda: at.scene.world == "cloak", "the first refresh")
            await running.drop()
            await until(lambda: "dropped; reconnecting" in recording.text, "the drop said")
            assert at.toolbar().startswith(" reconnecting… ")
            await running.listen()
            await until(lambda: "[reconnected]" in recording.text, "the return said")
            assert "reconnecting" not in at.toolbar()
            keyboard.send_text("w\r\x04")
            await asyncio.wait_for(playing, WAIT)
    finally:
        await running.close()
    assert "You leave the foyer." in recording.text
    assert at.scene.turn == 1


async def test_after_a_resize_the_last_reply_is_shown_again_at_the_new_width(server, keyboard, recording):
    url, token = server
    async with Connection(url, author_token=token) as conn:
        at = Game(conn, keyboard, recording)
        await at.join(instance=(await conn.call("create", world="cloak")).instance)
        playing = asyncio.create_task(at.play())
        await until(lambda: at.screen.session.app.is_running, "the prompt")
        recording.columns = 40
        shown = len(recording.text)  # the opening (and a toolbar naming the room) so far
        at.screen.session.app.invalidate()  # as a SIGWINCH would: the prompt is drawn again
        await until(lambda: recording.erased > 0, "the screen cleared")
        await until(lambda: "Foyer of the Opera House" in recording.text[shown:], "the reply again")
        keyboard.send_text("\x04")
        await asyncio.wait_for(playing, WAIT)
    again = recording.text.split("Foyer of the Opera House")[-1]
    lines = [line for line in again.split("\n") if line.startswith("  ") and line.strip()]
    assert lines and all(len(line) <= 39 for line in lines)


async def test_plain_is_unstyled_unindented_and_has_no_toolbar(server, keyboard, recording):
    url, token = server
    async with Connection(url, author_token=token) as conn:
        at = Game(conn, keyboard, recording, look="plain")
        await at.join(instance=(await conn.call("create", world="cloak")).instance)
        keyboard.send_text("w\r\x04")
        await asyncio.wait_for(at.play(), WAIT)
    text = recording.text
    assert "\nThe walls of this small room are pocked with the holes of hooks long gone, and only one is left" in text
    assert re.search(r"\n {2}\w", text) is None
    assert "turn 1" not in text and "(F4)" not in text
