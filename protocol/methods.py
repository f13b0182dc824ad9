"""Every method of the contract: its params and result types, whether it needs a session, what it does, and
the errors it may answer with."""

from __future__ import annotations

from dataclasses import dataclass

from protocol import messages as m
from protocol.errors import Code

EVERY = (Code.INVALID_PARAMS, Code.RATE_LIMITED, Code.TOO_LARGE)
"""What any method may answer: params that do not fit (even a method without params is sent some), a caller
going too fast (per session, or per address for calls that need none), a message over the size limits."""

SESSION = (Code.NO_SESSION,)
"""What any method acting for a session may answer: no such session (missing, unknown or expired token)."""

SEATING = (Code.UNAVAILABLE,)
"""What a method that seats a detached session again may answer: its actor has since been taken by another
player (a session is detached after a while with no connection; see docs/protocol.md)."""

FORWARDED = (Code.NODE_UNREACHABLE,)
"""What a method a server of several workers may forward to the one holding the instance may answer (every
session method, and those naming an instance or making one): that worker cannot be reached right now."""


@dataclass(frozen=True, slots=True)
class Method:
    """One method: the struct its params decode into, the struct it returns, and its one-line summary.
    `session` methods act for a joined session (a token, or a socket bound by join/resume); `seats`: calling
    it for a detached session seats the session again first. `errors` are the codes it may answer with
    beyond those of every method, of every session method and of seating."""

    name: str
    params: type[m.Message]
    result: type[m.Result]
    summary: str
    session: bool = False
    errors: tuple[Code, ...] = ()
    seats: bool = True

    @property
    def codes(self) -> tuple[Code, ...]:
        """Every application or params code this method may answer with, in order (-32603 aside)."""
        found = {*EVERY, *self.errors}
        if self.session:
            found |= {*SESSION, *FORWARDED, *(SEATING if self.seats else ())}
        return tuple(sorted(found, reverse=True))


METHODS: tuple[Method, ...] = (
    Method("worlds", m.NoParams, m.WorldsResult, "The worlds this server can host."),
    Method("spins", m.NoParams, m.SpinsResult, "The named spins in spins/."),
    Method(
        "create",
        m.CreateParams,
        m.CreateResult,
        "Create a new persistent instance of a world.",
        # unknown world or spin; a world named by its path without author permission; -32006 also when the
        # server holds as many instances as it may; -32008 when the worker it was dealt to cannot be reached
        errors=(Code.UNKNOWN, Code.FORBIDDEN, *FORWARDED),
    ),
    Method(
        "instances",
        m.InstancesParams,
        m.InstancesResult,
        "The live instances, their turns and their players, a page (at most 100) at a time.",
        errors=FORWARDED,  # every worker's page is asked for
    ),
    Method(
        "join",
        m.JoinParams,
        m.JoinResult,
        "Join an instance as an actor; the opening as that actor sees it.",
        errors=(Code.UNKNOWN, Code.FORBIDDEN, Code.UNAVAILABLE, *FORWARDED),
    ),
    Method(
        "resume",
        m.ResumeParams,
        m.ResumeResult,
        "Rebind a (new) connection to a session by its token; a detached session is seated again.",
        errors=(*SESSION, *SEATING, *FORWARDED),
    ),
    Method(
        "authenticate",
        m.AuthenticateParams,
        m.AuthenticateResult,
        "Act as an author on this connection from now on, by the author token (a browser's way to show it).",
        # a wrong token; -32006 (data.retry_after) while this address is locked out for wrong tokens
        errors=(Code.FORBIDDEN,),
    ),
    Method(
        "leave",
        m.NoParams,
        m.Empty,
        "Leave the instance; the actor goes back to its script.",
        session=True,
        seats=False,  # leaving a detached session just forgets it
    ),
    Method(
        "command",
        m.CommandParams,
        m.Reply,
        "Give the session's actor a command (or a directive).",
        session=True,
        # a directive may name an unknown spin or save, be forbidden (undo with others present), or the
        # story may have ended
        errors=(Code.UNKNOWN, Code.FORBIDDEN, Code.ENDED),
    ),
    Method(
        "narrate",
        m.NarrateParams,
        m.Reply,
        "Retell, without advancing time, what the actor knows.",
        session=True,
        errors=(Code.UNKNOWN, Code.FORBIDDEN),
    ),
    Method(
        "spin",
        m.SpinParams,
        m.SpinResult,
        "The session's whole spin, after applying `set` (named spins and settings, as narrate takes them).",
        session=True,
        errors=(Code.UNKNOWN, Code.FORBIDDEN),
    ),
    Method(
        "concept",
        m.ConceptParams,
        m.ConceptResult,
        "An actor's concept of the world.",
        session=True,
        errors=(Code.UNKNOWN, Code.FORBIDDEN),
    ),
    Method(
        "world",
        m.NoParams,
        m.WorldResult,
        "The true world (author permission only).",
        session=True,
        errors=(Code.FORBIDDEN,),
    ),
    Method("undo", m.NoParams, m.Reply, "Take back the last turn.", session=True, errors=(Code.FORBIDDEN,)),
    Method("restart", m.NoParams, m.Reply, "Begin the story again.", session=True, errors=(Code.FORBIDDEN,)),
    Method("save", m.SaveParams, m.SaveResult, "Save the story under a name.", session=True),
    Method(
        "restore",
        m.SaveParams,
        m.SaveResult,
        "Go back to a saved story.",
        session=True,
        errors=(Code.UNKNOWN, Code.FORBIDDEN),
    ),
    Method(
        "fork",
        m.NoParams,
        m.ForkResult,
        "Copy the instance at its turn into a new one, and play on there as the same actor; the original stays.",
        session=True,
        # -32006 also when the server holds as many instances as it may
    ),
    Method("actions", m.NoParams, m.ActionsResult, "Commands that would succeed now for the actor.", session=True),
    Method(
        "state",
        m.NoParams,
        m.StateResult,
        "The instance, actor, room, things and state hash; what this session may read and tell through.",
        session=True,
    ),
    Method(
        "vocabulary",
        m.NoParams,
        m.VocabularyResult,
        "The words every story understands and the names the actor knows, for completion.",
        session=True,
    ),
    Method(
        "realize",
        m.RealizeParams,
        m.RealizeResult,
        "Render a string with slots in this world.",
        session=True,
        errors=(Code.UNKNOWN, Code.FORBIDDEN),
    ),
)

DISCOVER_ERRORS = (Code.RATE_LIMITED, Code.TOO_LARGE)
"""rpc.discover takes no session and ignores its params: it may only be limited."""

BY_NAME: dict[str, Method] = {method.name: method for method in METHODS}
