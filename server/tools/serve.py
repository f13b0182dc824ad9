"""`curveship serve`: the server on a socket until Ctrl-C (or SIGTERM), then a graceful shutdown."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import os
import secrets
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from server.app import Config
from server.cluster.workers import Workers, default_workers, serving
from server.heap import freeze_heap
from server.stores import StoreError
from server.stores.records import redacted
from server.tools.hosting import hosted

TOKEN_FILE = "author-token"


def author_token(data: Path | None) -> str:
    """$CURVESHIP_AUTHOR_TOKEN if set; else, with a data directory, the token kept there (made on the first
    start, readable by its owner alone), so authors' scripts and sessions keep working across restarts; else a
    new one each start."""
    given = os.environ.get("CURVESHIP_AUTHOR_TOKEN", "").strip()
    if given:
        return given
    if data is None:
        return secrets.token_urlsafe(24)
    path = data / TOKEN_FILE
    if path.is_file():
        kept = path.read_text(encoding="utf-8").strip()
        if kept:
            return kept
    data.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(24)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(token + "\n")
    return token


def run_serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return asyncio.run(_serve(args))


async def _serve(args: argparse.Namespace) -> int:
    data = Path(args.data) if args.data else None
    if data is not None and data.exists() and not data.is_dir():
        print(f"curveship: --data {data}: not a directory", file=sys.stderr)
        return 1
    try:
        token = author_token(data)
    except OSError as error:
        print(f"curveship: {data}: cannot keep the author token there ({error.strerror or error})", file=sys.stderr)
        return 1
    try:
        config = Config(
            author_token=token,
            author_on_loopback=args.author,
            data=data,
            store=args.store,
            bus=args.bus,
            allowed_hosts=tuple(args.allow_host),
            allowed_origins=tuple(args.allow_origin),
            trusted_proxies=tuple(args.trusted_proxy),
        )
    except ValueError as error:
        print(f"curveship: $CURVESHIP_AUTHOR_TOKEN: {error}", file=sys.stderr)
        return 1
    # Every number among the settings is a limit `serve` takes on its command line, by the same name.
    limits = {f.name: getattr(args, f.name, None) for f in dataclasses.fields(Config) if f.type in ("int", "float")}
    wrong = [name for name, value in limits.items() if isinstance(value, int | float) and not value > 0]
    if wrong:
        print(f"curveship: --{wrong[0].replace('_', '-')} must be more than 0", file=sys.stderr)
        return 1
    config = dataclasses.replace(config, **{name: value for name, value in limits.items() if value is not None})
    workers = args.workers if getattr(args, "workers", None) is not None else default_workers()
    if workers < 1:
        print("curveship: --workers must be at least 1", file=sys.stderr)
        return 1
    if args.bus and not args.store:
        print("curveship: --bus needs --store postgresql://…: a cluster's nodes share one database", file=sys.stderr)
        return 1
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # not on Windows: Ctrl-C still ends asyncio.run there
            loop.add_signal_handler(signum, stop.set)
    failed = None
    try:
        async with _serving(config, args.host, args.port, workers, stop) as (url, running):
            print(f"listening on {url} (JSON-RPC: POST {url}/rpc, WebSocket {url}/ws)")
            if running is not None:
                shared = "each a node of the cluster" if args.bus else "each holding a share of the instances"
                print(f"{workers} worker processes share the port, {shared}")
            print(f"to play in a browser, open {url}/")
            print(f"author token: {token}")
            if data is not None and "CURVESHIP_AUTHOR_TOKEN" not in os.environ:
                print(f"(kept in {data / TOKEN_FILE}: the same at every start)")
            if args.author:
                print("connections from this machine act as authors (--author)")
            if args.bus:
                print(f"one node of the cluster on {redacted(args.bus)} (each answer names its node)")
            if args.store:
                print(f"instances are kept in {redacted(args.store)}")
            elif data is None:
                print("instances are kept in memory and lost when the server stops (--data DIR keeps them)")
            else:
                print(f"instances are kept in {data}")
            print("Ctrl-C stops the server.", flush=True)
            await stop.wait()
            failed = running.failed if running is not None else None
            print("stopping…", flush=True)
    except StoreError as error:
        print(f"curveship: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"curveship: cannot listen on {args.host}:{args.port}: {error.strerror or error}", file=sys.stderr)
        return 1
    if failed:
        print(f"curveship: {failed}", file=sys.stderr)
        return 1
    print("stopped", flush=True)
    return 0


@contextlib.asynccontextmanager
async def _serving(
    config: Config, host: str, port: int, workers: int, stop: asyncio.Event
) -> AsyncIterator[tuple[str, Workers | None]]:
    """One process (today's server), or `workers` of them sharing the port (server/cluster/workers.py)."""
    if workers == 1:
        async with hosted(config, host, port) as url:
            freeze_heap()  # started: what is there now stays as long as the server
            yield url, None
        return
    async with serving(config, host, port, workers, stop) as (url, running):
        yield url, running
