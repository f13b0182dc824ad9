"""`curveship serve`: the server on a socket until Ctrl-C (or SIGTERM), then a graceful shutdown."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import secrets
import signal
import sys
from pathlib import Path

from clients.cli.hosting import hosted
from server.app import Config
from server.store import StoreError


def run_serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return asyncio.run(_serve(args))


async def _serve(args: argparse.Namespace) -> int:
    token = secrets.token_urlsafe(24)
    data = Path(args.data) if args.data else None
    config = Config(author_token=token, author_on_loopback=args.author, data=data)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # not on Windows: Ctrl-C still ends asyncio.run there
            loop.add_signal_handler(signum, stop.set)
    try:
        async with hosted(config, args.host, args.port) as url:
            print(f"listening on {url} (JSON-RPC: POST {url}/rpc, WebSocket {url}/ws)")
            print(f"author token: {token}")
            if args.author:
                print("connections from this machine act as authors (--author)")
            if data is None:
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
