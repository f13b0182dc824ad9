"""The engine's turn in one process, as a server serves it: one player's command, then every other player told.

Beside the two served worlds, a long random session (one player, commands drawn from the grammar, Lost One) and,
for each served world, the memory a turn of history keeps (tracemalloc, after a collection).

`python -m bench engine` measures this code; `python -m bench.engine --against DIR` measures it and the code in
DIR (a checkout of another commit, e.g. `git archive fda1329 | tar -x -C /tmp/base`) side by side, each in a
process of its own, and gives the ratios. This file uses only the engine's oldest interfaces (Story, Player,
the catalog) and the standard library, so it runs unchanged against an older tree.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bench.measure import Benchmark

PLAYED = {
    "lost_one": ("@visitor", "@punk", "@boy", "@collector", "@flaneur"),
    "bank": ("@robber", "@teller", "@guard"),
}
"""Who plays each world: Lost One as the server's crowd plays it (the friend keeps to her script), the bank whole."""
COMMANDS = ("look", "wander", "x sky", "listen", "i", "smile", "jump", "n", "s", "e", "w")
"""What the players type, as in bench/server.py (not "wait": the visitor waiting in the center ends Lost One)."""
SESSION = "lost_one"
"""The world of the random session: its one player types commands drawn from the grammar (bench/play.py's)."""


def _seated(world: str) -> tuple[Any, list[Any]]:
    from server.catalog import load_spin, load_world
    from server.engine.player import Player
    from server.engine.story import Story

    story = Story(load_world(world))
    players = []
    for actor in PLAYED[world]:
        story.take(actor)
        player = Player(story, actor, author=False, named_spins=load_spin)
        player.opening()
        players.append(player)
    return story, players


def _serve(players: list[Any], count: int, rng: random.Random) -> list[tuple[float, float]]:
    """`count` commands, the players in turn; for each, the wall and CPU time of the command and its news."""
    from server.engine.errors import EngineError

    times = []
    for index in range(count):
        player = players[index % len(players)]

        def others(turn: Any, player: Any = player) -> None:
            for other in players:
                if other is not player:
                    other.news(turn)

        wall, cpu = time.perf_counter(), time.process_time()
        with contextlib.suppress(EngineError):  # (an ending: the rest are told of nothing)
            player.command(rng.choice(COMMANDS), on_turn=others)
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return times


def _session(count: int, seed: int) -> list[tuple[float, float]]:
    """`count` grammar-drawn commands from a fresh story's one player (begun again at an ending, as a player
    would): the wall and CPU time of each."""
    from bench.play import random_commands
    from server.catalog import load_world
    from server.engine.errors import EngineError
    from server.engine.player import Player
    from server.engine.story import Story

    story = Story(load_world(SESSION), seed=1)
    player = Player(story)
    times = []
    for line in random_commands(story, count, random.Random(f"session:{seed}")):
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            player.command(line)
        except EngineError:
            player.restart()
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return times


def _history_bytes(world: str, count: int) -> float:
    """The memory a turn of history keeps: what Python holds after `count` more commands (collected), over
    the turns they took, the players told as in `_serve`."""
    story, players = _seated(world)
    _serve(players, 50, random.Random(0))
    turns = story.turn
    gc.collect()
    tracemalloc.start()
    try:
        _serve(players, count, random.Random(3))
        gc.collect()
        kept, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return kept / max(1, story.turn - turns)


ROUNDS = 3
"""Each world is played this many times afresh; the round with the least CPU counts (the one least disturbed by
the rest of a shared machine), as the other benchmarks take the fastest of several runs."""


