"""Benchmarks of play: each walkthrough, and a long random session of commands drawn from the grammar."""

from __future__ import annotations

import random
import time

from bench.measure import Benchmark, Result, Settings, distribution, duration, mebibytes, peak_bytes, table
from server.catalog import load_world, walked_worlds, walkthrough
from server.engine.errors import EngineError
from server.engine.parser.words import DIRECTIONS
from server.engine.player import Player
from server.engine.story import Story

WALKED = tuple(walked_worlds())
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
    Benchmark("session", "a long random session of grammar-drawn commands: per-command median, p99, memory",
              session, report_session),
)  # fmt: skip
