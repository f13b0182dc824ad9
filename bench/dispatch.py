"""What the JSON-RPC layer costs a request by itself, in process: decoding, checking, dispatching, answering."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import msgspec

from bench.measure import Benchmark, Result, Settings, table

CALLS = {
    "a method not found": {"jsonrpc": "2.0", "method": "nope", "id": 1},
    "instances (none)": {"jsonrpc": "2.0", "method": "instances", "id": 2},
}
"""Requests that reach the host for next to nothing, so what is measured is the layer around it."""


async def _cost(raw: bytes, count: int) -> float:
    from server import rpc
    from server.host import Host
    from server.limits import Limits

    host = Host(limits=Limits(rate=1e9, burst=1e9))
    caller = rpc.Caller(host, author=True, remote="bench")
    methods = rpc.methods()
    for _ in range(200):
        await rpc.handle(raw, caller, methods)
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(count):
            await rpc.handle(raw, caller, methods)
        best = min(best, (time.process_time() - start) / count)
    return best


def dispatch(settings: Settings) -> Result:
    count = settings.requests * 4
    return {name: asyncio.run(_cost(msgspec.json.encode(call), count)) for name, call in CALLS.items()}


def report(result: Result) -> str:
    rows: list[list[Any]] = [[name, f"{seconds * 1e6:.0f} µs"] for name, seconds in result.items()]
    return table(["request", "CPU a request (fastest of 5 rounds)"], rows)


BENCHMARKS = (Benchmark("rpc", "the JSON-RPC layer's own cost a request, in process", dispatch, report),)
