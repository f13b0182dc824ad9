"""Benchmarks of a cluster's nodes on PostgreSQL and NATS: what a call forwarded to another node costs against one
made on the node holding the instance, and how long a killed node's players wait to play on elsewhere.

Each starts two `serve --store … --bus …` nodes on a database of its own (on CURVESHIP_BENCH_POSTGRES, dropped
after) and the NATS server at CURVESHIP_BENCH_NATS; without them it says so and measures nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import aiohttp

from bench.measure import Benchmark, Result, Settings, distribution, duration, ratio, table
from bench.persistence import _postgres_database
from bench.workers import _cpu_seconds, _free_port, _wait_for

AUTHOR = "author-token-of-the-cluster-benchmark"
ROOT = Path(__file__).resolve().parent.parent
NATS = os.environ.get("CURVESHIP_BENCH_NATS", "nats://127.0.0.1:4222")
WORKER = "X-Curveship-Worker"


@contextmanager
def _nodes(store: str, count: int) -> Iterator[list[tuple[str, subprocess.Popen[bytes]]]]:
    """`count` nodes on `store` and NATS, the rate lifted: each one's base URL and process."""
    started = []
    env = {**os.environ, "CURVESHIP_AUTHOR_TOKEN": AUTHOR}
    try:
        for _ in range(count):
            port = _free_port()
            command = [sys.executable, "-m", "clients.cli.main", "serve", "--port", str(port), "--workers", "1"]
            command += ["--store", store, "--bus", NATS, "--rate", "1e9", "--burst", "1e9"]
            process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            started.append((f"http://127.0.0.1:{port}", process))
        for base, _ in started:
            _wait_for(base)
        yield started
    finally:
        for _, process in started:
            if process.poll() is None:
                process.terminate()
        for _, process in started:
            process.wait(timeout=60)


@asynccontextmanager
async def _cluster(count: int) -> AsyncIterator[list[tuple[str, subprocess.Popen[bytes]]] | None]:
    async with _postgres_database() as store:
        if store is None or not await _nats_answers():
            yield None
            return
        with _nodes(store, count) as started:
            yield started


async def _nats_answers() -> bool:
    import nats

    try:
        connection = await nats.connect(NATS, connect_timeout=3, max_reconnect_attempts=0, allow_reconnect=False)
    except Exception:  # nats-py's own kinds, and OSError
        return False
    await connection.close()
    return True


class _Socket:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.id = 0

    async def call(self, method: str, **params: Any) -> Any:
        self.id += 1
        await self.ws.send_json({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})
        while True:
            frame = await self.ws.receive()
            if frame.type != aiohttp.WSMsgType.TEXT:
                raise ConnectionError(f"closed: {frame.data} {frame.extra}")
            message = json.loads(frame.data)
            if message.get("id") == self.id:
                if "error" in message:
                    raise RuntimeError(message["error"])
                return message["result"]


async def _created(http: aiohttp.ClientSession, base: str, seed: int) -> str:
    body = {"jsonrpc": "2.0", "id": 1, "method": "create", "params": {"world": "lost_one", "seed": seed}}
    async with http.post(base + "/rpc", json=body, headers={"Authorization": f"Bearer {AUTHOR}"}) as answer:
        return str((await answer.json())["result"]["instance"])


# -- forwarding -----------------------------------------------------------------------------------------------


async def _forwarding(nodes: list[tuple[str, subprocess.Popen[bytes]]], commands: int) -> Result:
    (holder, holding), (other, forwarding) = nodes
    async with aiohttp.ClientSession() as http:
        runs: Result = {}
        # Two instances, both made (so held) on the first node: one player on it, one on the other node.
        for label, base, seed in (("on the holder", holder, 1), ("forwarded over NATS", other, 2)):
            instance = await _created(http, holder, seed)
            socket = _Socket(await http.ws_connect(base + "/ws"))
            await socket.call("join", instance=instance)
            for _ in range(20):  # warmed: the instance loaded, the links made
                await socket.call("command", text="look")
            cpu_before = _cpu_seconds(holding.pid) + _cpu_seconds(forwarding.pid)
            times = []
            for _ in range(commands):
                started = time.perf_counter()
                await socket.call("command", text="look")
                times.append(time.perf_counter() - started)
            cpu = _cpu_seconds(holding.pid) + _cpu_seconds(forwarding.pid) - cpu_before
            runs[label] = {**distribution(times), "cpu_s": cpu / commands}
            await socket.ws.close()
    direct, forwarded = runs["on the holder"], runs["forwarded over NATS"]
    return {
        "commands": commands,
        "runs": runs,
        "median_ratio": ratio(forwarded["median_s"], direct["median_s"]),
        "cpu_ratio": ratio(forwarded["cpu_s"], direct["cpu_s"]),
    }


