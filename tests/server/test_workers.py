"""`curveship serve --workers 2`: real processes on one port, players landing on either, each hearing the others
wherever their instance is held; commands kept in order; a game kept across a restart; costly calls holding
up no one else."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from clients.connection import CallError, Connection, Retrying
from clients.transports.websocket import WebSocketTransport
from protocol.errors import Code
from server.app import HOST
from server.cluster.handoff import instance_named
from server.cluster.placement import owner_of
from server.cluster.router import WORKER_HEADER
from tests.helpers import until
from tests.processes import free_port, wait_for_line
from tests.server.conftest import AUTHOR, WAIT, Http, Server, Socket

pytestmark = pytest.mark.asyncio

START = 60.0
"""Seconds two workers have to start on a loaded two-core machine (each imports the server anew)."""
TRIES = 200
"""Connections tried before giving up on landing one on a given worker (the kernel picks, by a hash)."""


class Workers:
    """A `curveship serve --workers 2` process on a free port, and clients of it."""

    def __init__(self, url: str, process: subprocess.Popen[str], http: aiohttp.ClientSession) -> None:
        self.url = url
        self.process = process
        self.server = Server(url, None, http)  # type: ignore[arg-type]  # a server in another process: no app
        self.http = http

    async def socket_on(self, worker: int, token: str | None = None) -> Socket:
        """A WebSocket the kernel gave to `worker`: connects until one lands there, closing the others."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        for _ in range(TRIES):
            try:
                ws = await self.http.ws_connect(self.url + "/ws", headers=headers, max_msg_size=0)
            except aiohttp.WSServerHandshakeError:
                continue  # refused by another worker (full): the next may land on this one
            # The handshake's response says which worker took the connection.
            if int(ws._response.headers[WORKER_HEADER]) == worker:
                return Socket(ws)
            await ws.close()
        raise AssertionError(f"no connection landed on worker {worker} in {TRIES} tries")


@contextmanager
def serving(*extra: str, data: Path | None = None) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    port = free_port()
    command = [sys.executable, "-m", "clients.cli.main", "serve", "--port", str(port), "--workers", "2", *extra]
    if data is not None:
        command += ["--data", str(data)]
    env = {**os.environ, "CURVESHIP_AUTHOR_TOKEN": AUTHOR}
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        # Printed once every worker listens: /health would answer as soon as the first one did.
        wait_for_line(process, "listening on", time.monotonic() + START)
        yield url, process
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=START)


@asynccontextmanager
async def workers(*extra: str, data: Path | None = None) -> AsyncIterator[Workers]:
    with serving(*extra, data=data) as (url, process):
        # A connection each request: one kept alive would go to the worker that took it, every time.
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as http:
            yield Workers(url, process, http)


@pytest_asyncio.fixture
async def two() -> AsyncIterator[Workers]:
    async with workers("--rate", "1000", "--burst", "1000") as running:
        yield running


def other_than(worker: int) -> int:
    return 1 - worker


# -- players on two workers in one instance ----------------------------------------------------------------


async def test_players_on_two_workers_in_one_bank_instance_hear_each_other(two: Workers) -> None:
    instance = await two.server.create("bank", seed=3)
    held_by = owner_of(instance, 2)
    # The robber's socket is on the worker holding the instance, the teller's on the other: forwarded.
    robber = await two.socket_on(held_by)
    teller = await two.socket_on(other_than(held_by))
    robbing = await robber.ok("join", instance=instance, actor="@robber", name="Rob")
    telling = await teller.ok("join", instance=instance, actor="@teller", name="Tess")
    assert robbing["actor"] == "@robber" and telling["actor"] == "@teller"
    assert await robber.notification("presence") == {
        "instance": instance,
        "name": "Tess",
        "actor": "@teller",
        "event": "joined",
        "seq": 1,  # the robber's first message after joining (sequence numbers reach across workers)
    }

    went = await robber.ok("command", text="in")
    assert "Lobby" in went["text"]
    heard = await teller.notification("narration")
    assert heard["instance"] == instance and heard["turn"] == went["turn"]
    assert heard["text"].startswith("A twitchy man enters the lobby."), "told through the teller, who sees him"

    waved = await teller.ok("command", text="wave")
    assert waved["text"] == "You wave."
    seen = await robber.notification("narration")
    assert seen["turn"] == waved["turn"] and seen["text"] == "The bank teller waves."

    listed = {i["instance"]: i for i in (await teller.ok("instances"))["instances"]}
    assert sorted(p["actor"] for p in listed[instance]["players"]) == ["@robber", "@teller"]

    assert await teller.ok("leave") == {}
    assert (await robber.notification("presence"))["event"] == "left"


