"""Benchmarks of persistence: how long a restart takes (one instance of 10,000 turns; 1,000 small instances),
what writing every change durably, before the reply, costs a command, and what the stores themselves take
for a change when many instances write at once (group commit against one commit a change, and PostgreSQL).

The stores restarted from are built in this process, through a host and its keeper exactly as a server
writes them (every command one committed transaction), only without the sockets in between. A restart is
timed two ways: in this process, as `server.app` brings instances back before serving (open the store, then
`Host.reload`), and as a person sees it, a new server process from its start to its first `/health`.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg

from bench.measure import Benchmark, Result, Settings, distribution, duration, mebibytes, ratio, seconds, table
from bench.server import COMMANDS, Ws, play_for
from protocol import messages as m
from server.engine.snapshot import capture
from server.host import Host
from server.persist import Keeper
from server.store import SqliteFile
from server.stores import StoredInstance, StoredSession, fingerprint
from server.stores.postgres import PostgresStore
from server.stores.sqlite import SqliteStore

BIG_WORLD = "lost_one"
"""The one long instance: the plaza, where four people act every turn besides the visitor (5 events a turn)."""
SMALL_WORLD = "cloak_plus"
"""The many small instances."""
SMALL_COMMANDS = ("x mime", "i", "w", "take bottle", "fill bottle", "e", "look", "jump", "listen", "n")
SMALL_TURNS = 10


@contextmanager
def _directory() -> Iterator[Path]:
    """A scratch data directory on the same disk as the repository's temporary files, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="curveship-bench-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _size(directory: Path) -> int:
    return sum(path.stat().st_size for path in directory.iterdir() if path.is_file())


# -- building stores -------------------------------------------------------------------------------------------


async def _build_big(directory: Path, turns: int) -> Result:
    keeper = Keeper(SqliteStore(directory))
    host = Host(keeper=keeper)
    instance = (await host.create(m.CreateParams(world=BIG_WORLD, seed=1), author=True)).instance
    session, _ = await host.join(m.JoinParams(instance=instance, actor="@visitor"), author=False)
    story = session.instance.story
    rng = random.Random("restart")
    commands = 0
    started = time.perf_counter()
    while story.turn < turns and not story.ended:
        await host.command(session, rng.choice(COMMANDS))
        commands += 1
    await keeper.flushed()
    built = time.perf_counter() - started
    kept = keeper.kept[instance]
    await keeper.close()
    return {
        "turns": story.turn,
        "events": len(story.simulation.events),
        "log": len(story.log),
        "commands": commands,
        "build_s": built,
        "snapshot_at": kept.snapshot_at,
    }


async def _build_many(directory: Path, count: int) -> Result:
    keeper = Keeper(SqliteStore(directory))
    host = Host(keeper=keeper)
    started = time.perf_counter()
    for index in range(count):
        instance = (await host.create(m.CreateParams(world=SMALL_WORLD, seed=index), author=True)).instance
        session, _ = await host.join(m.JoinParams(instance=instance, name=f"p{index}"), author=False)
        for text in SMALL_COMMANDS[:SMALL_TURNS]:
            await host.command(session, text)
    await keeper.flushed()
    built = time.perf_counter() - started
    turns = sum(instance.story.turn for instance in host.instances.values())
    await keeper.close()
    return {"instances": count, "turns": turns, "build_s": built}


# -- restarting ------------------------------------------------------------------------------------------------


async def _restart_in_process(directory: Path) -> tuple[float, Host, Keeper]:
    """What server.app does before it serves: open the store and bring every instance back."""
    gc.collect()  # earlier garbage is not billed to the restart
    started = time.perf_counter()
    keeper = Keeper(SqliteStore(directory))
    host = Host(keeper=keeper)
    await host.reload()
    return time.perf_counter() - started, host, keeper


async def _restart_timed(directory: Path) -> Result:
    took, host, keeper = await _restart_in_process(directory)
    restored = list(keeper.restored.values())
    result = {
        "restore_s": took,
        "instances": len(host.instances),
        "sessions": len(host.sessions),
        "from_snapshot": sum(1 for r in restored if r.snapshot),
        "replayed": sum(r.replayed for r in restored),
    }
    await keeper.close()
    return result


