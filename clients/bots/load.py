"""A load generator: simulated players over WebSocket, each playing its own actor with random commands drawn from
what `actions` offers it, for a set time; it reports throughput, latency percentiles and errors as JSON.

A run, in order:
1. The server: `--url` (http://, ws://, with or without /ws), or one started in this process on loopback.
2. `--instances` instances of `--world` are created; `--players` WebSockets join them in turn, each as the
   next of the world's playable actors (an instance holds at most one player an actor).
3. Each player draws its commands from what `actions` offers in its actor's room (asked once a room, and the
   room looked at again every few commands; moving about weighs more than the rest, so players wander),
   for `--seconds`:
   - `closed`: each player sends its next command as soon as the last is answered (as fast as it can go);
   - `paced`: the players together send `--rate` commands a second on a fixed schedule, whether or not the
     last was answered, and each latency counts from when its command was due (so a server that falls
     behind shows it, rather than slowing the load down).
   A story that ends is begun again (`restart`, as an author) or, without author permission, replaced by
   a new instance. Progress goes to stderr every second; the report, to stdout, at the end.
4. The report: commands, commands/s, latency p50/p90/p99/max/mean in ms, errors by code, the notifications
   the players were sent (each read as it comes, between commands), and the CPU and memory of the server
   where they can be read (this process's, when the server runs in it; `--server-pid`).

`python -m clients.bots.load --url ws://127.0.0.1:8765 --players 50 --instances 10 --world lost_one
--mode closed --seconds 10` (or `curveship load --server …`). Every loop is bounded by `--seconds`: the run
stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import os
import random
import secrets
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from clients.connection import CallError, Connection, ConnectionLost
from protocol import messages as m
from protocol.errors import Code

Mode = Literal["closed", "paced"]

REFRESH = 8
"""Commands a player gives before it looks again at which room it is in, and so at what it can do there."""
MOVING = 4
"""How much more often a player picks a way to go than any other command."""
IN_FLIGHT = 64
"""Commands one paced player may have unanswered before it skips one (counted as `skipped`)."""


@dataclass(frozen=True)
class Options:
    """One run's settings: see the module's docstring."""

    url: str | None = None
    players: int = 10
    instances: int = 2
    world: str = "lost_one"
    mode: Mode = "closed"
    rate: float = 100.0
    """Commands a second, all players together (paced)."""
    seconds: float = 10.0
    seed: int = 0
    author_token: str | None = None
    server_pid: int | None = None
    progress: bool = True


@dataclass(eq=False)
class _Tally:
    """What the players measured, as they go."""

    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    endings: int = 0
    """Stories that ended and were begun again."""
    skipped: int = 0
    told: int = 0
    """Notifications the players were sent (what the others did, as each one's actor perceived it)."""


def base_url(url: str) -> str:
    """The server's base URL, as `Connection` takes it, from http(s):// or ws(s):// with or without /ws."""
    url = url.rstrip("/")
    if url.endswith("/ws"):
        url = url[: -len("/ws")]
    if url.startswith("ws://"):
        return "http://" + url[len("ws://") :]
    if url.startswith("wss://"):
        return "https://" + url[len("wss://") :]
    return url


def percentile(ordered: Sequence[float], share: float) -> float:
    """The nearest-rank percentile of sorted samples (0 for none)."""
    if not ordered:
        return 0.0
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class _Pool:
    """The commands offered in one room, with the running total of their weights: a way to go weighs MOVING,
    anything else 1. Summed once a room, not once a command (a room offers some 150 commands, and summing
    them for every pick was a third of this process's CPU); drawing from the totals is the same draw."""

    commands: list[str]
    totals: list[int]

    @classmethod
    def of(cls, commands: list[str]) -> _Pool:
        weights = (MOVING if command.startswith("go ") else 1 for command in commands)
        return cls(commands, list(itertools.accumulate(weights)))

    def pick(self, rng: random.Random) -> str:
        return rng.choices(self.commands, cum_weights=self.totals)[0]


LOOKING = _Pool.of(["look"])
"""A player's pool before it has asked what its room offers."""


@dataclass(eq=False)
class _Pools:
    """The commands `actions` offered in each room, asked once a room for all players: `actions` tries every
    command it could list, which in a big room costs far more than a command, and would weigh on the load."""

    by_room: dict[str, _Pool] = field(default_factory=dict)
    asking: dict[str, asyncio.Lock] = field(default_factory=dict)

    async def of(self, room: str, conn: Connection) -> _Pool:
        async with self.asking.setdefault(room, asyncio.Lock()):
            if room not in self.by_room:
                listed: m.ActionsResult = await conn.call("actions")
                self.by_room[room] = _Pool.of(listed.commands) if listed.commands else LOOKING
        return self.by_room[room]


class _Player:
    """One simulated player: its socket, its seeded choices, and the commands its actor can give now."""

    def __init__(self, conn: Connection, rng: random.Random, tally: _Tally, pools: _Pools, author: bool) -> None:
        self.conn, self.rng, self.tally, self.pools, self.author = conn, rng, tally, pools, author
        self.pool = LOOKING
        self.given = 0

    async def refresh(self) -> None:
        """The commands of the room the actor is in now (its `state` says which)."""
        with contextlib.suppress(CallError, ConnectionLost):
            state: m.StateResult = await self.conn.call("state")
            self.pool = await self.pools.of(state.room or "", self.conn)

    async def command(self, due: float) -> None:
        """Give one command; its latency counts from `due` (when it was sent, or meant to be)."""
        self.given += 1
        text = self.pool.pick(self.rng)
        try:
            await self.conn.call("command", text=text)
            self.tally.latencies.append(time.perf_counter() - due)
            # Read, as a player reads along, and let go: kept unread, every narration of the others' turns piled
            # up in this process, and its collector's ever longer passes showed as the server's latency.
            self.tally.told += len(self.conn.arrived())
        except CallError as error:
            if error.code == Code.ENDED:  # another's command ended it: a story's ending, not the server's error
                await self.begin_again()
            else:
                self.tally.errors[str(int(error.code))] += 1
        except ConnectionLost:
            self.tally.errors["connection lost"] += 1
        if self.given % REFRESH == 0:
            await self.refresh()

    async def begin_again(self) -> None:
        """The story ended: an author restarts it; anyone else plays on in a new instance of its own."""
        self.tally.endings += 1
        with contextlib.suppress(CallError, ConnectionLost):
            if self.author:
                await self.conn.call("restart")
            else:
                state: m.StateResult = await self.conn.call("state")
                made: m.CreateResult = await self.conn.call("create", world=state.world)
                await self.conn.call("leave")
                await self.conn.call("join", instance=made.instance, actor=state.actor)
        await self.refresh()


async def run(options: Options) -> dict[str, Any]:
    """One run of the load: the report."""
    async with contextlib.AsyncExitStack() as stack:
        url, owner = options.url, options.author_token
        pid = options.server_pid
        if url is None:
            from server.tools.hosting import hosted, in_process_config  # the server runs here only when asked

            owner = owner or secrets.token_urlsafe(24)
            url = await stack.enter_async_context(hosted(in_process_config(owner), "127.0.0.1", 0))
            pid = pid or os.getpid()
        url = base_url(url)
        players = await _seat(stack, url, owner, options)
        before = _usage(pid)
        tally, elapsed = await _play(players, options)
        after = _usage(pid)
        for player in players:
            with contextlib.suppress(CallError, ConnectionLost):
                await player.conn.call("leave")
    return _report(options, url, tally, elapsed, before, after)


async def _seat(stack: contextlib.AsyncExitStack, url: str, owner: str | None, options: Options) -> list[_Player]:
    """Create the instances and join every player to one, each as the next playable actor there."""
    async with Connection(url, transport="http", author_token=owner) as desk:
        listed: m.WorldsResult = await desk.call("worlds")
        world = next((w for w in listed.worlds if w.name == options.world), None)
        if world is None or not world.interactive:
            playable = ", ".join(w.name for w in listed.worlds if w.interactive)
            raise SystemExit(f"no interactive world {options.world!r} on {url}; it has {playable}")
        actors = [actor.tag for actor in world.actors]
        most = len(actors) * options.instances
        if options.players > most:
            raise SystemExit(
                f"{options.world} has {len(actors)} playable actors, so {options.instances} instances seat at most "
                f"{most} players: ask for more instances, or fewer players"
            )
        made = []
        for index in range(options.instances):
            created: m.CreateResult = await desk.call("create", world=options.world, seed=options.seed + index)
            made.append(created.instance)
    tally, pools = _Tally(), _Pools()
    players = []
    for index in range(options.players):
        instance, actor = made[index % options.instances], actors[(index // options.instances) % len(actors)]
        # Named before joining, so a server of several workers takes the socket where the instance is held.
        conn = await stack.enter_async_context(Connection(url, author_token=owner, instance=instance))
        await conn.call("join", instance=instance, actor=actor, name=f"load{index}")
        player = _Player(conn, random.Random(f"{options.seed}:{index}"), tally, pools, author=owner is not None)
        await player.refresh()
        players.append(player)
    return players


async def _play(players: list[_Player], options: Options) -> tuple[_Tally, float]:
    tally = players[0].tally if players else _Tally()
    began = time.perf_counter()
    stop = began + options.seconds
    reporter = asyncio.get_running_loop().create_task(_progress(tally, began, options)) if options.progress else None

    async def closed(player: _Player) -> None:
        while time.perf_counter() < stop:
            await player.command(time.perf_counter())

    async def paced(player: _Player, offset: float) -> None:
        interval = len(players) / options.rate
        due = began + offset * interval
        pending: set[asyncio.Task[None]] = set()
        while due < stop:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            if len(pending) >= IN_FLIGHT:
                tally.skipped += 1
            else:
                task = asyncio.get_running_loop().create_task(player.command(due))
                pending.add(task)
                task.add_done_callback(pending.discard)
            due += interval
        if pending:  # answers still due are waited for, a little: a run stops by itself
            await asyncio.wait(pending, timeout=max(1.0, options.seconds))

    try:
        if options.mode == "closed":
            await asyncio.gather(*(closed(player) for player in players))
        else:
            count = max(1, len(players))
            await asyncio.gather(*(paced(player, index / count) for index, player in enumerate(players)))
    finally:
        if reporter is not None:
            reporter.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reporter
    return tally, time.perf_counter() - began


async def _progress(tally: _Tally, began: float, options: Options) -> None:
    """A line on stderr every second: how far along, commands so far, their rate, errors."""
    while True:
        await asyncio.sleep(1.0)
        elapsed = time.perf_counter() - began
        done = len(tally.latencies)
        errors = sum(tally.errors.values())
        print(
            f"[load] {elapsed:4.0f}/{options.seconds:g} s  {done} commands  {done / elapsed:.0f}/s  {errors} errors",
            file=sys.stderr,
            flush=True,
        )


def _usage(pid: int | None) -> tuple[float, int] | None:
    """A process's CPU seconds so far and resident memory in bytes, where Linux's /proc says (else None)."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/status") as status:
            rss = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:"))
    except (OSError, StopIteration, IndexError, ValueError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), rss


def _report(
    options: Options,
    url: str,
    tally: _Tally,
    elapsed: float,
    before: tuple[float, int] | None,
    after: tuple[float, int] | None,
) -> dict[str, Any]:
    ordered = sorted(tally.latencies)
    ms = 1000.0
    report: dict[str, Any] = {
        "url": url,
        "world": options.world,
        "mode": options.mode,
        "players": options.players,
        "instances": options.instances,
        "rate": options.rate if options.mode == "paced" else None,
        "seconds": round(elapsed, 3),
        "commands": len(ordered),
        "commands_per_second": round(len(ordered) / elapsed, 1) if elapsed else 0.0,
        "latency_ms": {
            "p50": round(percentile(ordered, 0.50) * ms, 3),
            "p90": round(percentile(ordered, 0.90) * ms, 3),
            "p99": round(percentile(ordered, 0.99) * ms, 3),
            "max": round(ordered[-1] * ms, 3) if ordered else 0.0,
            "mean": round(sum(ordered) / len(ordered) * ms, 3) if ordered else 0.0,
        },
        "errors": dict(sorted(tally.errors.items())),
        "endings": tally.endings,
        "skipped": tally.skipped,
        "notifications": tally.told,
        "server": None,
    }
    if before is not None and after is not None:
        cpu = after[0] - before[0]
        report["server"] = {
            "cpu_seconds": round(cpu, 3),
            "cpu_share": round(cpu / elapsed, 3) if elapsed else 0.0,
            "rss_bytes": after[1],
            "in_this_process": options.url is None,
        }
    return report


def parse(argv: Sequence[str] | None = None, prog: str = "python -m clients.bots.load") -> Options:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--url", "--server", help="the server (http://, ws://); default: one started in this process")
    parser.add_argument("--players", type=int, default=Options.players)
    parser.add_argument("--instances", type=int, default=Options.instances)
    parser.add_argument("--world", default=Options.world)
    parser.add_argument("--mode", choices=("closed", "paced"), default=Options.mode)
    parser.add_argument("--rate", type=float, default=Options.rate, help="commands a second in all (paced)")
    parser.add_argument("--seconds", type=float, default=Options.seconds)
    parser.add_argument("--seed", type=int, default=Options.seed)
    parser.add_argument("--author-token", default=os.environ.get("CURVESHIP_AUTHOR_TOKEN"))
    parser.add_argument("--server-pid", type=int, help="read this process's CPU and memory (a server on this machine)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    for name in ("players", "instances", "rate", "seconds"):
        if getattr(args, name) <= 0:
            parser.error(f"--{name} must be positive")
    return Options(
        url=args.url,
        players=args.players,
        instances=args.instances,
        world=args.world,
        mode=args.mode,
        rate=args.rate,
        seconds=args.seconds,
        seed=args.seed,
        author_token=args.author_token,
        server_pid=args.server_pid,
        progress=not args.quiet,
    )


def main(argv: Sequence[str] | None = None, prog: str = "python -m clients.bots.load") -> int:
    """`python -m clients.bots.load`, and `curveship load`: run, then print the report."""
    options = parse(argv, prog)
    report = asyncio.run(run(options))
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
