"""Presence: a player whose connection is gone for a while is detached (the others hear they left, and their
actor goes back to its script and may be taken up), and is seated again by resume if the actor is still free."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from server.app import Config, create_app
from tests.server.conftest import AUTHOR, Http, Server, Socket, Start, world_path

pytestmark = pytest.mark.asyncio

GRACE = 0.2
"""How long a session may be without a connection in these tests before it is detached."""


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


async def test_a_player_whose_socket_drops_is_detached_and_their_actor_goes_back_to_its_script(start: Start) -> None:
    server = await start(detach_after=GRACE)
    instance, ann, bob = await pair(server)
    assert "hums" not in (await ann.ok("command", text="wait"))["text"], "a played actor waits, untold"
    await bob.ws.close()
    left = await ann.notification("presence")
    assert (left["event"], left["actor"], left["name"]) == ("left", "@bob", "Bob")
    assert await players(server, instance) == [{"name": "Ann", "actor": "@ann"}]
    assert "Bob hums a tune" in (await ann.ok("command", text="wait"))["text"], "Bob follows his script again"


async def test_a_detached_players_actor_may_be_taken_up_and_resume_then_says_so(start: Start) -> None:
    server = await start(detach_after=GRACE)
    instance, ann, bob = await pair(server)
    token = bob.token
    await bob.ws.close()
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
    server = await start(detach_after=GRACE)
    instance, ann, bob = await pair(server)
    token = bob.token
    await bob.ws.close()
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
    server = await start(detach_after=GRACE)
    instance = await server.create(world_path("hummers"))
    ann = await server.socket()
    await ann.ok("join", instance=instance, actor="@ann")
    bob = Http(server)
    await bob.ok("join", instance=instance, actor="@bob", name="Bob")
    assert (await ann.notification("presence"))["event"] == "joined"
    assert (await ann.notification("presence"))["event"] == "left"  # Bob said nothing for a while
    reply = await bob.ok("command", text="wait")  # and is back, as himself
    assert reply["turn"] == 1 and "Bob waits" in reply["text"] and "hums" not in reply["text"]
    assert (await ann.notification("presence"))["event"] == "joined"
    assert (await bob.ok("state"))["actor"] == "@bob"


async def test_a_player_with_a_socket_open_is_never_detached(start: Start) -> None:
    server = await start(detach_after=GRACE)
    instance, ann, _bob = await pair(server)
    await asyncio.sleep(GRACE * 4)  # several sweeps pass
    assert [message for message in await ann.drain(0.1) if message.get("method") == "presence"] == []
    assert {p["name"] for p in await players(server, instance)} == {"Ann", "Bob"}


async def test_a_detached_session_long_unseen_expires(start: Start) -> None:
    server = await start(detach_after=GRACE, session_idle=GRACE * 2)
    instance, ann, bob = await pair(server)
    await bob.ws.close()
    assert (await ann.notification("presence"))["event"] == "left"
    await asyncio.sleep(GRACE * 10)  # long enough for it to expire (a call would count as seeing it)
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
    async with Running(tmp_path, detach_after=GRACE) as server:
        instance, ann, bob = await pair(server)
        await bob.ws.close()
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