async def _open_timed(directory: Path) -> Result:
    """What server.app does now before it serves: read the lobby only; then the first use of one instance."""
    gc.collect()
    started = time.perf_counter()
    keeper = Keeper(SqliteStore(directory))
    host = Host(keeper=keeper)
    await host.open()
    opened = time.perf_counter() - started
    stored = len(host.dormant)
    started = time.perf_counter()
    await host.loaded(min(host.dormant))
    used = time.perf_counter() - started
    await keeper.close()
    return {"open_s": opened, "stored": stored, "first_use_s": used}


# -- unloading: the memory an idle instance holds --------------------------------------------------------------

UNLOAD_TURNS = 5
"""Turns each Lost One instance is played before it goes idle."""


def _resident() -> int:
    """This process's resident memory now, in bytes (Linux; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


async def _idle_memory(directory: Path, count: int, traced_too: bool) -> Result:
    """`count` Lost One instances played a few turns each, loaded and idle: the memory they hold (the resident
    size, and with `traced_too` tracemalloc's count of Python's own allocations, whose bookkeeping inflates the
    resident size and slows everything), what unloading them gives back, how long that takes, and the first use
    of one afterwards."""
    now = [0.0]
    keeper = Keeper(SqliteStore(directory))
    host = Host(keeper=keeper, clock=lambda: now[0])
    rng = random.Random("idle")
    # The first instance warms what every later one shares (the world's definition, the English tables).
    warm = (await host.create(m.CreateParams(world=BIG_WORLD, seed=0), author=True)).instance
    warmed, _ = await host.join(m.JoinParams(instance=warm, actor="@visitor"), author=False)
    await host.command(warmed, "look")
    await keeper.flushed()
    gc.collect()
    if traced_too:
        tracemalloc.start()
    traced, resident = tracemalloc.get_traced_memory()[0], _resident()
    made = []
    for index in range(count):
        instance = (await host.create(m.CreateParams(world=BIG_WORLD, seed=index + 1), author=True)).instance
        session, _ = await host.join(m.JoinParams(instance=instance, actor="@visitor"), author=False)
        for _ in range(UNLOAD_TURNS):
            await host.command(session, rng.choice(COMMANDS))
        made.append((instance, session.token))
    await keeper.flushed()
    gc.collect()
    loaded_traced, loaded_resident = tracemalloc.get_traced_memory()[0], _resident()
    now[0] += 3600.0  # an hour unused
    started = time.perf_counter()
    unloaded = await host.unload_idle(600.0)
    unloading = time.perf_counter() - started
    gc.collect()
    after_traced = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    instance, token = made[0]
    started = time.perf_counter()
    await host.awaken(token)
    used = time.perf_counter() - started
    back = host.instances[instance].story.turn
    await keeper.close()
    return {
        "instances": count,
        "turns": UNLOAD_TURNS,
        "per_instance_bytes": (loaded_traced - traced) / count,
        "per_instance_resident_bytes": (loaded_resident - resident) / count,
        "freed_per_instance_bytes": (loaded_traced - after_traced) / count,
        "left_per_instance_bytes": (after_traced - traced) / count,
        "unloaded": len(set(unloaded) & {instance for instance, _ in made}),  # the warming one is unloaded too
        "unload_s": unloading,
        "first_use_s": used,
        "turn_back": back,
    }


def unloading(settings: Settings) -> Result:
    """`settings.unload_instances` idle Lost One instances: memory held loaded, and given back unloaded."""
    with _directory() as directory:
        plain = asyncio.run(_idle_memory(directory, settings.unload_instances, traced_too=False))
    with _directory() as directory:
        traced = asyncio.run(_idle_memory(directory, settings.unload_instances, traced_too=True))
    return {
        **traced,
        "per_instance_resident_bytes": plain["per_instance_resident_bytes"],
        "unload_s": plain["unload_s"],
        "first_use_s": plain["first_use_s"],
    }


def _kibibytes(value: float) -> str:
    return f"{value / 2**10:,.0f} KiB"


def report_unloading(result: Result) -> str:
    row = [
        f"{result['instances']:,} × {BIG_WORLD}, {result['turns']} turns",
        _kibibytes(result["per_instance_bytes"]),
        _kibibytes(result["per_instance_resident_bytes"]),
        _kibibytes(result["freed_per_instance_bytes"]),
        _kibibytes(result["left_per_instance_bytes"]),
        duration(result["unload_s"]),
        duration(result["first_use_s"]),
    ]
    heads = ["idle instances", "each, loaded", "each, resident", "freed each", "left each", "unload all"]
    body = table([*heads, "first use after"], [row])
    return (
        f"{body}\n(loaded, freed, left: tracemalloc's count of Python's allocations; resident: the process's RSS, "
        "in a run without tracemalloc, as are the times)"
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def _server(data: Path | None, store: str | None = None) -> Iterator[tuple[str, float]]:
    """A server process on `data` (None: in memory) or the PostgreSQL database `store`: its base URL, and
    seconds from its start to /health."""
    port = _free_port()
    where = "None" if data is None else f"Path({str(data)!r})"
    code = (
        "import asyncio; from pathlib import Path; from aiohttp import web; from server.app import Config, create_app; "
        "from server.heap import freeze_heap; "
        f"app = create_app(Config(data={where}, store={store!r}, rate=1e6, burst=1e6)); "
        # Started as `curveship serve` starts: the heap made by then frozen, and its survivors as it grows.
        "app.on_startup.append(lambda app: asyncio.sleep(0, freeze_heap())); "
        f"web.run_app(app, host='127.0.0.1', port={port}, print=None)"
    )
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        _serving(base, process)
        yield base, time.perf_counter() - started
    finally:
        process.terminate()
        process.wait(timeout=60)


def _serving(base: str, process: subprocess.Popen[bytes], timeout: float = 600.0) -> None:
    """Wait for /health (a server restoring a long log takes a while before it answers)."""
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped ({process.returncode}) before serving")
        try:
            with urllib.request.urlopen(base + "/health", timeout=1):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError("the server did not start")


def _to_health(directory: Path) -> float:
    with _server(directory) as (_base, took):
        return took


async def _snapshot_at_end(directory: Path) -> float:
    """Restart, and store a snapshot of the whole log: how long capturing it took."""
    _took, host, keeper = await _restart_in_process(directory)
    (instance,) = host.instances.values()
    capturing, blob = seconds(lambda: capture(instance.story))
    await keeper.store.put_snapshot(instance.id, len(instance.story.log), blob)
    await keeper.close()
    return capturing


def restart(settings: Settings) -> Result:
    """One instance of `settings.restart_turns` turns: restored from its snapshot and the rest of its log,
    from a snapshot just taken, and from its whole log with no snapshot."""
    with _directory() as directory:
        built = asyncio.run(_build_big(directory, settings.restart_turns))
        size = _size(directory)
        (snapshot_bytes,) = _one_row(directory, "SELECT length(data) FROM snapshots")
        as_kept = asyncio.run(_restart_timed(directory))
        process = _to_health(directory)
        # Its log since the snapshot replayed; now keep a snapshot at its very end (the best case).
        capturing = asyncio.run(_snapshot_at_end(directory))
        at_end = asyncio.run(_restart_timed(directory))
        _exec(directory, "DELETE FROM snapshots")
        whole = asyncio.run(_restart_timed(directory))
        whole_process = _to_health(directory)
    return {
        **built,
        "store_bytes": size,
        "snapshot_bytes": snapshot_bytes,
        "capture_s": capturing,
        "as_kept": {**as_kept, "to_health_s": process},
        "snapshot_at_end": at_end,
        "whole_log": {**whole, "to_health_s": whole_process},
        "speedup": ratio(whole["restore_s"], as_kept["restore_s"]),
    }


def _one_row(directory: Path, sql: str) -> tuple[Any, ...]:
    db = sqlite3.connect(directory / "curveship.sqlite")
    try:
        return tuple(db.execute(sql).fetchone() or (0,))
    finally:
        db.close()


def _exec(directory: Path, sql: str) -> None:
    db = sqlite3.connect(directory / "curveship.sqlite")
    try:
        db.execute(sql)
        db.commit()
    finally:
        db.close()


def instances(settings: Settings) -> Result:
    """`settings.restart_instances` small instances, one player each, brought back at once."""
    with _directory() as directory:
        built = asyncio.run(_build_many(directory, settings.restart_instances))
        size = _size(directory)
        restored = asyncio.run(_restart_timed(directory))
        opened = asyncio.run(_open_timed(directory))
        process = _to_health(directory)
    return {
        **built,
        "store_bytes": size,
        **restored,
        **opened,
        "per_instance_s": restored["restore_s"] / max(1, restored["instances"]),
        "to_health_s": process,
    }


# -- durable writes: what they cost a command -------------------------------------------------------------------


async def _one_player(base: str, count: int) -> Result:
    rng = random.Random("durable")
    async with aiohttp.ClientSession() as http, http.ws_connect(base.replace("http", "ws") + "/ws") as ws_socket:
        ws = Ws(ws_socket)
        instance = (await ws.call("create", world=BIG_WORLD, seed=1))["instance"]
        await ws.call("join", instance=instance)
        await ws.call("command", text="look")  # the English lexicons load on the first telling: not timed
        timings = []
        began = time.perf_counter()
        for _ in range(count):
            start = time.perf_counter()
            await ws.call("command", text=rng.choice(COMMANDS))
            timings.append(time.perf_counter() - start)
        elapsed = time.perf_counter() - began
    return {"commands": count, "per_second": count / elapsed, **distribution(timings)}


async def _players(base: str, players: int, duration_s: float) -> Result:
    async with aiohttp.ClientSession() as http:
        sockets = []
        made: list[str] = []
        for index in range(players):
            # One visitor to an instance: Lost One's dynamic spin has whoever plays command the visitor.
            ws = Ws(await http.ws_connect(base.replace("http", "ws") + "/ws"))
            made.append((await ws.call("create", world=BIG_WORLD, seed=index))["instance"])
            await ws.call("join", instance=made[-1], actor="@visitor")
            await ws.call("command", text="look")
            sockets.append(ws)
        timings, elapsed = await play_for(sockets, duration_s)
        for ws in sockets:
            await ws.socket.close()
    return {"players": players, "commands": len(timings), "per_second": len(timings) / elapsed, **distribution(timings)}


def _measured(settings: Settings, data: Path | None, store: str | None = None) -> Result:
    with _server(data, store) as (base, _took):
        one = asyncio.run(_one_player(base, settings.requests))
        several = asyncio.run(_players(base, settings.durable_players, settings.durable_seconds))
    return {"one": one, "several": several}


def durable(settings: Settings) -> Result:
    """Commands over WebSocket against a server in memory, one writing every change durably to SQLite in its
    data directory, and one writing to PostgreSQL (when one answers at POSTGRES)."""
    result: Result = {"memory": _measured(settings, None)}
    with _directory() as directory:
        result["durable"] = _measured(settings, directory / "data")
        result["store_bytes"] = _size(directory / "data")
    url = asyncio.run(_reachable_postgres())
    if url is not None:
        result["postgresql"] = _measured(settings, None, url)
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)'))
    for mode in ("durable", "postgresql"):
        for case in ("one", "several"):
            if mode not in result:
                continue
            memory, kept = result["memory"][case], result[mode][case]
            result[f"{mode}_{case}_ratio"] = {
                "per_second": ratio(kept["per_second"], memory["per_second"]),
                "median": ratio(kept["median_s"], memory["median_s"]),
                "p99": ratio(kept["p99_s"], memory["p99_s"]),
            }
    return result


# -- the stores alone: one change after another from many instances at once ------------------------------------

POSTGRES = os.environ.get("CURVESHIP_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
"""A PostgreSQL server for `commits` to make its own database on (and drop after)."""

Change = Callable[[str, int], Awaitable[object]]
"""One instance's change number n, durable when awaited."""


