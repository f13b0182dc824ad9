"""The JSON-RPC client every Python client uses (the terminal, bots, tests): typed calls, notifications, resume.

A call, in order:
1. While the link is down (a WebSocket reconnecting) the call waits: for as long as it takes by default (a
   person at a prompt keeps their line through any outage, and Ctrl-C still leaves), or at most `outage`
   seconds when one is given, then fails with NotSent (a ConnectionLost that says the call never went
   out, so it took no effect).
2. It takes the next id and a future, and its message goes out over the transport.
3. Its answer, matched by id, settles the future: the result decoded into the contract's struct, or a
   CallError with the protocol's code. An error without an id (the server could not read the message)
   settles every call of the oldest message still unanswered, since a socket's messages are answered in order.
4. `join` (and `fork`, which plays on in a copy) keeps the session's token, for HTTP's bearer and for
   resuming; `resume` keeps the one it was given; `leave` forgets it. Each keeps the instance too: a
   WebSocket names it in its URL when it opens (`/ws?instance=ID`), so that a server of several parts, or
   a proxy, puts the socket where that instance is held. `instance=` names it before the first join.

When a WebSocket drops: calls still waiting for answers fail with ConnectionLost (they may or may not have
taken effect); the socket is opened again with backoff and the session resumed with the last sequence
number seen (`seq`, of any reply or notification), so the server sends again what was missed: its
notifications, and the replies the drop lost (as LostReply), each once and in order among the rest; when it
no longer holds them all, the turns missed are retold (`narrate`) and that Reply comes among the
notifications. Then the calls made meanwhile go through. `on_status` hears RECONNECTING, then RESUMED (or
SESSION_LOST when the server no longer knows the token); `on_retry` hears each try that found no server, and
when the next one is. Reopening never gives up: only closing the connection (Ctrl-C or Ctrl-D, for a person)
ends it.

A call answered -32008 (the part of a server of several that holds its instance cannot be reached right now)
is treated as one made while the link is down: made again after a doubling wait, told to `on_retry`, for as
long as calls wait for the link (`outage`, if given; then its CallError is raised) — when it never reached
that part, or changes nothing. One that reached it and may have been done is the caller's to judge, as with a
drop. A resume answered so, on reopening, is a try that failed: the session is kept and tried again.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import itertools
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from clients.transports import ConnectionLost, NotSent, Owner, Transport
from protocol import messages as m
from protocol.errors import Code
from protocol.methods import BY_NAME

__all__ = ["CallError", "Connection", "ConnectionLost", "NotSent", "Retrying", "Status"]

log = logging.getLogger(__name__)

Call = tuple[str, Mapping[str, Any]]
"""A method's name and its parameters by name."""

TRY_LIMIT = 10.0
"""Seconds one try to reopen may take: a server that takes the connection but does not answer (stopped, or
swamped) counts as not answering, and is tried again after the next wait."""

Kind = Literal["websocket", "http"] | Callable[[str, Owner], Transport]
"""A transport by name, or what makes one (`clients.transports.local.reaching`, for a server in this process)."""


ASKED_AGAIN = frozenset({"state", "vocabulary", "actions", "concept", "world", "worlds", "spins", "instances"})
"""Calls that change nothing: one the connection lost before its answer is sent again when the connection is
back, where a command's loss is the caller's to judge (it may or may not have been done). So too one answered
-32008 after it reached the part of the server holding its instance."""


def _unreachable(calls: Sequence[Call], answers: list[Any]) -> bool:
    """Whether every call of a message was answered -32008 (the part of the server holding its instance cannot
    be reached right now) and may be made again: it never reached that part (`data.sent` false), or it
    changes nothing."""
    for (method, _), answer in zip(calls, answers, strict=True):
        if not (isinstance(answer, CallError) and answer.code == Code.NODE_UNREACHABLE):
            return False
        sent = answer.data.get("sent", True) if isinstance(answer.data, dict) else True
        if sent and method not in ASKED_AGAIN:
            return False
    return True


