"""Serving at scale's goals (issue 12), each measured in one run and set beside its target: capacity against the
number of processes, latency under a steady load, what durable writes cost, a local game against the engine,
start-up, and what a cluster's forwarding and takeover cost.

It runs the benchmarks that measure each (workers.capacity, workers.steady, persistence.durable,
local.command, local.startup, cluster.forwarding, cluster.takeover) and prints one table of the figures; each
benchmark's own table says more. The engine's turn against an older tree is `bench engine --against DIR`.
"""

from __future__ import annotations

from bench import cluster, local, persistence, workers
from bench.measure import Benchmark, Result, Settings, duration, table


def goals(settings: Settings) -> Result:
    return {
        "capacity": workers.capacity(settings),
        "steady": workers.steady(settings),
        "durable": persistence.durable(settings),
        "local": local.per_command(settings),
        "startup": local.startup(settings),
        "forwarding": cluster.forwarding(settings),
        "takeover": cluster.takeover(settings),
    }


def _verdict(met: bool) -> str:
    return "met" if met else "not met"


def report_goals(result: Result) -> str:
    rows = []
    capacity = {row["workers"]: row["report"] for row in result["capacity"]["rows"]}
    two = capacity[2]["commands_per_second"]
    rows.append(["capacity, closed loop, 2 processes", f"{two:,.0f} commands/s", "≥ 2,000", _verdict(two >= 2000)])
    scaled = two / max(capacity[1]["commands_per_second"], 1e-9)
    rows.append(["  2 processes / 1", f"{scaled:.2f}×", "≈ 2×", ""])
    steady = result["steady"]["report"]
    p99 = steady["latency_ms"]["p99"]
    rows.append(["steady 1,000/s offered: p99", f"{p99:.1f} ms", "< 20 ms", _verdict(p99 < 20)])
    rows.append(["  errors", str(sum(steady["errors"].values())), "0", ""])
    durable = result["durable"]["durable_several_ratio"]
    kept = durable["per_second"]
    rows.append(["durable / memory, commands/s", f"{kept:.2f}", "≥ 0.8", _verdict(kept >= 0.8)])
    rows.append(["durable / memory, p99", f"{durable['p99']:.2f}", "≤ 2", _verdict(durable["p99"] <= 2)])
    for world, found in result["local"]["worlds"].items():
        near = found["ratio"]
        rows.append([f"local play / engine turn, {world}", f"{near:.2f}×", "≤ 1.5×", _verdict(near <= 1.5)])
    piped = result["startup"]["piped_s"]
    rows.append(["local start-up to the first prompt", duration(piped), "≤ 0.3 s", _verdict(piped <= 0.3)])
    forwarding = result["forwarding"]
    if "skipped" not in forwarding:
        rows.append(["cluster: forwarded / on the holder, p50", f"{forwarding['median_ratio']:.2f}×", "", ""])
        rows.append(["cluster: forwarded / on the holder, CPU", f"{forwarding['cpu_ratio']:.2f}×", "", ""])
    takeover = result["takeover"]
    if "skipped" not in takeover:
        back = takeover["resumed_s"]
        rows.append(["cluster: kill -9 to playing on elsewhere", f"{back:.1f} s", "a few seconds", _verdict(back < 10)])
    return table(["goal", "measured", "target", ""], rows)


BENCHMARKS = (Benchmark("all", "every goal of serving at scale, measured in one run, beside its target", goals,
                        report_goals),)  # fmt: skip