def _change_args(instance: str, n: int) -> dict[str, Any]:
    """A served command's change, as the keeper records one: an entry, the turn and hash, two sessions that
    the command did not change."""
    sessions = [
        StoredSession(f"{instance}-{who}", instance, f"@{who}", who, False, {"person": "second"}, ["@lamp"], seen=1.0)
        for who in ("visitor", "friend")
    ]
    return {
        "cut": n,
        "entries": [("command", "@visitor", "take the lamp")],
        "turn": n + 1,
        "ended": False,
        "digest": f"{n:032x}",
        "sessions": sessions,
    }


def _made(instance: str) -> StoredInstance:
    return StoredInstance(instance, BIG_WORLD, fingerprint(b"bench"), 1, {}, 0, False)


async def _writers(change: Change, writers: int, duration_s: float) -> Result:
    """`writers` instances, each making its next change as soon as the last is durable, for `duration_s`."""
    timings: list[float] = []
    began = time.perf_counter()
    deadline = began + duration_s

    async def write(instance: str) -> None:
        n = 0
        while time.perf_counter() < deadline:
            start = time.perf_counter()
            await change(instance, n)
            timings.append(time.perf_counter() - start)
            n += 1

    await asyncio.gather(*(write(f"w{index}") for index in range(writers)))
    elapsed = time.perf_counter() - began
    return {"writers": writers, "changes": len(timings), "per_second": len(timings) / elapsed, **distribution(timings)}


