"""JSON-RPC: decoding messages and batches, dispatching each request to its method, and encoding answers.

A message, in order:
1. Decoded (a parse error is -32700); an empty batch is one -32600, a batch longer than `max_batch` one
   -32007 (a message too large, counted in requests rather than bytes).
2. Each request of a batch is handled in turn, never concurrently, so a session's requests keep their order
   (jsonrpcserver's own async batches run members at once), and the whole message holds its session's
   instance, so no other session's commands come between a batch's; a bad member gets its own error and
   the others go on; a notification gets no response, and a batch of notifications none at all. Between
   members the event loop runs others, so a long batch stalls no other client.
3. Each request is dispatched by jsonrpcserver to its method, which decodes its params into the contract's
   struct (-32602 naming the field and why), checks the session and its rate (a command line is charged a
   request for each command it holds; `create` several), seats a detached session again, and calls the host.
4. Errors carry the protocol's code and a message for people; every -32602 has `data` with the `field` and
   the `reason`; an unexpected failure is logged and sent as a bare -32603, never with its exception text.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from protocol import messages as m
from protocol.errors import Code, RpcError
from protocol.methods import BY_NAME
from protocol.openrpc import document
from server.host import Host
from server.jsonrpc import (
    Error,
    Result,
    Success,
    async_dispatch_to_serializable,
    call_method,
    create_request,
    get_method,
    not_notification,
    request_shape,
    to_response,
    to_serializable_one,
)
from server.limits import CREATE_COST, TURN_WORK, WORK, Limits
from server.seats import Session
from server.sequence import Message
from server.wire import spin_parts

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Caller:
    """Who is calling: the host, the connection's bound session (a WebSocket after join/resume), the token an
    HTTP request carried, and whether the connection may act as an author."""

    host: Host
    session: Session | None = None
    token: str | None = None
    author: bool = False
    bind: Callable[[Session, Sequence[Message]], None] | None = None
    """Given on a WebSocket: binds the socket to a session, so later requests need no token, and sends it
    the session's messages given (numbered already: those a resume asked for again), before any later one."""
    remote: str = ""
    """The caller's address, for limiting requests that need no session."""


Handler = Callable[[Caller, Any], Awaitable[m.Result]]

COSTS: dict[str, Callable[[Host, Any], int]] = {
    "command": lambda host, params: host.weigh(params.text),  # a turn for each command of the line
    "create": lambda host, params: CREATE_COST + len(spin_parts(params.spin)),
    "join": lambda host, params: 1 + len(spin_parts(params.spin)),  # each spin named is a lookup and a merge
    "narrate": lambda host, params: 1 + len(spin_parts(params.spin)),
    "realize": lambda host, params: 1 + len(spin_parts(params.spin)),
    "fork": lambda host, params: CREATE_COST,  # a new instance, as create makes
}
"""What a call takes from its caller's allowance, in requests, before it is made, where it is not one. The
engine work it then does is charged after (TURN_WORK), and the size of its answer (ANSWER_CHUNK)."""

ANSWER_CHUNK = 64 * 1024
"""Bytes of answer charged as one request more: a batch of large answers costs what it sends."""


def method(name: str, run: Handler) -> Callable[..., Awaitable[Result]]:
    """Wrap a host call as a jsonrpcserver method: decode params, find the session, encode the result."""
    spec = BY_NAME[name]

    async def call(caller: Caller, /, *positional: Any, **named: Any) -> Result:
        try:
            if positional:
                reason = "params must be an object of named values, not an array"
                raise RpcError(Code.INVALID_PARAMS, reason, {"field": "params", "reason": reason})
            params = _decode(spec.params, named)
            weigh = COSTS.get(name)
            cost = 1 if weigh is None else weigh(caller.host, params)
            spent = [0.0]
            counting = WORK.set(spent)  # this call's work, until it returns
            session: Session | None = None
            try:
                if spec.session:
                    await caller.host.awaken(caller.token)  # its instance is brought back on first use
                    session = _session_of(caller)
                    _rate(session, caller.host.limits, cost)
                    async with session.lock:
                        if spec.seats:
                            await caller.host.seat(session)
                        result = await run(caller, (session, params))
                        if isinstance(result, m.Reply):  # numbered before a resume (it waits for the lock) sees it
                            result = session.sequence.answered(name, result)
                else:
                    if not caller.host.admit(caller.remote, cost):
                        raise RpcError(Code.RATE_LIMITED, "too many requests: slow down")
                    result = await run(caller, params)
            finally:
                WORK.reset(counting)
                # What was charged before pays for a turn's work a request; only the work beyond is charged now.
                caller.host.charge(session, caller.remote, spent[0] / TURN_WORK - cost)
            return Success(msgspec.to_builtins(result))
        except RpcError as error:
            data = _explained(error)
            if data is None:
                return Error(int(error.code), error.message)
            return Error(int(error.code), error.message, data)
        except Exception:
            log.exception("internal error in %s", name)
            return Error(int(Code.INTERNAL_ERROR), "Internal error")

    call.__name__ = name
    # jsonrpcserver binds every request's params to the method's signature; work it out once, not per request.
    call.__signature__ = inspect.signature(call)  # type: ignore[attr-defined]
    return call