async def test_commands_from_two_workers_to_one_instance_stay_in_order(two: Workers) -> None:
    instance = await two.server.create("bank", seed=5)
    robber = await two.socket_on(0)
    teller = await two.socket_on(1)
    await robber.ok("join", instance=instance, actor="@robber")
    await teller.ok("join", instance=instance, actor="@teller")
    await robber.ok("command", text="in")  # into the lobby, where each sees what the other does
    await teller.notification("narration")

    async def play(socket: Socket, text: str) -> list[int]:
        return [(await socket.ok("command", text=text))["turn"] for _ in range(12)]

    robbed, told = await asyncio.gather(play(robber, "wave"), play(teller, "smile"))
    assert robbed == sorted(robbed) and told == sorted(told), "each player's turns come in order"
    first = min(robbed + told)
    assert sorted(robbed + told) == list(range(first, first + 24)), "each command one turn, none lost or shared"
    heard_by_teller = [(await teller.notification("narration"))["turn"] for _ in robbed]
    heard_by_robber = [(await robber.notification("narration"))["turn"] for _ in told]
    assert heard_by_teller == robbed, "the teller heard each wave, in the order they were made"
    assert heard_by_robber == told, "and the robber each smile"


async def test_a_batch_for_sessions_on_both_workers_is_answered_where_each_belongs(two: Workers) -> None:
    first, second = await two.server.create("lost_one", seed=1), await two.server.create("lost_one", seed=2)
    assert {owner_of(first, 2), owner_of(second, 2)} == {0, 1}
    one, other = await two.socket_on(0), await two.socket_on(1)
    kept = (await one.ok("join", instance=first))["token"], (await other.ok("join", instance=second))["token"]
    await one.ok("command", text="look")
    await one.ws.close()
    await other.ws.close()
    both = await two.socket_on(0)
    members = []
    for index, token in enumerate(kept):
        members += [
            {"jsonrpc": "2.0", "id": 2 * index, "method": "resume", "params": {"token": token}},
            {"jsonrpc": "2.0", "id": 2 * index + 1, "method": "state", "params": {}},
        ]
    answers = {answer["id"]: answer["result"] for answer in await both.batch(members)}
    assert (answers[1]["instance"], answers[1]["turn"]) == (first, 1)
    assert (answers[3]["instance"], answers[3]["turn"]) == (second, 0)
    assert (await both.ok("command", text="look"))["turn"] == 1, "the socket plays the session resumed last"
    assert (await both.ok("state"))["instance"] == second


# -- sockets placed where their instance is held -----------------------------------------------------------

PLACED_TRIES = 12
"""Sockets opened naming each instance: were they dealt out at random, all landing on its holder would
happen once in 2**12 runs."""


async def landed(http: aiohttp.ClientSession, url: str) -> int:
    """The worker that took a WebSocket opened at `url` (its handshake says)."""
    ws = await http.ws_connect(url)
    try:
        return int(ws._response.headers[WORKER_HEADER])
    finally:
        await ws.close()


