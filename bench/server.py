"""Benchmarks of the server: command latency over HTTP and WebSocket, and many players at once."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import aiohttp
import msgspec

from bench.measure import Benchmark, Result, Settings, distribution, duration, mebibytes, table

WORLD = "lost_one"
PEOPLE = ("@visitor", "@punk", "@boy", "@collector", "@flaneur")
COMMANDS = ("look", "wander", "x sky", "listen", "i", "smile", "jump", "n", "s", "e", "w")
"""What the players type. Not "wait": the visitor waiting in the center ends the story, and the crowd plays on."""


@contextmanager
def server() -> Iterator[tuple[str, int]]:
    """A server in a process of its own on a free loopback port: (base URL, its pid)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code = (
        "import asyncio; from aiohttp import web; from server.app import Config, create_app; "
        "from server.heap import freeze_heap; "
        # Players here go as fast as the server answers: lift the per-session rate limit out of their way.
        "app = create_app(Config(rate=1e6, burst=1e6)); "
        # Started as `curveship serve` starts: the heap made by then frozen.
        "app.on_startup.append(lambda app: asyncio.sleep(0, freeze_heap())); "
        f"web.run_app(app, host='127.0.0.1', port={port}, print=None)"
    )
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(base)
        yield base, process.pid
    finally:
        process.terminate()
        process.wait(timeout=10)


def _wait_for(base: str) -> None:
    import urllib.request

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/health", timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the server did not start")


def _cpu_and_memory(pid: int) -> tuple[float, int]:
    """The process's CPU seconds so far and its resident memory in bytes (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    with open(f"/proc/{pid}/status") as status:
        rss = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:"))
    return cpu, rss


class Ws:
    """A bare JSON-RPC WebSocket: send a request, wait for its answer, pass notifications by."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.next_id = 0

    async def call(self, method: str, **params: Any) -> Any:
        self.next_id += 1
        await self.socket.send_str(
            msgspec.json.encode({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}).decode()
        )
        while True:
            message = msgspec.json.decode(await self.socket.receive_str())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(message["error"])
                return message["result"]


async def _http_call(
    http: aiohttp.ClientSession, base: str, method: str, token: str | None = None, **params: Any
) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    async with http.post(base + "/rpc", json=body, headers=headers) as response:
        answer = await response.json()
    if "error" in answer:
        raise RuntimeError(answer["error"])
    return answer["result"]


async def _latency(base: str, count: int) -> Result:
    rng = random.Random("latency")
    async with aiohttp.ClientSession() as http:
        timings: dict[str, list[float]] = {"http": [], "websocket": []}
        instance = (await _http_call(http, base, "create", world=WORLD, seed=1))["instance"]
        token = (await _http_call(http, base, "join", instance=instance))["token"]
        for _ in range(count):
            start = time.perf_counter()
            await _http_call(http, base, "command", token, text=rng.choice(COMMANDS))
            timings["http"].append(time.perf_counter() - start)
        instance = (await _http_call(http, base, "create", world=WORLD, seed=1))["instance"]
        async with http.ws_connect(base.replace("http", "ws") + "/ws") as socket:
            ws = Ws(socket)
            await ws.call("join", instance=instance)
            for _ in range(count):
                start = time.perf_counter()
                await ws.call("command", text=rng.choice(COMMANDS))
                timings["websocket"].append(time.perf_counter() - start)
    return {name: distribution(samples) for name, samples in timings.items()}


def latency(settings: Settings) -> Result:
    with server() as (base, _pid):
        result = asyncio.run(_latency(base, settings.requests))
    return {"requests": settings.requests, **result}


async def _crowd(base: str, players: int, instances: int, seconds: float) -> Result:
    async with aiohttp.ClientSession() as http:
        made = [(await _http_call(http, base, "create", world=WORLD, seed=i))["instance"] for i in range(instances)]
        sockets = []
        for index in range(players):
            socket = await http.ws_connect(base.replace("http", "ws") + "/ws")
            ws = Ws(socket)
            instance = made[index % instances]
            await ws.call("join", instance=instance, actor=PEOPLE[(index // instances) % len(PEOPLE)])
            sockets.append(ws)
        timings, elapsed = await play_for(sockets, seconds)
        for ws in sockets:
            await ws.socket.close()
    return {"commands": len(timings), "seconds": elapsed, "per_second": len(timings) / elapsed, **distribution(timings)}


async def play_for(sockets: list[Ws], seconds: float) -> tuple[list[float], float]:
    """Every socket's player sends commands as fast as they are answered for `seconds`: each command's time,
    and how long it all took."""
    timings: list[float] = []
    stop = time.monotonic() + seconds

    async def play(ws: Ws, rng: random.Random) -> None:
        while time.monotonic() < stop:
            start = time.perf_counter()
            await ws.call("command", text=rng.choice(COMMANDS))
            timings.append(time.perf_counter() - start)

    began = time.perf_counter()
    await asyncio.gather(*(play(ws, random.Random(i)) for i, ws in enumerate(sockets)))
    return timings, time.perf_counter() - began


def crowd(settings: Settings) -> Result:
    with server() as (base, pid):
        cpu_before, _ = _cpu_and_memory(pid)
        result = asyncio.run(_crowd(base, settings.players, settings.instances, settings.seconds))
        cpu_after, rss = _cpu_and_memory(pid)
    cpu = cpu_after - cpu_before
    return {
        "players": settings.players,
        "instances": settings.instances,
        **result,
        "server_cpu_s": cpu,
        "server_cpu_share": cpu / result["seconds"],
        "server_rss_bytes": rss,
    }


def report_latency(result: Result) -> str:
    rows = [
        [name, str(result["requests"]), duration(r["median_s"]), duration(r["p90_s"]), duration(r["p99_s"])]
        for name, r in result.items()
        if isinstance(r, dict)
    ]
    return table(["command over", "requests", "p50", "p90", "p99"], rows)


def report_crowd(result: Result) -> str:
    row = [
        f"{result['players']} players / {result['instances']} instances",
        str(result["commands"]),
        f"{result['per_second']:.0f}",
        duration(result["median_s"]),
        duration(result["p99_s"]),
        f"{result['server_cpu_share']:.0%}",
        mebibytes(result["server_rss_bytes"]),
    ]
    return table(["load", "commands", "commands/s", "p50", "p99", "server CPU", "server memory"], [row])


BENCHMARKS = (
    Benchmark("latency", "p50/p90/p99 latency of one player's commands over HTTP and over WebSocket", latency,
              report_latency),
    Benchmark("crowd", "many WebSocket players over several instances: throughput, p99, server CPU and memory",
              crowd, report_crowd),
)  # fmt: skip