class Status(enum.Enum):
    """What became of the link, told to `on_status` listeners."""

    RECONNECTING = "reconnecting"
    """The WebSocket dropped; calls wait while it is opened again."""
    RESUMED = "resumed"
    """The WebSocket is back, and the session (if one was joined) is bound to it again."""
    SESSION_LOST = "session lost"
    """The WebSocket is back, but the server no longer knows the session: calls for it fail with -32002."""


@dataclass(frozen=True, slots=True)
class Retrying:
    """A try to reopen a dropped WebSocket found no server, or a call (or the resume) found the part of the
    server holding its instance unreachable (-32008), told to `on_retry` listeners."""

    tries: int
    """Tries that failed since the link dropped."""
    wait: float
    """Seconds until the next try."""
    at: float
    """When the next try is, on the event loop's clock (`loop.time()`, monotonic)."""


class CallError(Exception):
    """The server answered a call with an error: the protocol's code, its message for people, its data."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code: Code | int = code
        with contextlib.suppress(ValueError):
            self.code = Code(code)
        self.message = message
        self.data = data

    def __repr__(self) -> str:
        return f"CallError({int(self.code)}, {self.message!r}, {self.data!r})"


@dataclass(eq=False, slots=True)
class _Pending:
    method: str
    params: dict[str, Any]
    future: asyncio.Future[Any]


class Connection:
    """One client's link to a server. Use it as `async with Connection(url) as conn:`; then
    `await conn.call("create", world="cloak")`, `await conn.batch([...])`, `async for note in
    conn.notifications()`. `url` is the server's base, like http://127.0.0.1:8765."""

    def __init__(
        self,
        url: str,
        *,
        transport: Kind = "websocket",
        author_token: str | None = None,
        instance: str | None = None,
        on_status: Callable[[Status], None] | None = None,
        on_retry: Callable[[Retrying], None] | None = None,
        outage: float | None = None,
        backoff: tuple[float, float] = (0.05, 2.0),
    ) -> None:
        self.url = url
        self.kind = transport
        self.author_token = author_token
        """Shown to the server until a session is joined, so `join` makes an author's session."""
        self.token: str | None = None
        """The joined session's token."""
        self.instance = instance
        """The instance played in (or about to be joined), named when a WebSocket opens."""
        self.seq = 0
        """The highest sequence number seen of the session's replies and notifications: a notification at or
        below it has been seen already (sent again by a resume) and is dropped."""
        self.turn = 0
        """The latest turn a reply or notification told of: a resume that missed too much retells from here."""
        self.on_status = on_status
        self.on_retry = on_retry
        self.outage = outage
        """How long a call waits for a dropped WebSocket to come back before failing, in seconds; None: until
        it is back (reopening goes on with backoff meanwhile)."""
        self.backoff = backoff
        """The first wait before reopening a dropped WebSocket, and the longest (it doubles after each try that
        fails, up to this)."""
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._unanswered: deque[list[int]] = deque()
        self._notes: asyncio.Queue[m.Result | None] = asyncio.Queue()
        self._up = asyncio.Event()
        self._transport: Transport | None = None
        self._reconnecting: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def up(self) -> bool:
        """Whether calls go out now (False while a dropped WebSocket is being opened again, or once closed)."""
        return self._up.is_set() and not self._closed

    async def __aenter__(self) -> Connection:
        await self.open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- opening and closing -----------------------------------------------------------------------------

    async def open(self) -> None:
        """Reach the server (ConnectionLost when it cannot be reached)."""
        self._transport = _made(self.kind, self.url, self)
        try:
            await self._transport.open()
        except BaseException:
            await self._transport.close()
            raise
        self._up.set()

    async def close(self) -> None:
        """Let go: calls still waiting fail with ConnectionLost, and the notifications end."""
        if self._closed:
            return
        self._closed = True
        if self._reconnecting is not None:
            self._reconnecting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reconnecting
        if self._transport is not None:
            await self._transport.close()
        self._fail_pending("the connection was closed")
        self._up.set()  # wakes calls waiting for the link, which then see it closed
        self._notes.put_nowait(None)

    # -- calling ---------------------------------------------------------------------------------------------

    async def call(self, method: str, /, **params: Any) -> Any:
        """Call one method; its result as the contract's struct (`protocol.methods.BY_NAME[method].result`).
        Parameters given as None are left out. Raises CallError, or ConnectionLost when no answer came."""
        (answer,) = await self._send([(method, params)], batch=False)
        if isinstance(answer, CallError):
            raise answer
        return answer

    async def batch(self, calls: Sequence[Call]) -> list[Any]:
        """Send several calls as one message, handled in order; each one's result or CallError, in order."""
        if not calls:
            return []
        return await self._send(calls, batch=True)

    async def notifications(self) -> AsyncIterator[m.Result]:
        """The server's notifications as they arrive (`protocol.messages.NOTIFICATIONS`: Narration, Presence,
        Ended, and LostReply after a resume), each once, kept from the moment the connection opened; after a
        resume too late for the server to send again what was missed, a Reply: those turns retold. Ends when
        the connection closes. WebSocket only; one reader."""
        if self.kind == "http":
            raise TypeError("notifications come only over a WebSocket")
        while (note := await self._notes.get()) is not None:
            yield note
        self._notes.put_nowait(None)  # for any later reader

    def arrived(self) -> list[m.Result]:
        """The notifications that have arrived and not been read yet, taken at once without waiting (for a reader
        that polls, such as a bot between turns, instead of iterating `notifications`)."""
        found: list[m.Result] = []
        while not self._notes.empty():
            note = self._notes.get_nowait()
            if note is None:  # closed: leave the end for any iterator to see
                self._notes.put_nowait(None)
                break
            found.append(note)
        return found

    async def _send(self, calls: Sequence[Call], *, batch: bool, waits: bool = True) -> list[Any]:
        loop = asyncio.get_running_loop()
        deadline = None if self.outage is None else loop.time() + self.outage
        (backoff, longest), delay, tries = self.backoff, 0.0, 0
        while True:
            if waits:
                await self._wait_until_up(deadline)
            transport = self._transport
            if transport is None or self._closed:
                raise NotSent("the connection is not open")
            ids, futures, data = self._prepare(calls, batch, loop)
            try:
                answer = await transport.send(data)
            except ConnectionLost:
                self._forget(ids)
                if not transport.streams or not waits:
                    raise
                self.dropped()  # the reader may not have noticed yet; wait for the link to come back
                continue
            if not transport.streams:
                self._deliver(answer if answer is not None else [], ids)
                self._fail_unanswered(ids)
            try:
                if all(future.done() for future in futures):  # answered in the sending (a server in this process)
                    answers = [future.result() for future in futures]
                else:
                    answers = list(await asyncio.gather(*futures))
            except ConnectionLost:
                if not (waits and transport.streams and all(method in ASKED_AGAIN for method, _ in calls)):
                    raise
                continue  # lost with the connection, but it changed nothing: asked again once the session is back
            if not (waits and _unreachable(calls, answers)):
                return answers
            # The part of the server holding the instance is away (a worker or node restarting): as when the
            # whole server is, asked again after a wait, for as long as calls wait for the link.
            tries += 1
            delay = backoff if tries == 1 else min(longest, delay * 2)
            if deadline is not None and loop.time() + delay > deadline:
                return answers  # waited long enough: the caller hears why
            self._retried(Retrying(tries, delay, loop.time() + delay))
            await asyncio.sleep(delay)

    async def _wait_until_up(self, deadline: float | None) -> None:
        if not self._up.is_set():
            left = None if deadline is None else max(0.0, deadline - asyncio.get_running_loop().time())
            try:
                await asyncio.wait_for(self._up.wait(), left)
            except TimeoutError:
                raise NotSent(f"no connection to {self.url} for {self.outage:g} s") from None
        if self._closed:
            raise NotSent("the connection is closed")

    def _prepare(
        self, calls: Sequence[Call], batch: bool, loop: asyncio.AbstractEventLoop
    ) -> tuple[list[int], list[asyncio.Future[Any]], bytes]:
        ids, futures, requests = [], [], []
        for method, params in calls:
            given = {name: value for name, value in params.items() if value is not None}
            id_ = next(self._ids)
            future: asyncio.Future[Any] = loop.create_future()
            self._pending[id_] = _Pending(method, given, future)
            ids.append(id_)
            futures.append(future)
            requests.append({"jsonrpc": "2.0", "id": id_, "method": method, "params": given})
        self._unanswered.append(ids)
        return ids, futures, msgspec.json.encode(requests if batch else requests[0])

    def _forget(self, ids: list[int]) -> None:
        for id_ in ids:
            self._pending.pop(id_, None)
        with contextlib.suppress(ValueError):
            self._unanswered.remove(ids)

    # -- answers and notifications (the transport's Owner) ----------------------------------------------------

    def bearer(self) -> str | None:
        return self.token or self.author_token

    def playing(self) -> str | None:
        return self.instance

    def receive(self, message: Any) -> None:
        self._deliver(message, None)

    def _deliver(self, message: Any, sent: list[int] | None) -> None:
        """Settle the calls a message answers; `sent` is the message it answers, when known (HTTP)."""
        if isinstance(message, dict) and "id" not in message and "method" in message:
            self._notification(message)
            return
        for item in message if isinstance(message, list) else [message]:
            id_ = item.get("id") if isinstance(item, dict) else None
            pending = self._pending.pop(id_, None) if isinstance(id_, int) else None
            if pending is not None:
                self._settle(pending, item)
            elif id_ is None and isinstance(item, dict) and isinstance(item.get("error"), dict):
                for unread in sent if sent is not None else self._oldest_unanswered():
                    if (pending := self._pending.pop(unread, None)) is not None:
                        self._settle(pending, item)
            else:
                log.warning("an answer matching no call: %.200r", item)
        while self._unanswered and not any(id_ in self._pending for id_ in self._unanswered[0]):
            self._unanswered.popleft()

    def _oldest_unanswered(self) -> list[int]:
        return next((ids for ids in self._unanswered if any(id_ in self._pending for id_ in ids)), [])

    def _settle(self, pending: _Pending, answer: dict[str, Any]) -> None:
        if pending.future.done():
            return
        error = answer.get("error")
        if isinstance(error, dict):
            code = error.get("code")
            value: Any = CallError(
                code if isinstance(code, int) else Code.INTERNAL_ERROR, str(error.get("message", "")), error.get("data")
            )
        else:
            value = self._result(pending, answer.get("result"))
        pending.future.set_result(value)

    def _result(self, pending: _Pending, raw: Any) -> Any:
        spec = BY_NAME.get(pending.method)
        if spec is None:
            return raw  # rpc.discover, or a method newer than this client: as decoded JSON
        try:
            result = msgspec.convert(raw, spec.result)
        except msgspec.ValidationError as error:
            return CallError(Code.INTERNAL_ERROR, f"the answer to {pending.method} breaks the contract: {error}")
        if isinstance(result, m.JoinResult | m.ForkResult):
            self.token, self.instance = result.token, result.instance
            self.seq, self.turn = 0, result.turn  # a new session: its numbers start again
        elif isinstance(result, m.ResumeResult):
            if self.token != pending.params["token"]:
                self.seq, self.turn = result.seq, result.turn  # another session than the one followed so far
            self.token, self.instance = pending.params["token"], result.instance
        elif isinstance(result, m.Reply):
            self._seen(result.seq, result.turn)
        elif pending.method == "leave":
            self.token = None
        return result

    def _seen(self, seq: int, turn: int | None) -> bool:
        """Note a numbered message; whether it is new (not one seen already, sent again by a resume)."""
        if turn is not None:
            self.turn = max(self.turn, turn)
        if seq and seq <= self.seq:
            return False
        self.seq = seq or self.seq
        return True

    def _notification(self, message: dict[str, Any]) -> None:
        kind = m.NOTIFICATIONS.get(str(message.get("method")))
        if kind is None:
            log.debug("a notification this client does not know: %.200r", message)
            return
        try:
            note = msgspec.convert(message.get("params"), kind)
        except msgspec.ValidationError as error:
            log.warning("a %s notification that breaks the contract: %s", message.get("method"), error)
            return
        if self._seen(getattr(note, "seq", 0), getattr(note, "turn", None)):
            self._notes.put_nowait(note)

    def dropped(self) -> None:
        if self._closed:
            return
        self._fail_pending("the connection dropped before {method} was answered; it may or may not have taken effect")
        if self._reconnecting is None or self._reconnecting.done():
            self._up.clear()
            self._tell(Status.RECONNECTING)
            self._reconnecting = asyncio.get_running_loop().create_task(self._reconnect())

    def _fail_unanswered(self, ids: list[int]) -> None:
        """An in-line answer (HTTP) that left some of its message's calls unanswered."""
        for id_ in ids:
            if (pending := self._pending.pop(id_, None)) is not None and not pending.future.done():
                pending.future.set_exception(ConnectionLost(f"the server sent no answer to {pending.method}"))

    def _fail_pending(self, why: str) -> None:
        pending, self._pending = self._pending, {}
        self._unanswered.clear()
        for each in pending.values():
            if not each.future.done():
                each.future.set_exception(ConnectionLost(why.format(method=each.method)))

    # -- reconnecting ----------------------------------------------------------------------------------------

    async def _reconnect(self) -> None:
        delay, longest = self.backoff
        loop = asyncio.get_running_loop()
        tries = 0
        while not self._closed and self._transport is not None:
            await asyncio.sleep(delay)
            try:
                async with asyncio.timeout(TRY_LIMIT):
                    await self._transport.open()
                    resumed = None
                    if self.token is not None:
                        asked = {"token": self.token, "last_seq": self.seq}
                        (resumed,) = await self._send([("resume", asked)], batch=False, waits=False)
                    if isinstance(resumed, m.ResumeResult) and resumed.state is not None:
                        await self._retell(resumed.state)
            except (ConnectionLost, TimeoutError) as failed:
                if isinstance(failed, TimeoutError):  # a socket half open, or a resume unanswered: let it go
                    self._fail_pending("the server did not answer in time")
                    await self._transport.close()
                tries += 1
                delay = min(longest, delay * 2)
                self._retried(Retrying(tries, delay, loop.time() + delay))
                continue
            if isinstance(resumed, CallError) and resumed.code == Code.NODE_UNREACHABLE:
                # Back, but the part of the server holding the session cannot be reached yet: a try that failed.
                await self._transport.close()
                tries += 1
                delay = min(longest, delay * 2)
                self._retried(Retrying(tries, delay, loop.time() + delay))
                continue
            status = Status.RESUMED
            if isinstance(resumed, CallError):
                log.warning("the session could not be resumed: %s", resumed.message)
                self.token = None
                status = Status.SESSION_LOST
            self._up.set()
            self._tell(status)
            return

    async def _retell(self, state: m.StateResult) -> None:
        """Too much was missed for the server to send it again: the turns since the last one seen, retold, come
        among the notifications (as the Reply narrate gives)."""
        missed = state.turn - self.turn
        self.turn = max(self.turn, state.turn)
        if missed <= 0:
            return
        (told,) = await self._send([("narrate", {"window": missed})], batch=False, waits=False)
        if isinstance(told, m.Reply):
            self._notes.put_nowait(told)

    def _retried(self, retrying: Retrying) -> None:
        if self.on_retry is None:
            return
        try:
            self.on_retry(retrying)
        except Exception:
            log.exception("a retry listener failed")

    def _tell(self, status: Status) -> None:
        if self.on_status is None:
            return
        try:
            self.on_status(status)
        except Exception:
            log.exception("a status listener failed")


def _made(kind: Kind, url: str, owner: Owner) -> Transport:
    """The transport of that kind; aiohttp is imported only for the kinds that use it."""
    if callable(kind):
        return kind(url, owner)
    if kind == "http":
        from clients.transports.http import HttpTransport

        return HttpTransport(url, owner)
    from clients.transports.websocket import WebSocketTransport

    return WebSocketTransport(url, owner)
