"""The bot's client: typed calls to a Curveship server, async (`AsyncBot`) and sync (`Bot`, on a loop thread).

A bot connects to a server by URL, or (no URL) starts one in this process on a free loopback port, as
`curveship play` does, holding its author token. Every call returns the protocol's own struct
(`protocol.messages`) and raises `CallError` with the protocol's code; the WebSocket reconnects and resumes by
itself (`clients/connection.py`). Notifications (narration of others' turns, presence, endings) come as an
async iterator from `AsyncBot.notifications()`, or to a callback given to `Bot`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import secrets
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, Literal, TypeVar

from clients.connection import Call, CallError, Connection, ConnectionLost, NotSent, Status
from protocol import messages as m
from protocol.spin import Spin

__all__ = ["AsyncBot", "Bot", "Call", "CallError", "ConnectionLost", "NotSent", "Status"]

log = logging.getLogger(__name__)

T = TypeVar("T")

Transport = Literal["websocket", "http"]

Notified = Callable[[m.Result], None]
"""Hears one notification (Narration, Presence or Ended), on the sync bot's loop thread."""


class AsyncBot:
    """One bot's link to a server and its session there. `async with AsyncBot(url) as bot:` (or no URL: a
    server of its own in this process), then `await bot.play("cloak")`, `await bot.command("w")`…

    `author`: act as an author (any actor, any focalizer, worlds by path): with the in-process server the
    bot holds its token; with a URL, give `author_token`."""

    def __init__(
        self,
        url: str | None = None,
        *,
        author: bool = False,
        author_token: str | None = None,
        transport: Transport = "websocket",
        outage: float = 30.0,
        on_status: Callable[[Status], None] | None = None,
    ) -> None:
        self.url = url.rstrip("/") if url else None
        self.author = author
        self.author_token = author_token
        self.transport: Transport = transport
        self.outage = outage
        self.on_status = on_status
        self.joined: m.JoinResult | None = None
        """What the last join said (the opening), None before any."""
        self.instance: str | None = None
        self.actor: str | None = None
        self._stack = contextlib.AsyncExitStack()
        self._conn: Connection | None = None

    # -- opening and closing ------------------------------------------------------------------------------

    async def __aenter__(self) -> AsyncBot:
        await self.open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def open(self) -> None:
        """Reach the server, starting one in this process first when no URL was given."""
        if self.url is None:
            # The server's code is loaded only when it runs here: a bot of a remote server never imports it.
            from server.tools.hosting import hosted, in_process_config

            self.author_token = self.author_token or secrets.token_urlsafe(24)
            self.url = await self._stack.enter_async_context(
                hosted(in_process_config(self.author_token), "127.0.0.1", 0)
            )
        token = self.author_token if self.author else None
        conn = Connection(
            self.url, transport=self.transport, author_token=token, outage=self.outage, on_status=self.on_status
        )
        await self._stack.enter_async_context(conn)
        self._conn = conn

    async def close(self) -> None:
        """Let go of the connection (and stop the in-process server). The session is not left: `leave` first
        to free the actor at once; otherwise the server detaches it after a while."""
        self._conn = None
        await self._stack.aclose()

    @property
    def connection(self) -> Connection:
        """The JSON-RPC connection itself, for calls this class does not wrap."""
        if self._conn is None:
            raise NotSent("the bot is not connected: use `async with AsyncBot(...)` or `await bot.open()`")
        return self._conn

    @property
    def token(self) -> str | None:
        """The session's token (after join, fork or resume): resume it later, or from another connection."""
        return self.connection.token

    # -- the catalogue and instances ----------------------------------------------------------------------

    async def worlds(self) -> list[m.WorldInfo]:
        result: m.WorldsResult = await self.connection.call("worlds")
        return result.worlds

    async def spins(self) -> list[m.SpinInfo]:
        result: m.SpinsResult = await self.connection.call("spins")
        return result.spins

    async def instances(self) -> list[m.InstanceInfo]:
        result: m.InstancesResult = await self.connection.call("instances")
        return result.instances

    async def create(self, world: str, *, seed: int | None = None, spin: m.SpinArgument | None = None) -> str:
        """A new instance of `world` (a name, or for an author the path of a world file): its id."""
        result: m.CreateResult = await self.connection.call("create", world=world, seed=seed, spin=spin)
        return result.instance

    async def join(
        self,
        instance: str,
        *,
        actor: str | None = None,
        name: str | None = None,
        spin: m.SpinArgument | None = None,
    ) -> m.JoinResult:
        """Join an instance as `actor` (the world's default player if None): the opening, as it sees it."""
        joined: m.JoinResult = await self.connection.call("join", instance=instance, actor=actor, name=name, spin=spin)
        self._seated(joined.instance, joined.actor)
        self.joined = joined
        return joined

    async def play(
        self,
        world: str,
        *,
        seed: int | None = None,
        actor: str | None = None,
        name: str | None = None,
        spin: m.SpinArgument | None = None,
    ) -> m.JoinResult:
        """Create an instance of `world` and join it: the opening."""
        instance = await self.create(world, seed=seed)
        return await self.join(instance, actor=actor, name=name, spin=spin)

    async def resume(self, token: str) -> m.ResumeResult:
        """Take a session back by its token (this connection then acts for it)."""
        result: m.ResumeResult = await self.connection.call("resume", token=token)
        self._seated(result.instance, result.actor)
        return result

    async def leave(self) -> None:
        await self.connection.call("leave")
        self.instance = self.actor = None

    async def fork(self) -> m.ForkResult:
        """Copy the instance at its turn into a new one, and play on there; the original stays as it was
        (resume its token to go back)."""
        result: m.ForkResult = await self.connection.call("fork")
        self._seated(result.instance, result.actor)
        return result

    def _seated(self, instance: str, actor: str) -> None:
        self.instance, self.actor = instance, actor

    # -- playing --------------------------------------------------------------------------------------------

    async def command(self, text: str) -> m.Reply:
        """Give the actor a command (or a directive): the reply, told through the session's spin."""
        reply: m.Reply = await self.connection.call("command", text=text)
        return reply

    async def narrate(self, spin: m.SpinArgument | None = None, window: m.Window | None = None) -> m.Reply:
        """Retell what the actor knows (all of it, the last turn, or N turns), under the session's spin or another."""
        reply: m.Reply = await self.connection.call("narrate", spin=spin, window=window)
        return reply

    async def spin(self, **settings: Any) -> Spin:
        """The session's spin, after setting `settings` (none: just read it)."""
        result: m.SpinResult = await self.connection.call("spin", set=settings or None)
        return result.spin

    async def concept(self, actor: str | None = None) -> m.ConceptResult:
        """What an actor (the session's own, by default) knows of the world, as a tree."""
        result: m.ConceptResult = await self.connection.call("concept", actor=actor)
        return result

    async def world(self) -> m.WorldResult:
        """The true world (authors only)."""
        result: m.WorldResult = await self.connection.call("world")
        return result

    async def state(self) -> m.StateResult:
        """Where things stand: room, inventory, turn, score, moves, whether it ended, the world's state hash."""
        result: m.StateResult = await self.connection.call("state")
        return result

    async def actions(self) -> list[str]:
        """Commands that would succeed now for the actor (tried, not done)."""
        result: m.ActionsResult = await self.connection.call("actions")
        return result.commands

    async def save(self, name: str) -> m.SaveResult:
        result: m.SaveResult = await self.connection.call("save", name=name)
        return result

    async def restore(self, name: str) -> m.SaveResult:
        result: m.SaveResult = await self.connection.call("restore", name=name)
        return result

    async def undo(self) -> m.Reply:
        reply: m.Reply = await self.connection.call("undo")
        return reply

    async def restart(self) -> m.Reply:
        reply: m.Reply = await self.connection.call("restart")
        return reply

    async def realize(self, template: str, spin: m.SpinArgument | None = None) -> str:
        result: m.RealizeResult = await self.connection.call("realize", template=template, spin=spin)
        return result.text

    async def batch(self, calls: Sequence[Call]) -> list[Any]:
        """Several calls in one message, handled in order (one round trip): each result, or its CallError. Where
        a join, resume, fork or leave among them takes the bot to another session, it is followed there."""
        answers = await self.connection.batch(calls)
        for (method, _params), answer in zip(calls, answers, strict=True):
            if isinstance(answer, CallError):
                continue
            if method == "leave":
                self.instance = self.actor = None
            elif isinstance(answer, m.JoinResult | m.ForkResult | m.ResumeResult):
                self._seated(answer.instance, answer.actor)
        return answers

    def notifications(self) -> AsyncIterator[m.Result]:
        """Narration of what others did that the actor perceived, presence, and endings, as they come."""
        return self.connection.notifications()

    def arrived(self) -> list[m.Result]:
        """The notifications that have come and not been read, at once. After any call's answer, every
        notification the server sent before it is among them (one socket keeps its messages in order)."""
        return self.connection.arrived()


