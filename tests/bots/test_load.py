"""The load generator against real servers: players seated one an actor, commands given for the time asked,
a report of throughput, percentiles and errors; paced mode keeps to its schedule. No timing is judged here."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter

import pytest

from clients.bots.load import MOVING, Options, _Pool, base_url, percentile, run
from tests.bots.conftest import Running
from tests.clients.conftest import ROOT


@pytest.mark.asyncio
async def test_closed_players_play_for_the_time_asked_and_the_report_says_how_it_went(roomy: Running) -> None:
    socket = roomy.url.replace("http://", "ws://") + "/ws"
    report = await run(Options(url=socket, players=4, instances=2, world="cloak_plus", seconds=1, progress=False))
    assert report["commands"] > 0 and report["errors"] == {}, "a story that ends is begun again, not an error"
    assert report["players"] == 4 and report["url"] == roomy.url
    assert report["notifications"] > 0, "two players to an instance: each is told of the other's turns"
    latency = report["latency_ms"]
    assert 0 < latency["p50"] <= latency["p90"] <= latency["p99"] <= latency["max"]
    assert report["server"] is None, "a server elsewhere, and no pid given: its CPU is not guessed"


@pytest.mark.asyncio
async def test_paced_players_keep_to_the_rate(roomy: Running) -> None:
    report = await run(
        Options(url=roomy.url, players=2, instances=2, world="cloak", mode="paced", rate=10, seconds=1, progress=False)
    )
    # Ten a second for a second, on a schedule: never more than were due, and the server keeps up with so few.
    assert 1 <= report["commands"] + report["skipped"] <= 10 + 2, report


@pytest.mark.asyncio
async def test_more_players_than_actors_to_seat_them_is_refused(roomy: Running) -> None:
    with pytest.raises(SystemExit, match="playable actors"):
        await run(Options(url=roomy.url, players=3, instances=1, world="cloak_plus", seconds=1, progress=False))
    with pytest.raises(SystemExit, match="no interactive world 'robbery'"):
        await run(Options(url=roomy.url, players=1, instances=1, world="robbery", seconds=1, progress=False))


def test_the_command_line_serves_itself_and_prints_json() -> None:
    flags = ["--world", "cloak", "--players", "2", "--instances", "2", "--seconds", "1", "--quiet"]
    done = subprocess.run(
        [sys.executable, "-m", "clients.bots.load", *flags],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    report = json.loads(done.stdout)
    assert report["commands"] > 0 and report["server"]["in_this_process"] is True
    assert report["server"]["rss_bytes"] > 0 and done.stderr == ""


def test_urls_and_percentiles() -> None:
    assert base_url("ws://127.0.0.1:8765/ws") == "http://127.0.0.1:8765"
    assert base_url("wss://example.test/") == "https://example.test"
    assert base_url("http://127.0.0.1:1") == "http://127.0.0.1:1"
    samples = [float(n) for n in range(1, 101)]
    assert (percentile(samples, 0.5), percentile(samples, 0.99), percentile([], 0.5)) == (50.0, 99.0, 0.0)


def test_curveship_load_is_the_same_command(capsys: pytest.CaptureFixture[str]) -> None:
    from clients.cli.main import main

    with pytest.raises(SystemExit) as shown:
        main(["load", "--help"])
    assert shown.value.code == 0
    usage = capsys.readouterr().out
    assert usage.startswith("usage: curveship load") and "--server" in usage and "--mode {closed,paced}" in usage


def test_players_wander_and_a_seed_picks_the_same_commands_as_it_always_has() -> None:
    offered = ["look", "go north", "jump", "go south", "smile"]
    pool, rng = _Pool.of(offered), random.Random("seed:0")
    picked = [pool.pick(rng) for _ in range(6000)]
    drawn = Counter(picked)
    # A way to go weighs MOVING, anything else 1: the two ways out are 2 * MOVING of 3 + 2 * MOVING shares.
    going = (drawn["go north"] + drawn["go south"]) / len(picked)
    assert abs(going - 2 * MOVING / (3 + 2 * MOVING)) < 0.03, drawn
    # The same draws as weighing every pick afresh, as earlier runs did: a seeded run stays comparable with them.
    again = random.Random("seed:0")
    weights = [MOVING if command.startswith("go ") else 1 for command in offered]
    assert picked == [again.choices(offered, weights)[0] for _ in range(6000)]