def measure(count: int) -> dict[str, Any]:
    """Per world: per-command wall-clock percentiles and mean CPU (of the fastest round), function calls per
    command (a measure of work that no other load on the machine disturbs), `story_s`, a story made and its
    players seated and told the opening (the fastest of five), and `history_bytes`, the memory a turn keeps;
    then the random session, as `random <world>`, measured the same way (without the seating and memory)."""
    results: dict[str, Any] = {}
    for world in PLAYED:
        _seated(world)  # the lexicons of English, and the world's module, loaded before anything is timed
        making = min(_timed(lambda world=world: _seated(world)) for _ in range(5))
        rounds = []
        for _ in range(ROUNDS):
            _, players = _seated(world)
            _serve(players, 50, random.Random(0))  # warmed
            rounds.append(_serve(players, count, random.Random(1)))
        samples = min(rounds, key=lambda r: sum(cpu for _, cpu in r))
        _, players = _seated(world)
        _serve(players, 50, random.Random(0))
        profile = cProfile.Profile()
        counted = max(50, count // 5)
        profile.runcall(_serve, players, counted, random.Random(2))
        results[world] = {
            **_spread(samples),
            "commands": count,
            "calls": int(pstats.Stats(profile).total_calls) / counted,  # type: ignore[attr-defined]
            "story_s": making,
            "history_bytes": _history_bytes(world, count),
        }
    _session(50, 0)
    rounds = [_session(count, 1) for _ in range(ROUNDS)]
    samples = min(rounds, key=lambda r: sum(cpu for _, cpu in r))
    profile = cProfile.Profile()
    counted = max(50, count // 5)
    profile.runcall(_session, counted, 2)
    results[f"random {SESSION}"] = {
        **_spread(samples),
        "commands": count,
        "calls": int(pstats.Stats(profile).total_calls) / counted,  # type: ignore[attr-defined]
    }
    return results


def _spread(samples: list[tuple[float, float]]) -> dict[str, float]:
    walls = [wall for wall, _ in samples]
    return {
        "median_s": statistics.median(walls),
        "p90_s": statistics.quantiles(walls, n=100, method="inclusive")[89],
        "p99_s": statistics.quantiles(walls, n=100, method="inclusive")[98],
        "cpu_mean_s": statistics.fmean(cpu for _, cpu in samples),
    }


def _timed(work: Any) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def elsewhere(tree: Path, count: int) -> dict[str, Any]:
    """`measure` run on the code in `tree`, in a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    # Run from the tree, by path and not as bench.engine: the tree's own `server` must be the one imported (run
    # as a script from bench/, bench/server.py would be).
    run = f"runpy.run_path({__file__!r}, run_name='__main__')"
    code = f"import runpy, sys; sys.argv = ['engine', '--worker', '{count}']; {run}"
    done = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _least(one: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """Per world, the measurement with the least CPU a command."""
    return {world: min(one[world], other[world], key=lambda r: r["cpu_mean_s"]) for world in one}


def turn(settings: Any) -> dict[str, Any]:
    """The registered benchmark (`python -m bench engine`): this code only."""
    return {"worlds": measure(settings.turns)}


COLLECTED_INSTANCES = 10
"""Lost One instances in the heap whose full collection is timed (`collection`), as `server.crowd` plays them."""


def collection(settings: Any) -> dict[str, Any]:
    """A full collection's pause in a server's heap: the server's code loaded, ten Lost One instances of a
    quarter of `--turns` commands each, as brought back at start-up; timed as it is, then under
    `server.heap.freeze_heap` (as `curveship serve` runs once started) after a tenth as many commands more on
    each, twice: the first collection walks what was made since start-up, the second what was made since the
    first (each full collection's survivors are frozen as it ends)."""
    from server.heap import freeze_heap, thaw_heap

    turns = max(20, settings.turns // 4)
    kept = []
    for _ in range(COLLECTED_INSTANCES):
        _, players = _seated("lost_one")
        _serve(players, turns, random.Random(4))
        kept.append(players)
    gc.collect()
    tracked = len(gc.get_objects())
    whole = min(_timed(gc.collect) for _ in range(3))
    freeze_heap()
    try:
        since = []
        for rounds in range(2):
            for players in kept:
                _serve(players, turns // 10, random.Random(5 + rounds))
            walked = len(gc.get_objects())  # (the frozen are not among them)
            since.append(_timed(gc.collect))
    finally:
        thaw_heap()
    return {
        "instances": COLLECTED_INSTANCES,
        "turns": turns,
        "tracked": tracked,
        "walked": walked,
        "whole_s": whole,
        "since_s": max(since),
    }


def report_collection(result: dict[str, Any]) -> str:
    rows = [
        ["heap", "objects walked", "full collection"],
        [
            f"{result['instances']} × lost_one, {result['turns']} turns each",
            f"{result['tracked']:,}",
            _ms(result["whole_s"]),
        ],
        [
            f"frozen as it grows, {result['turns'] // 10} turns more each",
            f"{result['walked']:,}",
            _ms(result["since_s"]),
        ],
        ["as kept / frozen", "", f"{result['whole_s'] / result['since_s']:.1f}×"],
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(line.rstrip() for line in lines)


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.0f} µs"


def report(result: dict[str, Any]) -> str:
    rows = [["world", "commands", "median", "p90", "p99", "CPU mean", "calls", "seated", "memory a turn"]]
    against = result.get("against")
    for label, worlds in (("", result["worlds"]), *((("before: ", against),) if against else ())):
        for world, r in worlds.items():
            rows.append(
                [
                    label + world,
                    str(r["commands"]),
                    _ms(r["median_s"]),
                    _ms(r["p90_s"]),
                    _ms(r["p99_s"]),
                    _ms(r["cpu_mean_s"]),
                    f"{r['calls']:,.0f}",
                    _ms(r["story_s"]) if "story_s" in r else "",
                    f"{r['history_bytes'] / 1024:.1f} KiB" if "history_bytes" in r else "",
                ]
            )
    if against:
        for world, r in result["worlds"].items():
            b = against.get(world, {})
            keys = ("median_s", "p90_s", "p99_s", "cpu_mean_s", "calls", "story_s", "history_bytes")
            ratios = [f"{b[k] / r[k]:.2f}×" if k in b and k in r else "" for k in keys]
            rows.append([f"before / now: {world}", "", *ratios])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)) for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(line.rstrip() for line in lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1_000, help="commands per world (default 1000)")
    parser.add_argument("--against", type=Path, metavar="DIR", help="also measure the code in DIR, and compare")
    parser.add_argument("--alternations", type=int, default=1, help="with --against: measure each tree so often")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.worker is not None:
        print(json.dumps(measure(options.worker)))
        return 0
    result: dict[str, Any] = {"worlds": measure(options.turns)}
    if options.against is not None:
        # Turn about, so that whatever else loads the machine weighs on both trees alike; per world, the
        # least-disturbed of the alternations counts for each.
        result["against"] = elsewhere(options.against, options.turns)
        for _ in range(options.alternations - 1):
            result["worlds"] = _least(result["worlds"], measure(options.turns))
            result["against"] = _least(result["against"], elsewhere(options.against, options.turns))
    print(report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


BENCHMARKS = (
    Benchmark("turn", "a served command in one process: the turn and every player's telling", turn, report),
    Benchmark(
        "collection", "a full collection's pause in a server's heap, as kept and frozen", collection, report_collection
    ),
)