async def _one_commit_each(directory: Path, writers: int, duration_s: float) -> Result:
    """Before group commit: the file's own `record`, one transaction (one sync) a change, in a writer thread."""
    file, thread = SqliteFile(directory), ThreadPoolExecutor(max_workers=1)
    loop = asyncio.get_running_loop()
    try:
        for index in range(writers):
            file.add_instance(_made(f"w{index}"))

        def change(instance: str, n: int) -> Awaitable[object]:
            return loop.run_in_executor(thread, lambda: file.record(instance, **_change_args(instance, n)))

        found = await _writers(change, writers, duration_s)
        return {**found, "commits_per_change": 1.0}
    finally:
        thread.shutdown()
        file.close()


async def _grouped(directory: Path, writers: int, duration_s: float) -> Result:
    store = SqliteStore(directory)
    try:
        for index in range(writers):
            await store.add_instance(_made(f"w{index}"))
        before = store.commits
        found = await _writers(lambda i, n: store.record(i, **_change_args(i, n)), writers, duration_s)
        return {**found, "commits_per_change": (store.commits - before) / max(1, found["changes"])}
    finally:
        await store.close()


async def _admin(sql: str) -> None:
    connection = await asyncpg.connect(POSTGRES, timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


async def _reachable_postgres() -> str | None:
    """A new database on POSTGRES for a server to use (the caller drops it), or None if nothing answers."""
    name = f"curveship_bench_{secrets.token_hex(4)}"
    try:
        await _admin(f'CREATE DATABASE "{name}"')
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):  # that row is left out
        return None
    return POSTGRES.rsplit("/", 1)[0] + "/" + name


