"""The limits that keep one client from taking the server: commands a line, turns charged to the rate, the
instances a server holds, calls without a session per address, batch length, and long batches that let
everyone else in."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.helpers import StepClock
from tests.server.conftest import Server, Start, world_path
from tests.wire import Client, Http, error_of

pytestmark = pytest.mark.asyncio

SLOW = 0.001
"""A slow rate, on a clock that stands still (a StepClock never stepped): nothing refills while a test runs, so
what a burst allows is all there is."""


def request(id_: int, method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "method": method, "params": params}


async def seated(server: Server, client: Client) -> None:
    """The client joins a new instance of the two players' world (made by an author, as it is named by path)."""
    await client.ok("join", instance=await server.create(world_path("duo")))


# -- commands a line ----------------------------------------------------------------------------------------------


async def test_a_line_of_more_commands_than_allowed_is_refused_whole(start: Start, transport: str) -> None:
    server = await start()
    client = await server.client(transport)
    await seated(server, client)
    error = await client.fail(-32602, "command", text="wait; " * 330)
    assert error["data"]["field"] == "text"
    assert "16" in error["data"]["reason"] and "330" in error["data"]["reason"]
    assert (await client.ok("state"))["turn"] == 0, "nothing of the line was done"
    assert (await client.ok("command", text="; ".join(["wait"] * 16)))["turn"] == 16


async def test_the_commands_a_line_may_hold_are_a_setting(start: Start) -> None:
    server = await start(max_commands=2)
    client = Http(server)
    await seated(server, client)
    await client.fail(-32602, "command", text="wait; wait; wait")
    assert (await client.ok("command", text="wait; wait"))["turn"] == 2


async def test_each_command_of_a_line_is_charged_to_the_rate(start: Start, transport: str) -> None:
    server = await start(clock=StepClock(), rate=SLOW, burst=20)
    client = await server.client(transport)
    await seated(server, client)  # join: no session yet, charged to the address
    assert (await client.ok("command", text="; ".join(["wait"] * 16)))["turn"] == 16  # 16 of 20
    error = await client.fail(-32006, "command", text="; ".join(["wait"] * 5))  # 5 more do not fit
    assert error["data"]["rate"] == SLOW
    assert (await client.ok("command", text="wait; wait"))["turn"] == 18, "what fits is done"
    await client.fail(-32006, "command", text="wait; wait; wait")
    assert (await client.ok("state"))["turn"] == 18


async def test_a_batch_of_lines_cannot_outrun_the_rate(start: Start) -> None:
    server = await start(clock=StepClock(), rate=SLOW, burst=60)
    client = Http(server)
    await seated(server, client)
    line = "; ".join(["wait"] * 16)
    status, answers = await server.post([request(n, "command", text=line) for n in range(20)], token=client.token)
    assert status == 200
    done = [answer for answer in answers if "result" in answer]
    assert len(done) == 3 and all(error_of(a, -32006) for a in answers[3:])
    assert done[-1]["result"]["turn"] == 48


async def test_a_line_too_long_for_any_burst_still_goes_through(start: Start) -> None:
    server = await start(clock=StepClock(), rate=SLOW, burst=4)
    client = Http(server)
    await seated(server, client)
    assert (await client.ok("command", text="; ".join(["wait"] * 8)))["turn"] == 8
    await client.fail(-32006, "state")


# -- instances --------------------------------------------------------------------------------------------------


async def test_a_server_holds_at_most_so_many_instances(start: Start, transport: str) -> None:
    server = await start(max_instances=3)
    client = await server.client(transport)
    made = [(await client.ok("create", world="cloak"))["instance"] for _ in range(3)]
    error = await client.fail(-32006, "create", world="cloak")
    assert error["data"] == {"limit": "instances", "max": 3}
    assert "3" in error["message"] and "instances" in error["message"]
    listed = {info["instance"] for info in (await client.ok("instances"))["instances"]}
    assert listed == set(made)
    joined = await client.ok("join", instance=made[0])  # the instances there are still served
    assert joined["instance"] == made[0]


async def test_creating_is_limited_per_address(start: Start) -> None:
    # An address may make 30 requests at once here (ten sessions' worth); a create counts as ten.
    server = await start(clock=StepClock(), rate=SLOW, burst=3)
    answers = [await Http(server).call("create", world="cloak") for _ in range(5)]
    assert [("result" in answer) for answer in answers] == [True, True, True, False, False]
    error_of(answers[3], -32006)


async def test_one_batch_cannot_fill_the_server(start: Start) -> None:
    server = await start(clock=StepClock(), rate=SLOW, instances_per_address=1000)  # the rate alone, here
    status, answers = await server.post([request(n, "create", world="cloak") for n in range(100)])
    assert status == 200 and len(answers) == 100
    made = [answer for answer in answers if "result" in answer]
    assert len(made) == 60, "an address's burst (600 requests) holds 60 creates"
    assert all(answer["error"]["code"] == -32006 for answer in answers if "error" in answer)


async def test_discovery_is_limited_per_address(start: Start) -> None:
    server = await start(clock=StepClock(), rate=SLOW, burst=1)
    answers = [await Http(server).call("rpc.discover") for _ in range(12)]
    assert sum("result" in answer for answer in answers) == 10
    error_of(answers[-1], -32006)


# -- batches ------------------------------------------------------------------------------------------------------


async def test_a_batch_longer_than_allowed_is_one_error(start: Start, transport: str) -> None:
    server = await start(max_batch=5)
    members = [request(n, "worlds") for n in range(6)]
    if transport == "http":
        status, answer = await server.post(members)
        assert status == 200
    else:
        socket = await server.socket()
        await socket.send(members)
        answer = await socket.receive()
    assert isinstance(answer, dict), "one error object for the whole batch, not an array"
    error = error_of(answer, -32007)
    assert error["data"] == {"limit": "batch", "max": 5} and "5" in error["message"]
    assert answer["id"] is None
    status, answers = await server.post(members[:5])
    assert status == 200 and [answer["id"] for answer in answers] == [0, 1, 2, 3, 4]


async def test_a_long_batch_lets_other_clients_in(start: Start) -> None:
    """While a long batch of creates is worked through, /health and other clients are answered: they see the
    batch half done, not before or after it."""
    server = await start(rate=1e6, burst=1e6, instances_per_address=1000)
    batch = asyncio.create_task(server.post([request(n, "create", world="robbery") for n in range(100)]))
    seen: list[int] = []
    health: list[int] = []
    while not batch.done():
        async with server.http.get(server.url + "/health") as response:
            health.append(response.status)
        seen.append(len((await Http(server).ok("instances"))["instances"]))
    status, answers = await batch
    assert status == 200 and all("result" in answer for answer in answers)
    assert any(0 < count < 100 for count in seen), f"nobody was answered while the batch ran: {seen}"
    assert health and set(health) == {200}
