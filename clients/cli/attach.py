"""A reader's way into a story for tell and play: a server (in this process, or --server), an instance
(created, or --instance), a session joined with the command line's spins.

In order:
1. The server: by default the app started inside this process on a free loopback port, whose author token
   this process holds; with --server, the one at that URL (--author-token to hold its author token).
2. The instance: `create`d (world, seed, and the named spins, as the story's own spin) by the author token's
   holder, over HTTP, so that even a --player may have a world file run; or the one --instance names.
3. A WebSocket connection, like every other client's, joined as --actor and --name, an author's session
   unless --player, with the key=value settings as its spin. Joining an existing instance, the named spins
   go to `join` instead, and settings given with them are handed on to be applied after joining.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from clients.connection import CallError, Connection, ConnectionLost, Status
from protocol import messages as m
from protocol.errors import Code
from server.engine.spin import Spin, apply, parse_value

LEAVING = 2.0
"""Seconds to wait for `leave` at the end (the server may be gone; it then lets the actor go by itself)."""


@dataclass(frozen=True, slots=True)
class Attached:
    conn: Connection
    joined: m.JoinResult
    settings: dict[str, Any]
    """key=value settings still to apply over the session's spin."""
    created: bool
    """Whether the instance was created for this reader (not joined by --instance)."""


def spin_words(words: list[str]) -> tuple[list[str], dict[str, Any]]:
    """Named spins (or spin files) in order, and key=value settings typed as their fields want them. The
    settings are checked here, where they were typed, so a bad one is named before any server starts (the
    server checks them again, and what depends on the world, like whether a narrator is in it)."""
    names = [word for word in words if "=" not in word]
    settings: dict[str, Any] = {}
    for word in words:
        if "=" in word:
            key, _, value = word.partition("=")
            settings[key.strip()] = parse_value(key.strip(), value)
    apply(Spin(), settings, source="settings")
    return names, settings


@contextlib.asynccontextmanager
async def attached(args: argparse.Namespace, on_status: Callable[[Status], None]) -> AsyncIterator[Attached]:
    names, settings = spin_words(args.spin)  # SpinError (a usage error) before anything starts
    async with contextlib.AsyncExitStack() as stack:
        if args.server:
            url, owner = args.server.rstrip("/"), args.author_token
        else:
            from clients.cli.hosting import hosted, in_process_config  # the server's code, only when it runs here

            owner = secrets.token_urlsafe(24)
            url = await stack.enter_async_context(hosted(in_process_config(owner), "127.0.0.1", 0))
        if args.instance:
            instance = args.instance
            if args.world:
                await _check_world(url, instance, args.world)
            asked, later = (names, settings) if names else (settings, {})
        else:
            async with Connection(url, transport="http", author_token=owner) as desk:
                created = await desk.call("create", world=args.world, seed=args.seed, spin=names or None)
            instance, asked, later = created.instance, settings, {}
        author = None if args.player else owner
        conn = await stack.enter_async_context(Connection(url, author_token=author, on_status=on_status))
        joined = await conn.call("join", instance=instance, actor=args.actor, name=args.name, spin=asked or None)
        try:
            yield Attached(conn, joined, later, created=not args.instance)
        finally:
            with contextlib.suppress(CallError, ConnectionLost, TimeoutError):
                await asyncio.wait_for(conn.call("leave"), LEAVING)


async def _check_world(url: str, instance: str, world: str) -> None:
    async with Connection(url, transport="http") as desk:
        found = await desk.call("instances")
    playing = next((each.world for each in found.instances if each.instance == instance), None)
    if playing is not None and playing != world:
        raise CallError(Code.UNKNOWN, f"instance {instance} plays {playing}, not {world}", {"field": "instance"})