async def test_a_socket_that_names_its_instance_is_opened_on_the_worker_holding_it(two: Workers) -> None:
    made = [await two.server.create("bank", seed=seed) for seed in (1, 2)]
    assert {owner_of(instance, 2) for instance in made} == {0, 1}, "one instance on each worker"
    for instance in made:
        where = [await landed(two.http, f"{two.url}/ws?instance={instance}") for _ in range(PLACED_TRIES)]
        assert where == [owner_of(instance, 2)] * PLACED_TRIES
    # Named among other parameters too; an id nobody made is placed by the same rule, and then refused as
    # anywhere (the instance is unknown to its holder too).
    assert await landed(two.http, f"{two.url}/ws?v=1&instance={made[0]}&x=y") == owner_of(made[0], 2)

    # Players on placed sockets play as on any: each told through their own actor, hearing the other.
    robber = Socket(await two.http.ws_connect(f"{two.url}/ws?instance={made[0]}"))
    teller = Socket(await two.http.ws_connect(f"{two.url}/ws?instance={made[0]}"))
    await robber.ok("join", instance=made[0], actor="@robber")
    await teller.ok("join", instance=made[0], actor="@teller")
    went = await robber.ok("command", text="in")
    assert "Lobby" in went["text"]
    heard = await teller.notification("narration")
    assert heard["turn"] == went["turn"] and heard["text"].startswith("A twitchy man enters the lobby.")
    nowhere = Socket(await two.http.ws_connect(f"{two.url}/ws?instance=0000nobody"))
    await nowhere.fail(-32001, "join", instance="0000nobody")


async def test_the_python_client_names_its_instance_so_each_socket_it_reopens_lands_on_the_holder(
    two: Workers,
) -> None:
    instance = await two.server.create("lost_one", seed=4)
    async with Connection(two.url, backoff=(0.01, 0.05)) as conn:
        await conn.call("join", instance=instance)
        turn = (await conn.call("command", text="look")).turn
        transport = conn._transport
        assert isinstance(transport, WebSocketTransport)
        for _ in range(PLACED_TRIES):
            dropped = transport.socket
            assert dropped is not None
            await dropped.close()  # as a network would drop it: the client opens another and resumes
            await until(lambda dropped=dropped: conn.up and transport.socket not in (None, dropped))
            assert transport.socket is not None
            assert int(transport.socket._response.headers[WORKER_HEADER]) == owner_of(instance, 2)
            assert (await conn.call("state")).turn == turn, "resumed in the same session"


async def test_a_request_line_split_over_several_writes_is_still_answered(two: Workers) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", int(two.url.rsplit(":", 1)[1]))
    try:
        # Naming an instance, but not all in the first bytes read: served where it landed.
        for piece in (b"GET /health?inst", b"ance=abcd1234 HTTP/1.1\r\n", b"Host: x\r\nConnection: close\r\n\r\n"):
            writer.write(piece)
            await writer.drain()
        answer = await asyncio.wait_for(reader.read(), WAIT)
    finally:
        writer.close()
    assert answer.startswith(b"HTTP/1.1 200")


@pytest.mark.parametrize(
    ("first", "named"),
    [
        (b"GET /ws?instance=3f9c2a1b HTTP/1.1\r\nHost: x\r\n\r\n", "3f9c2a1b"),
        (b"GET /ws?token=a&instance=a_b-C HTTP/1.1\r\n", "a_b-C"),
        (b"GET /ws?instance=3f9c2a1b&x=1 HTTP/1.1\r\n", "3f9c2a1b"),
        (b"GET /ws?instance=3f9c2a1b HTTP/1.1", None),  # the request line not all in
        (b"POST /rpc?instance=3f9c2a1b HTTP/1.1\r\n", None),  # the body names it: routed by the message
        (b"GET /ws?instance=../../etc HTTP/1.1\r\n", None),
        (b"GET /ws?instance=%33f HTTP/1.1\r\n", None),
        (b"GET /ws?my_instance=3f9c2a1b HTTP/1.1\r\n", None),
        (b"GET /ws?instance= HTTP/1.1\r\n", None),
        (b"GET /ws?instance=" + b"a" * 65 + b" HTTP/1.1\r\n", None),
        (b"\x16\x03\x01\x02\x00\x01", None),  # TLS's first bytes
    ],
)
async def test_only_a_get_naming_a_well_formed_instance_id_in_its_request_line_is_placed(
    first: bytes, named: str | None
) -> None:
    assert instance_named(first) == named