def _explained(error: RpcError) -> Any:
    """An error's data; for invalid params always an object with the `field` (`params` when no one field is
    to blame) and the `reason`, whatever raised it."""
    if error.code != Code.INVALID_PARAMS:
        return error.data
    data = dict(error.data) if isinstance(error.data, dict) else {}
    if not data.get("field"):
        data["field"] = "params"
    data.setdefault("reason", error.message)
    return data


def _session_of(caller: Caller) -> Session:
    """The caller's session: the one its socket is bound to while that session lasts (a socket stays bound
    to a session that has left), else the one its token names. When neither lasts, the error says why: the
    token's, else the bound session's (whose instance may be out of service)."""
    bound = caller.session.token if caller.session is not None else None
    return _live(caller) or caller.host.session(caller.token or bound)


def _live(caller: Caller) -> Session | None:
    bound = caller.session
    if bound is not None and caller.host.sessions.get(bound.token) is bound:
        return bound
    return caller.host.sessions.get(caller.token or "")


def _decode(kind: type[m.Message], params: dict[str, Any]) -> Any:
    try:
        return msgspec.convert(params, kind)
    except msgspec.ValidationError as error:
        text = str(error)
        where = text.split("`$.", 1)[1].split("`", 1)[0] if "`$." in text else None
        if where is None and "field `" in text:
            where = text.split("field `", 1)[1].split("`", 1)[0]
        data = {"field": where or "params", "reason": text}
        raise RpcError(Code.INVALID_PARAMS, _worded(text, where), data) from None


_LENGTH = re.compile(r"of length (<=|>=) (\d+)")
_NAMED = {"text": "A command", "template": "A template", "name": "A name", "world": "A world's name"}
"""What a field holds, as a player would call it, for the sentences below."""


def _worded(text: str, field: str | None) -> str:
    """A params error as a sentence a player can be shown: a line too long says so and how long one may be
    (the validator's own words stay in `data.reason`); anything else keeps them."""
    length = _LENGTH.search(text)
    if length is not None and field is not None and "[" not in field:
        what = _NAMED.get(field, f"The {field}")
        bound, most = length.groups()
        if bound == "<=":
            return f"{what} may be at most {most} characters long; that one is longer."
        return f"{what} must be at least {most} characters long."
    return f"invalid params: {text}"


def _rate(session: Session, limits: Limits, cost: int = 1) -> None:
    if not session.admit(limits, cost):
        raise RpcError(Code.RATE_LIMITED, "too many requests: slow down", {"rate": limits.rate, "burst": limits.burst})


async def _join(caller: Caller, params: m.JoinParams) -> m.Result:
    session, result = await caller.host.join(params, author=caller.author)
    if caller.bind is not None:
        caller.bind(session, ())
        caller.session = session  # the rest of a batch acts for it too
    return result


async def _fork(caller: Caller, session_params: tuple[Session, m.NoParams]) -> m.Result:
    """The caller plays on in the copy: a socket is bound to the new session, as join binds it."""
    session, result = await caller.host.fork(session_params[0], caller.remote)
    if caller.bind is not None:
        caller.bind(session, ())
        caller.session = session
    return result


