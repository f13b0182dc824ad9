"""A local game against the engine: `curveship play`'s cost a command over the engine's own turn, and how long it
takes to reach the first prompt (and what it imports on the way).

Each `curveship play` here is a real process, as a person starts it: piped (stdin a file of commands, stdout a
pipe) or at a terminal (a pseudo-terminal both ways, so the prompt_toolkit screen is the one drawn).
"""

from __future__ import annotations

import contextlib
import os
import pty
import re
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.measure import Benchmark, Result, Settings, duration, table

ROOT = Path(__file__).resolve().parent.parent
_INSTALLED = Path(sys.executable).with_name("curveship")
CURVESHIP = [str(_INSTALLED)] if _INSTALLED.exists() else [sys.executable, "-m", "clients.cli.main"]
WORLDS = ("cloak", "lost_one")
COMMANDS = ("look", "x sky", "listen", "i", "smile", "jump", "n", "s", "e", "w")
"""Typed in turn, in both worlds (none ends either story; a refusal is a turn too)."""
SEEN = ("aiohttp", "ssl", "jsonrpcserver", "jsonschema", "numpy", "lemminflect", "inflect", "prompt_toolkit")
"""Packages whose import time is shown, or that they were not loaded before the first prompt."""
ENV = {**os.environ, "PYTHONUNBUFFERED": "1", "NO_COLOR": "1", "CURVESHIP_HISTORY": os.devnull}
WAIT = 60.0


def _lines(count: int) -> list[str]:
    return [COMMANDS[index % len(COMMANDS)] for index in range(count)]


# -- a command: play against the engine ------------------------------------------------------------------------


def _played(world: str, lines: list[str], *extra: str) -> tuple[float, float]:
    """`curveship play WORLD` with `lines` piped in: seconds from its start to the opening's first bytes, and
    from those to the end of its output (every line answered, the session left, the process gone)."""
    with tempfile.TemporaryFile() as given:
        given.write("".join(f"{line}\n" for line in lines).encode())
        given.seek(0)
        start = time.perf_counter()
        process = subprocess.Popen(
            [*CURVESHIP, "play", world, *extra], stdin=given, stdout=subprocess.PIPE, cwd=ROOT, env=ENV
        )
        assert process.stdout is not None
        first = None
        while os.read(process.stdout.fileno(), 65536):
            if first is None:
                first = time.perf_counter()
        ended = time.perf_counter()
        process.wait(timeout=WAIT)
    assert first is not None and process.returncode == 0, f"play {world} failed ({process.returncode})"
    return first - start, ended - first


def _engine_turns(world: str, lines: list[str]) -> float:
    """Seconds the engine takes for the same lines, in this process: one player, the command and its telling."""
    from server.catalog import load_spin, load_world
    from server.engine.errors import EngineError
    from server.engine.player import Player
    from server.engine.story import Story

    story = Story(load_world(world))
    actor = story.definition.players()[0]
    story.take(actor)
    player = Player(story, actor, author=True, named_spins=load_spin)
    player.opening()
    start = time.perf_counter()
    for line in lines:
        with contextlib.suppress(EngineError):  # a refusal is a turn too
            player.command(line)
    return time.perf_counter() - start


def per_command(settings: Settings) -> Result:
    count = max(10, settings.turns)
    worlds: dict[str, Any] = {}
    for world in WORLDS:
        lines = _lines(count)
        # What the process costs besides the commands (leaving, ending) is measured with none, and taken off.
        empty = statistics.median(_played(world, [])[1] for _ in range(3))
        full = statistics.median(_played(world, lines)[1] for _ in range(3))
        play = max(0.0, full - empty) / count
        engine = statistics.median(_engine_turns(world, lines) for _ in range(3)) / count
        worlds[world] = {"commands": count, "play_s": play, "engine_s": engine, "ratio": play / engine}
    return {"worlds": worlds}


def report_per_command(result: Result) -> str:
    rows = [
        [world, f"{r['commands']:,}", duration(r["engine_s"]), duration(r["play_s"]), f"{r['ratio']:.2f}×", "≤ 1.5×"]
        for world, r in result["worlds"].items()
    ]
    return table(["piped play, a command", "commands", "engine turn", "play", "play/engine", "target"], rows)