# -- a game across a restart ------------------------------------------------------------------------------


async def test_a_game_is_kept_across_a_restart_of_every_worker(tmp_path: Path) -> None:
    data = tmp_path / "data"
    async with workers(data=data) as first:
        instance = await first.server.create("lost_one", seed=2)
        player = await first.socket_on(owner_of(instance, 2))
        joined = await player.ok("join", instance=instance, name="Vi")
        for text in ("look", "n", "look"):
            await player.ok("command", text=text)
        before = await player.ok("state")
        second = subprocess.run(
            [sys.executable, "-m", "clients.cli.main", "serve", "--port", "0", "--data", str(data), "--workers", "1"],
            capture_output=True,
            text=True,
            timeout=WAIT * 3,
        )
        assert second.returncode == 1 and "in use by another server" in second.stderr, second.stderr
    async with workers(data=data) as again:
        # Resumed through the worker that does not hold it: the call is forwarded, the game as it was.
        back = await again.socket_on(other_than(owner_of(instance, 2)))
        resumed = await back.ok("resume", token=joined["token"])
        assert resumed["instance"] == instance and resumed["turn"] == before["turn"]
        after = await back.ok("state")
        assert (after["room"], after["hash"], after["turn"]) == (before["room"], before["hash"], before["turn"])
        assert (await back.ok("command", text="look"))["turn"] == before["turn"] + 1


# -- a worker that dies -------------------------------------------------------------------------------------


def worker_pids(starter: int) -> dict[int, int]:
    """Each worker's process id, by its index: the starter's children, each given its index on its command line."""
    children = []
    for task in Path(f"/proc/{starter}/task").iterdir():
        try:
            children += (task / "children").read_text().split()
        except FileNotFoundError:  # a thread of the starter that ended meanwhile
            continue
    found = {}
    for pid in children:
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except FileNotFoundError:  # gone (and reaped) since the list was read
            continue
        if b"server.cluster.workers" in argv:
            found[json.loads(argv[argv.index(b"server.cluster.workers") + 1])["index"]] = int(pid)
    return found


