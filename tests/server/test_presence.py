"""Presence: a player whose connection is gone for a while is detached (the others hear they left, and their
actor goes back to its script and may be taken up), and is seated again by resume if the actor is still free."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from server.app import HOST, Config, create_app
from tests.helpers import StepClock, until
from tests.server.conftest import AUTHOR, Server, Start, world_path
from tests.wire import Http, Socket

pytestmark = pytest.mark.asyncio

GRACE = 0.2
"""How long a session may be without a connection in these tests before it is detached, on a clock the test
steps; the server sweeps for the idle every GRACE/4 seconds (of the real time), so a step is seen at once."""


async def present(start: Start, **settings: Any) -> tuple[Server, StepClock]:
    """A server whose clock the test steps, detaching sessions GRACE after their last connection."""
    clock = StepClock()
    return await start(detach_after=GRACE, clock=clock, **settings), clock


async def dropped(server: Server, socket: Socket) -> None:
    """Close a player's socket, and wait until the server has seen it go: from then its grace runs."""
    session = server.app[HOST].sessions[str(socket.token)]
    await socket.ws.close()
    await until(lambda: not session.listeners, "the server saw the socket close")


async def pair(server: Server) -> tuple[str, Socket, Socket]:
    """An instance of the hummers' world with Ann and Bob each played over a socket of their own."""
    instance = await server.create(world_path("hummers"))
    ann, bob = await server.socket(), await server.socket()
    await ann.ok("join", instance=instance, actor="@ann", name="Ann")
    await bob.ok("join", instance=instance, actor="@bob", name="Bob")
    assert (await ann.notification("presence"))["event"] == "joined"
    return instance, ann, bob


async def players(server: Server, instance: str) -> list[dict[str, Any]]:
    listed = (await Http(server, AUTHOR).ok("instances"))["instances"]
    return list(next(info for info in listed if info["instance"] == instance)["players"])


async def _nobody(server: Server, instance: str) -> bool:
    return not await players(server, instance)


async def test_a_player_whose_socket_drops_is_detached_and_their_actor_goes_back_to_its_script(start: Start) -> None:
    server, clock = await present(start)
    instance, ann, bob = await pair(server)
    assert "hums" not in (await ann.ok("command", text="wait"))["text"], "a played actor waits, untold"
    await dropped(server, bob)
    clock.step(GRACE * 2)
    left = await ann.notification("presence")
    assert (left["event"], left["actor"], left["name"]) == ("left", "@bob", "Bob")
    assert await players(server, instance) == [{"name": "Ann", "actor": "@ann"}]
    assert "Bob hums a tune" in (await ann.ok("command", text="wait"))["text"], "Bob follows his script again"


async def test_a_detached_players_actor_may_be_taken_up_and_resume_then_says_so(start: Start) -> None:
    server, clock = await present(start)
    instance, ann, bob = await pair(server)
    token = bob.token
    await dropped(server, bob)
    clock.step(GRACE * 2)
    await ann.notification("presence")
    cyd = await server.socket()
    assert (await cyd.ok("join", instance=instance, actor="@bob", name="Cyd"))["actor"] == "@bob"
    back = await server.socket()
    error = await back.fail(-32004, "resume", token=token)
    assert "@bob" in error["message"] and "Cyd" in error["message"]
    await Http(server, token).fail(-32004, "command", text="wait")
    assert (await Http(server, token).ok("leave")) == {}, "a detached session may always leave"
    await back.fail(-32002, "resume", token=token)
    assert {p["name"] for p in await players(server, instance)} == {"Ann", "Cyd"}


async def test_resume_seats_a_detached_player_again(start: Start) -> None:
    server, clock = await present(start)
    instance, ann, bob = await pair(server)
    token = bob.token
    await dropped(server, bob)
    clock.step(GRACE * 2)
    assert (await ann.notification("presence"))["event"] == "left"
    back = await server.socket()
    resumed = await back.ok("resume", token=token)
    assert (resumed["instance"], resumed["actor"]) == (instance, "@bob")
    joined = await ann.notification("presence")
    assert (joined["event"], joined["actor"], joined["name"]) == ("joined", "@bob", "Bob")
    assert {p["name"] for p in await players(server, instance)} == {"Ann", "Bob"}
    assert "hums" not in (await ann.ok("command", text="wait"))["text"], "Bob is played again, so he waits"
    assert (await back.ok("command", text="wait"))["turn"] == 2
    await Http(server).fail(-32004, "join", instance=instance, actor="@bob")


