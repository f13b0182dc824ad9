"""Benchmarks of the bots' kit: the load generator at three crowd sizes, the environment's steps a second (in the
process and over a socket), and what a fork costs as a story grows."""

from __future__ import annotations

import asyncio
import math
import random
import statistics
import time

from bench.measure import Benchmark, Result, Settings, duration, mebibytes, table
from bench.server import server
from clients.bots import AsyncBot
from clients.bots.env import CurveshipEnv
from clients.bots.load import Options, run

CROWD_WORLD = "lost_one"
ACTORS = 5
"""Lost One's playable actors: an instance seats five players."""

STEPS = ("look", "w", "e", "s", "n", "i", "x hook", "take cloak", "hang cloak on hook", "listen", "jump")
"""What the environment is stepped with (Cloak of Darkness; a story that ends is reset)."""

FORK_WORLD = "cloak_plus"
"""Forked as it grows: a world whose story goes on as long as wanted (nobody's waiting ends it)."""
FORKS = 5
"""Forks timed at each story length (the median counts)."""


def load(settings: Settings) -> Result:
    """The load generator (closed loop) against a server in its own process, at a fifth of `players`, at
    `players` and at four times as many (10, 50 and 200 by default), each for a third of `seconds`."""
    levels = sorted({max(1, settings.players // 5), settings.players, settings.players * 4})
    runs = []
    with server() as (base, pid):
        for players in levels:
            options = Options(
                url=base,
                players=players,
                instances=math.ceil(players / ACTORS),
                world=CROWD_WORLD,
                seconds=settings.seconds / 3,
                server_pid=pid,
                progress=False,
            )
            runs.append(asyncio.run(run(options)))
    return {"world": CROWD_WORLD, "runs": runs}


def report_load(result: Result) -> str:
    rows = []
    for one in result["runs"]:
        latency, used = one["latency_ms"], one["server"] or {}
        rows.append(
            [
                f"{one['players']} players / {one['instances']} instances",
                str(one["commands"]),
                f"{one['commands_per_second']:.0f}",
                f"{latency['p50']:.1f} ms",
                f"{latency['p90']:.1f} ms",
                f"{latency['p99']:.1f} ms",
                f"{latency['max']:.1f} ms",
                str(sum(one["errors"].values())),
                f"{used.get('cpu_share', 0):.0%}",
                mebibytes(used.get("rss_bytes", 0)),
            ]
        )
    header = ["load", "commands", "/s", "p50", "p90", "p99", "max", "errors", "server CPU", "memory"]
    return table(header, rows)


VECTOR = 8
"""Environments in the vector benchmarked (gymnasium.make_vec, one server for all)."""


def environment(settings: Settings) -> Result:
    """Steps a second on Cloak: of one CurveshipEnv, its server in this process and in a process of its own;
    and of a vector of eight (Gymnasium's sync vector) on that server, each of its steps counted eight times."""
    steps = max(20, settings.commands // 4)
    found = {"in_process": _stepped(CurveshipEnv("cloak"), steps)}
    with server() as (base, _pid):
        found["over_socket"] = _stepped(CurveshipEnv("cloak", url=base), steps)
        found[f"vector_of_{VECTOR}_over_socket"] = _vector_stepped(base, max(1, steps // VECTOR))
    return {"steps": steps, **found}


def _vector_stepped(base: str, steps: int) -> Result:
    import gymnasium

    import clients.bots  # noqa: F401 (registers the ids)

    rng = random.Random("vector")
    vector = gymnasium.make_vec("curveship/cloak", num_envs=VECTOR, vectorization_mode="sync", url=base)
    try:
        vector.reset(seed=0)
        timings = []
        for _ in range(steps):
            start = time.perf_counter()
            vector.step([rng.choice(STEPS) for _ in range(VECTOR)])  # an ended one is reset by the vector itself
            timings.append(time.perf_counter() - start)
    finally:
        vector.close()
    done = VECTOR * len(timings)
    return {"steps": done, "steps_per_second": done / sum(timings), "median_s": statistics.median(timings)}


def _stepped(env: CurveshipEnv, steps: int) -> Result:
    rng = random.Random("steps")
    try:
        env.reset(seed=0)
        timings = []
        for _ in range(steps):
            start = time.perf_counter()
            _, _, terminated, truncated, _ = env.step(rng.choice(STEPS))
            timings.append(time.perf_counter() - start)
            if terminated or truncated:
                env.reset(seed=0)
    finally:
        env.close()
    total = sum(timings)
    return {"steps": len(timings), "steps_per_second": len(timings) / total, "median_s": statistics.median(timings)}


def report_environment(result: Result) -> str:
    rows = [
        [where.replace("_", " "), str(r["steps"]), f"{r['steps_per_second']:.0f}", duration(r["median_s"])]
        for where, r in result.items()
        if isinstance(r, dict)
    ]
    return table(["environment, server", "steps", "steps/s", "median step"], rows)


def fork(settings: Settings) -> Result:
    """What `fork` costs (a snapshot taken and resumed; the server keeps no data directory) as a story grows:
    at a two-hundredth, a twentieth and half of `commands` turns (10, 100 and 1,000 by default)."""
    lengths = sorted({max(1, settings.commands // n) for n in (200, 20, 2)})
    return {"world": FORK_WORLD, "turns": asyncio.run(_forks(lengths))}


async def _forks(lengths: list[int]) -> list[Result]:
    measured = []
    async with AsyncBot() as bot:
        await bot.play(FORK_WORLD, seed=0)
        turn = 0
        for target in lengths:
            while turn < target:
                many = min(16, target - turn)
                reply = await bot.command("; ".join(["jump"] * many))
                turn = reply.turn
            token = bot.token
            assert token is not None
            timings = []
            for _ in range(FORKS):
                start = time.perf_counter()
                await bot.fork()
                timings.append(time.perf_counter() - start)
                await bot.batch([("leave", {}), ("resume", {"token": token})])
            measured.append({"turns": turn, "median_s": statistics.median(timings), "max_s": max(timings)})
    return measured


def report_fork(result: Result) -> str:
    rows = [[str(r["turns"]), duration(r["median_s"]), duration(r["max_s"])] for r in result["turns"]]
    return table(["story turns", "fork (median)", "slowest"], rows)


BENCHMARKS = (
    Benchmark("load", "the load generator at three crowd sizes: commands/s, p50/p90/p99/max, errors, server CPU",
              load, report_load),
    Benchmark("env", "steps a second of the Gymnasium environment, its server in this process and in its own",
              environment, report_environment),
    Benchmark("fork", "what a fork costs as the story grows", fork, report_fork),
)  # fmt: skip
