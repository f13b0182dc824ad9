"""`fork`: a copy of the caller's instance at its turn, played on by the caller as the same actor, while the
original stays exactly as it was; the copy is a new instance like any other, within the server's limit."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import Server, Start, world_path
from tests.wire import Http

pytestmark = pytest.mark.asyncio


async def forked(player: Http) -> tuple[Http, dict[str, Any]]:
    """Fork `player`'s instance: a client for the new session, and fork's result."""
    result = await player.ok("fork")
    return Http(player.server, result["token"]), result


async def test_a_fork_plays_on_from_the_turn_and_leaves_the_original_as_it_was(server: Server) -> None:
    player = Http(server)
    joined = await player.play("cloak")
    for line in ("w", "x hook"):
        await player.ok("command", text=line)
    before = await player.ok("state")
    told = (await player.ok("narrate"))["text"]

    copy, result = await forked(player)
    assert result["instance"] != joined["instance"] and result["origin"] == joined["instance"]
    assert (result["actor"], result["turn"]) == ("@operagoer", 2)
    state = await copy.ok("state")
    assert {key: state[key] for key in ("turn", "room", "inventory", "hash")} == {
        key: before[key] for key in ("turn", "room", "inventory", "hash")
    }
    assert state["instance"] == result["instance"]
    assert (await copy.ok("narrate"))["text"] == told, "the copy remembers the story so far"
    # What the telling already said carries on: the hook was mentioned, so it is "the hook" now.
    hung = await copy.ok("command", text="hang cloak on hook")
    assert "the small brass hook" in hung["text"] or "the hook" in hung["text"], hung["text"]
    await copy.ok("command", text="e; s; read message")
    assert (await copy.ok("state"))["ended"] is True

    # The original: same turn, same world, same telling, and still playable from where it was.
    again = await player.ok("state")
    assert (again["turn"], again["hash"], again["ended"]) == (before["turn"], before["hash"], False)
    assert (await player.ok("narrate"))["text"] == told
    assert (await player.ok("command", text="e"))["turn"] == 3
    listed = {info["instance"]: info for info in (await player.ok("instances"))["instances"]}
    assert listed[result["instance"]]["ended"] is True and listed[joined["instance"]]["ended"] is False


async def test_undo_in_a_fork_goes_back_past_the_fork(server: Server) -> None:
    player = Http(server)
    await player.play("cloak")
    await player.ok("command", text="w")
    copy, _ = await forked(player)
    start = await copy.ok("state")
    await copy.ok("undo")
    undone = await copy.ok("state")
    assert (undone["turn"], undone["room"]) == (0, "@foyer") and undone["hash"] != start["hash"]
    assert (await player.ok("state"))["room"] == "@cloakroom", "the original keeps its turn"


async def test_a_fork_is_played_by_the_caller_alone(server: Server) -> None:
    instance = await server.create(world_path("duo"))
    ann, bob = Http(server), Http(server)
    await ann.ok("join", instance=instance, actor="@ann")
    await bob.ok("join", instance=instance, actor="@bob")
    copy, result = await forked(ann)
    listed = {info["instance"]: info for info in (await ann.ok("instances"))["instances"]}
    assert [p["actor"] for p in listed[result["instance"]]["players"]] == ["@ann"]
    assert sorted(p["actor"] for p in listed[instance]["players"]) == ["@ann", "@bob"]
    # Alone in the copy, Ann may undo there (in the original, with Bob, she may not).
    await copy.ok("command", text="wait")
    await copy.ok("undo")
    await ann.fail(-32003, "undo")


async def test_a_fork_past_the_servers_instance_limit_is_refused(start: Start) -> None:
    server = await start(max_instances=2)
    player = Http(server)
    await player.play("cloak")
    copy, _ = await forked(player)
    error = await copy.fail(-32006, "fork")
    assert error["data"] == {"limit": "instances", "max": 2}
    assert "as many instances" in error["message"]
    await copy.ok("command", text="w")  # the copy plays on regardless


async def test_a_fork_of_a_session_with_a_question_pending_is_its_copy_too(server: Server) -> None:
    """A story waiting for an answer cannot be snapshot: it is copied by replaying its log, question and all."""
    player = Http(server)
    await player.play("cloak_plus")
    asked = await player.ok("command", text="take sack")  # the large one or the massive one?
    assert asked["text"].endswith("?"), asked["text"]
    copy, _ = await forked(player)
    assert (await copy.ok("state"))["hash"] == (await player.ok("state"))["hash"]
    answered = await copy.ok("command", text="massive")
    assert "massive sack" in answered["text"] and answered["turn"] == 1
    assert (await player.ok("state"))["turn"] == 0
