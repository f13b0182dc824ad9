"""Sessions that are let go: expired after long idleness with no socket, and callers limited without one."""

from __future__ import annotations

import pytest

from server.app import HOST
from tests.helpers import StepClock, until
from tests.server.conftest import Start
from tests.wire import Http, error_of, result_of

pytestmark = pytest.mark.asyncio


async def test_an_idle_session_without_a_socket_expires_and_frees_its_actor(start: Start) -> None:
    clock = StepClock()
    server = await start(session_idle=0.2, clock=clock)  # swept every 0.05 s of the real time
    instance = await server.create("cloak_plus")
    first = Http(server)
    joined = result_of(await first.call("join", instance=instance, name="Ann"))
    first.token = joined["token"]
    clock.step(0.6)
    # Waited for without a call, which would count as seeing it.
    await until(lambda: first.token not in server.app[HOST].sessions, "the session expired")
    error_of(await first.call("state"), -32002)
    again = Http(server)
    result_of(await again.call("join", instance=instance, name="Bea"))  # the operagoer is free again


async def test_a_session_with_an_open_socket_does_not_expire(start: Start) -> None:
    clock = StepClock()
    server = await start(session_idle=0.2, clock=clock)
    instance = await server.create("cloak_plus")
    socket = await server.socket()
    result_of(await socket.call("join", instance=instance))
    silent = Http(server)  # a witness that a sweep came after the step
    await silent.ok("join", instance=await server.create("cloak_plus"))
    clock.step(0.6)
    await until(lambda: silent.token not in server.app[HOST].sessions, "the silent witness expired")
    assert result_of(await socket.call("state"))["actor"] == "@operagoer"
    await socket.ws.close()


async def test_calls_without_a_session_are_limited_per_address(start: Start) -> None:
    clock = StepClock()
    server = await start(rate=0.001, burst=2.0, clock=clock)  # nothing refills until the clock is stepped
    caller = Http(server)
    answers = [await caller.call("worlds") for _ in range(25)]
    # An address gets ten sessions' worth (a burst of 20 here) before it is slowed down.
    assert ["result" in answer for answer in answers] == [True] * 20 + [False] * 5
    assert all(answer["error"]["code"] == -32006 for answer in answers[20:])
    clock.step(10_000.0)
    assert (await caller.ok("worlds"))["worlds"], "and is let in again once its allowance refills"
