"""A cluster on loopback: three `serve --store postgresql://… --bus nats://…` nodes, each a process of its own, on
the run's PostgreSQL database and the machine's NATS. Players on different nodes share one instance, each told
through their own actor; the node holding it killed outright, another takes it up from the log within seconds
and the clients, back on any node, resume with nothing acknowledged lost; two nodes asked for one instance at
once, one holds it and writes it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest
import pytest_asyncio

from server.cluster.router import GONE, WORKER_HEADER
from tests.helpers import until
from tests.persistence.conftest import AUTHOR, WAIT, Process
from tests.wire import Address, Http, Lost, Socket

pytestmark = pytest.mark.asyncio

TAKEOVER = 30.0
"""Seconds allowed for an instance to be taken up after its holder is killed (a lease runs 5 s; the nodes
take one silent for 3 s as gone; a loaded two-core machine is slow to start three servers' work again)."""


class Node:
    """One node: its process, its name (as its answers give it) and a way to reach it."""

    def __init__(self, process: Process, http: aiohttp.ClientSession) -> None:
        self.process = process
        self.url = process.url
        self.http = http
        self.name = ""

    async def named(self) -> Node:
        async with self.http.get(self.url + "/health") as answer:
            self.name = answer.headers[WORKER_HEADER]
        return self

    def address(self) -> Address:
        return Address(self.http, self.url)

    async def socket(self) -> Socket:
        socket = await Socket.open(self.address())
        assert socket.ws._response is not None and socket.ws._response.headers[WORKER_HEADER] == self.name
        return socket


@pytest.fixture
def start(tmp_path: Path, postgres_url: str, nats_url: str) -> Iterator[Callable[[], Process]]:
    """start(): one more node of the cluster, serving; every one started is killed after the test."""
    started: list[Process] = []

    def start_() -> Process:
        process = Process(tmp_path / f"node{len(started)}", store=postgres_url, bus=nats_url)
        started.append(process)
        return process

    yield start_
    for process in started:
        process.kill()


@pytest_asyncio.fixture
async def cluster(start: Callable[[], Process]) -> AsyncIterator[list[Node]]:
    processes = [start() for _ in range(3)]  # started side by side, then waited for
    for process in processes:
        process.wait_until_serving()
    async with aiohttp.ClientSession() as http:
        yield [await Node(process, http).named() for process in processes]


async def _bank(node: Node, seed: int = 3) -> str:
    return str((await Http(node.address(), AUTHOR).ok("create", world="bank", seed=seed))["instance"])


async def _holder(url: str, instance: str) -> str:
    connection = await asyncpg.connect(url)
    try:
        return str(await connection.fetchval("SELECT owner FROM leases WHERE instance = $1", instance))
    finally:
        await connection.close()


async def _resumed(nodes: list[Node], token: str, last_seq: int) -> tuple[Socket, dict[str, Any], float]:
    """A socket on one of `nodes` with the session resumed (tried again until the instance is held again):
    the socket, the resume's answer, and when it came (time.monotonic())."""
    deadline = time.monotonic() + TAKEOVER
    tries = 0
    while True:
        socket = await nodes[tries % len(nodes)].socket()
        answer = await socket.call("resume", token=token, last_seq=last_seq)
        if "result" in answer:
            return socket, answer["result"], time.monotonic()
        await socket.close()
        assert time.monotonic() < deadline, f"never taken up: {answer}"
        tries += 1
        await asyncio.sleep(0.2)


async def test_players_on_different_nodes_share_one_instance_each_told_through_their_own_actor(
    cluster: list[Node], postgres_url: str
) -> None:
    a, b, c = cluster
    assert len({a.name, b.name, c.name}) == 3
    instance = await _bank(a)
    assert await _holder(postgres_url, instance) == a.name
    robber, teller = await b.socket(), await c.socket()
    assert (await robber.ok("join", instance=instance, actor="@robber", name="Rob"))["actor"] == "@robber"
    assert (await teller.ok("join", instance=instance, actor="@teller", name="Tess"))["actor"] == "@teller"
    joined = await robber.notification("presence")
    assert (joined["name"], joined["event"]) == ("Tess", "joined")

    went = await robber.ok("command", text="in")
    assert "Lobby" in went["text"]
    heard = await teller.notification("narration")
    assert heard["turn"] == went["turn"]
    assert heard["text"].startswith("A twitchy man enters the lobby."), "told through the teller, who sees him"

    waved = await teller.ok("command", text="wave")
    assert waved["text"] == "You wave."
    seen = await robber.notification("narration")
    assert seen["text"] == "The bank teller waves.", "told through the robber"

    # Any node lists the instance with both players, wherever they came in.
    for node in cluster:
        listed = {i["instance"]: i for i in (await Http(node.address()).ok("instances"))["instances"]}
        assert sorted(p["name"] for p in listed[instance]["players"]) == ["Rob", "Tess"]
    assert await _holder(postgres_url, instance) == a.name, "held where it was made, all along"


async def test_a_killed_holder_is_taken_over_and_its_players_resume_with_nothing_acknowledged_lost(
    cluster: list[Node], postgres_url: str
) -> None:
    a, b, c = cluster
    instance = await _bank(a, seed=5)
    robber, teller = await b.socket(), await c.socket()
    robbing = await robber.ok("join", instance=instance, actor="@robber", name="Rob")
    await teller.ok("join", instance=instance, actor="@teller", name="Tess")
    await robber.ok("command", text="in")
    heard = [(await teller.notification("narration"))["turn"]]  # the turns the teller was told

    acknowledged: list[dict[str, Any]] = []

    async def play() -> None:
        # The robber waves, as fast as the holder answers, until the holder is gone from under him.
        while True:
            try:
                answer = await robber.call("command", text="wave")
            except Lost:
                return
            if "error" in answer:
                return
            acknowledged.append(answer["result"])

    playing = asyncio.create_task(play())
    await until(lambda: len(acknowledged) >= 5, "the robber playing")
    a.process.kill()  # kill -9, mid-stream: no lease released, nothing said to anyone
    killed = time.monotonic()
    await asyncio.wait_for(playing, WAIT)
    # The sockets on the other nodes, bound to sessions the killed one held, are closed so their clients resume.
    # (The robber's closing frame ended his playing, which was reading his socket; the teller was idle.)
    closing, closed = await _until_closed(teller)
    heard += [n["params"]["turn"] for n in closing if n.get("method") == "narration"]
    assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == GONE, closed
    await _until_closed(robber)

    # Held by nobody now, it is still in the lobby, from its stored row, on either node left.
    for node in (b, c):
        listed = {i["instance"]: i for i in (await Http(node.address()).ok("instances"))["instances"]}
        assert listed[instance]["world"] == "bank" and listed[instance]["turn"] >= len(acknowledged)

    last_robber = acknowledged[-1]
    again, resumed, back = await _resumed([c, b], robbing["token"], last_robber["seq"])
    assert back - killed < TAKEOVER
    holder = await _holder(postgres_url, instance)
    assert holder in (b.name, c.name), "taken up by a node still there"
    # Every acknowledged command is in the story, told as it was answered; at most the one in flight more.
    assert resumed["turn"] in (last_robber["turn"], last_robber["turn"] + 1)
    told = (await again.ok("narrate", window="all"))["text"]
    assert len(acknowledged) <= told.count("You wave.") <= len(acknowledged) + 1
    went_on = await again.ok("command", text="look")
    assert went_on["turn"] == resumed["turn"] + 1 and "Lobby" in went_on["text"]

    # The teller comes back on the other node: what was missed is in the state, and its turns retold
    # through the teller.
    seen = max(heard)
    other = [node for node in (b, c) if node.name != holder] + [node for node in (b, c) if node.name == holder]
    assert teller.token is not None
    watcher, teller_back, _ = await _resumed(other, teller.token, 0)
    assert teller_back["state"]["turn"] == went_on["turn"], "where the story is, nothing dropped"
    missed = teller_back["state"]["turn"] - seen
    retold = (await watcher.ok("narrate", window=missed))["text"]
    assert retold.endswith("looks around."), f"the robber's look after the takeover, told to the teller: {retold}"
    if resumed["turn"] > seen:  # the wave in flight when the holder died was stored, though never heard
        assert "waves." in retold, retold


async def _until_closed(socket: Socket) -> tuple[list[dict[str, Any]], aiohttp.WSMessage]:
    """The messages a socket gets until it is closed (those kept already first), and the closing frame (its
    code and reason: the code the client's aiohttp keeps may be 1006, when the server hung up first)."""
    got = list(socket.notifications)
    async with asyncio.timeout(WAIT):
        while not isinstance(message := await socket.receive(), aiohttp.WSMessage):
            got.append(message)
    return got, message


async def test_two_nodes_asked_for_one_instance_at_once_one_holds_it_and_both_players_are_in_it(
    cluster: list[Node], postgres_url: str
) -> None:
    a, b, c = cluster
    instance = await _bank(a, seed=7)
    a.process.stop()  # SIGTERM: its leases released, so the instance is free for whoever is asked first
    robber, teller = await b.socket(), await c.socket()
    joined = await asyncio.gather(
        robber.ok("join", instance=instance, actor="@robber", name="Rob"),
        teller.ok("join", instance=instance, actor="@teller", name="Tess"),
    )
    assert [j["actor"] for j in joined] == ["@robber", "@teller"]
    holder = await _holder(postgres_url, instance)
    assert holder in (b.name, c.name)
    # One instance, one writer: the teller's wave reaches the robber, whichever node holds it.
    await robber.ok("command", text="in")
    await teller.ok("command", text="wave")
    told = [n["text"] for n in await _narrations(robber, 1)]
    assert told == ["The bank teller waves."]
    connection = await asyncpg.connect(postgres_url)
    try:
        turns = await connection.fetchval("SELECT count(*) FROM log WHERE instance = $1", instance)
    finally:
        await connection.close()
    state = await robber.ok("state")
    assert state["turn"] == 2 and turns >= 2


async def _narrations(socket: Socket, count: int) -> list[dict[str, Any]]:
    return [await socket.notification("narration") for _ in range(count)]
