"""The Python client resumes by itself with the last number it saw: what its session was sent while its socket
was down comes among its notifications once and in order, or, when the server no longer holds it all, the
turns it missed retold; and `curveship play` shows it."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web

from clients.connection import Connection, ConnectionLost, Status
from protocol import messages as m
from server.app import HOST
from tests.clients.conftest import AUTHOR, FAST, PAIR, ROOT, WAIT, Running

pytestmark = pytest.mark.asyncio


async def _take(notes: AsyncIterator[m.Result], count: int) -> list[m.Result]:
    async with asyncio.timeout(WAIT):
        return [await anext(notes) for _ in range(count)]


async def _drop(running: Running, token: str) -> None:
    """The server stops taking connections and closes the sockets of this session (only its: others stay), as
    a network failure would."""
    assert running.site is not None
    await running.site.stop()
    for listener in list(running.app[HOST].sessions[token].listeners):
        await listener.__self__.socket.close(code=1012, message=b"gone")  # type: ignore[attr-defined]


async def _cut_off(running: Running, conn: Connection, heard: list[Status]) -> None:
    """The client's socket dropped by the server; returns once the client has noticed."""
    assert conn.token is not None
    await _drop(running, conn.token)
    async with asyncio.timeout(WAIT):
        while Status.RECONNECTING not in heard:
            await asyncio.sleep(0.01)


async def _play(running: Running, heard: list[Status]) -> tuple[Connection, Connection, AsyncIterator[m.Result]]:
    ann = Connection(running.url, author_token=AUTHOR, on_status=heard.append, backoff=FAST)
    bob = Connection(running.url)
    await ann.open()
    await bob.open()
    instance = (await ann.call("create", world=PAIR, seed=1)).instance
    await ann.call("join", instance=instance, actor="@ann", name="Ann")
    notes = ann.notifications()
    await bob.call("join", instance=instance, actor="@bob", name="Bob")
    await bob.call("command", text="wave")
    joined, waved = await _take(notes, 2)
    assert isinstance(joined, m.Presence) and isinstance(waved, m.Narration) and ann.seq == 2
    return ann, bob, notes


async def test_what_was_sent_while_the_socket_was_down_comes_once_and_in_order(running: Running) -> None:
    heard: list[Status] = []
    ann, bob, notes = await _play(running, heard)
    try:
        await _cut_off(running, ann, heard)
        took = await bob.call("command", text="take lamp")
        waves = [await bob.call("command", text="wave") for _ in range(2)]
        await running.listen()
        missed = await _take(notes, 3)
        assert [(type(note), note.seq, note.turn) for note in missed] == [  # type: ignore[attr-defined]
            (m.Narration, 3, took.turn),
            (m.Narration, 4, waves[0].turn),
            (m.Narration, 5, waves[1].turn),
        ]
        assert "Bob takes the brass lamp" in missed[0].text  # type: ignore[attr-defined]
        more = await bob.call("command", text="wave")
        (following,) = await _take(notes, 1)
        assert isinstance(following, m.Narration) and (following.seq, following.turn) == (6, more.turn)
        assert ann.arrived() == [], "nothing came twice"
    finally:
        await ann.close()
        await bob.close()


async def test_too_much_missed_is_retold() -> None:
    running = Running(resume_buffer=2)
    await running.listen()
    heard: list[Status] = []
    ann, bob, notes = await _play(running, heard)
    try:
        await _cut_off(running, ann, heard)
        for _ in range(3):
            await bob.call("command", text="wave")
        await running.listen()
        (retold,) = await _take(notes, 1)
        assert isinstance(retold, m.Reply) and retold.text == "Bob waves. He waves. He waves."
        more = await bob.call("command", text="wave")
        (following,) = await _take(notes, 1)
        assert isinstance(following, m.Narration) and following.turn == more.turn and following.seq == ann.seq
    finally:
        await ann.close()
        await bob.close()
        await running.close()


async def _read_until(stream: asyncio.StreamReader, wanted: str) -> str:
    seen = ""
    async with asyncio.timeout(WAIT):
        while wanted not in seen:
            line = await stream.readline()
            assert line, f"ended before {wanted!r}: {seen}"
            seen += line.decode()
    return seen


