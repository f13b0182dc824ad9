"""Idle instances leave memory: one nobody has used for `unload_after` goes back to being known but not loaded, as
at start-up (the lobby lists it from its stored row, its tokens resume), and its next use brings it back from the
store as it was; one in use, or watched through a socket, stays; a join that comes while one is being unloaded joins it
loaded again. Without a store nothing leaves memory.

A real server on a real SQLite file in this process, on a clock the test steps: its own sweep does the unloading
(it runs every few hundredths of a second here, as `detach_after` is short; the times it judges are the clock's).
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from server.app import HOST, Config, create_app
from server.host import Host
from tests.helpers import StepClock, until
from tests.persistence.conftest import AUTHOR, Mirror
from tests.wire import Address, Http, Socket

pytestmark = pytest.mark.asyncio

UNLOAD = 600.0
WORLD, SEED = "cloak_plus", 3
COMMANDS = ("x mime", "i", "w", "take bottle")
"""A few turns of Cloak of Darkness Plus before the player goes away."""

Serve = Callable[..., Awaitable[tuple[Address, Host]]]


@pytest_asyncio.fixture
async def serve(aiohttp_server: Any) -> AsyncIterator[Serve]:
    """serve(**config): a server on a loopback port (the sweep short, unloading after UNLOAD on the clock)."""
    sessions: list[aiohttp.ClientSession] = []

    async def go(**settings: Any) -> tuple[Address, Host]:
        # A short detach_after makes the sweep come every 0.05 s; sessions without a socket are detached at the
        # first step of the clock, as they would be long before an instance is unused for UNLOAD.
        defaults = {"author_token": AUTHOR, "rate": 1e6, "burst": 1e6, "unload_after": UNLOAD, "detach_after": 0.2}
        app = create_app(Config(**{**defaults, **settings}))
        running = await aiohttp_server(app)
        http = aiohttp.ClientSession()
        sessions.append(http)
        return Address(http, str(running.make_url("")).rstrip("/")), app[HOST]

    yield go
    for http in sessions:
        await http.close()


async def listed(client: Http, instance: str) -> Any:
    return next(info for info in (await client.ok("instances"))["instances"] if info["instance"] == instance)


async def test_an_idle_instance_leaves_memory_and_its_next_use_brings_it_back_as_it_was(
    serve: Serve, tmp_path: Path
) -> None:
    clock = StepClock()
    server, host = await serve(clock=clock, data=tmp_path / "data")
    mirror = Mirror(WORLD, SEED)
    player = Http(server)
    joined = await player.play(WORLD, seed=SEED)
    idle, actor = joined["instance"], joined["actor"]
    assert mirror.join(actor) == joined["text"]
    for text in COMMANDS:
        reply = await player.ok("command", text=text)
        assert reply["text"] == mirror.command(actor, text)
    state, told = await player.ok("state"), (await player.ok("narrate"))["text"]

    used = Http(server)
    busy = (await used.play("cloak"))["instance"]
    watcher = await Socket.open(server)
    watched = (await watcher.play("cloak"))["instance"]

    clock.step(1)
    await until(lambda: host.sessions[player.token].detached, "the player away, with no connection")
    before = await listed(Http(server), idle)
    clock.step(UNLOAD / 2)
    await used.ok("state")  # a read is a use too
    story = weakref.ref(host.instances[idle].story)
    clock.step(UNLOAD / 2)
    assert idle in host.instances, "not unused for long enough yet"
    # With no collection meanwhile: in a served process the instance was set aside where full collections no
    # longer walk (server/heap.py), so it must be freed by reference counting alone, with no cycle left.
    gc.disable()
    try:
        clock.step(1)
        await until(lambda: idle not in host.instances, "the idle instance unloaded by the sweep")
        assert story() is None, "its story has left memory at once"
    finally:
        gc.enable()
    assert busy in host.instances, "one used within the time stays"
    assert watched in host.instances, "one watched through a socket stays"
    assert await listed(Http(server), idle) == before, "the lobby lists it as before: turn, players…"

    # The player's client never saw the answer to its last command: resumed on a socket, it is sent again.
    back = await Socket.open(server)
    resumed = await back.ok("resume", token=player.token, last_seq=reply["seq"] - 1)
    assert (resumed["instance"], resumed["turn"]) == (idle, state["turn"])
    assert resumed["replayed"] == 1
    assert (await back.notification("reply"))["text"] == reply["text"], "what it missed, kept while unloaded"
    assert await back.ok("state") == state, "the same story, where it was"
    assert (await back.ok("narrate"))["text"] == told, "told as it was"
    assert (await back.ok("command", text="e"))["text"] == mirror.command(actor, "e"), "and it goes on the same"
    assert (await back.ok("state"))["hash"] == mirror.hash
    assert (await watcher.ok("command", text="look"))["turn"] == 1
    await watcher.close()
    await back.close()


async def test_an_instance_nobody_plays_is_joined_again_after_leaving_memory(serve: Serve, tmp_path: Path) -> None:
    clock = StepClock()
    server, host = await serve(clock=clock, data=tmp_path / "data")
    author = Http(server, AUTHOR)
    instance = (await author.ok("create", world="cloak", seed=1))["instance"]
    clock.step(UNLOAD + 1)
    await until(lambda: instance not in host.instances, "the unused instance unloaded")
    assert (await listed(author, instance))["turn"] == 0
    joined = await Http(server).ok("join", instance=instance)
    assert joined["turn"] == 0 and joined["text"]


async def test_without_a_store_nothing_leaves_memory(serve: Serve) -> None:
    clock = StepClock()
    server, host = await serve(clock=clock)
    player = Http(server)
    instance = (await player.play("cloak"))["instance"]
    clock.step(UNLOAD * 10)
    assert await host.unload_idle(UNLOAD) == []
    assert instance in host.instances
    assert (await player.ok("command", text="look"))["turn"] == 1


async def test_a_join_that_comes_while_an_instance_is_being_unloaded_joins_it_loaded_again(
    serve: Serve, tmp_path: Path
) -> None:
    clock = StepClock()
    server, host = await serve(clock=clock, data=tmp_path / "data", detach_after=120.0)  # no sweep meanwhile
    author = Http(server, AUTHOR)
    instance = (await author.ok("create", world="cloak", seed=1))["instance"]
    clock.step(UNLOAD + 1)
    unloading = asyncio.ensure_future(host.unload_idle(UNLOAD))
    await asyncio.sleep(0)  # the unloading holds the instance's lock, reading the store
    assert instance in host.instances and host.instances[instance].lock.locked()
    joiner = Http(server)
    joined = await joiner.ok("join", instance=instance, name="late")
    assert await unloading == [instance], "unloaded first"
    assert joined["turn"] == 0 and joined["text"]
    assert (await joiner.ok("command", text="look"))["turn"] == 1, "played in the instance loaded again"
    assert [p["name"] for p in (await listed(author, instance))["players"]] == ["late"]