def dead(pid: int) -> bool:
    """Gone, or a zombie its parent has not reaped yet: its sockets are closed either way."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


async def test_a_worker_that_dies_is_started_again_and_its_players_resume_where_they_were(tmp_path: Path) -> None:
    async with workers(data=tmp_path / "data") as running:
        instance = await running.server.create("lost_one", seed=1)
        held_by = owner_of(instance, 2)
        player = await running.socket_on(other_than(held_by))
        async with running.http.get(running.url + "/openrpc.json") as described:
            document = await described.json()
        assert document["components"]["errors"]["node_unreachable"] == {"code": -32008, "message": "Node unreachable"}
        listed = {entry["name"]: {error["code"] for error in entry["errors"]} for entry in document["methods"]}
        assert all(-32008 in listed[name] for name in ("command", "join", "resume", "create", "instances"))
        token = (await player.ok("join", instance=instance))["token"]
        assert (await player.ok("command", text="look"))["turn"] == 1  # forwarded to the worker holding it
        starter = running.process.pid
        victim = worker_pids(starter)[held_by]
        # The starter paused, so that the worker stays down while the test looks at what players see meanwhile.
        os.kill(starter, signal.SIGSTOP)
        try:
            os.kill(victim, signal.SIGKILL)
            await until(lambda: dead(victim), "the worker died")
            # The socket bound to a session the dead worker held is closed, 'service restart', to be resumed.
            closing = await player.receive()
            assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 1012, closing
            # Meanwhile the session cannot be reached: -32008, nothing done. The Python client takes it as it
            # takes a server away: it tries again, now and then, and says so; once it has waited as long as it
            # was told to, the call fails with what the server said.
            tries: list[Retrying] = []
            async with Connection(running.url, outage=1.0, backoff=(0.05, 0.2), on_retry=tries.append) as client:
                with pytest.raises(CallError) as waited:
                    await client.call("resume", token=token)  # the only worker listening now forwards it
        finally:
            os.kill(starter, signal.SIGCONT)
        assert waited.value.code is Code.NODE_UNREACHABLE
        assert waited.value.data == {"worker": str(held_by), "sent": False}
        assert waited.value.message == (
            f"The part of the server holding this instance (worker {held_by}) cannot be reached right now: "
            "nothing was done; try again shortly."
        )
        assert len(tries) >= 3 and [t.tries for t in tries] == list(range(1, len(tries) + 1))

        # The starter starts the worker again, holding the same share: the session resumes where it was.
        async def resumed() -> dict[str, Any] | None:
            again = await running.socket_on(other_than(held_by))
            answer = await again.call("resume", token=token)
            if "result" not in answer:
                await again.close()
                return None
            state = await again.ok("state")
            assert state["turn"] == 1, "the game as it was left: nothing acknowledged lost"
            assert (await again.ok("command", text="look"))["turn"] == 2
            return dict(answer["result"])

        await until(lambda: worker_pids(starter).get(held_by, victim) != victim, "the worker started again", START)
        back = await until(resumed, "the session resumed on the worker started again", START)
        assert back["instance"] == instance
        assert running.process.poll() is None, "the server kept serving throughout"


# -- costly calls ---------------------------------------------------------------------------------------------


async def test_actions_on_one_worker_holds_up_no_player_on_the_other(two: Workers) -> None:
    # New instances are dealt out to the workers in turn, whoever makes them: one on each.
    first, second = await two.server.create("lost_one", seed=1), await two.server.create("lost_one", seed=2)
    assert {owner_of(first, 2), owner_of(second, 2)} == {0, 1}
    asker, player = await two.socket_on(owner_of(first, 2)), await two.socket_on(owner_of(second, 2))
    await asker.ok("join", instance=first)
    await player.ok("join", instance=second)
    await asker.send({"jsonrpc": "2.0", "id": "slow", "method": "actions", "params": {}})
    looked = await player.ok("command", text="look")
    assert looked["text"]
    offered = await asker.answer("slow")
    assert offered["result"]["commands"], "the actions call was answered too"


async def test_a_call_forwarded_to_a_worker_that_has_no_such_session_is_refused_as_anywhere(two: Workers) -> None:
    anywhere = Http(two.server, "no-such-token-anywhere-at-all")
    error = await anywhere.fail(-32002, "state")
    assert "session" in error["message"].lower()


async def test_within_one_process_actions_lets_another_instances_player_in_meanwhile(server: Server) -> None:
    asker, player = await server.socket(), await server.socket()
    first = (await asker.play("lost_one", seed=1))["instance"]
    await player.play("lost_one", seed=2)
    await asker.send({"jsonrpc": "2.0", "id": "slow", "method": "actions", "params": {}})
    # Sent after the actions call, answered before it is done: its instance is still held by it.
    looked = await player.ok("command", text="look")
    assert looked["text"]
    assert server.app[HOST].instances[first].lock.locked(), "the actions call was still trying commands"
    offered = await asker.answer("slow")
    assert "look" in offered["result"]["commands"]


# -- settings on the command line -------------------------------------------------------------------------------


async def test_limits_set_on_the_command_line_hold_on_every_worker() -> None:
    async with workers("--max-commands", "2", "--rate", "1000", "--burst", "1000") as running:
        for worker in (0, 1):
            socket = await running.socket_on(worker)
            await socket.ok("join", instance=await running.server.create("lost_one", seed=worker))
            assert (await socket.ok("command", text="look. look"))["text"]
            error = await socket.fail(-32602, "command", text="look. look. look")
            assert "at most 2 commands" in error["message"]


async def test_a_cap_on_the_whole_server_is_shared_out_so_the_workers_together_never_pass_it() -> None:
    async with workers("--max-connections", "2") as running:
        held = [await running.socket_on(0), await running.socket_on(1)]
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await running.http.ws_connect(running.url + "/ws")  # whichever worker takes it is full
        assert refused.value.status == 503
        assert all(not socket.ws.closed for socket in held)
