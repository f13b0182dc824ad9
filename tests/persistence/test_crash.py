"""Killed mid-stream, started again: every acknowledged command is there, and nothing else.

Four players over HTTP and WebSocket, in three instances (two of them in one), send commands as fast as they
are answered; at a seeded moment the server is SIGKILLed. Started again on the same data directory, each
instance's stored log must hold exactly each player's acknowledged commands, in the order they were answered,
plus at most the one command each player had in flight (sent, unanswered). The store commits before it
replies, so a command committed whose reply the kill cut off is possible, and allowed: it is then applied
whole, as the replay of the log shows. The restarted server must then be exactly where a replay of that log,
played here through the engine alone, is: the same turn, state hash and telling, the same sessions (resumed
by token, with the spins they set) answering the next command in the same words.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.persistence.conftest import Mirror, Process, connect, create, stored_log
from tests.wire import Client, Lost

pytestmark = pytest.mark.asyncio

BANK = "bank" if (Path(__file__).resolve().parents[2] / "worlds" / "bank.py").is_file() else "cloak_plus"
COMMANDS = {
    "bank": ("look", "i", "listen", "smile", "jump", "wait", "type", "x slips"),
    "lost_one": ("look", "wander", "x sky", "listen", "i", "smile", "jump", "n", "s", "e", "w"),
    "cloak_plus": ("look", "i", "n", "s", "e", "w", "jump", "x cloak", "listen", "take it"),
}


@dataclass
class Play:
    """One player: which instance, whose part, over which transport, with which spin; and what happened."""

    instance: str
    world: str
    seed: int
    actor: str | None
    transport: str
    spin: dict[str, Any]
    client: Client | None = None
    token: str = ""
    tag: str = ""
    spun: dict[str, Any] = field(default_factory=dict)
    acknowledged: list[tuple[str, int, str]] = field(default_factory=list)
    """(command, turn, text) of each command answered with a result, in order."""
    refused: int = 0
    in_flight: str | None = None


def plays() -> list[Play]:
    second = "@guard" if BANK == "bank" else None
    return [
        Play("bank", BANK, 11, "@teller" if BANK == "bank" else None, "ws", {"time": "after"}),
        Play("bank", BANK, 11, second, "http", {"progressive": True}),
        Play("lost", "lost_one", 12, "@visitor", "ws", {"time_words": True}),
        Play("cloak", "cloak_plus", 13, None, "http", {"time": "before"}),
    ][: 4 if second else 3]


async def _stream(play: Play, rng: random.Random, acknowledged: list[int], kill: asyncio.Event) -> None:
    assert play.client is not None
    commands = COMMANDS[play.world]
    while not kill.is_set():
        text = rng.choice(commands)
        play.in_flight = text
        try:
            answer = await play.client.call("command", text=text)
        except Lost:
            return
        play.in_flight = None
        if "error" in answer:
            assert answer["error"]["code"] == -32005, answer  # the story ended: refused, and not logged
            play.refused += 1
        else:
            play.acknowledged.append((text, answer["result"]["turn"], answer["result"]["text"]))
        acknowledged[0] += 1
        await asyncio.sleep(0)


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_sigkill_mid_stream_keeps_every_acknowledged_command_and_nothing_else(
    seed: int, tmp_path: Path, servers: Any, http: Any
) -> None:
    data = tmp_path / "data"
    server: Process = servers(data)
    players = plays()
    instances: dict[str, str] = {}
    for play in players:
        if play.instance not in instances:
            instances[play.instance] = await create(http, server.url, play.world, play.seed)
        play.client = await connect(http, server.url, play.transport)
        joined = await play.client.ok(
            "join", instance=instances[play.instance], **({"actor": play.actor} if play.actor else {})
        )
        play.token, play.tag = joined["token"], joined["actor"]
        play.spun = (await play.client.ok("spin", set=play.spin))["spin"]

    rng = random.Random(seed)
    kill_after = rng.randint(25, 90)
    acknowledged = [0]
    kill = asyncio.Event()

    async def killer() -> None:
        while acknowledged[0] < kill_after:
            await asyncio.sleep(0.001)
        os.kill(server.process.pid, signal.SIGKILL)
        kill.set()

    streams = [
        _stream(play, random.Random(f"{seed}-{index}"), acknowledged, kill) for index, play in enumerate(players)
    ]
    await asyncio.gather(killer(), *streams)
    server.kill()
    for play in players:
        assert play.client is not None
        await play.client.close()
    assert sum(len(play.acknowledged) for play in players) >= kill_after - sum(play.refused for play in players)

    # What the store kept, checked against what the players were told.
    mirrors: dict[str, Mirror] = {}
    for key, instance in instances.items():
        members = [play for play in players if play.instance == key]
        log = stored_log(data, instance)
        mirror = Mirror(members[0].world, members[0].seed)
        replies = mirror.replay(log, {play.tag: play.spin for play in members})
        mirrors[key] = mirror
        assert [actor for entry, actor, _ in log if entry == "take"] == [play.tag for play in members]
        for play in members:
            logged = [(text, reply, turn) for actor, text, reply, turn in replies if actor == play.tag]
            answered = play.acknowledged
            assert len(logged) >= len(answered), f"{play.tag}: an acknowledged command is missing"
            for (text, reply, turn), (sent, told_turn, told) in zip(logged, answered, strict=False):
                # The same command (an idle tick's words are not logged), answered in the same words at the same turn.
                assert text in (sent, None), f"{play.tag}: {sent!r} acknowledged, {text!r} logged"
                assert (reply, turn) == (told, told_turn), f"{play.tag}: {sent!r} answered otherwise"
            extra = [text for text, _, _ in logged[len(answered) :]]
            assert extra in ([], [play.in_flight], [None]) and (not extra or play.in_flight), (
                f"{play.tag}: logged {extra} beyond what was acknowledged, with {play.in_flight!r} in flight"
            )
            # Nobody heard of a turn that was not kept: each narration sent is one the replay tells too.
            assert isinstance(play.client, Client)
            heard = [
                (note["params"]["turn"], note["params"]["text"])
                for note in getattr(play.client, "notifications", [])
                if note["method"] == "narration"
            ]
            assert all(narration in mirror.news.get(play.tag, []) for narration in heard), play.tag

    # Started again on the same directory: everyone resumes where the replay is.
    server = servers(data)
    anyone = await connect(http, server.url, "http")
    listed = {info["instance"]: info for info in (await anyone.ok("instances"))["instances"]}
    for key, instance in instances.items():
        mirror = mirrors[key]
        assert (listed[instance]["turn"], listed[instance]["ended"]) == (mirror.story.turn, mirror.story.ended)
        assert sorted(p["actor"] for p in listed[instance]["players"]) == sorted(mirror.players)
    for play in players:
        mirror = mirrors[play.instance]
        client = await connect(http, server.url, play.transport)
        resumed = await client.ok("resume", token=play.token)
        assert {key: resumed[key] for key in ("instance", "actor", "turn")} == {
            "instance": instances[play.instance],
            "actor": play.tag,
            "turn": mirror.story.turn,
        }
        # The spin set, as the world's dynamic spin (Lost One's) has changed it since: as the replay has it.
        spin = (await client.ok("spin"))["spin"]
        assert spin == msgspec.json.decode(msgspec.json.encode(mirror.players[play.tag].spin))
        if mirror.story.definition.dynamic_spin is None:
            assert spin == play.spun
        state = await client.ok("state")
        assert (state["turn"], state["hash"], state["ended"]) == (mirror.story.turn, mirror.hash, mirror.story.ended)
        assert (await client.ok("narrate"))["text"] == mirror.narrate(play.tag)
        text = COMMANDS[play.world][0]
        answer = await client.call("command", text=text)
        if mirror.story.ended:
            assert answer["error"]["code"] == -32005
        else:
            assert answer["result"]["text"] == mirror.command(play.tag, text)
            assert answer["result"]["turn"] == mirror.story.turn
        await client.close()
