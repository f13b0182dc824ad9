"""Benchmarks of `curveship serve --workers N`: capacity against the number of processes, and what a costly call
(`actions`) on one instance costs an innocent player of another.

`python -m bench workers` runs both; `python -m bench.workers --against DIR` also measures the stall with the
server of another tree (an older checkout) in one process, for a before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp

from bench.measure import Benchmark, Result, Settings, distribution, table

AUTHOR = "author-token-of-the-workers-benchmark"
ROOT = Path(__file__).resolve().parent.parent
LIFTED = ("--rate", "1e9", "--burst", "1e9")
"""The players go as fast as they are answered: the per-session rate is lifted out of their way."""


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for(base: str, deadline: float = 90.0) -> None:
    import urllib.request

    until = time.monotonic() + deadline
    while time.monotonic() < until:
        try:
            with urllib.request.urlopen(base + "/health", timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the server did not start")


@contextmanager
def serving(workers: int, *extra: str) -> Iterator[tuple[str, int]]:
    """`curveship serve --workers N` on a free port, the rate lifted (and `extra` settings): (base URL, the
    starting process's pid)."""
    port = _free_port()
    command = [sys.executable, "-m", "clients.cli.main", "serve", "--port", str(port), "--workers", str(workers)]
    env = {**os.environ, "CURVESHIP_AUTHOR_TOKEN": AUTHOR}
    process = subprocess.Popen(
        [*command, *LIFTED, *extra], env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(base)
        yield base, process.pid
    finally:
        process.terminate()
        process.wait(timeout=60)


@contextmanager
def one_process(tree: Path) -> Iterator[str]:
    """The server of the code in `tree`, one process, built as any tree's can be (create_app and Config)."""
    port = _free_port()
    code = (
        "from aiohttp import web; from server.app import Config, create_app; "
        f"web.run_app(create_app(Config(rate=1e9, burst=1e9)), host='127.0.0.1', port={port}, print=None)"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code], cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(base)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user and system) of a process and its children, read from /proc (0 where it cannot be)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return total
    return total + sum(_cpu_seconds(int(child)) for child in children)


# -- capacity ----------------------------------------------------------------------------------------------


def capacity(settings: Settings) -> Result:
    """The load generator (closed loop, in a process of its own) against --workers 1 and 2."""
    rows = []
    for workers in (1, 2):
        with serving(workers) as (base, pid):
            before = _cpu_seconds(pid)
            load = subprocess.run(
                [
                    sys.executable, "-m", "clients.bots.load", "--url", base, "--players", str(settings.players),
                    "--instances", str(settings.instances), "--world", "lost_one", "--mode", "closed",
                    "--seconds", str(settings.seconds), "--author-token", AUTHOR, "--quiet",
                ],
                cwd=ROOT, capture_output=True, text=True, check=True,
            )  # fmt: skip
            cpu = _cpu_seconds(pid) - before
            report = json.loads(load.stdout)
            rows.append({"workers": workers, "report": report, "server_cpu_s": cpu})
    return {"players": settings.players, "instances": settings.instances, "rows": rows}


def report_capacity(result: Result) -> str:
    lines = []
    for row in result["rows"]:
        report = row["report"]
        latency = report["latency_ms"]
        lines.append(
            [
                str(row["workers"]),
                f"{report['commands']:,}",
                f"{report['commands_per_second']:,.0f}",
                f"{latency['p50']:.1f} ms",
                f"{latency['p99']:.1f} ms",
                f"{row['server_cpu_s'] / report['seconds']:.0%}",
                f"{row['server_cpu_s'] / max(report['commands'], 1) * 1000:.2f} ms",
                str(sum(report["errors"].values())),
            ]
        )
    rows = result["rows"]
    ratio = rows[-1]["report"]["commands_per_second"] / max(rows[0]["report"]["commands_per_second"], 1e-9)
    heading = ["workers", "commands", "commands/s", "p50", "p99", "server CPU", "CPU a command", "errors"]
    return table(heading, lines) + f"\n2 workers / 1: {ratio:.2f}×"


# -- latency under a steady load --------------------------------------------------------------------------

STEADY_PLAYERS = 100
STEADY_INSTANCES = 20
STEADY_RATE = 1_000.0
"""The steady load of issue 12's latency goal: 100 players over 20 instances, 1,000 commands/s offered in all."""


def steady(settings: Settings) -> Result:
    """The load generator pacing 100 players over 20 Lost One instances at 1,000 commands/s in all (each player
    at its own fixed pace, whether or not the last was answered) against --workers 2: how many were served,
    and p50/p99 (a closed loop cannot show latency: its mean is players / throughput)."""
    # The players all come from this machine's one address: its allowance of sockets is lifted for them.
    with serving(2, "--sockets-per-address", "1000", "--connections-per-address", "1000") as (base, pid):
        before = _cpu_seconds(pid)
        load = subprocess.run(
            [
                sys.executable, "-m", "clients.bots.load", "--url", base, "--players", str(STEADY_PLAYERS),
                "--instances", str(STEADY_INSTANCES), "--world", "lost_one", "--mode", "paced",
                "--rate", str(STEADY_RATE), "--seconds", str(settings.seconds), "--author-token", AUTHOR, "--quiet",
            ],
            cwd=ROOT, capture_output=True, text=True, check=True,
        )  # fmt: skip
        cpu = _cpu_seconds(pid) - before
    report = json.loads(load.stdout)
    return {"report": report, "server_cpu_s": cpu, "offered": STEADY_RATE * report["seconds"]}


def report_steady(result: Result) -> str:
    report = result["report"]
    latency = report["latency_ms"]
    row = [
        f"{result['offered']:,.0f}",
        f"{report['commands']:,}",
        f"{report['commands_per_second']:,.0f}",
        f"{latency['p50']:.1f} ms",
        f"{latency['p99']:.1f} ms",
        f"{result['server_cpu_s'] / report['seconds']:.0%}",
        str(sum(report["errors"].values())),
    ]
    heading = ["offered", "served", "commands/s", "p50", "p99", "server CPU", "errors"]
    return table(heading, [row]) + "\ntarget: every command served, p99 < 20 ms"


# -- an innocent player beside an actions call -----------------------------------------------------------


class _Socket:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.id = 0

    async def call(self, method: str, **params: Any) -> Any:
        self.id += 1
        await self.ws.send_json({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})
        while True:
            message = json.loads((await self.ws.receive()).data)
            if message.get("id") == self.id:
                if "error" in message:
                    raise RuntimeError(message["error"])
                return message["result"]


async def _stall(base: str, seconds: float) -> Result:
    async with aiohttp.ClientSession() as http:
        sockets = [_Socket(await http.ws_connect(base + "/ws")) for _ in range(2)]
        asker, innocent = sockets
        for seed, socket in enumerate(sockets):
            # Dealt out in turn: with two workers, one instance on each.
            made = await socket.call("create", world="lost_one", seed=seed + 1)
            await socket.call("join", instance=made["instance"])

        async def looking(until: float) -> list[float]:
            times = []
            while time.perf_counter() < until:
                started = time.perf_counter()
                await innocent.call("command", text="look")
                times.append(time.perf_counter() - started)
            return times

        alone = await looking(time.perf_counter() + seconds)
        asked: list[float] = []

        async def asking(until: float) -> None:
            while time.perf_counter() < until:
                started = time.perf_counter()
                await asker.call("actions")
                asked.append(time.perf_counter() - started)

        until = time.perf_counter() + seconds
        beside, _ = await asyncio.gather(looking(until), asking(until))
        for socket in sockets:
            await socket.ws.close()
    return {"alone": _spread(alone), "beside": _spread(beside), "actions": _spread(asked)}


def _spread(samples: list[float]) -> Result:
    """p50, p99 and the worst of timings in seconds, and how many."""
    found = distribution(samples)
    return {"count": found["count"], "p50": found["median_s"], "p99": found["p99_s"], "max": max(samples)}


def stall_of(base: str, seconds: float) -> Result:
    return asyncio.run(_stall(base, seconds))


def stall(settings: Settings) -> Result:
    """An innocent player's `look` latency alone, then while another instance's player calls `actions` without
    pause: in one process, and with two workers (the two instances then on different workers)."""
    seconds = max(2.0, settings.seconds / 4)
    with serving(1) as (base, _):
        one = stall_of(base, seconds)
    with serving(2) as (base, _):
        two = stall_of(base, seconds)
    return {"seconds": seconds, "runs": {"this tree, 1 worker": one, "this tree, 2 workers": two}}


def report_stall(result: Result) -> str:
    lines = []
    for label, run in result["runs"].items():
        for when in ("alone", "beside"):
            found = run[when]
            lines.append(
                [
                    label,
                    "alone" if when == "alone" else "beside actions",
                    f"{found['p50'] * 1000:.1f} ms",
                    f"{found['p99'] * 1000:.1f} ms",
                    f"{found['max'] * 1000:.1f} ms",
                ]
            )
        lines.append([label, "(actions itself)", f"{run['actions']['p50'] * 1000:.0f} ms", "", ""])
    return table(["server", "innocent player's look", "p50", "p99", "max"], lines)


BENCHMARKS = (
    Benchmark("capacity", "commands/s and p50/p99 of the closed-loop crowd against --workers 1 and 2", capacity,
              report_capacity),
    Benchmark("steady", "100 players over 20 instances paced at 1,000 commands/s against --workers 2: p50/p99",
              steady, report_steady),
    Benchmark("stall", "an innocent player's latency beside an actions call on another instance", stall, report_stall),
)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.workers", description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, metavar="DIR", help="also measure the stall with DIR's server")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long each part of the stall runs")
    options = parser.parse_args(argv)
    runs = {}
    trees = [("this tree", ROOT)] + ([(f"before ({options.against})", options.against)] if options.against else [])
    for label, tree in trees:
        with one_process(tree) as base:
            runs[f"{label}, 1 process"] = stall_of(base, options.seconds)
    print(report_stall({"runs": runs}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
