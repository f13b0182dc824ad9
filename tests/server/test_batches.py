"""Batches on a running server: answered in order, one response per request, notifications unanswered, and
commands to one instance applied one at a time."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.server.conftest import Server, world_path
from tests.wire import Http, Socket, error_of, result_of

pytestmark = pytest.mark.asyncio


def request(id_: Any, method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "method": method, "params": params}


def notification(method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": params}


async def send_batch(
    server: Server, transport: str, batch: list[Any], token: str | None = None, *, answered: bool = True
) -> Any:
    """A batch's answer over one transport: the array, or None when nothing came back (as it must not be)."""
    if transport == "http":
        status, answer = await server.post(batch, token=token)
        assert status == (200 if answered else 204) and (answer is not None) == answered
        return answer
    socket = await server.socket(token=token)
    await socket.send(batch)
    if not answered:
        assert await socket.drain(0.3) == []
        return None
    answer = await socket.receive()
    assert await socket.drain(0.05) == [], "one answer to one batch"
    return answer


async def joined(server: Server, world: str = "cloak") -> str:
    return str((await Http(server).play(world))["token"])


async def test_answers_come_in_the_order_asked(server: Server, transport: str) -> None:
    token = await joined(server)
    ids = ["w", 2, "three", 4, 5.5, "six"]
    methods = ["worlds", "state", "spins", "narrate", "instances", "actions"]
    answer = await send_batch(server, transport, [request(i, m) for i, m in zip(ids, methods, strict=True)], token)
    assert [a["id"] for a in answer] == ids
    assert "worlds" in result_of(answer[0]) and "hash" in result_of(answer[1])
    assert "spins" in result_of(answer[2]) and "text" in result_of(answer[3])


async def test_one_response_per_request_bad_ones_too(server: Server, transport: str) -> None:
    token = await joined(server)
    batch = [
        request(1, "state"),
        request(2, "teleport"),
        42,
        {"jsonrpc": "1.0", "method": "state", "id": 4},
        request(5, "command", txt="look"),
        request(6, "command", text="w"),
        request(7, "concept", actor="@nobody"),
        request(8, "state"),
    ]
    answer = await send_batch(server, transport, batch, token)
    assert len(answer) == len(batch)
    assert [a["id"] for a in answer] == [1, 2, None, None, 5, 6, 7, 8]
    error_of(answer[1], -32601)
    error_of(answer[2], -32600)
    error_of(answer[3], -32600)
    assert error_of(answer[4], -32602)["data"]["field"] == "txt"
    assert result_of(answer[5])["turn"] == 1
    error_of(answer[6], -32001)
    assert result_of(answer[7])["room"] == "@cloakroom" and result_of(answer[7])["turn"] == 1


async def test_notifications_are_done_but_not_answered(server: Server, transport: str) -> None:
    token = await joined(server)
    batch = [request(1, "state"), notification("command", text="w"), notification("teleport"), request(2, "state")]
    answer = await send_batch(server, transport, batch, token)
    assert [a["id"] for a in answer] == [1, 2]
    assert result_of(answer[0])["room"] == "@foyer" and result_of(answer[1])["room"] == "@cloakroom"


async def test_a_batch_of_notifications_gets_no_reply(server: Server, transport: str) -> None:
    token = await joined(server)
    batch = [notification("command", text="w"), notification("command", text="hang cloak on hook")]
    assert await send_batch(server, transport, batch, token, answered=False) is None
    state = await Http(server, token).ok("state")
    assert state["turn"] == 2 and state["inventory"] == []


async def test_a_notification_alone_gets_no_reply(server: Server) -> None:
    token = await joined(server)
    status, answer = await server.post(notification("command", text="w"), token=token)
    assert status == 204 and answer is None
    socket = await server.socket(token=token)
    await socket.send(notification("command", text="e"))
    await socket.send(notification("no such method"))
    state = await socket.call("state")
    assert result_of(state)["turn"] == 2 and result_of(state)["room"] == "@foyer"


async def test_a_batch_over_websocket_is_one_frame(server: Server) -> None:
    socket = await server.socket()
    await socket.play("cloak")
    await socket.send([request("a", "command", text="w"), request("b", "state")])
    answer = await socket.receive()
    assert isinstance(answer, list) and [a["id"] for a in answer] == ["a", "b"]
    assert await socket.drain(0.2) == []


async def test_commands_in_a_batch_apply_in_order(server: Server, transport: str) -> None:
    token = await joined(server)
    commands = ["w", "hang cloak on hook", "e", "s", "n", "w"]
    batch = [request(n, "command", text=text) for n, text in enumerate(commands)]
    answer = await send_batch(server, transport, [*batch, request("last", "state")], token)
    assert [result_of(a)["turn"] for a in answer[:-1]] == [1, 2, 3, 4, 5, 6]
    state = result_of(answer[-1])
    assert state["room"] == "@cloakroom" and state["inventory"] == []


async def test_batches_to_one_instance_never_interleave(server: Server, transport: str) -> None:
    instance = await server.create(world_path("duo"))
    tokens = []
    for actor in ("@ann", "@bob"):
        tokens.append((await Http(server).ok("join", instance=instance, actor=actor))["token"])
    size, rounds = 8, 3
    batches = [
        [request(f"{who}{r}-{n}", "command", text="jump") for n in range(size)]
        for r in range(rounds)
        for who in range(2)
    ]
    owners = [tokens[i % 2] for i in range(len(batches))]

    async def send(batch: list[Any], token: str) -> Any:
        if transport == "http":
            return (await server.post(batch, token=token))[1]
        socket: Socket = await server.socket(token=token)
        return await socket.batch(batch)

    answers = await asyncio.gather(*(send(b, t) for b, t in zip(batches, owners, strict=True)))
    turns: list[int] = []
    for answer in answers:
        got = [result_of(a)["turn"] for a in answer]
        assert got == list(range(got[0], got[0] + size)), f"a batch's commands were interleaved: {got}"
        turns += got
    assert sorted(turns) == list(range(1, size * len(batches) + 1)), "every command applied exactly once"
    assert (await Http(server, tokens[0]).ok("state"))["turn"] == size * len(batches)
