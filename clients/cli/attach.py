"""A reader's way into a story for tell and play: a server (in this process, or --server), an instance
(created, or --instance), a session joined with the command line's spins.

In order:
1. The server: by default one made inside this process and reached with no socket (the same JSON-RPC
   messages, handed to its handler directly), whose author token this process holds; with --server, the
   one at that URL (--author-token to hold its author token).
2. The instance: `create`d (world, seed, and the named spins, as the story's own spin) by the author token's
   holder, in a call of its own (over HTTP to a --server), so that even a --player may have a world file
   run; or the one --instance names.
3. A connection that streams (a WebSocket to a --server), like every other client's, joined as --actor
   and --name, an author's session
   unless --player, with the key=value settings as its spin. Joining an existing instance, the named spins
   go to `join` instead, and settings given with them are handed on to be applied after joining.
   With --resume TOKEN (play, with --server) there is no 2: the session the token names is taken back,
   its instance and actor its own, and the last turn is told again as the opening.
4. Playing on a --server, one line (stderr) says how to take the session back should play be cut off.
5. At the end, however it comes — the end of input, `quit`, an error, SIGTERM or SIGHUP (the terminal
   closed) — the session is left, best effort and quickly, so its actor is free for someone else. A signal
   cancels what is under way; once all is closed the process ends by that signal.

A world named by the path of a file here is sent by its absolute path: the server reads it on its own
machine, from its own working directory, so that is where a relative path would be looked for.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import os
import secrets
import signal
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from clients.cli.arguments import BACKOFF
from clients.connection import CallError, Connection, ConnectionLost, Kind, Retrying, Status
from protocol import messages as m
from protocol.errors import Code
from protocol.spin import Spin, SpinPart, apply, spin_argument

LEAVING = 2.0
"""Seconds to wait for `leave` at the end (the server may be gone; it then lets the actor go by itself)."""
ENDING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
"""Signals that end play as leaving does (SIGHUP: the terminal is gone; SIGTERM: asked to stop)."""


@dataclass(frozen=True, slots=True)
class Attached:
    conn: Connection
    joined: m.JoinResult
    later: list[SpinPart]
    """Spin settings still to apply over the session's spin (a resumed session's, given with --resume)."""
    created: bool
    """Whether the instance was created for this reader (not joined by --instance)."""


def spin_words(words: list[str]) -> list[SpinPart]:
    """The command line's spin words as the protocol's spin argument, by the contract's one reading. The
    settings are checked here, where they were typed, so a bad one is named before any server starts (the
    server checks them again, and what depends on the world, like whether a narrator is in it)."""
    parts = spin_argument(words)
    for part in parts:
        if isinstance(part, dict):
            apply(Spin(), part, source="settings")
    return parts


@contextlib.asynccontextmanager
async def attached(
    args: argparse.Namespace,
    on_status: Callable[[Status], None],
    on_retry: Callable[[Retrying], None] | None = None,
) -> AsyncIterator[Attached]:
    parts = spin_words(args.spin)  # SpinError (a usage error) before anything starts
    resume = getattr(args, "resume", None)
    if resume is not None:
        _check_resuming(args, parts)
    world = _world(args.world)
    async with contextlib.AsyncExitStack() as stack:
        streaming: Kind
        desking: Kind
        if args.server:
            url, owner = args.server.rstrip("/"), args.author_token
            streaming, desking = "websocket", "http"
        else:
            from clients.transports.local import reaching
            from server.local import local_server  # the server's code, only when it runs here

            owner = secrets.token_urlsafe(24)
            here = await stack.enter_async_context(local_server(owner))
            url, streaming = "in-process", reaching(here)
            desking = streaming
        backoff = getattr(args, "retry", BACKOFF)  # play's --retry (tell has none)
        streams = functools.partial(
            Connection, transport=streaming, on_status=on_status, on_retry=on_retry, backoff=backoff
        )
        if resume is not None:
            conn = await stack.enter_async_context(streams(url))
            joined = await _resumed(conn, url, resume, world, desking)
            later = parts
        else:
            later = []
            if args.instance:
                instance, asked = args.instance, parts  # the session's own spin, over the instance's
                if world:
                    await _check_world(url, instance, world, desking)
            else:
                async with Connection(url, transport=desking, author_token=owner) as desk:
                    created = await desk.call("create", world=world, seed=args.seed, spin=parts or None)
                instance, asked = created.instance, []  # the story's own spin, which the session starts from
            author = None if args.player else owner
            conn = await stack.enter_async_context(streams(url, author_token=author))
            joined = await conn.call("join", instance=instance, actor=args.actor, name=args.name, spin=asked or None)
        if args.server and hasattr(args, "resume"):  # play: a session on a server outlives this process
            print(f"[if play is cut off, --resume={joined.token} takes this session back]", file=sys.stderr)
        leaving = Leaving(conn)
        with leaving.on_signals():
            try:
                yield Attached(conn, joined, later, created=not args.instance and resume is None)
            except BaseException:
                if leaving.signalled is None:
                    raise
                # Ended by the signal: whatever the way out raised (a terminal that is gone) says nothing more.
                leaving.cancelled()
            finally:
                leaving.playing = False
                await leaving.leave()
    if leaving.signalled is not None:
        leaving.die()


class Leaving:
    """Leaving the session once, best effort and quickly: at the end, or as soon as a signal ends play (then
    the play under way is cancelled too, and once all is closed the process ends by the signal)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.signalled: int | None = None
        self.playing = True
        """Whether play is under way (what a signal cancels); not once it is ending by itself."""
        self._task = asyncio.current_task()
        self._leaving: asyncio.Task[None] | None = None

    async def leave(self) -> None:
        """Leave, or wait for the leaving under way: the connection stays open until the server answers."""
        if self._leaving is None:
            self._leaving = asyncio.create_task(self._leave())
        await asyncio.shield(self._leaving)

    async def _leave(self) -> None:
        with contextlib.suppress(CallError, ConnectionLost, TimeoutError):
            await asyncio.wait_for(self.conn.call("leave"), LEAVING)

    @contextlib.contextmanager
    def on_signals(self) -> Iterator[None]:
        loop = asyncio.get_running_loop()
        caught = []
        for signum in ENDING_SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # no such handling here
                loop.add_signal_handler(signum, self._caught, signum)
                caught.append(signum)
        try:
            yield
        finally:
            for signum in caught:
                loop.remove_signal_handler(signum)

    def _caught(self, signum: int) -> None:
        if self.signalled is not None:
            return
        self.signalled = signum
        if self._leaving is None:
            self._leaving = asyncio.get_running_loop().create_task(self._leave())  # at once, whatever play does
        if self.playing and self._task is not None:
            self._task.cancel()

    def cancelled(self) -> None:
        """The cancellation a signal asked for has been taken: what follows (leaving, closing) is not cancelled."""
        if self._task is not None and self._task.cancelling():
            self._task.uncancel()

    def die(self) -> None:
        """End the process by the signal that ended play, as if it had not been caught."""
        assert self.signalled is not None
        signal.signal(self.signalled, signal.SIG_DFL)
        os.kill(os.getpid(), self.signalled)