class Bot:
    """The same bot, for code that is not async: every call runs on an event loop in a thread of its own, and
    waits for its answer. `with Bot() as bot: bot.play("cloak"); bot.command("w")`. `on_notification` hears
    each notification, on that thread."""

    def __init__(
        self,
        url: str | None = None,
        *,
        on_notification: Notified | None = None,
        timeout: float = 60.0,
        **options: Any,
    ) -> None:
        self.timeout = timeout
        """Seconds a call may take before it raises TimeoutError."""
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="curveship-bot", daemon=True)
        self._thread.start()
        self.bot = AsyncBot(url, **options)
        """The async bot every call goes through (on the loop thread)."""
        self._listening: concurrent.futures.Future[None] | None = None
        try:
            self._run(self.bot.open())
        except BaseException:
            self._stop()
            raise
        if on_notification is not None:
            self._listening = asyncio.run_coroutine_threadsafe(self._listen(on_notification), self._loop)

    def __enter__(self) -> Bot:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (and the in-process server), then stop the loop thread."""
        if self._loop.is_closed():
            return
        try:
            self._run(self.bot.close())
        finally:
            self._stop()

    def _stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=self.timeout)
        self._loop.close()

    def run(self, work: Awaitable[T]) -> T:
        """Run `work` on the bot's loop and wait for it: for async code (other AsyncBots) beside this bot's."""
        return self._run(work)

    def _run(self, work: Awaitable[T]) -> T:
        async def run() -> T:
            return await work

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(self.timeout)

    async def _listen(self, heard: Notified) -> None:
        async for note in self.bot.notifications():
            try:
                heard(note)
            except Exception:  # a failing callback must not stop the notifications
                log.exception("a notification callback failed")

    # -- the same calls, waited for -------------------------------------------------------------------------

    @property
    def url(self) -> str | None:
        return self.bot.url

    @property
    def token(self) -> str | None:
        return self.bot.token

    @property
    def instance(self) -> str | None:
        return self.bot.instance

    @property
    def actor(self) -> str | None:
        return self.bot.actor

    @property
    def joined(self) -> m.JoinResult | None:
        return self.bot.joined

    def worlds(self) -> list[m.WorldInfo]:
        return self._run(self.bot.worlds())

    def spins(self) -> list[m.SpinInfo]:
        return self._run(self.bot.spins())

    def instances(self) -> list[m.InstanceInfo]:
        return self._run(self.bot.instances())

    def create(self, world: str, *, seed: int | None = None, spin: m.SpinArgument | None = None) -> str:
        return self._run(self.bot.create(world, seed=seed, spin=spin))

    def join(
        self, instance: str, *, actor: str | None = None, name: str | None = None, spin: m.SpinArgument | None = None
    ) -> m.JoinResult:
        return self._run(self.bot.join(instance, actor=actor, name=name, spin=spin))

    def play(
        self,
        world: str,
        *,
        seed: int | None = None,
        actor: str | None = None,
        name: str | None = None,
        spin: m.SpinArgument | None = None,
    ) -> m.JoinResult:
        return self._run(self.bot.play(world, seed=seed, actor=actor, name=name, spin=spin))

    def resume(self, token: str) -> m.ResumeResult:
        return self._run(self.bot.resume(token))

    def leave(self) -> None:
        self._run(self.bot.leave())

    def fork(self) -> m.ForkResult:
        return self._run(self.bot.fork())

    def command(self, text: str) -> m.Reply:
        return self._run(self.bot.command(text))

    def narrate(self, spin: m.SpinArgument | None = None, window: m.Window | None = None) -> m.Reply:
        return self._run(self.bot.narrate(spin, window))

    def spin(self, **settings: Any) -> Spin:
        return self._run(self.bot.spin(**settings))

    def concept(self, actor: str | None = None) -> m.ConceptResult:
        return self._run(self.bot.concept(actor))

    def world(self) -> m.WorldResult:
        return self._run(self.bot.world())

    def state(self) -> m.StateResult:
        return self._run(self.bot.state())

    def actions(self) -> list[str]:
        return self._run(self.bot.actions())

    def save(self, name: str) -> m.SaveResult:
        return self._run(self.bot.save(name))

    def restore(self, name: str) -> m.SaveResult:
        return self._run(self.bot.restore(name))

    def undo(self) -> m.Reply:
        return self._run(self.bot.undo())

    def restart(self) -> m.Reply:
        return self._run(self.bot.restart())

    def realize(self, template: str, spin: m.SpinArgument | None = None) -> str:
        return self._run(self.bot.realize(template, spin))

    def batch(self, calls: Sequence[Call]) -> list[Any]:
        return self._run(self.bot.batch(calls))
