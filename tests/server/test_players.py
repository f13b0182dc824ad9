"""Several players in one instance of a running server: each told, in its own words, what its own actor
perceived of the others' turns; who comes and goes; the ending; and what each may not do."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import Server, world_path
from tests.wire import Http, Socket

pytestmark = pytest.mark.asyncio


def assert_narration(params: dict[str, Any], instance: str, turn: int) -> None:
    assert set(params) == {"instance", "turn", "text", "blocks", "seq"}
    assert params["instance"] == instance and params["turn"] == turn
    assert params["text"] == "\n\n".join(block["text"] for block in params["blocks"])
    assert all(block["kind"] in ("heading", "paragraph") for block in params["blocks"])


async def seat(server: Server, instance: str, actor: str, name: str) -> Socket:
    socket = await server.socket()
    joined = await socket.ok("join", instance=instance, actor=actor, name=name)
    assert joined["actor"] == actor and joined["instance"] == instance
    return socket


# -- two players, in a small world loaded by path ------------------------------------------------------------


async def test_two_players_each_told_in_their_own_words(server: Server) -> None:
    instance = await server.create(world_path("duo"))
    ann = await seat(server, instance, "@ann", "Ann")
    bob = await seat(server, instance, "@bob", "Bob")
    assert await ann.notification("presence") == {
        "instance": instance,
        "name": "Bob",
        "actor": "@bob",
        "event": "joined",
        "seq": 1,
    }

    took = await ann.ok("command", text="take ball")
    assert took["text"] == "You take the red ball."
    seen = await bob.notification("narration")
    assert_narration(seen, instance, took["turn"])
    assert seen["text"] == "Ann takes the red ball."

    gone = await ann.ok("command", text="n")
    assert "Yard" in gone["text"] and "cat" in gone["text"]
    seen = await bob.notification("narration")
    assert seen["turn"] == gone["turn"] and seen["text"] == "Ann leaves the hall, heading north."

    out_of_sight = await ann.ok("command", text="jump")
    assert "jump" in out_of_sight["text"]
    assert await bob.drain(0.3) == [], "Bob, in the hall, perceived nothing of Ann jumping in the yard"
    assert (await bob.ok("state"))["turn"] == out_of_sight["turn"]

    waved = await bob.ok("command", text="wave")
    assert waved["text"] == "You wave."
    assert await ann.drain(0.3) == []
    assert ann.notifications == [] and bob.notifications == []


async def test_presence_as_players_come_and_go(server: Server) -> None:
    instance = await server.create(world_path("duo"))
    ann = await seat(server, instance, "@ann", "Ann")
    bob = await seat(server, instance, "@bob", "Bob")
    assert (await ann.notification("presence"))["event"] == "joined"
    assert await bob.ok("leave") == {}
    assert await ann.notification("presence") == {
        "instance": instance,
        "name": "Bob",
        "actor": "@bob",
        "event": "left",
        "seq": 2,
    }
    listed = {i["instance"]: i for i in (await ann.ok("instances"))["instances"]}
    assert listed[instance]["players"] == [{"name": "Ann", "actor": "@ann"}]
    again = await seat(server, instance, "@bob", "Robert")
    assert (await ann.notification("presence"))["name"] == "Robert"
    assert await again.drain(0.2) == [], "nobody is told of their own coming"


async def test_a_resumed_socket_is_told_what_an_http_player_did(server: Server) -> None:
    instance = await server.create(world_path("duo"))
    ann = Http(server)
    await ann.ok("join", instance=instance, actor="@ann")
    first = await seat(server, instance, "@bob", "Bob")
    await first.ws.close()
    bob = await server.socket()
    assert (await bob.ok("resume", token=first.token))["actor"] == "@bob"
    took = await ann.ok("command", text="take ball")
    seen = await bob.notification("narration")
    assert seen["turn"] == took["turn"] and seen["text"] == "Ann takes the red ball."
    assert (await bob.ok("state"))["turn"] == took["turn"]


async def test_turns_of_several_players_are_counted_once(server: Server) -> None:
    instance = await server.create(world_path("duo"))
    ann = await seat(server, instance, "@ann", "Ann")
    bob = await seat(server, instance, "@bob", "Bob")
    turns = []
    for player in (ann, bob, ann, bob):
        turns.append((await player.ok("command", text="wave"))["turn"])
    assert turns == [1, 2, 3, 4]
    assert [(await bob.notification("narration"))["turn"] for _ in range(2)] == [1, 3]
    assert [(await ann.notification("narration"))["turn"] for _ in range(2)] == [2, 4]


# -- the bank robbery, played by three -------------------------------------------------------------------------


async def test_each_bank_player_opens_where_their_actor_is(server: Server) -> None:
    instance = (await Http(server).ok("create", world="bank", seed=1))["instance"]
    rooms = {"@robber": "Street", "@teller": "Vestibule", "@guard": "Guard post"}
    for actor, room in rooms.items():
        joined = await Http(server).ok("join", instance=instance, actor=actor)
        headings = [b["text"] for b in joined["blocks"] if b["kind"] == "heading"]
        assert headings == ["The Bank Robbery", room], (actor, headings)
    for actor in rooms:
        await Http(server).fail(-32004, "join", instance=instance, actor=actor)


async def test_two_players_rob_the_bank_together(server: Server) -> None:
    instance = (await Http(server).ok("create", world="bank", seed=1))["instance"]
    robber = await seat(server, instance, "@robber", "Robber")
    teller = await seat(server, instance, "@teller", "Teller")
    masked = await robber.ok("command", text="wear mask")
    assert "mask" in masked["text"]
    walked_in = await robber.ok("command", text="in")
    seen = await teller.notification("narration")
    assert seen["turn"] == walked_in["turn"] and "You look up and see him out in the lobby" in seen["text"]
    assert "look up" not in walked_in["text"]

    await teller.ok("command", text="wave to robber")
    assert (await robber.notification("narration"))["text"] == "The bank teller waves at you."
    await robber.ok("command", text="say give me the money")
    assert "give me the money" in (await teller.notification("narration"))["text"]
    filled = await teller.ok("command", text="put money in bag")
    assert filled["text"] == "You put the fake money in the black bag."
    told = await robber.notification("narration")
    assert told["text"] == "The bank teller puts something in the black bag.", "he cannot see what she puts in"
    await teller.ok("command", text="push bag")
    assert "pushes the black bag across the counter" in (await robber.notification("narration"))["text"]
    took = await robber.ok("command", text="take bag")
    assert (await teller.notification("narration"))["turn"] == took["turn"]
    away = await robber.ok("command", text="out")
    assert away["ended"] and "hurry off down the street" in away["text"]
    assert "leaves the lobby" in (await teller.notification("narration"))["text"]
    ended = await teller.notification("ended")
    assert ended == {"instance": instance, "turn": away["turn"], "seq": ended["seq"]}
    await teller.fail(-32005, "command", text="cry")
    await teller.fail(-32003, "restart")
    assert "fake money" in (await teller.ok("narrate"))["text"]


async def test_three_players_in_the_bank_each_perceive_their_own(server: Server) -> None:
    instance = (await Http(server).ok("create", world="bank", seed=1))["instance"]
    robber = await seat(server, instance, "@robber", "Robber")
    teller = await seat(server, instance, "@teller", "Teller")
    guard = await seat(server, instance, "@guard", "Guard")
    assert [(await robber.notification("presence"))["actor"] for _ in range(2)] == ["@teller", "@guard"]
    assert (await teller.notification("presence"))["actor"] == "@guard"

    woke = await guard.ok("command", text="look")
    assert "wake up" in woke["text"]
    await robber.ok("command", text="wear mask")
    walked_in = await robber.ok("command", text="in")
    assert "Lobby" in walked_in["text"]
    assert "one-way mirror" not in walked_in["text"] and "look up" not in walked_in["text"]

    told_teller = await teller.notification("narration")
    told_guard = await guard.notification("narration")
    assert_narration(told_teller, instance, walked_in["turn"])
    assert_narration(told_guard, instance, walked_in["turn"])
    assert "You look up and see him out in the lobby" in told_teller["text"]
    assert "Through the one-way mirror, you watch him come in" in told_guard["text"]
    assert "one-way mirror" not in told_teller["text"] and "look up" not in told_guard["text"]
    assert await robber.drain(0.2) == [], "the robber is told his own turn in his reply, and nothing else"

    await robber.ok("command", text="brandish gun")
    assert "at you" in (await teller.notification("narration"))["text"]
    assert "at something" in (await guard.notification("narration"))["text"]

    out = await guard.ok("command", text="out")
    assert "Lobby" in out["text"]
    assert "burly guard enters the lobby" in (await robber.notification("narration"))["text"]
    await teller.notification("narration")

    pinned = await guard.ok("command", text="attack robber")
    assert pinned["ended"] and "You pin the twitchy man" in pinned["text"]
    assert "pins you to the marble floor" in (await robber.notification("narration"))["text"]
    assert "pins the twitchy man" in (await teller.notification("narration"))["text"]
    for player in (robber, teller, guard):
        ended = await player.notification("ended")
        assert ended == {"instance": instance, "turn": pinned["turn"], "seq": ended["seq"]}
        await player.fail(-32005, "command", text="wait")
        assert (await player.ok("narrate"))["ended"]
    listed = {i["instance"]: i for i in (await robber.ok("instances"))["instances"]}
    assert listed[instance]["ended"] and len(listed[instance]["players"]) == 3


async def test_permissions_among_the_bank_players(server: Server) -> None:
    instance = (await Http(server).ok("create", world="bank", seed=1))["instance"]
    robber = await seat(server, instance, "@robber", "Robber")
    teller = await seat(server, instance, "@teller", "Teller")
    await robber.fail(-32004, "join", instance=instance, actor="@teller")
    await robber.ok("command", text="wear mask")
    for other in ("@teller", "@guard"):
        await robber.fail(-32003, "concept", actor=other)
        await robber.fail(-32003, "narrate", spin={"focalizer": other})
        await robber.fail(-32003, "spin", set={"focalizer": other})
        await robber.fail(-32003, "command", text=f"spin commanded {other}")
    await teller.fail(-32003, "narrate", spin="told_and_focalized_by_guard")
    told = await teller.ok("narrate", spin={"narrator": "@guard", "narratee": "@robber"})
    assert told["text"]
    for method, params in (("undo", {}), ("restart", {}), ("restore", {"name": "x"}), ("world", {})):
        await robber.fail(-32003, method, **params)
    assert (await robber.ok("concept"))["actor"] == "@robber"
    assert (await teller.ok("state"))["turn"] == 1
    await teller.ok("leave")
    assert (await robber.ok("undo"))["turn"] == 0


async def test_the_robbery_told_by_itself_may_be_told_through_anyone(server: Server) -> None:
    reader = Http(server)
    joined = await reader.play("robbery")
    guard = await reader.ok("narrate", spin="told_and_focalized_by_guard")
    assert guard["text"] != joined["text"]
    assert (await reader.ok("concept", actor="@teller"))["actor"] == "@teller"