# -- start-up: to the first prompt ---------------------------------------------------------------------------


def _at_terminal(world: str) -> float:
    """Seconds from starting `curveship play WORLD` in a pseudo-terminal to its prompt drawn after the opening."""
    leader, follower = pty.openpty()
    start = time.perf_counter()
    process = subprocess.Popen(
        [*CURVESHIP, "play", world],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        cwd=ROOT,
        env={**ENV, "TERM": "xterm"},
        start_new_session=True,
    )
    os.close(follower)
    seen = b""
    try:
        deadline = start + WAIT
        # The prompt's ">" is drawn at the start of a line once the opening is shown (nothing before has one).
        while not re.search(rb"\n>", _plain(seen)):
            assert time.perf_counter() < deadline, f"no prompt: {seen[-500:]!r}"
            ready, _, _ = select.select([leader], [], [], 1.0)
            if ready:
                data = os.read(leader, 65536)
                if b"\x1b[6n" in data:  # where is the cursor? answered as a terminal would, at once
                    os.write(leader, b"\x1b[1;1R")
                seen += data
        return time.perf_counter() - start
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=WAIT)
        os.close(leader)


def _plain(data: bytes) -> bytes:
    """Terminal output without its escape sequences, carriage returns as line ends."""
    return re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]", b"", data).replace(b"\r", b"\n")


def _imports(world: str) -> dict[str, float]:
    """Each package of SEEN loaded before the opening was shown, with its import time (cumulative, seconds)."""
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            [sys.executable, "-X", "importtime", "-m", "clients.cli.main", "play", world],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,
            cwd=ROOT,
            env=ENV,
        )
        assert process.stdout is not None and process.stdin is not None
        os.read(process.stdout.fileno(), 65536)  # the opening: what is imported by now was on the way to it
        errors.flush()
        errors.seek(0)
        text = errors.read().decode(errors="replace")
        process.kill()
        process.wait(timeout=WAIT)
    found = {}
    for line in text.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip() in SEEN and parts[1].strip().isdigit():
            found[parts[2].strip()] = int(parts[1]) / 1e6
    return found


def startup(settings: Settings) -> Result:
    runs = max(3, settings.repeats)
    bare = [_timed([sys.executable, "-c", "pass"]) for _ in range(runs)]
    piped = [_played("cloak", [])[0] for _ in range(runs)]
    terminal = [_at_terminal("cloak") for _ in range(runs)]
    return {
        "runs": runs,
        "python_s": statistics.median(bare),
        "piped_s": statistics.median(piped),
        "terminal_s": statistics.median(terminal),
        "imports_s": _imports("cloak"),
    }


def _timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, cwd=ROOT, env=ENV)
    return time.perf_counter() - start


def report_startup(result: Result) -> str:
    runs = result["runs"]
    rows = [
        [f"python -c pass (the interpreter alone), median of {runs}", duration(result["python_s"]), ""],
        [f"play cloak, piped: to the opening, median of {runs}", duration(result["piped_s"]), "≤ 300 ms"],
        [f"play cloak at a terminal: to the prompt, median of {runs}", duration(result["terminal_s"]), "≤ 300 ms"],
    ]
    imported = result["imports_s"]
    loaded = ", ".join(f"{name} {duration(seconds)}" for name, seconds in imported.items()) or "none"
    missing = ", ".join(name for name in SEEN if name not in imported) or "none"
    return "\n".join(
        [
            table(["start-up", "time", "target"], rows),
            f"imported before the opening (piped, -X importtime, cumulative): {loaded}",
            f"not imported before it: {missing}",
        ]
    )


BENCHMARKS = (
    Benchmark("command", "piped play's time a command against the engine's own turn, as a ratio", per_command,
              report_per_command),
    Benchmark("startup", "play's start-up to the first prompt, piped and at a terminal; what it imports",
              startup, report_startup),
)  # fmt: skip
