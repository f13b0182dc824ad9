"""Run the benchmarks: `python -m bench [NAME ...] [--json FILE] [--sizes 1000,10000] [--players N] ...`.

A NAME picks a module's benchmarks (`telling`) or one benchmark (`telling.robbery`, or just `robbery`).
Results are printed as tables; `--json FILE` also writes them, with the machine they were measured on.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
from collections.abc import Sequence
from pathlib import Path

from bench import bots, cluster, dispatch, engine, goals, local, persistence, play, server, telling, workers
from bench.measure import Benchmark, Result, Settings, duration

MODULES = {
    "telling": telling.BENCHMARKS,
    "play": play.BENCHMARKS,
    "server": server.BENCHMARKS,
    "persistence": persistence.BENCHMARKS,
    "engine": engine.BENCHMARKS,
    "dispatch": dispatch.BENCHMARKS,
    "bots": bots.BENCHMARKS,
    "workers": workers.BENCHMARKS,
    "local": local.BENCHMARKS,
    "cluster": cluster.BENCHMARKS,
    "goals": goals.BENCHMARKS,
}


def every() -> dict[str, Benchmark]:
    """Every benchmark by its full name, module.name."""
    return {f"{module}.{bench.name}": bench for module, benches in MODULES.items() for bench in benches}


def chosen(names: Sequence[str]) -> dict[str, Benchmark]:
    """The benchmarks the names pick, in the order they are defined; all of them when no name is given."""
    found = every()
    if not names:
        return found
    picked: dict[str, Benchmark] = {}
    for name in names:
        matches = [full for full in found if name in (full, full.split(".")[0], full.split(".")[1])]
        if not matches:
            raise SystemExit(f"unknown benchmark {name!r}; benchmarks: {', '.join(found)}")
        picked.update((full, found[full]) for full in matches)
    return {full: bench for full, bench in found.items() if full in picked}


def machine() -> dict[str, object]:
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "system": f"{platform.system()} {platform.release()} {platform.machine()}",
        "cpus": os.cpu_count(),
    }


def _sizes(text: str) -> tuple[int, ...]:
    sizes = tuple(int(part) for part in text.split(",") if part.strip())
    if len(sizes) < 2 or min(sizes) < 1:
        raise argparse.ArgumentTypeError("give at least two positive sizes, like 1000,10000")
    return sizes


NUMBERS = {
    "tellings": "tellings of the robbery per spin set",
    "repeats": "runs of each scaling measure; the fastest counts",
    "commands": "commands in the random play session",
    "requests": "commands each transport's latency is measured over (server.latency)",
    "players": "WebSocket players in the crowd (server.crowd)",
    "instances": "instances the crowd is spread over",
    "seconds": "how long the crowd plays",
    "restart_turns": "turns of the long instance whose restart is timed (persistence.restart)",
    "restart_instances": "small instances restarted at once (persistence.instances)",
    "durable_players": "players, one to an instance, in memory and durable (persistence.durable)",
    "durable_seconds": "how long they play, each way",
    "unload_instances": "idle Lost One instances measured loaded and unloaded (persistence.unloading)",
    "write_seconds": "how long each crowd of instances writes to each store (persistence.commits)",
    "turns": "commands per world of the in-process turn (engine.turn)",
    "piped": "commands per world of piped play and of its engine turn (local.command)",
}
"""Every numeric setting has a flag (`restart_turns` is `--restart-turns`); the default comes from Settings."""


def _positive(kind: type) -> object:
    def convert(text: str) -> int | float:
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, not {text}")
        return value

    return convert


def parse(argv: Sequence[str]) -> argparse.Namespace:
    defaults = Settings()
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"benchmarks to run (default all): {', '.join(every())}")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the results to FILE as JSON")
    parser.add_argument(
        "--sizes",
        type=_sizes,
        default=defaults.sizes,
        metavar="N,N",
        help="synthetic story sizes in events (default 1000,10000)",
    )
    for field, meaning in NUMBERS.items():
        default = getattr(defaults, field)
        parser.add_argument(
            "--" + field.replace("_", "-"),
            type=_positive(type(default)),
            default=default,
            metavar="S" if isinstance(default, float) else "N",
            help=f"{meaning}; default {default:g}",
        )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    options = parse(sys.argv[1:] if argv is None else argv)
    settings = Settings(sizes=options.sizes, **{field: getattr(options, field) for field in NUMBERS})
    benches = chosen(options.names)
    about = machine()
    print(f"curveship benchmarks — {about['date']}, Python {about['python']}, {about['cpus']} CPUs, {about['system']}")
    results: dict[str, Result] = {}
    for name, bench in benches.items():
        print(f"\n== {name}: {bench.summary}", flush=True)
        start = datetime.datetime.now()
        results[name] = bench.run(settings)
        took = (datetime.datetime.now() - start).total_seconds()
        print(bench.report(results[name]))
        print(f"({duration(took)} in all)", flush=True)
    if options.json is not None:
        document = {
            "machine": about,
            "settings": {"sizes": list(settings.sizes), **{field: getattr(settings, field) for field in NUMBERS}},
            "results": results,
        }
        options.json.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {options.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
