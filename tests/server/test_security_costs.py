"""One caller against everyone: costly calls are charged as the work they are, long spin lists by their length,
and `instances` comes a page at a time, with a batch's answers capped by size."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.helpers import StepClock
from tests.server.conftest import AUTHOR, Start
from tests.server.test_security_files import NOTICEABLE, innocent
from tests.wire import Http

pytestmark = pytest.mark.asyncio


def request(id_: int, method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "method": method, "params": params}


async def test_asking_for_every_possible_command_is_charged_as_its_work(start: Start) -> None:
    """`actions` in Lost One tries every command (a large part of a second): at the allowed rate of requests it
    would take the loop for itself; charged as its work, the asker is slowed and the others are not."""
    # The time stands still for the limits (a busy machine's slow calls would otherwise refill them).
    server = await start(clock=StepClock())
    attacker, bystander = Http(server), Http(server)
    await attacker.play("lost_one")
    await bystander.play("cloak")
    answered, refused = 0, 0

    async def attack() -> None:
        nonlocal answered, refused
        while not refused and answered < 30:  # uncharged, thirty would fit the burst of sixty easily
            answer = await attacker.call("actions")
            answered += "result" in answer
            refused += "error" in answer and answer["error"]["code"] == -32006

    attacking = asyncio.create_task(attack())
    waits = []
    while not attacking.done():
        waits.append(await innocent(server, bystander))
    await attacking
    assert refused, f"{answered} answered and none refused: the work was not charged"
    assert waits and max(waits) < NOTICEABLE


async def test_a_long_list_of_spins_is_charged_by_its_length(start: Start) -> None:
    server = await start(clock=StepClock(), rate=0.001, burst=40)
    player = Http(server)
    await player.play("cloak")  # create and join: charged to the address, not the session
    assert await player.ok("narrate", spin=["memoir"] * 16)  # 17 of 40
    assert await player.ok("narrate", spin=["memoir"] * 16)  # 34 of 40
    error = await player.fail(-32006, "narrate", spin=["memoir"] * 16)
    assert error["data"]["burst"] == 40
    assert await player.ok("narrate", spin="memoir"), "two fit still"


async def test_instances_come_a_page_at_a_time(start: Start) -> None:
    server = await start(rate=1e6, burst=1e6)
    author = Http(server, AUTHOR)
    made = sorted([(await author.ok("create", world="cloak", seed=n))["instance"] for n in range(130)])
    first = await author.ok("instances")
    assert [i["instance"] for i in first["instances"]] == made[:100] and first["next"] == made[99]
    rest = await author.ok("instances", after=first["next"])
    assert [i["instance"] for i in rest["instances"]] == made[100:] and rest["next"] is None
    small = await author.ok("instances", limit=7, after=made[10])
    assert [i["instance"] for i in small["instances"]] == made[11:18]
    await author.fail(-32602, "instances", limit=1000)


async def test_a_batch_of_big_answers_is_cut_off_by_size(start: Start) -> None:
    server = await start(rate=1e6, burst=1e6, max_answer=64 * 1024)
    author = Http(server, AUTHOR)
    for n in range(100):
        await author.ok("create", world="cloak", seed=n)
    page = len(json.dumps(await author.ok("instances"), separators=(",", ":")))
    status, answers = await server.post([request(n, "instances") for n in range(100)])
    assert status == 200 and len(answers) == 100
    made = [answer for answer in answers if "result" in answer]
    assert 1 <= len(made) <= 64 * 1024 // page + 2, f"{len(made)} pages of {page} bytes"  # the last may pass it
    refused = answers[len(made) :]
    assert refused and all(a["error"]["code"] == -32007 and a["error"]["data"]["limit"] == "answer" for a in refused)
    assert [a["id"] for a in answers] == list(range(100)), "every member answered, in order"


async def test_the_server_answers_others_while_one_client_batches_instances(start: Start) -> None:
    server = await start(rate=1e6, burst=1e6)  # nothing but the cap on a batch's answers holds the flood back
    author = Http(server, AUTHOR)
    for n in range(100):
        await author.ok("create", world="cloak", seed=n)

    async def flood() -> None:
        for _ in range(5):
            await server.post([request(n, "instances") for n in range(100)])

    bystander = Http(server)
    await bystander.play("cloak")
    attack = asyncio.create_task(flood())
    while not attack.done():
        assert await innocent(server, bystander) < NOTICEABLE
    await attack
