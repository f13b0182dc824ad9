"""Instances and saves: a quota of live instances per address, the server's limit held under concurrent creates,
idle instances retired (an author's kept), and a cap on an instance's saves."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from server.app import HOST
from tests.helpers import StepClock, disk_space, largest_file
from tests.server.conftest import AUTHOR, Server, Start, world_path
from tests.server.latency import a_player, unhurt
from tests.wire import Http

pytestmark = pytest.mark.asyncio

FAST = {"rate": 1e6, "burst": 1e6}


async def create_from(server: Server, address: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json", "X-Forwarded-For": address}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = {"jsonrpc": "2.0", "id": 1, "method": "create", "params": {"world": "cloak"}}
    async with server.http.post(server.url + "/rpc", data=json.dumps(body), headers=headers) as response:
        return dict(await response.json())


async def test_one_address_may_make_so_many_instances(start: Start) -> None:
    server = await start(instances_per_address=5, trusted_proxies=("127.0.0.1",), **FAST)

    async def fill(stop: asyncio.Event) -> list[dict[str, Any]]:
        made = []
        while not stop.is_set():
            made.append(await create_from(server, "198.51.100.1"))
        return made

    made = await unhurt(await a_player(server), fill)
    assert sum("result" in answer for answer in made) == 5
    refused = made[5:]
    assert refused and all(a["error"]["data"]["limit"] == "instances_per_address" for a in refused)
    assert "result" in await create_from(server, "198.51.100.2"), "another address is not held to it"
    assert "result" in await create_from(server, "198.51.100.1", AUTHOR), "nor is an author"


async def test_creates_at_once_cannot_pass_the_servers_limit(start: Start, tmp_path: Path) -> None:
    server = await start(max_instances=10, data=tmp_path / "data", **FAST)
    author = Http(server, AUTHOR)
    bystander = await a_player(server)  # the bystander's own instance is one of the ten

    async def at_once(stop: asyncio.Event) -> list[dict[str, Any]]:
        """Forty creates at once, then one after another for as long as the bystander is timed."""
        answers = await asyncio.gather(*(author.call("create", world="cloak", seed=n) for n in range(40)))
        while not stop.is_set():
            answers.append(await author.call("create", world="cloak"))
        return answers

    answers = await unhurt(bystander, at_once)
    assert sum("result" in answer for answer in answers) == 9
    assert all(a["error"]["data"]["limit"] == "instances" for a in answers if "error" in a)
    assert len((await author.ok("instances"))["instances"]) == 10


async def test_idle_instances_are_retired_and_authors_kept(start: Start, tmp_path: Path) -> None:
    clock = StepClock()
    server = await start(clock=clock, instance_idle=3600.0, data=tmp_path / "data", **FAST)
    host = server.app[HOST]
    stranger = Http(server)
    left = (await stranger.ok("create", world="cloak"))["instance"]
    await stranger.ok("join", instance=left)
    await stranger.ok("leave")
    played = Http(server)
    await played.play("cloak")
    authors = (await Http(server, AUTHOR).ok("create", world="cloak"))["instance"]
    clock.step(3000.0)
    assert await host.retire_idle(3600.0) == [], "not idle long enough yet"
    clock.step(700.0)
    retired = await host.retire_idle(3600.0)
    assert [instance.id for instance in retired] == [left]
    await stranger.fail(-32001, "join", instance=left)
    assert await Http(server).ok("join", instance=authors), "an author's instance is kept"
    assert (await played.ok("command", text="look"))["turn"] == 1, "one with a player goes on"


async def test_an_instance_keeps_so_many_saves(start: Start, tmp_path: Path) -> None:
    server = await start(max_saves=3, data=tmp_path / "data", **FAST)  # the saves are held back, not the rate
    player = Http(server)
    await player.play("cloak")

    async def saving(stop: asyncio.Event) -> list[dict[str, Any]]:
        answers, names = [], iter(f"save{n}" for n in range(10**6))
        while not stop.is_set():
            answers.append(await player.call("save", name=next(names)))
        return answers

    answers = await unhurt(await a_player(server), saving)
    assert [a["result"]["name"] for a in answers[:3]] == ["save0", "save1", "save2"]
    refused = [a["error"] for a in answers[3:]]
    assert refused and all(e["code"] == -32006 for e in refused)
    assert {"limit": "saves", "max": 3} in [e.get("data") for e in refused]
    error = await player.fail(-32006, "save", name="four")
    assert error["data"] == {"limit": "saves", "max": 3} and "save2" in error["message"]
    await player.fail(-32006, "command", text="save four")
    await player.ok("command", text="look")
    assert (await player.ok("save", name="save1"))["turn"] == 1, "a name already used is overwritten"
    assert (await player.ok("restore", name="save1"))["turn"] == 1


async def test_a_change_the_store_cannot_take_is_explained(start: Start, tmp_path: Path) -> None:
    server = await start(data=tmp_path / "data")
    player = Http(server)
    await player.play("cloak")
    keeper = server.app[HOST].keeper
    assert keeper is not None
    disk_space(keeper.store, 0)  # the disk goes away: every write fails from now on
    error = await player.fail(-32603, "command", text="look")
    assert error["message"].startswith("The change could not be stored, so it is not made"), error
    assert (await Http(server).ok("worlds"))["worlds"], "the server goes on answering"


async def test_inputs_shows_a_player_only_their_own_commands(server: Server) -> None:
    instance = await server.create(world_path("duo"))
    ann, bob = Http(server), Http(server)
    await ann.ok("join", instance=instance, actor="@ann")
    await bob.ok("join", instance=instance, actor="@bob")
    await ann.ok("command", text="say my secret plan")
    await bob.ok("command", text="look")
    told = (await bob.ok("command", text="inputs"))["text"]
    assert "look" in told and "secret" not in told


async def test_an_instance_out_of_service_for_a_full_disk_comes_back_when_writes_succeed(
    start: Start, tmp_path: Path
) -> None:
    server = await start(data=tmp_path / "data")
    host = server.app[HOST]
    keeper = host.keeper
    assert keeper is not None
    player = Http(server)
    joined = await player.play("cloak")
    before = await player.ok("state")
    disk_space(keeper.store, largest_file(tmp_path / "data"))  # the disk is full: no file may grow
    error = None
    for _ in range(500):
        answer = await player.call("command", text="say " + "words " * 300)
        if "error" in answer:
            error = answer["error"]
            break
    assert error is not None and error["code"] == -32603 and "could not be stored" in error["message"]
    await player.fail(-32002, "state")
    disk_space(keeper.store, None)  # space freed
    assert await host.revive() == [joined["instance"]]
    state = await player.ok("state")
    assert state["instance"] == before["instance"] and state["turn"] >= before["turn"]
    assert (await player.ok("command", text="look"))["turn"] == state["turn"] + 1
