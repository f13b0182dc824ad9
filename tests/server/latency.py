"""An innocent client's latency during an attack, against its own normal before it: what every attack test asserts.

A bystander first makes a few small calls with nobody attacking; their median is its normal. Then the attack
starts (a coroutine that goes on until it is told to stop, or a state already held, such as connections left
open), and the bystander makes more calls, one after another; after the attack it times a few more. The server
keeps serving others when the median and the 90th percentile of the calls during the attack stay within FACTOR
times normal plus FLOOR (the normal being the slower of before and after, in case the machine itself got slower
meanwhile, with other work on it), and the calls after are back within that of the normal before. Generous, so
a loaded machine does not fail the test; yet a server that stalls others (seconds where milliseconds are
normal), or stays slow once the attack is over, always does. A costly call the attacker's burst still allows
may hold up a call or two; a server that lets it go on holding them up, or lets one call hold the loop for
long, fails.
"""

from __future__ import annotations

import asyncio
import math
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from tests.server.conftest import Http, Server

FACTOR = 10.0
"""How many times its normal latency a bystander may wait during an attack."""
FLOOR = 0.05
"""Seconds more it may wait, whatever its normal: a fast normal is easily multiplied by a busy machine."""
STUCK = 10.0
"""Seconds after which one call of the bystander counts as never answered (the test fails there and then)."""

Attack = Callable[[asyncio.Event], Awaitable[Any]]
"""An attack: it goes on until the event is set, and returns what the test wants to check of it."""


def percentile(values: list[float], share: float) -> float:
    """The smallest value at least `share` of `values` do not exceed."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


@dataclass
class Bystander:
    """A client that is not attacking, timing its calls before an attack and during it."""

    call: Callable[[], Awaitable[Any]]
    """One small call, which must succeed: a turn, a world list."""
    samples: int = 30
    """Calls timed during the attack; a fifth as many (and one to warm up) before it, and again after it.
    Together they fit a session's burst of requests, so a bystander is never refused for its own rate."""
    normal: float | None = None
    """The median of its calls before the attack, in seconds."""
    after: float = 0.0
    """The median of its calls after the attack: where the machine itself became slower meanwhile (other work
    on it), the normal is the slower of the two."""
    during: list[float] = field(default_factory=list)

    async def _timed(self) -> float:
        started = time.perf_counter()
        async with asyncio.timeout(STUCK):
            await self.call()
        return time.perf_counter() - started

    async def _median(self) -> float:
        return statistics.median([await self._timed() for _ in range(max(3, self.samples // 5))])

    async def measure_normal(self) -> float:
        """Time a few calls with nobody attacking; their median is the normal."""
        await self._timed()  # the first call warms what the others find ready (a connection, a cache)
        self.normal = await self._median()
        return self.normal

    async def through(self, attack: Attack | None = None) -> Any:
        """Time `samples` calls while `attack` runs (or, with none, while an attack's state holds); the attack
        is then told to stop and its outcome returned. Call `measure_normal` first."""
        assert self.normal is not None, "measure the normal first"
        stop = asyncio.Event()
        running = asyncio.create_task(attack(stop)) if attack is not None else None
        try:
            await asyncio.sleep(0)  # the attack is under way before the first call is timed
            for _ in range(self.samples):
                self.during.append(await self._timed())
                if running is not None and running.done():
                    running.result()  # an attack that failed fails the test, with its own error
        finally:
            stop.set()
        outcome = await running if running is not None else None
        self.after = await self._median()
        return outcome

    async def alongside(self, work: Awaitable[Any]) -> tuple[Any, list[float]]:
        """Time calls one after another for as long as `work` (one costly call, say) is under way: its outcome,
        and the times of the calls made meanwhile (the last of them may end after it). Call `measure_normal`
        first."""
        assert self.normal is not None, "measure the normal first"
        running = asyncio.ensure_future(work)
        timed: list[float] = []
        await asyncio.sleep(0)  # the work is under way before the first call is timed
        while not running.done():
            timed.append(await self._timed())
        return await running, timed

    @property
    def allowed(self) -> float:
        assert self.normal is not None
        return FACTOR * max(self.normal, self.after) + FLOOR

    def assert_unhurt(self) -> None:
        """The bystander's median and 90th percentile during the attack stay within what is allowed, and its calls
        after it are back within what its normal before allows."""
        assert self.during, "nothing was timed during the attack"
        median, p90 = statistics.median(self.during), percentile(self.during, 0.9)
        told = (
            f"normal {(self.normal or 0.0) * 1000:.1f} ms before, {self.after * 1000:.1f} ms after; during the "
            f"attack median {median * 1000:.1f} ms, "
            f"90th percentile {p90 * 1000:.1f} ms; allowed {self.allowed * 1000:.1f} ms"
        )
        assert median <= self.allowed and p90 <= self.allowed, told
        assert self.normal is not None and self.after <= FACTOR * self.normal + FLOOR, f"slow after the attack: {told}"


async def unhurt(call: Callable[[], Awaitable[Any]], attack: Attack | None = None, *, samples: int = 30) -> Any:
    """Measure a bystander's normal, run `attack` while timing it again, and assert it kept being served as
    normal; the attack's outcome. Where the attack must be set up between the two, use a Bystander."""
    bystander = Bystander(call, samples)
    await bystander.measure_normal()
    outcome = await bystander.through(attack)
    bystander.assert_unhurt()
    return outcome


async def a_player(server: Server, world: str = "cloak") -> Callable[[], Awaitable[Any]]:
    """A bystander's small call: a player alone in an instance of its own, looking around (a turn)."""
    player = Http(server)
    await player.play(world)
    return lambda: player.ok("command", text="look")
