"""`curveship serve --workers N`: N processes listening on one port, each holding its share of the instances.

The process `serve` runs starts the workers and waits: each is `python -m server.cluster.workers SPEC`, binds
the same port with SO_REUSEPORT (the kernel shares the connections out among them) and reaches the others
over Unix-domain sockets in a directory made for this server alone (server/cluster/bus.py); a connection
whose URL names an instance is passed to the worker holding it (server/cluster/handoff.py). With a data
directory the starting process takes the store's locks and the workers inherit them (the same locks): a
second server on the directory is refused as before, and the workers of this one share it, each writing
only the instances it holds. A worker that dies is started again (one that cannot start stops the server).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import dataclasses
import logging
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import msgspec

from server.app import GUARD, Config, create_app, listen
from server.cluster.bus import UnixBus
from server.cluster.handoff import Handoff
from server.cluster.placement import Hashed
from server.cluster.router import install
from server.heap import freeze_heap
from server.store import SqliteFile
from server.tools.hosting import SHUTDOWN_WAIT

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1
"""prctl(2): the signal a process gets when its parent dies."""

START_WAIT = 60.0
"""Seconds the workers have to bring their instances back and listen."""

SHARED_OUT = (
    "max_connections",
    "sockets_per_address",
    "connections_per_address",
    "max_tcp",
    "max_instances",
    "instances_per_address",
    "token_failures",
)
"""Caps on what the server holds in all (or one address holds): each worker enforces its share, so the server
as a whole never passes them (one worker may refuse a little before the others are full)."""


def default_workers() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def shared_out(config: Config, workers: int) -> Config:
    """The settings of one worker of `workers`: the caps in SHARED_OUT divided among them (rounded up), and a
    wrong token forgiven on each as often as on the whole before (so N times as seldom)."""
    shares = {name: max(1, math.ceil(getattr(config, name) / workers)) for name in SHARED_OUT}
    return dataclasses.replace(config, token_failure_every=config.token_failure_every * workers, **shares)


class Spec(msgspec.Struct):
    """What one worker is told (its one argument, as JSON)."""

    index: int
    workers: int
    links: str
    host: str
    port: int
    ready: int
    """A pipe's descriptor: written to once the worker listens."""
    starter: int
    """The pid of the process that started the workers."""
    settings: dict[str, Any]
    """The Config, field by field (its clock aside)."""


def _settings(config: Config) -> dict[str, Any]:
    plain = {f.name: getattr(config, f.name) for f in dataclasses.fields(config) if f.name != "clock"}
    if plain["data"] is not None:
        plain["data"] = str(plain["data"])
    return plain


def _config(settings: dict[str, Any]) -> Config:
    given: dict[str, Any] = {name: tuple(v) if isinstance(v, list) else v for name, v in settings.items()}
    if given.get("data") is not None:
        given["data"] = Path(given["data"])
    return Config(**given)


class Workers:
    """The running workers, as their starter sees them."""

    def __init__(self, spawn: Callable[[int], tuple[subprocess.Popen[bytes], int]]) -> None:
        self.spawn = spawn
        """Start worker `index`: its process, and the pipe it says it is ready on."""
        self.processes: list[subprocess.Popen[bytes]] = []
        self.restarted: list[str] = []
        """What became of each worker that died and was started again, in order."""
        self.failed: str | None = None
        """Why the server stopped by itself (a worker died and could not be started again), or None."""