@asynccontextmanager
async def _postgres_database() -> AsyncIterator[str | None]:
    """A database of the benchmark's own on POSTGRES (its URL), dropped after; None if it cannot be reached."""
    name = f"curveship_bench_{secrets.token_hex(4)}"
    try:
        admin = await asyncpg.connect(POSTGRES, timeout=5)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        yield None
        return
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        yield POSTGRES.rsplit("/", 1)[0] + "/" + name
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def _on_postgres(url: str, writers: int, duration_s: float) -> Result:
    store = await PostgresStore.connect(url)
    try:
        for index in range(writers):
            await store.add_instance(_made(f"w{index}"))
        found = await _writers(lambda i, n: store.record(i, **_change_args(i, n)), writers, duration_s)
        return {**found, "commits_per_change": 1.0}
    finally:
        await store.close()


async def _commits(settings: Settings) -> Result:
    crowds = sorted({1, settings.instances, settings.players})
    result: Result = {"crowds": crowds, "one_each": [], "grouped": [], "postgres": []}
    for writers in crowds:
        with _directory() as directory:
            result["one_each"].append(await _one_commit_each(directory / "one", writers, settings.write_seconds))
            result["grouped"].append(await _grouped(directory / "grouped", writers, settings.write_seconds))
    for writers in crowds:
        async with _postgres_database() as url:  # a database for each crowd: its instances are new
            if url is not None:
                result["postgres"].append(await _on_postgres(url, writers, settings.write_seconds))
    return result


def commits(settings: Settings) -> Result:
    """Changes a second and their p99 through each store, with 1, `instances` and `players` instances writing."""
    return asyncio.run(_commits(settings))


# -- reports ---------------------------------------------------------------------------------------------------


