"""Benchmarks of play: each walkthrough, and a long random session of commands drawn from the grammar."""

from __future__ import annotations

import random
import statistics
import time

from bench.measure import Benchmark, Result, Settings, distribution, duration, mebibytes, peak_bytes, table
from server.catalog import load_world, walked_worlds, walkthrough
from server.engine.errors import EngineError
from server.engine.parser.words import DIRECTIONS
from server.engine.player import Player
from server.engine.story import Story

WALKED = tuple(walked_worlds())
COMPARED = ("adventure", "cloak")
"""The largest world beside the smallest: does a command late in a long game cost what an early one does?"""
EDGE = 50
"""Commands at each end of a walkthrough compared (the 2011 Adventure in Style: 25 ms early, 190 ms late)."""
SESSION_WORLDS = ("cloak_plus", "lost_one")


def _play(player: Player, lines: list[str]) -> tuple[list[float], int]:
    """Each command timed alone, with no collection forced between them: the collector's pauses are part of
    playing, so they are in the percentiles (a full collection before each command, under tracemalloc, also
    cost ten times the commands themselves)."""
    timings, restarts = [], 0
    for line in lines:
        start = time.perf_counter()
        restarts += _command(player, line)
        timings.append(time.perf_counter() - start)
    return timings, restarts


def _command(player: Player, line: str) -> bool:
    """One line; after an ending (or a refusal) the player begins again, as a player would: whether it did."""
    try:
        player.command(line)
    except EngineError:
        player.restart()
        return True
    return False


def walkthroughs(settings: Settings) -> Result:
    results = {}
    for name in WALKED:
        lines = walkthrough(name)
        story = Story(load_world(name))
        player = Player(story)
        peak, (timings, _) = peak_bytes(lambda player=player, lines=lines: _play(player, lines))
        results[name] = {"commands": len(lines), "ended": story.ended, "peak_bytes": peak, **distribution(timings)}
    return {"worlds": results}


def late_and_early(settings: Settings) -> Result:
    """Adventure in Style's walkthrough beside Cloak's: per-command median and p99, the median of the first and
    of the last commands, and peak memory. Each walkthrough is played `repeats` times, timed without tracemalloc
    (which slows Python down several times over); each command's fastest time counts, so early and late are not
    compared at different moments of the machine. One more game, under tracemalloc, gives the peak memory."""
    results = {}
    for name in COMPARED:
        lines = walkthrough(name)
        best: list[float] = []
        ended = False
        for _ in range(max(1, settings.repeats)):
            story = Story(load_world(name))
            player = Player(story)
            player.opening()
            timings, _ = _play(player, lines)
            best = [min(pair) for pair in zip(best, timings, strict=True)] if best else timings
            ended = story.ended
        player = Player(Story(load_world(name)))
        peak, _ = peak_bytes(lambda player=player, lines=lines: _play(player, lines))
        edge = min(EDGE, len(best))
        first, last = statistics.median(best[:edge]), statistics.median(best[-edge:])
        results[name] = {
            "commands": len(lines),
            "ended": ended,
            "peak_bytes": peak,
            "edge": edge,
            "first_median_s": first,
            "last_median_s": last,
            "late_over_early": last / first,
            **distribution(best),
        }
    return {"worlds": results}


def report_late_and_early(result: Result) -> str:
    rows = [
        [
            name,
            str(r["commands"]),
            "won" if r["ended"] else "NOT ENDED",
            duration(r["median_s"]),
            duration(r["p99_s"]),
            f"{duration(r['first_median_s'])} / {duration(r['last_median_s'])}",
            f"{r['late_over_early']:.2f}",
            mebibytes(r["peak_bytes"]),
        ]
        for name, r in result["worlds"].items()
    ]
    headers = ["walkthrough", "commands", "ending", "median", "p99", f"first / last {EDGE}", "late/early"]
    return table([*headers, "peak memory"], rows)


def random_commands(story: Story, count: int, rng: random.Random) -> list[str]:
    """Commands drawn from the grammar: a kind, one of its word orders, and words of the world's items."""
    names = [item.called for item in story.simulation.items.values() if item.kind in ("thing", "actor", "door")]
    directions = sorted(DIRECTIONS)
    grammar = story.recognizer.grammar  # the world's own commands too
    lines = []
    for _ in range(count):
        kind = rng.choice(grammar)
        pattern = rng.choice(kind.tokens)
        words = []
        for token in pattern:
            if token in ("OBJ", "OBJ2"):
                words.append(rng.choice(names))
            elif token == "DIR":
                words.append(rng.choice(directions))
            elif token == "TEXT":
                words.append("hello there")
            elif token == "WORD":
                words.append(str(rng.randint(1, 9)))
            else:
                words.append(token)
        lines.append(" ".join(words))
    return lines


def session(settings: Settings) -> Result:
    count = settings.commands
    results = {}
    for name in SESSION_WORLDS:
        story = Story(load_world(name), seed=1)
        player = Player(story)
        lines = random_commands(story, count, random.Random(f"session:{name}"))
        peak, (timings, restarts) = peak_bytes(lambda player=player, lines=lines: _play(player, lines))
        results[name] = {
            "commands": count,
            "games": restarts + 1,
            "turns": story.turn,
            "events": len(story.simulation.events),
            "peak_bytes": peak,
            **distribution(timings),
        }
    return {"worlds": results}


def report_walkthroughs(result: Result) -> str:
    rows = [
        [
            name,
            str(r["commands"]),
            "won" if r["ended"] else "NOT ENDED",
            duration(r["median_s"]),
            duration(r["p99_s"]),
            duration(r["total_s"]),
            mebibytes(r["peak_bytes"]),
        ]
        for name, r in result["worlds"].items()
    ]
    return table(["walkthrough", "commands", "ending", "median", "p99", "total", "peak memory"], rows)


def report_session(result: Result) -> str:
    rows = [
        [
            name,
            str(r["commands"]),
            str(r["games"]),
            str(r["turns"]),
            str(r["events"]),
            duration(r["median_s"]),
            duration(r["p99_s"]),
            duration(r["total_s"]),
            mebibytes(r["peak_bytes"]),
        ]
        for name, r in result["worlds"].items()
    ]
    headers = ["random session", "commands", "games", "last game's turns", "its events"]
    return table([*headers, "median", "p99", "total", "peak memory"], rows)


BENCHMARKS = (
    Benchmark("walkthroughs", "play each world's walkthrough: per-command median and p99", walkthroughs,
              report_walkthroughs),
    Benchmark("late", "Adventure in Style beside Cloak: a command late in the game against an early one",
              late_and_early, report_late_and_early),
    Benchmark("session", "a long random session of grammar-drawn commands: per-command median, p99, memory",
              session, report_session),
)  # fmt: skip
