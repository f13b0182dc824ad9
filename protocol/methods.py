"""Every method of the contract: its params and result types, whether it needs a session, and what it does."""

from __future__ import annotations

from dataclasses import dataclass

from protocol import messages as m


@dataclass(frozen=True, slots=True)
class Method:
    """One method: the struct its params decode into, the struct it returns, and its one-line summary.
    `session` methods act for a joined session (a token, or a socket bound by join/resume)."""

    name: str
    params: type[m.Message]
    result: type[m.Result]
    summary: str
    session: bool = False


METHODS: tuple[Method, ...] = (
    Method("worlds", m.NoParams, m.WorldsResult, "The worlds this server can host."),
    Method("spins", m.NoParams, m.SpinsResult, "The named spins in spins/."),
    Method("create", m.CreateParams, m.CreateResult, "Create a new persistent instance of a world."),
    Method("instances", m.NoParams, m.InstancesResult, "The live instances, their turns and their players."),
    Method("join", m.JoinParams, m.JoinResult, "Join an instance as an actor; the opening as that actor sees it."),
    Method("resume", m.ResumeParams, m.ResumeResult, "Rebind a (new) connection to a session by its token."),
    Method("leave", m.NoParams, m.Empty, "Leave the instance; the actor goes back to waiting.", session=True),
    Method("command", m.CommandParams, m.Reply, "Give the session's actor a command (or a directive).", session=True),
    Method("narrate", m.NarrateParams, m.Reply, "Retell, without advancing time, what the actor knows.", session=True),
    Method("spin", m.SpinParams, m.SpinResult, "The session's spin, after applying `set`.", session=True),
    Method("concept", m.ConceptParams, m.ConceptResult, "An actor's concept of the world.", session=True),
    Method("world", m.NoParams, m.WorldResult, "The true world (author permission only).", session=True),
    Method("undo", m.NoParams, m.Reply, "Take back the last turn.", session=True),
    Method("restart", m.NoParams, m.Reply, "Begin the story again.", session=True),
    Method("save", m.SaveParams, m.SaveResult, "Save the story under a name.", session=True),
    Method("restore", m.SaveParams, m.SaveResult, "Go back to a saved story.", session=True),
    Method("actions", m.NoParams, m.ActionsResult, "Commands that would succeed now for the actor.", session=True),
    Method("state", m.NoParams, m.StateResult, "The instance, actor, room, things and state hash.", session=True),
    Method("realize", m.RealizeParams, m.RealizeResult, "Render a string with slots in this world.", session=True),
)

BY_NAME: dict[str, Method] = {method.name: method for method in METHODS}
