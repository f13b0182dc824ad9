"""`curveship serve`: the server on a socket until Ctrl-C (or SIGTERM), then a graceful shutdown."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import secrets
import signal
import sys
from pathlib import Path

from server.app import Config, freeze_heap
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
            allowed_hosts=tuple(args.allow_host),
            allowed_origins=tuple(args.allow_origin),
            trusted_proxies=tuple(args.trusted_proxy),
        )
    except ValueError as error:
        print(f"curveship: $CURVESHIP_AUTHOR_TOKEN: {error}", file=sys.stderr)
        return 1
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # not on Windows: Ctrl-C still ends asyncio.run there
            loop.add_signal_handler(signum, stop.set)
    try:
        async with hosted(config, args.host, args.port) as url:
            freeze_heap()  # started: what is there now stays as long as the server
            print(f"listening on {url} (JSON-RPC: POST {url}/rpc, WebSocket {url}/ws)")
            print(f"to play in a browser, open {url}/")
            print(f"author token: {token}")
            if data is not None and "CURVESHIP_AUTHOR_TOKEN" not in os.environ:
                print(f"(kept in {data / TOKEN_FILE}: the same at every start)")
            if args.author:
                print("connections from this machine act as authors (--author)")
            if args.store:
                print(f"instances are kept in {redacted(args.store)}")
            elif data is None:
                print("instances are kept in memory and lost when the server stops (--data DIR keeps them)")
            else:
                print(f"instances are kept in {data}")
            print("Ctrl-C stops the server.", flush=True)
            await stop.wait()
            print("stopping…", flush=True)
    except StoreError as error:
        print(f"curveship: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"curveship: cannot listen on {args.host}:{args.port}: {error.strerror or error}", file=sys.stderr)
        return 1
    print("stopped", flush=True)
    return 0