async def _resume(caller: Caller, params: m.ResumeParams) -> m.ResumeResult:
    """Rebind the session, and send again what the client missed: the messages numbered after `last_seq`, or,
    when they are no longer all kept (or cannot be sent: HTTP), a fresh state instead."""
    session, result = await caller.host.resume(params.token, caller.remote)
    sequence = session.sequence
    missed = [] if params.last_seq is None else sequence.since(params.last_seq)
    if missed is None or (missed and caller.bind is None):
        result.state = await caller.host.state(session)
        missed = []  # what came while the state was awaited is in it; nothing is awaited from here on
    result.seq = sequence.last
    if caller.bind is not None:
        # At once, nothing awaited in between: no message can come between those sent again and the next one.
        caller.bind(session, missed)
        caller.session = session
        result.replayed = len(missed)
    return result


async def _authenticate(caller: Caller, params: m.AuthenticateParams) -> m.Result:
    """The connection acts as an author from now on if the token is the author token. Wrong ones count
    against the caller's address, as a wrong bearer token does: past so many it is locked out, and while it
    is, no token is tried (the right one neither), so guessing takes forever."""
    host = caller.host
    wait = host.lockout.locked(caller.remote)
    if wait:
        why = f"too many wrong tokens from this address: try again in {wait:.0f} s"
        raise RpcError(Code.RATE_LIMITED, why, {"retry_after": round(wait, 1)})
    if not host.is_author_token(params.token):
        host.lockout.failed(caller.remote)
        raise RpcError(Code.FORBIDDEN, "That is not this server's author token.", {"field": "token"})
    caller.author = True
    return m.AuthenticateResult(author=True)


def methods() -> dict[str, Callable[..., Awaitable[Result]]]:
    """The methods, by name: each a thin call into the host."""
    table: dict[str, Handler] = {
        "worlds": lambda c, p: _now(c.host.worlds()),
        "spins": lambda c, p: _now(c.host.spins()),
        "create": lambda c, p: c.host.create(p, author=c.author, caller=c.remote),
        "instances": lambda c, p: _now(c.host.list_instances(p)),
        "join": _join,
        "resume": _resume,
        "authenticate": _authenticate,
        "leave": lambda c, sp: c.host.leave(sp[0]),
        "command": lambda c, sp: c.host.command(sp[0], sp[1].text),
        "narrate": lambda c, sp: c.host.narrate(sp[0], sp[1]),
        "spin": lambda c, sp: c.host.spin(sp[0], sp[1]),
        "concept": lambda c, sp: c.host.concept(sp[0], sp[1]),
        "world": lambda c, sp: c.host.world(sp[0]),
        "undo": lambda c, sp: c.host.undo(sp[0]),
        "restart": lambda c, sp: c.host.restart(sp[0]),
        "save": lambda c, sp: c.host.save(sp[0], sp[1].name),
        "restore": lambda c, sp: c.host.restore(sp[0], sp[1].name),
        "fork": _fork,
        "actions": lambda c, sp: c.host.actions(sp[0]),
        "state": lambda c, sp: c.host.state(sp[0]),
        "vocabulary": lambda c, sp: c.host.vocabulary(sp[0]),
        "realize": lambda c, sp: c.host.realize(sp[0], sp[1]),
    }
    wrapped = {name: method(name, run) for name, run in table.items()}
    wrapped["rpc.discover"] = _discover_method
    return wrapped


async def _discover_method(caller: Caller, /, *positional: Any, **named: Any) -> Result:
    if not caller.host.admit(caller.remote):
        return Error(int(Code.RATE_LIMITED), "too many requests: slow down")
    return Success(document())


async def _now(value: m.Result) -> m.Result:
    return value


# -- messages ---------------------------------------------------------------------------------------------


def error_response(code: Code, message: str | None = None, data: Any = None, id_: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "error": RpcError(code, message, data).to_wire(), "id": id_}


