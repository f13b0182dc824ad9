"""A real server on PostgreSQL (`Config(store=…)`, what `curveship serve --store URL` runs), on a socket, in a
process of its own: a game outlives the server, stopped or killed; a server killed outright holds its lease
until it runs out, and the next server takes the instance up then."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.persistence.conftest import AUTHOR, WAIT, Process
from tests.wire import Address, Http

pytestmark = pytest.mark.asyncio

COMMANDS = ("x mime", "i", "w", "take bottle", "e")


@pytest.fixture
def start(tmp_path: Path, postgres_url: str) -> Iterator[Any]:
    """start(**settings): a server on the run's PostgreSQL database, serving; every one started is killed after."""
    started: list[Process] = []

    def start_(**settings: Any) -> Process:
        process = Process(tmp_path / "logs", store=postgres_url, **settings)
        started.append(process)
        process.wait_until_serving()
        return process

    yield start_
    for process in started:
        process.kill()


async def _played(http: aiohttp.ClientSession, url: str) -> tuple[Http, dict[str, Any]]:
    instance = (await Http(Address(http, url), AUTHOR).ok("create", world="cloak_plus", seed=5))["instance"]
    player = Http(Address(http, url))
    await player.ok("join", instance=instance)
    for text in COMMANDS:
        await player.ok("command", text=text)
    return player, await player.ok("state")


async def _resumed(http: aiohttp.ClientSession, url: str, token: str) -> tuple[Http, dict[str, Any]]:
    player = Http(Address(http, url))
    await player.ok("resume", token=token)
    return player, await player.ok("state")


async def test_a_game_outlives_its_server_on_postgresql(start: Any) -> None:
    first = start()
    async with aiohttp.ClientSession() as http:
        player, before = await _played(http, first.url)
        told = (await player.ok("narrate"))["text"]
        first.stop()  # SIGTERM: its leases are released as it stops
        second = start()
        assert player.token is not None
        again, after = await _resumed(http, second.url, player.token)
        assert after == before
        assert (await again.ok("narrate"))["text"] == told
        assert (await again.ok("command", text="look"))["turn"] == before["turn"] + 1


async def test_a_killed_servers_instances_are_taken_up_once_its_lease_runs_out(start: Any) -> None:
    first = start()
    async with aiohttp.ClientSession() as http:
        player, before = await _played(http, first.url)
        first.kill()  # SIGKILL: nothing released; its lease lasts until it runs out
        second = start(detach_after=2.0)  # sweeps every half second, trying the instance again
        assert player.token is not None
        deadline = time.monotonic() + WAIT
        while True:
            answer = await Http(Address(http, second.url)).call("resume", token=player.token)
            if "result" in answer:
                break
            assert "not loaded" in answer["error"]["message"], answer
            assert time.monotonic() < deadline, "the instance was never taken up"
            await asyncio.sleep(0.1)
        _again, after = await _resumed(http, second.url, player.token)
        assert after["turn"] == before["turn"] and after["hash"] == before["hash"]


async def test_a_write_refused_because_another_server_took_the_instance_over_says_so(start: Any) -> None:
    first = start()
    async with aiohttp.ClientSession() as http:
        player, before = await _played(http, first.url)
        assert player.token is not None
        # Paused past its lease (as a node cut off from the database, or swapped out, would be): a second server
        # takes the instance up, while the first still believes it holds it.
        os.kill(first.process.pid, signal.SIGSTOP)
        try:
            second = start(detach_after=2.0)  # sweeps every half second, trying the instance again
            deadline = time.monotonic() + WAIT
            while "result" not in (answer := await Http(Address(http, second.url)).call("resume", token=player.token)):
                assert "not loaded" in answer["error"]["message"], answer
                assert time.monotonic() < deadline, "the second server never took the instance up"
                await asyncio.sleep(0.1)
        finally:
            os.kill(first.process.pid, signal.SIGCONT)
        refused = await player.call("command", text="look")
        message = refused["error"]["message"]
        assert refused["error"]["code"] == -32603
        assert message.startswith(f"Another server took instance {before['instance']} over")
        assert "served there now" in message and "try again" in message
        assert "could not be stored" not in message, "not the message of a failing disk"
        later = await player.call("state")
        assert later["error"]["code"] == -32002 and "another server took it over" in later["error"]["message"]
        # Where it is served now, the game goes on from the last turn stored: the refused command was not made.
        _again, after = await _resumed(http, second.url, player.token)
        assert (after["turn"], after["hash"]) == (before["turn"], before["hash"])
