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
SEEN = (
    "aiohttp",
    "ssl",
    "jsonrpcserver",
    "jsonschema",
    "numpy",
    "lemminflect",
    "inflect",
    "typeguard",
    "prompt_toolkit",
)
"""Packages whose import time is shown, or that they were not loaded before the first prompt."""
ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},
    "NO_COLOR": "1",
    "CURVESHIP_HISTORY": os.devnull,
}
"""Play as a player's machine runs it: its output flushed as the client flushes it (whenever it waits for a line:
here, with every line given at once, in blocks), not a write a line as PYTHONUNBUFFERED makes it (88 us more a
Cloak command, each write waking the reader)."""
WAIT = 60.0


WARM = len(COMMANDS)
"""Commands played before the timed ones, in both measures: what is loaded on first use (lemminflect's lexicon,
on the first telling that inflects a verb, half a second) is not billed to a command of a long game."""


def _lines(count: int) -> list[str]:
    return [COMMANDS[index % len(COMMANDS)] for index in range(count)]


# -- a command: play against the engine ------------------------------------------------------------------------


def _played(world: str, lines: list[str]) -> tuple[float, float]:
    """`curveship play WORLD` with `lines` piped in: seconds from its start to the opening's first bytes, and
    the CPU seconds the whole process used (every line answered, the session left, the process gone)."""
    with tempfile.TemporaryFile() as given:
        given.write("".join(f"{line}\n" for line in lines).encode())
        given.seek(0)
        start = time.perf_counter()
        process = subprocess.Popen([*CURVESHIP, "play", world], stdin=given, stdout=subprocess.PIPE, cwd=ROOT, env=ENV)
        assert process.stdout is not None
        first = None
        while os.read(process.stdout.fileno(), 65536):
            if first is None:
                first = time.perf_counter()
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    assert first is not None and process.returncode == 0, f"play {world} failed ({process.returncode})"
    return first - start, usage.ru_utime + usage.ru_stime


def _engine_turns(world: str, lines: list[str]) -> float:
    """CPU seconds the engine takes for the lines after the first WARM, in a process of its own as play has:
    one player, each command and its telling."""
    code = f"import sys, bench.local as b; print(b._engine_here({world!r}, sys.stdin.read().splitlines()))"
    done = subprocess.run(
        [sys.executable, "-c", code], input="\n".join(lines), capture_output=True, text=True, cwd=ROOT, check=True
    )
    return float(done.stdout)


def _engine_here(world: str, lines: list[str]) -> float:
    from server.catalog import load_spin, load_world
    from server.engine.errors import EngineError
    from server.engine.player import Player
    from server.engine.story import Story

    story = Story(load_world(world))
    actor = story.definition.players()[0]
    story.take(actor)
    player = Player(story, actor, author=True, named_spins=load_spin)
    player.opening()
    for line in lines[:WARM]:
        with contextlib.suppress(EngineError):
            player.command(line)
    start = time.process_time()
    for line in lines[WARM:]:
        with contextlib.suppress(EngineError):  # a refusal is a turn too
            player.command(line)
    return time.process_time() - start


def per_command(settings: Settings) -> Result:
    """Both measures in CPU seconds, which the rest of a busy machine does not inflate as it does the wall clock
    (play's commands are all piped in at once, so it never waits on a reader)."""
    count = max(10, settings.piped)
    worlds: dict[str, Any] = {}
    for world in WORLDS:
        lines = _lines(WARM + count)
        # What the process costs besides these commands (start-up, the first WARM, leaving, ending) is measured
        # alone, and taken off.
        empty = statistics.median(_played(world, lines[:WARM])[1] for _ in range(3))
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
    return table(["piped play, CPU a command", "commands", "engine turn", "play", "play/engine", "target"], rows)


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
    piped = [_played("cloak", []) for _ in range(runs)]
    terminal = [_at_terminal("cloak") for _ in range(runs)]
    return {
        "runs": runs,
        "python_s": statistics.median(bare),
        "piped_s": statistics.median(first for first, _ in piped),
        "piped_cpu_s": statistics.median(cpu for _, cpu in piped),
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
        ["  its CPU, start to end with no command (median)", duration(result["piped_cpu_s"]), ""],
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