async def handle(
    raw: bytes | str,
    caller: Caller,
    table: dict[str, Callable[..., Awaitable[Result]]],
    max_batch: int = 100,
    max_answer: int = 1024 * 1024,
    *,
    shared: bool = True,
) -> bytes | None:
    """Answer one message (a request or a batch); None when nothing is to be sent back. Each answer is charged
    to its caller by its size (ANSWER_CHUNK); once a batch's answers pass `max_answer` bytes, the members
    after are not made, and each is answered -32007. `shared`: other clients share the event loop, and each
    request lets them in first (False only for the in-process server, which serves one)."""
    try:
        message = msgspec.json.decode(raw)
    except msgspec.DecodeError as error:
        return msgspec.json.encode(error_response(Code.PARSE_ERROR, f"not valid JSON: {error}"))
    except RecursionError:
        # Small enough to be read, yet nested past what the decoder will follow.
        return msgspec.json.encode(error_response(Code.PARSE_ERROR, "JSON nested too deeply"))
    if isinstance(message, list) and not message:
        return msgspec.json.encode(error_response(Code.INVALID_REQUEST, "an empty batch"))
    if isinstance(message, list) and len(message) > max_batch:
        too_many = f"a batch may hold at most {max_batch} requests; this one holds {len(message)}"
        return msgspec.json.encode(error_response(Code.TOO_LARGE, too_many, {"limit": "batch", "max": max_batch}))
    members = message if isinstance(message, list) else [message]
    answers: list[bytes] = []
    size = 0
    async with contextlib.AsyncExitStack() as held:
        turns: asyncio.Lock | None = None
        for index, member in enumerate(members):
            if index or shared:
                # Let the other clients in first, as a task per request would: a socket sending request after
                # request, or a long batch, must not keep the loop to itself.
                await asyncio.sleep(0)
            # Each member is dispatched as a task of its own, which lets other messages run in between: the
            # instance's `turns`, held from the first member that has a session to the end, keeps another
            # session's commands from slipping in among this batch's.
            if turns is None and (session := _live(caller)) is not None:
                turns = session.instance.turns
                await held.enter_async_context(turns)
            if size > max_answer:
                answer = unmade(member, max_answer)
            else:
                answer = await _one(member, caller, table)
            if answer is not None:
                encoded = msgspec.json.encode(answer)
                size += len(encoded)
                caller.host.charge(_live(caller), caller.remote, len(encoded) // ANSWER_CHUNK)
                answers.append(encoded)
    if not answers:
        return None
    return answers[0] if not isinstance(message, list) else b"[" + b",".join(answers) + b"]"


def unmade(member: Any, max_answer: int) -> dict[str, Any] | None:
    """The answer to a member a batch's answers left no room for: not made, and -32007 says so."""
    if not isinstance(member, dict) or "id" not in member:
        return None
    why = f"not made: this batch's answers passed {max_answer} bytes; send the rest again"
    return error_response(Code.TOO_LARGE, why, {"limit": "answer", "max": max_answer}, member.get("id"))


async def _one(
    member: Any, caller: Caller, table: dict[str, Callable[..., Awaitable[Result]]]
) -> dict[str, Any] | None:
    if not isinstance(member, dict):
        return error_response(Code.INVALID_REQUEST, "a request is an object")
    try:
        request_shape(member)
    except ValueError:
        answer = await async_dispatch_to_serializable(
            "",
            table,
            context=caller,
            deserializer=lambda _: member,  # decoded already
            validator=request_shape,
        )  # (what is no request is answered by jsonrpcserver's whole pipeline, as it answers it)
    else:
        answer = await _dispatched(member, caller, table)
    if isinstance(answer, dict) and "error" in answer and answer["error"]["code"] == -32000:
        # Whatever failed inside is in the log; the wire never carries an exception's text. jsonrpcserver's
        # own failures (-32000, "Server error", the exception's text as data) are not in the contract: to a
        # client they are internal errors. Our own -32603s are bare, or say in a sentence of ours what became
        # of the change (a store that could not take it), and go as they are.
        answer["error"] = RpcError(Code.INTERNAL_ERROR).to_wire()
    return answer  # type: ignore[return-value]


async def _dispatched(
    request: dict[str, Any], caller: Caller, table: dict[str, Callable[..., Awaitable[Result]]]
) -> Any:
    """A well-formed request through jsonrpcserver's own steps (its request, its method look-up and call, its
    response and serialization), as `async_dispatch_to_serializable` takes it, less two: binding the params to
    the method's signature, which cannot fail here (every method takes the caller and any params, which it
    decodes with msgspec into the contract's struct and so checks itself) and cost more than the rest of the
    dispatch, and gathering the one request in a task of its own (in its place, `handle` gives the loop a pass)."""
    try:
        made = create_request(request)
        method = table.get(made.method)
        result = get_method(table, made.method) if method is None else await call_method(made, caller, method)
        if not not_notification((made, result)):
            return None
        return to_serializable_one(to_response(made, result))
    except Exception:  # (as jsonrpcserver answers a failure of its own: -32000, made -32603 by _one)
        log.exception("dispatching %s failed", request.get("method"))
        return {"jsonrpc": "2.0", "error": {"code": -32000, "message": "Server error"}, "id": request.get("id")}