def forwarding(settings: Settings) -> Result:
    """One player's `look` (Lost One), a command at a time: on the node holding the instance, then from a
    socket on another node (forwarded there and back over NATS); wall time and both nodes' CPU a command."""

    async def run() -> Result:
        async with _cluster(2) as nodes:
            if nodes is None:
                return {"skipped": f"no PostgreSQL, or no NATS at {NATS}"}
            return await asyncio.to_thread(lambda: asyncio.run(_forwarding(nodes, max(50, settings.requests))))

    return asyncio.run(run())


def report_forwarding(result: Result) -> str:
    if "skipped" in result:
        return f"skipped: {result['skipped']}"
    rows = [
        [label, f"{run['count']:,}", duration(run["median_s"]), duration(run["p99_s"]), duration(run["cpu_s"])]
        for label, run in result["runs"].items()
    ]
    rows.append(["forwarded / on the holder", "", f"{result['median_ratio']:.2f}×", "", f"{result['cpu_ratio']:.2f}×"])
    return table(["a command's way", "commands", "p50", "p99", "CPU a command (both nodes)"], rows)


# -- takeover -----------------------------------------------------------------------------------------------


async def _takeover(nodes: list[tuple[str, subprocess.Popen[bytes]]]) -> Result:
    (holder, holding), (other, _) = nodes
    async with aiohttp.ClientSession() as http:
        instance = await _created(http, holder, 3)
        socket = _Socket(await http.ws_connect(other + "/ws"))
        joined = await socket.call("join", instance=instance)
        for _ in range(10):
            last = await socket.call("command", text="look")
        os.kill(holding.pid, signal.SIGKILL)
        killed = time.perf_counter()
        with contextlib.suppress(Exception):  # closed (1012) once the node is taken for gone, one way or another
            await socket.ws.receive()
        closed = time.perf_counter() - killed
        tries = 0
        while True:
            tries += 1
            again = _Socket(await http.ws_connect(other + "/ws"))
            try:
                resumed = await again.call("resume", token=joined["token"], last_seq=last["seq"])
                break
            except RuntimeError:
                await again.ws.close()
                await asyncio.sleep(0.1)
        back = time.perf_counter() - killed
        went_on = await again.call("command", text="look")
        await again.ws.close()
    return {
        "socket_closed_s": closed,
        "resumed_s": back,
        "tries": tries,
        "turn_kept": resumed["turn"] == last["turn"] and went_on["turn"] == last["turn"] + 1,
    }


def takeover(settings: Settings) -> Result:
    """The node holding a player's instance killed (-9): seconds until the player's socket (on another node) is
    closed, and until a resume there succeeds, the instance taken up from the log."""

    async def run() -> Result:
        async with _cluster(2) as nodes:
            if nodes is None:
                return {"skipped": f"no PostgreSQL, or no NATS at {NATS}"}
            return await asyncio.to_thread(lambda: asyncio.run(_takeover(nodes)))

    return asyncio.run(run())


def report_takeover(result: Result) -> str:
    if "skipped" in result:
        return f"skipped: {result['skipped']}"
    rows = [
        ["socket closed (1012) after the kill", f"{result['socket_closed_s']:.2f} s"],
        [f"resumed on another node (try {result['tries']})", f"{result['resumed_s']:.2f} s"],
        ["every acknowledged turn there", "yes" if result["turn_kept"] else "NO"],
    ]
    return table(["the holder killed -9", ""], rows)


BENCHMARKS = (
    Benchmark("forwarding", "a command on the holder against one forwarded over NATS: p50/p99 and CPU", forwarding,
              report_forwarding),
    Benchmark("takeover", "seconds from a holder's kill -9 until its player plays on another node", takeover,
              report_takeover),
)  # fmt: skip