@contextlib.asynccontextmanager
async def serving(
    config: Config, host: str, port: int, workers: int, stop: asyncio.Event
) -> AsyncIterator[tuple[str, Workers]]:
    """Start `workers` workers serving `config` on host:port (0: a free port) and yield (the URL, them) once
    every one listens. One that dies is started again; `stop` is set if it cannot be. They are stopped
    (SIGTERM, then waited for) when the block ends. A data directory already in use raises StoreError before
    any starts."""
    # SQLite's locks, for the workers to inherit; a PostgreSQL store has leases of its own instead.
    locks = SqliteFile.locks_to_share(config.data) if config.data is not None and not config.store else None
    links = Path(tempfile.mkdtemp(prefix="curveship-workers-"))  # 0700: the links are this user's alone
    held: socket.socket | None = None
    settings: dict[str, Any] = {}

    def spawn(index: int) -> tuple[subprocess.Popen[bytes], int]:
        readable, writable = os.pipe()
        spec = Spec(index, workers, str(links), host, port, writable, os.getpid(), settings)
        process = subprocess.Popen(
            [sys.executable, "-m", "server.cluster.workers", msgspec.json.encode(spec).decode()],
            pass_fds=(writable, *(locks or ())),
        )
        os.close(writable)
        return process, readable

    running = Workers(spawn)
    try:
        if port == 0:
            # A port for all of them: held (bound, not listening) in the same SO_REUSEPORT group until they
            # listen on it, so nothing else takes it meanwhile.
            held = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
            held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            held.bind((host, 0))
            port = held.getsockname()[1]
        settings.update(_settings(dataclasses.replace(shared_out(config, workers), store_locks=locks)))
        pipes = []
        for index in range(workers):
            process, readable = spawn(index)
            running.processes.append(process)
            pipes.append(readable)
        try:
            await asyncio.wait_for(asyncio.gather(*(asyncio.to_thread(_ready, pipe) for pipe in pipes)), START_WAIT)
        except (TimeoutError, OSError) as error:
            raise OSError(f"the workers did not all start ({error or 'in time'})") from None
        finally:
            for pipe in pipes:
                os.close(pipe)
        if held is not None:
            held.close()
            held = None
        watching = asyncio.create_task(_watch(running, stop))
        try:
            yield f"http://{f'[{host}]' if ':' in host else host}:{port}", running
        finally:
            watching.cancel()
    finally:
        if held is not None:
            held.close()
        await asyncio.to_thread(_stop_all, running.processes)
        shutil.rmtree(links, ignore_errors=True)
        for lock in locks or ():
            os.close(lock)


def _ready(pipe: int) -> None:
    if not os.read(pipe, 16):
        raise OSError("a worker stopped while starting (its log says why)")


async def _watch(running: Workers, stop: asyncio.Event) -> None:
    """A worker that dies is started again, on the same port, holding the same share: its instances come back
    from the store on their first use, and the sockets the others had bound to its sessions are closed (1012)
    for their clients to resume. One that cannot start again stops the server."""
    while not stop.is_set():  # once stopping (Ctrl-C reaches the workers too), a worker that ends is no failure
        for index, process in enumerate(running.processes):
            code = process.poll()
            if code is None or stop.is_set():
                continue
            log.error("worker %d stopped (exit status %s): starting it again", index, code)
            again, pipe = running.spawn(index)
            running.processes[index] = again
            try:
                await asyncio.wait_for(asyncio.to_thread(_ready, pipe), START_WAIT)
            except (TimeoutError, OSError) as error:
                running.failed = f"worker {index} stopped (exit status {code}) and could not start again ({error})"
                log.error("%s: stopping the others", running.failed)
                stop.set()
                return
            finally:
                os.close(pipe)
            running.restarted.append(f"worker {index} stopped (exit status {code}) and was started again")
            log.warning("%s", running.restarted[-1])
        await asyncio.sleep(0.5)


def _stop_all(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=SHUTDOWN_WAIT + 10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# -- one worker ---------------------------------------------------------------------------------------------


async def work(spec: Spec) -> None:
    """Serve as worker `spec.index` until SIGTERM or SIGINT."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    app = create_app(_config(spec.settings))
    handoff = None
    if not spec.settings.get("bus"):  # with a bus, each worker is a node of the cluster (create_app made it one)
        install(app, UnixBus(Path(spec.links), spec.index, spec.workers), Hashed(spec.index, spec.workers))
        handoff = Handoff(Path(spec.links), spec.index, spec.workers, app[GUARD])
    async with listen(app, spec.host, spec.port, reuse_port=True, shutdown_timeout=SHUTDOWN_WAIT):
        if handoff is not None:
            handoff.start()
        freeze_heap()  # started: what is there now stays as long as the worker
        os.write(spec.ready, b"ready\n")
        os.close(spec.ready)
        try:
            await stop.wait()
        finally:
            if handoff is not None:
                handoff.close()


def _die_with(starter: int) -> None:
    """Be killed the moment the starter is (Linux): a starter killed outright (kill -9, a crash) must not
    leave its workers holding the port and the store's locks, or the server could not be started again."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != starter:  # it died before that was asked for
        os._exit(1)


def main(argv: list[str]) -> int:
    spec = msgspec.json.decode(argv[1], type=Spec)
    _die_with(spec.starter)
    logging.basicConfig(
        level=logging.INFO, format=f"%(asctime)s %(levelname)s worker {spec.index} %(name)s: %(message)s"
    )
    asyncio.run(work(spec))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
