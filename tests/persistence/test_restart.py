"""Saves, undo and the players' rule about them come back with a restarted server, exactly.

Each test kills the server with SIGKILL (no graceful shutdown) and starts it again on the same data directory:
what was acknowledged must be there, and act as it did before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.persistence.conftest import AUTHOR, DUO, Mirror, connect, create
from tests.wire import Address, Http

pytestmark = pytest.mark.asyncio

WALK = ("x mime", "i", "w", "take bottle", "fill bottle", "drink from bottle", "fill bottle from basin", "take lamp")
"""Cloak of Darkness Plus, the start of its walkthrough: every line one turn."""


async def _state(client: Any) -> tuple[int, str]:
    state = await client.ok("state")
    return state["turn"], state["hash"]


async def test_saves_survive_a_restart_and_restore_after_it(tmp_path: Path, servers: Any, http: Any) -> None:
    data = tmp_path / "data"
    server = servers(data)
    instance = await create(http, server.url, "cloak_plus", 5)
    player = await connect(http, server.url, "ws")
    token = (await player.ok("join", instance=instance))["token"]
    states = {0: await _state(player)}
    for text in WALK:
        await player.ok("command", text=text)
        turn, digest = await _state(player)
        states[turn] = (turn, digest)
        if turn == 3:
            assert await player.ok("save", name="three") == {"name": "three", "turn": 3}
        if turn == 6:
            assert await player.ok("save", name="six") == {"name": "six", "turn": 6}
    server.kill()

    server = servers(data)
    player = await connect(http, server.url, "http")
    await player.ok("resume", token=token)
    assert await _state(player) == states[len(WALK)]
    assert await player.ok("restore", name="three") == {"name": "three", "turn": 3}
    assert await _state(player) == states[3]
    mirror = Mirror("cloak_plus", 5)
    mirror.join("@operagoer")
    for text in WALK[:3]:
        mirror.command("@operagoer", text)
    assert (await player.ok("narrate"))["text"] == mirror.narrate("@operagoer")
    # A restore is kept as any change is: killed again, the story is at the save restored.
    assert await player.ok("save", name="again") == {"name": "again", "turn": 3}
    server.kill()

    server = servers(data)
    player = await connect(http, server.url, "ws")
    await player.ok("resume", token=token)
    assert await _state(player) == states[3]
    assert await player.ok("restore", name="six") == {"name": "six", "turn": 6}
    assert await _state(player) == states[6]
    assert await player.ok("restore", name="again") == {"name": "again", "turn": 3}
    error = await player.fail(-32001, "restore", name="nine")
    assert "again" in error["message"] and "six" in error["message"] and "three" in error["message"]


async def test_undo_after_a_restart_goes_back_exactly(tmp_path: Path, servers: Any, http: Any) -> None:
    data = tmp_path / "data"
    server = servers(data)
    instance = await create(http, server.url, "cloak_plus", 6)
    player = await connect(http, server.url, "http")
    token = (await player.ok("join", instance=instance))["token"]
    states = [await _state(player)]
    tellings = [(await player.ok("narrate"))["text"]]
    for text in WALK:
        await player.ok("command", text=text)
        states.append(await _state(player))
        tellings.append((await player.ok("narrate"))["text"])
    server.kill()

    server = servers(data)
    player = await connect(http, server.url, "ws")
    await player.ok("resume", token=token)
    for back in range(1, 4):
        reply = await player.ok("undo")
        assert reply["turn"] == len(WALK) - back
        assert await _state(player) == states[-1 - back]
        assert (await player.ok("narrate"))["text"] == tellings[-1 - back]
    # The undoing is kept too: killed once more, the story is where the undo left it, and goes on from there
    # just as it did the first time.
    server.kill()
    server = servers(data)
    player = await connect(http, server.url, "http")
    assert (await player.ok("resume", token=token))["turn"] == len(WALK) - 3
    assert await _state(player) == states[-4]
    for text in WALK[-3:]:
        await player.ok("command", text=text)
    assert await _state(player) == states[-1]
    assert (await player.ok("narrate"))["text"] == tellings[-1]


async def test_only_a_player_alone_or_an_author_may_undo_restart_or_restore_after_a_restart(
    tmp_path: Path, servers: Any, http: Any
) -> None:
    data = tmp_path / "data"
    server = servers(data)
    instance = await create(http, server.url, str(DUO), 3)
    ann = await connect(http, server.url, "http")
    bob = await connect(http, server.url, "ws")
    author = Http(Address(http, server.url), AUTHOR)
    tokens = {}
    tokens["ann"] = (await ann.ok("join", instance=instance, actor="@ann"))["token"]
    tokens["bob"] = (await bob.ok("join", instance=instance, actor="@bob"))["token"]
    tokens["author"] = (await author.ok("join", instance=instance, actor="@cat", name="the author"))["token"]
    await ann.ok("command", text="take ball")
    await bob.ok("command", text="n")
    assert (await bob.ok("save", name="yard"))["turn"] == 2
    before = await _state(ann)
    server.kill()

    server = servers(data)
    ann, bob = await connect(http, server.url, "ws"), await connect(http, server.url, "http")
    author = Http(Address(http, server.url))
    await ann.ok("resume", token=tokens["ann"])
    await bob.ok("resume", token=tokens["bob"])
    await author.ok("resume", token=tokens["author"])
    assert await _state(ann) == before
    # Players who are not alone may not change the story for everyone, whether by method or typed.
    for client in (ann, bob):
        for method, params in (("undo", {}), ("restart", {}), ("restore", {"name": "yard"})):
            error = await client.fail(-32003, method, **params)
            assert "alone" in error["message"]
        await client.fail(-32003, "command", text="undo")
    assert await _state(ann) == before
    # Anyone may save; the author (an author still, after the restart) may undo.
    assert (await ann.ok("save", name="anns"))["turn"] == 2
    assert (await author.ok("undo"))["turn"] == 1
    after_undo = await _state(ann)
    await author.ok("leave")
    await bob.ok("leave")
    server.kill()

    server = servers(data)
    ann = await connect(http, server.url, "http")
    await ann.ok("resume", token=tokens["ann"])
    listed = (await ann.ok("instances"))["instances"]
    assert [(i["instance"], [p["actor"] for p in i["players"]]) for i in listed] == [(instance, ["@ann"])]
    for gone in ("bob", "author"):
        await Http(Address(http, server.url)).fail(-32002, "resume", token=tokens[gone])
    assert await _state(ann) == after_undo
    # Alone now, Ann may restore, undo and restart.
    assert (await ann.ok("restore", name="yard"))["turn"] == 2
    assert await _state(ann) == before
    assert (await ann.ok("undo"))["turn"] == 1
    assert (await ann.ok("restart"))["turn"] == 0
    assert (await ann.ok("restore", name="anns"))["turn"] == 2
    assert await _state(ann) == before
