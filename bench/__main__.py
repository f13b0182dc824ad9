"""Run the benchmarks: `python -m bench [NAME ...] [--json FILE] [--sizes 1000,10000] [--tellings N]`.

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

from bench import persistence, play, server, telling
from bench.measure import Benchmark, Result, Settings, duration

MODULES = {
    "telling": telling.BENCHMARKS,
    "play": play.BENCHMARKS,
    "server": server.BENCHMARKS,
    "persistence": persistence.BENCHMARKS,
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
    parser.add_argument(
        "--tellings",
        type=int,
        default=defaults.tellings,
        metavar="N",
        help="tellings of the robbery per spin set (default 1000)",
    )
    parser.add_argument(
        "--commands",
        type=int,
        default=defaults.commands,
        metavar="N",
        help="commands in the random play session (default 2000)",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=defaults.repeats,
        metavar="N",
        help="runs of each scaling measure; the fastest counts (default 5)",
    )
    parser.add_argument(
        "--restart-turns",
        type=int,
        default=defaults.restart_turns,
        metavar="N",
        help="turns of the long instance whose restart is timed (default 10000)",
    )
    parser.add_argument(
        "--restart-instances",
        type=int,
        default=defaults.restart_instances,
        metavar="N",
        help="small instances restarted at once (default 1000)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    options = parse(sys.argv[1:] if argv is None else argv)
    settings = Settings(
        sizes=options.sizes,
        tellings=max(1, options.tellings),
        repeats=max(1, options.repeats),
        commands=max(1, options.commands),
        restart_turns=max(1, options.restart_turns),
        restart_instances=max(1, options.restart_instances),
    )
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
            "settings": {"sizes": list(settings.sizes), "tellings": settings.tellings, "repeats": settings.repeats},
            "results": results,
        }
        options.json.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {options.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