def report_restart(result: Result) -> str:
    head = (
        f"{BIG_WORLD}: {result['turns']:,} turns, {result['events']:,} events, a log of {result['log']:,} entries; "
        f"built in {duration(result['build_s'])}; store {mebibytes(result['store_bytes'])}, "
        f"snapshot {mebibytes(result['snapshot_bytes'])}, taken in {duration(result['capture_s'])}"
    )
    rows = []
    for key, label in (
        ("as_kept", "snapshot as kept + the log after it"),
        ("snapshot_at_end", "snapshot at the log's end"),
        ("whole_log", "no snapshot: the whole log replayed"),
    ):
        found = result[key]
        health = found.get("to_health_s")
        rows.append(
            [
                label,
                f"{found['replayed']:,}",
                duration(found["restore_s"]),
                duration(health) if health is not None else "",
            ]
        )
    body = table(["restart", "entries replayed", "restore", "process start → /health"], rows)
    return f"{head}\n{body}\nwhole log / as kept: {result['speedup']:.1f}×"


def report_instances(result: Result) -> str:
    row = [
        f"{result['instances']:,} × {SMALL_WORLD}",
        f"{result['turns']:,}",
        mebibytes(result["store_bytes"]),
        duration(result["restore_s"]),
        duration(result["per_instance_s"]),
        duration(result["open_s"]),
        duration(result["first_use_s"]),
        duration(result["to_health_s"]),
    ]
    heads = ["instances", "turns", "store", "restore all", "per instance", "open", "first use of one"]
    return table([*heads, "process start → /health"], [row])


def report_durable(result: Result) -> str:
    rows = []
    modes = [mode for mode in ("memory", "durable", "postgresql") if mode in result]
    for case, label in (("one", "1 player"), ("several", f"{result['memory']['several']['players']} players")):
        for mode in modes:
            found = result[mode][case]
            rows.append(
                [
                    f"{label}, {mode}",
                    f"{found['commands']:,}",
                    f"{found['per_second']:.0f}",
                    duration(found["median_s"]),
                    duration(found["p99_s"]),
                ]
            )
        for mode in modes[1:]:
            ratios = result[f"{mode}_{case}_ratio"]
            rows.append(
                [
                    f"{label}, {mode} / memory",
                    "",
                    f"{ratios['per_second']:.2f}",
                    f"{ratios['median']:.2f}",
                    f"{ratios['p99']:.2f}",
                ]
            )
    return table(["commands over WebSocket", "commands", "commands/s", "p50", "p99"], rows)


def report_commits(result: Result) -> str:
    rows = []
    labels = {
        "one_each": "SQLite, one commit a change",
        "grouped": "SQLite, group commit",
        "postgres": "PostgreSQL (asyncpg)",
    }
    for key, label in labels.items():
        for found in result[key]:
            rows.append(
                [
                    label,
                    f"{found['writers']}",
                    f"{found['changes']:,}",
                    f"{found['per_second']:,.0f}",
                    duration(found["median_s"]),
                    duration(found["p99_s"]),
                    f"{found['commits_per_change']:.2f}",
                ]
            )
    body = table(["store", "instances writing", "changes", "changes/s", "p50", "p99", "commits a change"], rows)
    lines = [body]
    for one, grouped in zip(result["one_each"], result["grouped"], strict=True):
        lines.append(
            f"{one['writers']} writing: group commit / one commit each: "
            f"{ratio(grouped['per_second'], one['per_second']):.2f}× the changes/s, "
            f"p99 {ratio(grouped['p99_s'], one['p99_s']):.2f}×"
        )
    if not result["postgres"]:
        lines.append(f"PostgreSQL not measured: nothing answered at {POSTGRES}")
    return "\n".join(lines)


BENCHMARKS = (
    Benchmark("restart", "restart time of one instance of many turns, with and without its snapshot", restart,
              report_restart),
    Benchmark("instances", "restart time of many small instances", instances, report_instances),
    Benchmark("durable", "commands/s and p50/p99 over WebSocket, in memory against durable writes", durable,
              report_durable),
    Benchmark("unloading", "memory an idle loaded instance holds, and what unloading it gives back", unloading,
              report_unloading),
    Benchmark("commits", "changes/s and p99 through the stores themselves, many instances writing at once", commits,
              report_commits),
)  # fmt: skip
