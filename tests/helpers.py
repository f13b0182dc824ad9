"""Do-this-expect-that helpers that run the whole pipeline, so tests read as one line each; `until`, the one way a
test waits for something to happen; `StepClock`, the time a test steps for a server; and `disk_space`, a disk
that fills up under the store."""

from __future__ import annotations

import asyncio
import inspect
import resource
from collections.abc import Callable
from pathlib import Path
from typing import Any

from protocol.spin import apply
from server.catalog import load_world, spin_from_words
from server.engine.story import Story
from server.engine.world.definition import WorldDefinition


def story(world: str | WorldDefinition, *, seed: int = 0) -> Story:
    """A story of `world` (a name or a definition), run to its end if it runs by itself."""
    definition = load_world(world) if isinstance(world, str) else world
    made = Story(definition, seed=seed)
    if not definition.interactive:
        made.run_to_end()
    return made


def tell(world: str | WorldDefinition, *spins: str, seed: int = 0, **settings: Any) -> str:
    """The whole story of `world` told under the named spins, then `settings` (spin fields)."""
    made = story(world, seed=seed)
    spin = spin_from_words(made.spin, list(spins))
    if settings:
        spin = apply(spin, settings)
    return made.tell(spin).text


def sentences(text: str) -> list[str]:
    """Split a telling into sentences (good enough for the worlds' own sentences)."""
    import re

    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


WAIT = 20.0
"""How long `until` waits by default: far longer than anything takes, so only a failure waits that long."""


async def until(condition: Callable[[], Any], what: str = "", timeout: float = WAIT) -> Any:
    """Poll `condition` (a function, or one returning an awaitable) until what it gives is true, and return that;
    fail naming `what` if it is not within `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError(f"not within {timeout} s: {what or condition}")
        await asyncio.sleep(0.01)


class StepClock:
    """A clock the test steps (`Config(clock=…)`, `Host(clock=…)`): rates, lockouts, presence, session expiry and
    idle instances read it instead of the time, so a test makes an hour pass at once, and nothing by itself."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def step(self, seconds: float) -> None:
        self.now += seconds


def disk_space(store: Any, size: int | None) -> None:
    """Let the SQLite store's writer grow no file past `size` bytes (0: it writes nothing at all; None: no limit):
    the operating system's own refusal, as a full or vanished disk gives one."""
    pid = store.writer_pid
    assert pid is not None, "the store has no writer process"
    limit = resource.RLIM_INFINITY if size is None else size
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


def largest_file(directory: Path) -> int:
    """The size of the largest file in `directory`: below it, none of them may grow."""
    return max(path.stat().st_size for path in directory.iterdir() if path.is_file())
