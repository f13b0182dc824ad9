"""An instance is loaded on its first use: a server restarted over many stored instances is back without
replaying any of them, lists them all from their stored rows, and brings one back (its story as it was) when a
call first needs it, once however many calls come for it at the same time.

The store is filled by a host and its keeper in this process (quicker than over sockets), then served by real
server processes; what was brought back is read from the server's log, one line an instance.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import pytest

from protocol import messages as m
from server.host import Host
from server.persist import Keeper
from server.stores.sqlite import SqliteStore
from tests.persistence.conftest import connect

pytestmark = pytest.mark.asyncio

COMMANDS = ("x mime", "i", "w", "take bottle", "e")
"""A few turns of Cloak of Darkness Plus."""
BROUGHT_BACK = "brought back on first use"
"""What the server logs for each instance it loads."""


async def _stored(data: Path, count: int) -> tuple[dict[str, tuple[str, int, str, str]], dict[str, Any]]:
    """`count` small instances, each played a few turns by one player: by id, its token, turn, state hash and
    whole telling as its player saw them; and each as the lobby listed it."""
    keeper = Keeper(SqliteStore(data))
    host = Host(keeper=keeper)
    made = {}
    for index in range(count):
        instance = (await host.create(m.CreateParams(world="cloak_plus", seed=index), author=True)).instance
        session, _ = await host.join(m.JoinParams(instance=instance, name=f"p{index}"), author=False)
        for text in COMMANDS[: index % len(COMMANDS) + 1]:
            await host.command(session, text)
        state = await host.state(session)
        told = await host.narrate(session, m.NarrateParams())
        made[instance] = (session.token, state.turn, state.hash, told.text)
    listed: dict[str, Any] = {}
    after = None
    while True:
        page = host.list_instances(m.InstancesParams(after=after))
        listed.update((info.instance, msgspec.to_builtins(info)) for info in page.instances)
        if (after := page.next) is None:
            break
    await keeper.flushed()
    await keeper.close()
    return made, listed


async def _listed(client: Any) -> dict[str, dict[str, Any]]:
    """Every instance the lobby lists, page by page."""
    found: dict[str, dict[str, Any]] = {}
    after = None
    while True:
        page = await client.ok("instances", **({"after": after} if after else {}))
        found.update((info["instance"], info) for info in page["instances"])
        after = page["next"]
        if after is None:
            return found


async def test_a_restart_over_many_instances_replays_none_until_one_is_used(
    tmp_path: Path, servers: Any, http: Any
) -> None:
    data = tmp_path / "data"
    made, before = await _stored(data, 200)
    server = servers(data)  # serving: back at /health
    client = await connect(http, server.url, "http")
    listed = await _listed(client)
    assert len(listed) == 200
    assert listed == before, "the lobby lists them as it did before the restart: turns, players…"
    assert BROUGHT_BACK not in server.log(), "listing them loaded none"

    instance, (token, turn, digest, text) = sorted(made.items())[7]
    player = await connect(http, server.url, "http")
    resumed = await player.ok("resume", token=token)
    assert (resumed["instance"], resumed["turn"]) == (instance, turn)
    state = await player.ok("state")
    assert (state["turn"], state["hash"]) == (turn, digest)
    assert (await player.ok("narrate"))["text"] == text
    assert server.log().count(BROUGHT_BACK) == 1, "only the one used"

    # Joining another brings that one back too, with its story as it was; it plays on.
    other = sorted(made)[11]
    joiner = await connect(http, server.url, "http")
    joined = await joiner.ok("join", instance=other, actor="@mime")
    assert joined["turn"] == made[other][1]
    await joiner.ok("command", text="look")
    assert server.log().count(BROUGHT_BACK) == 2


async def test_calls_at_once_for_an_instance_not_loaded_load_it_once(tmp_path: Path, servers: Any, http: Any) -> None:
    data = tmp_path / "data"
    made, _ = await _stored(data, 3)
    server = servers(data)
    instance, (token, turn, digest, _) = sorted(made.items())[1]
    clients = [await connect(http, server.url, "http") for _ in range(4)]
    answers = await asyncio.gather(
        clients[0].ok("resume", token=token),
        clients[1].ok("resume", token=token),
        clients[2].ok("resume", token=token),
        clients[3].ok("instances"),
    )
    assert [a["turn"] for a in answers[:3]] == [turn] * 3
    assert server.log().count(BROUGHT_BACK) == 1
    assert f"instance {instance} {BROUGHT_BACK}" in server.log()
    assert (await clients[0].ok("state"))["hash"] == digest
