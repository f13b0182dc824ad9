"""What a caller may spend: the server's limits, rate buckets, wrong-token lockout and the cost of engine work."""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from dataclasses import dataclass

from server.sequence import KEPT

CREATE_COST = 10
"""What `create` takes from its caller's allowance, in requests: a new instance costs far more than a call."""

WORK_PER_SECOND = 200.0
"""Requests charged for each second of engine work a call does on the event loop (5 ms a request): at the
default rate a session may have a tenth of the loop for itself, and no more, however costly its calls are
(`actions` tries every command; `narrate` of a long story tells all of it)."""

WORK: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar("work", default=None)
"""Seconds of engine work the call being handled has done so far, to be charged (see `wire.engine_errors`)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """How fast a session may go: `rate` requests a second on average, `burst` at once (each command of a
    line counts as a request); an address without a session gets ten sessions' worth. `commands`: the
    most commands one line may hold; `instances`: the most instances the server holds."""

    rate: float = 20.0
    burst: float = 60.0
    commands: int = 16
    instances: int = 1000
    per_address: int = 20
    """The most live instances made from one address (authors' aside)."""
    saves: int = 20
    """The most saves one instance keeps; a new name beyond is refused (a name already used is overwritten)."""
    kept: int = KEPT
    """The most recent messages (replies and notifications) one session keeps, for `resume` to send again."""


@dataclass(eq=False)
class Bucket:
    """A token bucket: full at first, refilled at `limits.rate` a second up to `limits.burst`."""

    clock: Callable[[], float]
    allowance: float | None = None
    """What may be spent now, in requests; None: full (nothing spent yet). Below nothing after a costly call."""
    checked: float = 0.0

    def _refill(self, limits: Limits) -> float:
        now = self.clock()
        if self.allowance is None:
            allowance = limits.burst
        else:
            allowance = min(limits.burst, self.allowance + (now - self.checked) * limits.rate)
        self.checked = now
        return allowance

    def admit(self, limits: Limits, cost: float = 1) -> bool:
        """Whether `cost` more requests fit the limits now (all or none are taken). A cost above the burst
        is taken as the whole burst, so anything allowed at all can be done, if slowly."""
        allowance = self._refill(limits)
        cost = min(cost, limits.burst)
        if allowance < cost:
            self.allowance = allowance
            return False
        self.allowance = allowance - cost
        return True

    def charge(self, limits: Limits, cost: float) -> None:
        """Take `cost` more after the fact (work done, bytes answered): the allowance may go below nothing,
        and the next requests wait until it refills; never further than ten bursts below, so one costly
        call does not shut its caller out for good."""
        self.allowance = max(-10 * limits.burst, self._refill(limits) - cost)


class Lockout:
    """Wrong tokens by address: each address may show `allowed` wrong ones at once, and one more each `every`
    seconds after; past that it is locked out, so guessing an author's (or anyone's) token takes forever."""

    def __init__(self, allowed: int = 20, every: float = 6.0, *, clock: Callable[[], float]) -> None:
        self.allowed = allowed
        self.every = every
        self.clock = clock
        self._wrong: dict[str, tuple[float, float]] = {}
        """address → (wrong tokens not yet forgiven, when that was counted)."""

    def _level(self, address: str) -> float:
        count, when = self._wrong.get(address, (0.0, 0.0))
        return max(0.0, count - (self.clock() - when) / self.every)

    def locked(self, address: str) -> float:
        """Seconds until this address may show a token again; 0 when it may now."""
        over = self._level(address) - self.allowed + 1
        return over * self.every if over > 0 else 0.0

    def failed(self, address: str) -> None:
        if len(self._wrong) > 10_000:  # forget the forgiven rather than grow without bound
            self._wrong = {a: v for a, v in self._wrong.items() if self._level(a) > 0}
        self._wrong[address] = (self._level(address) + 1, self.clock())
