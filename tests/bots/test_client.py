"""The bot's client, async and sync, against a real server: a story played, told, searched and left, through
the protocol's own types; notifications as an iterator and as a callback."""

from __future__ import annotations

import asyncio
import threading

import pytest

from clients.bots import AsyncBot, Bot, CallError, Status
from protocol import messages as m
from protocol.errors import Code
from tests.bots.conftest import WAIT, Running
from tests.helpers import until

WALK = ("w", "hang cloak on hook", "e", "s", "read message")


@pytest.mark.asyncio
async def test_a_bot_plays_cloak_to_its_win_and_reads_the_score(running: Running) -> None:
    async with AsyncBot(running.url) as bot:
        opening = await bot.play("cloak", seed=2)
        assert isinstance(opening, m.JoinResult) and opening.text.startswith("Cloak of Darkness")
        assert (bot.instance, bot.actor) == (opening.instance, "@operagoer")
        assert "go west" in await bot.actions()
        scores = []
        for line in WALK:
            reply = await bot.command(line)
            assert isinstance(reply, m.Reply)
            scores.append((await bot.state()).score)
        assert scores == [0, 1, 1, 1, 2]
        state = await bot.state()
        assert (state.ended, state.max_score, state.moves, state.room_name) == (True, 2, 5, "Foyer Bar")
        assert "YOU HAVE WON" in reply.text
        with pytest.raises(CallError) as ended:
            await bot.command("look")
        assert ended.value.code == Code.ENDED
        told = await bot.narrate(spin="memoir")
        assert "hung" in told.text or "put" in told.text
        concept = await bot.concept()
        assert concept.actor == "@operagoer" and concept.tree.children
        assert (await bot.spin(time="after")).time == "after"
        await bot.leave()
        assert bot.instance is None
        with pytest.raises(CallError) as gone:
            await bot.state()
        assert gone.value.code == Code.NO_SESSION


@pytest.mark.asyncio
async def test_save_restore_and_fork_through_the_bot(running: Running) -> None:
    async with AsyncBot(running.url) as bot:
        await bot.play("cloak", seed=1)
        await bot.command("w")
        assert (await bot.save("here")).turn == 1
        await bot.command("hang cloak on hook")
        kept = bot.token
        before = await bot.state()
        forked = await bot.fork()
        assert (bot.instance, bot.token) == (forked.instance, forked.token) and forked.origin == before.instance
        await bot.command("e; s; read message")
        assert (await bot.state()).ended
        assert kept is not None
        back = await bot.resume(kept)
        assert back.instance == before.instance
        again = await bot.state()
        assert (again.hash, again.turn, again.ended) == (before.hash, before.turn, False)
        await bot.restore("here")
        assert (await bot.state()).inventory == ["@cloak"]
        with pytest.raises(CallError) as unknown:
            await bot.play("atlantis")
        assert unknown.value.code == Code.UNKNOWN and "atlantis" in unknown.value.message


@pytest.mark.asyncio
async def test_notifications_come_as_an_async_iterator(running: Running) -> None:
    async with AsyncBot(running.url) as mime, AsyncBot(running.url) as goer:
        instance = await goer.create("cloak_plus", seed=1)
        await goer.join(instance)
        await mime.join(instance, actor="@mime", name="Marcel")
        await goer.command("wave")
        async with asyncio.timeout(WAIT):
            async for note in mime.notifications():
                if isinstance(note, m.Narration):
                    break
        assert note.instance == instance and "wave" in note.text


def test_the_sync_bot_runs_its_own_server_and_hears_by_callback() -> None:
    heard: list[m.Result] = []
    told = threading.Event()

    def hear(note: m.Result) -> None:
        heard.append(note)
        if isinstance(note, m.Narration):
            told.set()

    with Bot() as goer:
        assert goer.url is not None and goer.url.startswith("http://127.0.0.1:")
        instance = goer.create("cloak_plus", seed=1)
        goer.join(instance)
        with Bot(goer.url, on_notification=hear) as mime:
            mime.join(instance, actor="@mime")
            assert goer.command("wave").turn == 1
            assert told.wait(WAIT), heard
            assert mime.state().room == "@foyer"
        assert any(isinstance(note, m.Narration) and "wave" in note.text for note in heard)
        assert [w.name for w in goer.worlds() if w.name == "cloak"] == ["cloak"]


@pytest.mark.asyncio
async def test_a_bot_rides_out_a_dropped_connection_and_says_when_its_session_is_gone(running: Running) -> None:
    heard: list[Status] = []
    async with AsyncBot(running.url, on_status=heard.append) as bot:
        await bot.play("cloak", seed=1)
        await bot.command("w")
        await running.drop()
        await running.listen()  # the same server, back: the bot reconnects and resumes by itself
        assert (await bot.command("hang cloak on hook")).turn == 2
        assert Status.RESUMED in heard
        await running.drop()
        await running.replace()  # a new server that never knew the session
        await until(lambda: Status.SESSION_LOST in heard, "the session reported lost", timeout=WAIT)
        with pytest.raises(CallError) as lost:
            await bot.state()
        assert lost.value.code == Code.NO_SESSION