def _world(world: str | None) -> str | None:
    """A world as the server should be told it: the path of a file here made absolute (the server resolves a
    relative one in its own working directory); a name as it is."""
    if world is None or not (world.endswith(".py") or os.sep in world or "/" in world):
        return world
    path = Path(world).expanduser()
    return str(path.resolve()) if path.is_file() else world


def _check_resuming(args: argparse.Namespace, parts: list[SpinPart]) -> None:
    """--resume takes back a session as it was: where it plays and as whom are the session's own."""
    if not args.server:
        raise CallError(Code.INVALID_PARAMS, "--resume takes back a session on a server: give --server URL too")
    if args.instance or args.actor:
        raise CallError(Code.INVALID_PARAMS, "--resume takes back a session whose instance and actor are its own")
    if any(isinstance(part, str) for part in parts):
        raise CallError(Code.INVALID_PARAMS, "with --resume, change the spin with key=value settings (or :spin)")


async def _resumed(conn: Connection, url: str, token: str, world: str | None, desking: Kind) -> m.JoinResult:
    """The session a token names, taken back; as an opening, its last turn told again."""
    try:
        resumed: m.ResumeResult = await conn.call("resume", token=token)
    except CallError as error:
        why = "it was left, or has expired" if error.code == Code.NO_SESSION else error.message
        raise CallError(error.code, f"cannot resume that session: {why}", error.data) from None
    if world is not None:
        await _check_world(url, resumed.instance, world, desking)
    print(f"[resumed: {resumed.actor} in instance {resumed.instance}, at turn {resumed.turn}]", file=sys.stderr)
    told: m.Reply = await conn.call("narrate", window="turn")
    return m.JoinResult(
        token=token,
        instance=resumed.instance,
        actor=resumed.actor,
        turn=resumed.turn,
        text=told.text,
        blocks=told.blocks,
    )


async def _check_world(url: str, instance: str, world: str, desking: Kind) -> None:
    async with Connection(url, transport=desking) as desk:
        found = await desk.call("instances")
    playing = next((each.world for each in found.instances if each.instance == instance), None)
    if playing is not None and playing != world:
        raise CallError(Code.UNKNOWN, f"instance {instance} plays {playing}, not {world}", {"field": "instance"})