async def test_a_player_back_before_the_grace_ends_was_never_away(start: Start) -> None:
    server = await start()  # the default grace: minutes
    instance, ann, bob = await pair(server)
    await bob.ws.close()
    back = await server.socket()
    assert (await back.ok("resume", token=bob.token))["actor"] == "@bob"
    assert [message for message in await ann.drain(0.3) if message.get("method") == "presence"] == []
    assert {p["name"] for p in await players(server, instance)} == {"Ann", "Bob"}


async def test_a_player_over_http_alone_is_detached_when_silent_and_seated_by_their_next_call(start: Start) -> None:
    server, clock = await present(start)
    instance = await server.create(world_path("hummers"))
    ann = await server.socket()
    await ann.ok("join", instance=instance, actor="@ann")
    bob = Http(server)
    await bob.ok("join", instance=instance, actor="@bob", name="Bob")
    assert (await ann.notification("presence"))["event"] == "joined"
    clock.step(GRACE * 2)
    assert (await ann.notification("presence"))["event"] == "left"  # Bob said nothing for a while
    reply = await bob.ok("command", text="wait")  # and is back, as himself
    assert reply["turn"] == 1 and "Bob waits" in reply["text"] and "hums" not in reply["text"]
    assert (await ann.notification("presence"))["event"] == "joined"
    assert (await bob.ok("state"))["actor"] == "@bob"


async def test_a_player_with_a_socket_open_is_never_detached(start: Start) -> None:
    server, clock = await present(start)
    instance, ann, _bob = await pair(server)
    silent = await server.create(world_path("hummers"))  # a witness that a sweep came after the step
    await Http(server).ok("join", instance=silent, actor="@bob")
    clock.step(GRACE * 4)
    await until(lambda: _nobody(server, silent), "the silent witness detached")
    assert [message for message in await ann.drain(0.1) if message.get("method") == "presence"] == []
    assert {p["name"] for p in await players(server, instance)} == {"Ann", "Bob"}


async def test_a_detached_session_long_unseen_expires(start: Start) -> None:
    server, clock = await present(start, session_idle=GRACE * 2)
    instance, ann, bob = await pair(server)
    await dropped(server, bob)
    clock.step(GRACE * 1.5)  # detached, not yet expired
    assert (await ann.notification("presence"))["event"] == "left"
    clock.step(GRACE * 10)  # long enough for it to expire (a call would count as seeing it)
    await until(lambda: bob.token not in server.app[HOST].sessions, "the session expired")
    await Http(server).fail(-32002, "resume", token=bob.token)
    await Http(server, bob.token).fail(-32002, "state")
    assert [message for message in await ann.drain(0.1) if message.get("method") == "presence"] == [], (
        "nobody hears a player leave twice"
    )
    assert (await Http(server).ok("join", instance=instance, actor="@bob"))["actor"] == "@bob"


# -- across a restart ---------------------------------------------------------------------------------------------


class Running:
    """A server on a data directory, started and stopped by the test."""

    def __init__(self, data: Path, **settings: Any) -> None:
        self.config = Config(author_token=AUTHOR, data=data, **settings)
        self.runner = web.AppRunner(create_app(self.config))

    async def __aenter__(self) -> Server:
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.http = aiohttp.ClientSession()
        port = self.runner.addresses[0][1]
        return Server(f"http://127.0.0.1:{port}", self.runner.app, self.http)

    async def __aexit__(self, *exc_info: object) -> None:
        await self.http.close()
        await self.runner.cleanup()


async def test_a_detached_session_stays_detached_across_a_restart(tmp_path: Path) -> None:
    clock = StepClock()
    async with Running(tmp_path, detach_after=GRACE, clock=clock) as server:
        instance, ann, bob = await pair(server)
        await dropped(server, bob)
        clock.step(GRACE * 2)
        assert (await ann.notification("presence"))["event"] == "left"
        tokens = ann.token, bob.token
        await ann.ws.close()
    async with Running(tmp_path) as server:
        assert await players(server, instance) == [{"name": "Ann", "actor": "@ann"}]
        assert "Bob hums a tune" in (await Http(server, tokens[0]).ok("command", text="wait"))["text"]
        cyd = Http(server)
        await cyd.ok("join", instance=instance, actor="@bob", name="Cyd")
    async with Running(tmp_path) as server:
        await Http(server).fail(-32004, "resume", token=tokens[1])
        assert {p["name"] for p in await players(server, instance)} == {"Ann", "Cyd"}
        await cyd_leaves(server, cyd.token)
        back = await server.socket()
        assert (await back.ok("resume", token=tokens[1]))["actor"] == "@bob"
        assert {p["name"] for p in await players(server, instance)} == {"Ann", "Bob"}
        await back.ws.close()


async def cyd_leaves(server: Server, token: str | None) -> None:
    assert await Http(server, token).ok("leave") == {}
