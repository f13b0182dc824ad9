"""What every benchmark shares: the settings of a run, timers, peak memory, percentiles and plain tables."""

from __future__ import annotations

import cProfile
import gc
import pstats
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

Result = dict[str, Any]
"""What a benchmark returns: plain values only, so it can be written as JSON as it is."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How big a run is. `sizes` are the synthetic story lengths in events (smallest and largest are
    compared), `tellings` how often the robbery is told per spin set, `repeats` how many times each scaling
    measurement is taken (the fastest counts: it is the one least disturbed by the rest of the machine),
    `commands` how long the random play session is."""

    sizes: tuple[int, ...] = (1_000, 10_000)
    tellings: int = 1_000
    repeats: int = 5
    commands: int = 2_000
    requests: int = 500
    """Commands each transport's latency is measured over."""
    players: int = 50
    instances: int = 10
    seconds: float = 20.0
    """How long the crowd plays."""
    restart_turns: int = 10_000
    """Turns of the one long instance whose restart is timed (bench persistence.restart)."""
    restart_instances: int = 1_000
    """Small instances restarted at once (persistence.instances)."""
    durable_players: int = 8
    """WebSocket players, one to an instance, for commands/s in memory and durable (persistence.durable)."""
    durable_seconds: float = 10.0
    """How long those players play, each way."""
    unload_instances: int = 200
    """Idle Lost One instances whose memory is measured, loaded and unloaded (persistence.unloading)."""
    write_seconds: float = 3.0
    """How long each crowd of instances writes to each store (persistence.commits)."""
    turns: int = 1_000
    """Commands per world of the in-process turn (bench engine.turn)."""
    piped: int = 5_000
    """Commands per world piped into a local play (local.command). Its start-up is taken off, but that varies by
    tens of milliseconds from run to run: over 1,000 commands, a Cloak command's figure moved by a sixth."""


@dataclass(frozen=True, slots=True)
class Benchmark:
    """One benchmark: a name to pick it by, a line saying what it measures, how to run it and how to show it."""

    name: str
    summary: str
    run: Callable[[Settings], Result]
    report: Callable[[Result], str]


def seconds(work: Callable[[], T]) -> tuple[float, T]:
    """How long `work()` takes on the wall clock, after a collection so earlier garbage is not billed to it."""
    gc.collect()
    start = time.perf_counter()
    value = work()
    return time.perf_counter() - start, value


def fastest(repeats: int, work: Callable[[], object]) -> float:
    """The fastest of `repeats` runs of `work()`, in seconds."""
    return min(seconds(work)[0] for _ in range(max(1, repeats)))


def peak_bytes(work: Callable[[], T]) -> tuple[int, T]:
    """The most memory Python held at once during `work()` beyond what it held before, per tracemalloc."""
    gc.collect()
    tracemalloc.start()
    try:
        value = work()
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, value


def calls(work: Callable[[], object]) -> int:
    """How many Python and built-in function calls `work()` makes: a count of work done that, unlike a
    timing, does not depend on what else the machine is doing, so its growth shows the algorithm's alone."""
    profile = cProfile.Profile()
    profile.runcall(work)
    return int(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]


def percentile(samples: Sequence[float], percent: int) -> float:
    """The `percent`-th percentile (1..99), interpolated between samples as numpy's default does."""
    if len(samples) == 1:
        return samples[0]
    return statistics.quantiles(samples, n=100, method="inclusive")[percent - 1]


def distribution(samples: Sequence[float]) -> Result:
    """Median, p90, p99, mean and total of timings in seconds."""
    return {
        "count": len(samples),
        "median_s": statistics.median(samples),
        "p90_s": percentile(samples, 90),
        "p99_s": percentile(samples, 99),
        "mean_s": statistics.fmean(samples),
        "total_s": sum(samples),
    }


def ratio(large: float, small: float) -> float:
    """large / small, or infinity when the small one took no measurable time."""
    return large / small if small > 0 else float("inf")


def duration(value: float) -> str:
    """Seconds shown in the unit that suits them: 812 µs, 3.41 ms, 2.07 s."""
    if value < 1e-3:
        return f"{value * 1e6:.0f} µs"
    if value < 1.0:
        return f"{value * 1e3:.2f} ms"
    return f"{value:.2f} s"


def mebibytes(value: float) -> str:
    return f"{value / 2**20:.1f} MiB"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Columns padded to their widest cell: the first left-aligned, the rest right-aligned."""
    widths = [max(len(row[column]) for row in (header, *rows)) for column in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first, *rest = cells
        padded = [first.ljust(widths[0]), *(cell.rjust(width) for cell, width in zip(rest, widths[1:], strict=True))]
        return "  ".join(padded).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line(header), rule, *(line(row) for row in rows)])
