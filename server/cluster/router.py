"""One worker (or node) of several: where each message goes, and serving others' calls.

Which one holds an instance is the placement's to say (server/cluster/placement.py): a hash of its id among
the workers of one machine, its lease among the nodes of a cluster.

A message goes whole to one worker (a batch whose members belong to different workers, member by member),
picked by its first member that concerns an instance: `join` by the instance it names; `resume`, or a call
acting for a session, by the session's token or by the session the socket is bound to; `create` where the
placement deals it. The rest (`worlds`, `spins`…) is answered where it arrives; `instances` gathers a page
from every worker. The holder answers it as if the socket were its own (a stand-in, `_Proxy`, is bound to
the session), and the socket's answers and notifications come back over one stream, in the order the holder
made them. When the one a socket was bound to is gone (killed, say), the socket is closed with 1012: its
client comes back, to any of them, and resumes where the instance is held now.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

import msgspec
from aiohttp import web

from protocol import messages as m
from protocol.errors import Code, RpcError
from protocol.methods import BY_NAME
from server import rpc
from server.app import CONFIG, ELSEWHERE, HOST, METHODS, Outbox
from server.cluster.bus import Answer, Bus, Call, Peer, Unreachable
from server.cluster.nats import NatsBus
from server.cluster.placement import Leased, Placement
from server.seats import Session
from server.sequence import Message

log = logging.getLogger(__name__)

WORKER_HEADER = "X-Curveship-Worker"
"""Every response says which worker made it (its index, or a node's name), so a client or a test can tell
where it landed."""

REMEMBERED_TOKENS = 100_000
"""Tokens whose worker is remembered; past this many the memory starts afresh (they are asked for again)."""

GONE = 1012
"""The close code of a socket whose session was held by a worker or node that is gone: 'service restart'
(RFC 6455), which the clients take as a reason to reconnect and resume."""


def unreachable(text: bytes, worker: str, why: str, sent: bool) -> bytes | None:
    """The answer to a message `worker` could not answer (`why`: what became of it), each request of it answered
    -32008 under its own id (a notification, nothing): try again shortly; `data.sent` says whether the call
    reached it (then it may or may not have been done there)."""
    done = "this call may or may not have been done there" if sent else "nothing was done"
    message = f"The part of the server holding this instance (worker {worker}) {why}: {done}; try again shortly."
    data = {"worker": worker, "sent": sent}
    try:
        decoded = msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        decoded = None
    members = decoded if isinstance(decoded, list) else [decoded]
    answers = [
        rpc.error_response(Code.NODE_UNREACHABLE, message, data, member.get("id") if isinstance(member, dict) else None)
        for member in members
        if not (isinstance(member, dict) and "id" not in member)  # a notification is never answered
    ]
    if not answers:
        return None
    return msgspec.json.encode(answers if isinstance(decoded, list) else answers[0])


class _Proxy:
    """The owner's stand-in for one socket on another worker: bound to a session here, it sends what the
    session hears back to that socket."""

    def __init__(self, peer: Peer, socket: int) -> None:
        self.peer = peer
        self.socket = socket
        self.session: Session | None = None

    def notify(self, method: str, params: m.Result) -> None:
        self.peer.notice(self.socket, msgspec.json.encode({"jsonrpc": "2.0", "method": method, "params": params}))

    def bind(self, session: Session, missed: Sequence[Message] = ()) -> None:
        if self.session is not None:
            self.session.unlisten(self.notify)
        self.session = session
        session.listen(self.notify)
        for method, params in missed:  # what a resume found missed, sent first, as on a socket of the owner's
            self.notify(method, params)

    def unbind(self) -> None:
        if self.session is not None:
            self.session.unlisten(self.notify)
            self.session = None


class Router:
    """A worker's side of the cluster: forwards what is not its own, and answers what others forward."""

    def __init__(self, app: web.Application, bus: Bus, placement: Placement) -> None:
        self.app = app
        self.bus = bus
        self.placement = placement
        self._numbers: dict[Outbox, int] = {}
        self._sockets: dict[int, Outbox] = {}
        self._next = 0
        self._where: dict[str, str] = {}
        """Tokens of sessions held by other workers → which."""
        self._proxies: dict[tuple[int, int], _Proxy] = {}
        """(id of the peer, its socket number) → the stand-in for that socket here."""

    @property
    def me(self) -> str:
        return self.bus.me

    def owns(self, instance_id: str) -> bool:
        return self.placement.owns(instance_id)

    # -- forwarding (Elsewhere, for server/app.py) ----------------------------------------------------

    async def forward(self, raw: bytes | str, caller: rpc.Caller, outbox: Outbox | None) -> tuple[bool, bytes | None]:
        try:
            message = msgspec.json.decode(raw)
        except (msgspec.DecodeError, RecursionError):
            return False, None  # answered here, with the parse error it deserves
        if isinstance(message, list) and len(message) > 1 and len(await self._workers_of(message, caller, outbox)) > 1:
            answer = await self._split(message, caller, outbox)
            if outbox is not None and answer is not None:
                outbox.put(answer)
            return True, answer
        worker = await self._target(message, caller, outbox)
        if worker is None or worker == self.me:
            return False, None
        text = raw.encode() if isinstance(raw, str) else raw
        return True, await self._send(worker, text, caller, outbox)

    async def _send(
        self, worker: str, text: bytes, caller: rpc.Caller, outbox: Outbox | None, collect: bool = False
    ) -> bytes | None:
        """Forward one message to `worker`; its answer (over HTTP, or `collect`ed), else None: a socket's
        answer is put in its outbox, in its place among the notifications."""
        socket = self._number(outbox) if outbox is not None else 0
        call = Call(0, socket, text, token=caller.token, author=caller.author, remote=caller.remote, collect=collect)
        try:
            answer = await self.bus.call(worker, call)
        except Unreachable as error:
            log.warning("%s", error)
            answer = Answer(0, failed="cannot be reached right now" if not error.sent else "stopped answering")
            sent = error.sent
        else:
            sent = True  # it failed there, after taking the call
        if answer.failed:
            failed = unreachable(text, worker, answer.failed, sent)
            if outbox is not None and not collect and failed is not None:
                outbox.put(failed)
            return failed
        if outbox is not None and answer.bound is not None:
            self._bound_elsewhere(outbox, caller, worker, answer.bound)
        return answer.body

    async def _workers_of(self, batch: list[Any], caller: rpc.Caller, outbox: Outbox | None) -> set[str]:
        """The workers a batch's members go to, each taken alone: `join` and `resume` by what they name, other
        calls for a session by the session the caller has now. More than one, and the batch is answered
        member by member."""
        found: set[str | None] = set()
        for member in batch:
            method = member.get("method") if isinstance(member, dict) else None
            spec = BY_NAME.get(method) if isinstance(method, str) else None
            if method in ("join", "resume"):
                found.add(await self._target([member], rpc.Caller(caller.host), None))
            elif spec is not None and spec.session:
                found.add(await self._target([member], caller, outbox))
        return {self.me if worker is None else worker for worker in found}

    async def _split(self, batch: list[Any], caller: rpc.Caller, outbox: Outbox | None) -> bytes | None:
        """A batch whose members belong to different workers, answered member by member where each belongs
        (its members for one instance may then have another player's commands between them)."""
        config = self.app[CONFIG]
        answers: list[bytes] = []
        size = 0
        for member in batch:
            if size > config.max_answer:
                unmade = rpc.unmade(member, config.max_answer)
                answer = msgspec.json.encode(unmade) if unmade is not None else None
            else:
                if outbox is not None:
                    caller.session = outbox.session
                worker = await self._target(member, caller, outbox)
                text = msgspec.json.encode(member)
                if worker is None or worker == self.me:
                    answer = await rpc.handle(text, caller, self.app[METHODS], config.max_batch, config.max_answer)
                    if outbox is not None and outbox.elsewhere is not None and outbox.session is not None:
                        self.released(outbox)  # bound here now
                else:
                    answer = await self._send(worker, text, caller, outbox, collect=True)
            if answer is not None:
                size += len(answer)
                answers.append(answer)
        return b"[" + b",".join(answers) + b"]" if answers else None

    def _bound_elsewhere(self, outbox: Outbox, caller: rpc.Caller, worker: str, token: str) -> None:
        """The socket is bound now to a session held by `worker`: no longer to one here, or on a third."""
        if outbox.session is not None:
            outbox.session.unlisten(outbox.notify)
            outbox.session = None
            caller.session = None
        if outbox.elsewhere is not None and outbox.elsewhere[0] != worker:
            self.bus.release(outbox.elsewhere[0], self._numbers[outbox])
        outbox.elsewhere = (worker, token)
        self._where[token] = worker

    def released(self, outbox: Outbox) -> None:
        number = self._numbers.pop(outbox, None)
        if number is None:
            return
        self._sockets.pop(number, None)
        if outbox.elsewhere is not None:
            self.bus.release(outbox.elsewhere[0], number)
            outbox.elsewhere = None

    async def knows(self, token: str) -> bool:
        return await self._locate(token) is not None

    def _number(self, outbox: Outbox) -> int:
        number = self._numbers.get(outbox)
        if number is None:
            self._next += 1
            number = self._numbers[outbox] = self._next
            self._sockets[number] = outbox
        return number

    def _notice(self, socket: int, body: bytes) -> None:
        outbox = self._sockets.get(socket)
        if outbox is not None:
            outbox.put(body)

    async def _target(self, message: Any, caller: rpc.Caller, outbox: Outbox | None) -> str | None:
        """The worker a message goes to; None: this one."""
        for member in message if isinstance(message, list) else [message]:
            if not isinstance(member, dict):
                continue
            method, params = member.get("method"), member.get("params")
            named = params if isinstance(params, dict) else {}
            if method == "join" and isinstance(named.get("instance"), str):
                return await self.placement.holder(named["instance"])
            if method == "resume" and isinstance(named.get("token"), str):
                return await self._locate(named["token"])
            if method == "create":
                return self.placement.deal()
            spec = BY_NAME.get(method) if isinstance(method, str) else None
            if spec is None or not spec.session:
                continue
            if caller.session is not None and caller.host.sessions.get(caller.session.token) is caller.session:
                return None
            if outbox is not None and outbox.elsewhere is not None:
                return outbox.elsewhere[0]
            if caller.token:
                return await self._locate(caller.token)
            return None
        return None

    async def _locate(self, token: str) -> str | None:
        """The worker that has a session of `token`; None if none has (then it is answered here, as a token
        nobody knows)."""
        if isinstance(self.placement, Leased):
            return await self.placement.holder_of_session(token)
        # Workers of one machine: this one's, or asked of the others, once, and remembered.
        if self.app[HOST].knows_token(token):
            return self.me
        if token in self._where:
            return self._where[token]
        others = self.bus.others()
        found = await asyncio.gather(*(self.bus.knows(w, token) for w in others), return_exceptions=True)
        for worker, known in zip(others, found, strict=True):
            if known is True:
                if len(self._where) > REMEMBERED_TOKENS:
                    self._where.clear()
                self._where[token] = worker
                return worker
        # Nobody that answered knows it, but one that could not answer may: the call goes there, and is answered
        # that it cannot be reached (try again shortly), not that the session is gone.
        return next((w for w, known in zip(others, found, strict=True) if isinstance(known, Unreachable)), None)

    # -- answering others (Owner, for the bus) --------------------------------------------------------

    async def call(self, peer: Peer, call: Call) -> Answer:
        config, host = self.app[CONFIG], self.app[HOST]
        await self.placement.settled()
        caller = rpc.Caller(host, token=call.token, author=call.author, remote=call.remote)
        proxy = None
        if call.socket:
            proxy = self._proxies.get((id(peer), call.socket))
            if proxy is None:
                proxy = self._proxies[(id(peer), call.socket)] = _Proxy(peer, call.socket)
            caller.session, caller.bind = proxy.session, proxy.bind
        answer = await rpc.handle(call.text, caller, self.app[METHODS], config.max_batch, config.max_answer)
        if proxy is None:
            return Answer(call.id, body=answer)
        bound = proxy.session.token if proxy.session is not None else None
        if call.collect:
            return Answer(call.id, body=answer, bound=bound)
        if answer is not None:
            peer.notice(call.socket, answer)  # in its place among the notifications
        return Answer(call.id, bound=bound)

    def release(self, peer: Peer, socket: int) -> None:
        proxy = self._proxies.pop((id(peer), socket), None)
        if proxy is not None:
            proxy.unbind()

    def gone(self, peer: Peer) -> None:
        for key in [key for key in self._proxies if key[0] == id(peer)]:
            self._proxies.pop(key).unbind()

    def knows_token(self, token: str) -> bool:
        return self.app[HOST].knows_token(token)

    def lost(self, node: str) -> None:
        """`node` is gone: the sockets bound to sessions it held are closed (1012), so their clients come back
        and resume wherever those sessions are held now; what was remembered of it is forgotten."""
        for token in [token for token, where in self._where.items() if where == node]:
            del self._where[token]
        for outbox in list(self._sockets.values()):
            if outbox.elsewhere is not None and outbox.elsewhere[0] == node:
                self.released(outbox)
                closing = outbox.socket.close(code=GONE, message=b"the server holding this story is gone: resume")
                asyncio.get_running_loop().create_task(closing)

    def page(self, after: str | None, limit: int) -> m.InstancesResult:
        return self.app[HOST].list_instances(m.InstancesParams(after=after, limit=limit))

    # -- every worker's instances -------------------------------------------------------------------

    async def instances(self, caller: rpc.Caller, params: m.InstancesParams) -> m.InstancesResult:
        """A page of every worker's instances in the order of their ids: the first `limit` after `after`
        of each, merged, are the first `limit` of all."""
        others = self.bus.others()
        pages = [caller.host.list_instances(params)]
        try:
            pages += await asyncio.gather(*(self.bus.page(w, params.after, params.limit) for w in others))
        except Unreachable as error:
            log.warning("%s", error)
            raise RpcError(
                Code.NODE_UNREACHABLE,
                f"The part of the server holding some of the instances (worker {error.worker}) cannot be reached "
                "right now, so they cannot all be listed; try again shortly.",
                {"worker": error.worker, "sent": False},
            ) from None
        # Nodes of a cluster may each know an instance (its holder with its players): the one with most.
        best: dict[str, m.InstanceInfo] = {}
        for info in (info for page in pages for info in page.instances):
            if info.instance not in best or len(info.players) > len(best[info.instance].players):
                best[info.instance] = info
        if isinstance(self.placement, Leased):
            # An instance no node holds now (its holder died, or let it go) is listed from its stored row.
            for row in await self.placement.store.instances_after(params.after, params.limit + 1):
                if row.id not in best:
                    best[row.id] = m.InstanceInfo(row.id, row.world, row.turn, row.ended, players=[])
        every = sorted(best.values(), key=lambda info: info.instance)
        shown = every[: params.limit]
        more = len(every) > params.limit or any(page.next is not None for page in pages)
        return m.InstancesResult(instances=shown, next=shown[-1].instance if more and shown else None)


class _Owner:
    """The router as the bus's Owner: `knows` there is a plain question about this worker's own sessions."""

    def __init__(self, router: Router) -> None:
        self.router = router
        self.call = router.call
        self.release = router.release
        self.gone = router.gone
        self.knows = router.knows_token
        self.page = router.page
        self.lost = router.lost


def install(app: web.Application, bus: Bus, placement: Placement) -> Router:
    """Make `app` one worker of `bus`'s: it holds the instances `placement` gives it, forwards the rest,
    answers what the others forward, and says which worker it is on every response."""
    router = Router(app, bus, placement)
    app[ELSEWHERE] = router
    app[HOST].owns = router.owns
    app[METHODS]["instances"] = rpc.method("instances", router.instances)

    async def say_worker(request: web.Request, response: web.StreamResponse) -> None:
        response.headers[WORKER_HEADER] = bus.me

    async def bussing(app: web.Application) -> AsyncIterator[None]:
        if isinstance(placement, Leased):
            placement.attach(app[HOST])  # the store is open now: the node is named as its leases are
            bus.me = placement.me
            if isinstance(bus, NatsBus):
                bus.cluster = placement.store.cluster
        await bus.start(_Owner(router), router._notice)
        yield
        await bus.close()

    app.on_response_prepare.append(say_worker)
    # Up once the store has brought this worker's instances back (a call from another waits for its socket
    # meanwhile), and down before the store closes.
    app.cleanup_ctx.append(bussing)
    return router