async def test_play_shows_what_it_missed_once_when_its_connection_comes_back(running: Running) -> None:
    async with Connection(running.url, author_token=AUTHOR) as ann:
        instance = (await ann.call("create", world=PAIR, seed=1)).instance
        await ann.call("join", instance=instance, actor="@ann", name="Ann")
        bob = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "clients.cli.main", "play", "--server", running.url, "--instance", instance),
            *("--actor", "@bob", "--name", "Bob", "--player"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        assert bob.stdin is not None and bob.stdout is not None and bob.stderr is not None
        try:
            await _read_until(bob.stdout, "porch")
            await ann.call("command", text="take lamp")
            assert "Ann takes the brass lamp" in await _read_until(bob.stdout, "lamp")
            (token,) = (s.token for s in running.app[HOST].sessions.values() if s.actor == "@bob")
            await _drop(running, token)
            await _read_until(bob.stderr, "reconnecting")
            await ann.call("command", text="wave")
            await ann.call("command", text="drop lamp")
            await running.listen()
            await _read_until(bob.stderr, "[reconnected]")
            await ann.call("command", text="say hello")
            shown = await _read_until(bob.stdout, "hello")
            assert shown.count("Ann waves") == 1 and shown.count("drops the brass lamp") == 1, shown
            assert shown.index("Ann waves") < shown.index("drops the brass lamp") < shown.index("hello"), shown
            bob.stdin.close()
            assert await asyncio.wait_for(bob.wait(), WAIT) == 0
        finally:
            if bob.returncode is None:
                bob.kill()
                await bob.wait()


class Cutter:
    """A WebSocket proxy between a client and the server, on a loopback port of its own: it passes frames both
    ways until the client sends one holding `cut`; it passes that one on, and from then on nothing back, then
    closes both sides, so the server takes the call and its answer is lost on the way, as a network failure
    would lose it. Later sockets pass through whole."""

    def __init__(self, target: str, cut: str) -> None:
        self.target, self.cut = target, cut
        self.runner: web.AppRunner | None = None
        self.url = ""
        self.cuts = 0

    async def __aenter__(self) -> Cutter:
        app = web.Application()
        app.router.add_get("/ws", self.relay)
        self.runner = web.AppRunner(app, shutdown_timeout=0.5)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{self.runner.addresses[0][1]}"
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self.runner is not None
        await self.runner.cleanup()

    async def relay(self, request: web.Request) -> web.WebSocketResponse:
        client = web.WebSocketResponse()
        await client.prepare(request)
        address = self.target.replace("http", "ws", 1) + "/ws"
        bearer = {key: value for key, value in request.headers.items() if key == "Authorization"}
        async with aiohttp.ClientSession() as http, http.ws_connect(address, headers=bearer) as server:
            cut = asyncio.Event()

            async def back() -> None:
                async for frame in server:
                    if cut.is_set():
                        return
                    await client.send_str(frame.data)

            backwards = asyncio.create_task(back())
            async for frame in client:
                if self.cut in frame.data and not self.cuts:
                    self.cuts += 1
                    cut.set()
                    await server.send_str(frame.data)
                    break
                await server.send_str(frame.data)
            await client.close(code=1012, message=b"cut")
            await server.close()
            backwards.cancel()
        return client


async def test_an_answer_lost_on_the_way_comes_back_among_the_notifications(running: Running) -> None:
    async with (
        Cutter(running.url, "take lamp") as cutter,
        Connection(cutter.url, author_token=AUTHOR, backoff=FAST) as ann,
    ):
        instance = (await ann.call("create", world=PAIR, seed=1)).instance
        await ann.call("join", instance=instance, actor="@ann", name="Ann")
        notes = ann.notifications()
        with pytest.raises(ConnectionLost):
            await ann.call("command", text="take lamp")
        (again,) = await _take(notes, 1)
        assert isinstance(again, m.LostReply) and (again.method, again.seq, again.turn) == ("command", 1, 1)
        assert "brass lamp" in again.text
        assert (await ann.call("state")).inventory == ["@lamp"]
        assert (await ann.call("command", text="drop lamp")).seq == 2
