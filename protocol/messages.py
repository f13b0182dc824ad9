"""The wire contract's messages: params and results of every method, the Reply, blocks, nodes, notifications."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from protocol.spin import Spin, SpinPart, SpinSettings

Tag = Annotated[str, msgspec.Meta(pattern=r"^@\w+$", description="an item tag, like @guard")]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[\w .'-]+$")]
SaveName = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^\w+$")]
Token = Annotated[str, msgspec.Meta(min_length=16, max_length=128)]
InstanceId = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[\w-]+$")]
CommandText = Annotated[str, msgspec.Meta(max_length=2000)]
Template = Annotated[str, msgspec.Meta(max_length=4000)]

SpinArgument = str | list[SpinPart] | SpinSettings
"""A named spin, settings over the session's spin, or a list of named spins and settings applied in order
(later parts win; named spins' filters add up). `protocol.spin.spin_argument` reads typed words into one."""

Window = Literal["all", "turn"] | Annotated[int, msgspec.Meta(ge=1)]

Seq = Annotated[
    int,
    msgspec.Meta(
        ge=0,
        description="a session's sequence number: every Reply and notification of a session is numbered, and the "
        "numbers only grow (0: nothing yet)",
    ),
]


class Message(msgspec.Struct, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """The base of every message. Keyword-only, so messages read as names and values; defaults are left out
    of what is sent, so optional fields cost nothing; unknown fields are refused, so a misspelt parameter
    is an error that names it rather than a setting silently ignored."""


class Result(msgspec.Struct, kw_only=True):
    """The base of every result: always an object, every field always present, so clients may rely on it."""


# -- shared shapes ----------------------------------------------------------------------------------------


class Block(Result):
    """A heading or a paragraph of narration."""

    kind: Literal["heading", "paragraph"]
    text: str


class Reply(Result):
    """What a command, a directive or a retelling says: plain text, blocks, the instance's turn, and whether
    the story has ended."""

    text: str
    blocks: list[Block]
    turn: int
    ended: bool
    seq: Annotated[
        int,
        msgspec.Meta(
            ge=0,
            description="The session's sequence number: a reply to a call that changes the story (command, undo, "
            "restart) takes the next one, and resume sends it again if it was lost; a retelling (narrate) changes "
            "nothing and carries the number the session has reached.",
        ),
    ] = 0


class Node(Result):
    """One item of a tree: its tag, name, link to its parent (null for the root), children, and kind ("room",
    "actor", "thing", "door", "shared", "substance"; "" from a server that does not say)."""

    tag: str
    name: str
    link: str | None
    children: list[Node]
    kind: str = ""


class ActorInfo(Result):
    tag: str
    name: str


class WorldInfo(Result):
    name: str
    title: str
    summary: str
    interactive: bool
    actors: list[ActorInfo]
    default_actor: str


class SpinInfo(Result):
    """A named spin: its name, what it does, and the settings it applies (its filters add to those in force)."""

    name: str
    summary: str
    spin: SpinSettings


class PlayerInfo(Result):
    name: str
    actor: str


class InstanceInfo(Result):
    instance: str
    world: str
    turn: int
    ended: bool
    players: list[PlayerInfo]


# -- params ---------------------------------------------------------------------------------------------------


class NoParams(Message):
    """A method that takes no parameters."""


class CreateParams(Message):
    world: Annotated[str, msgspec.Meta(min_length=1, max_length=1024)]
    """A world's name, or (authors only) the path to a world file on the server."""
    seed: Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)] | None = None
    spin: SpinArgument | None = None


class InstancesParams(Message):
    after: InstanceId | None = None
    """Page on from this instance id (the `next` of the page before); from the first without it."""
    limit: Annotated[int, msgspec.Meta(ge=1, le=100)] = 100
    """The most instances one page holds."""


class JoinParams(Message):
    instance: InstanceId
    actor: Tag | None = None
    name: Name | None = None
    spin: SpinArgument | None = None


class ResumeParams(Message):
    token: Token
    last_seq: (
        Annotated[
            int,
            msgspec.Meta(
                ge=0,
                description="The last sequence number this client saw (of a Reply or a notification). Over a "
                "WebSocket the server sends again, as notifications and in order, the session's messages numbered "
                "after it; when it no longer holds them all, the result carries a fresh state instead. Left out: "
                "nothing is sent again.",
            ),
        ]
        | None
    ) = None


class CommandParams(Message):
    text: CommandText


class NarrateParams(Message):
    spin: SpinArgument | None = None
    window: Window | None = None


class SpinParams(Message):
    set: SpinArgument | None = None
    """Named spins and settings to apply to the session's spin, as `narrate` takes them; none: just show it."""


class ConceptParams(Message):
    actor: Tag | None = None


class SaveParams(Message):
    name: SaveName


class RealizeParams(Message):
    template: Template
    spin: SpinArgument | None = None


# -- results ----------------------------------------------------------------------------------------------


class WorldsResult(Result):
    worlds: list[WorldInfo]


class SpinsResult(Result):
    spins: list[SpinInfo]


class CreateResult(Result):
    instance: str


class InstancesResult(Result):
    instances: list[InstanceInfo]
    """One page of the live instances, in the order of their ids."""
    next: str | None = None
    """The `after` that gives the next page; null on the last page."""


class JoinResult(Result):
    token: str
    instance: str
    actor: str
    turn: int
    text: str
    blocks: list[Block]


class ForkResult(Result):
    """A new instance, a copy of the caller's at its turn, and the caller's session in it (a new token)."""

    token: str
    """The new session's token: the caller plays on in the copy as the same actor, its spin and what it was
    told kept; the session it forked from stays where it was, seated in the original."""
    instance: str
    """The new instance: the same world, seed, log, saves and undo as the original, played by the caller
    alone (every other actor keeps to its script there)."""
    actor: str
    turn: int
    """The turn the copy is at: the original's when it was forked."""
    origin: str
    """The instance it was copied from."""


class ResumeResult(Result):
    instance: str
    actor: str
    turn: int
    seq: Annotated[
        int, msgspec.Meta(ge=0, description="The session's last sequence number when this answer was made.")
    ] = 0
    replayed: Annotated[
        int,
        msgspec.Meta(
            ge=0,
            description="How many messages after last_seq were sent again on this socket as notifications, each "
            "with its own seq, in order, before this answer and before any later message.",
        ),
    ] = 0
    state: Annotated[
        StateResult | None,
        msgspec.Meta(
            description="Given when last_seq is older than the messages the server keeps for a session (the "
            "resume_buffer limit), or than its last restart, or over HTTP (which carries no notifications) when "
            "anything was missed: where the session stands now. A client retells the turns since the last one it "
            "saw (narrate with a window); nothing is sent again, and later messages come as they happen.",
        ),
    ] = None


class Empty(Result):
    """An empty object: the call succeeded and has nothing to say."""


class SpinResult(Result):
    spin: Spin
    """The session's whole spin, every field (see the Spin schema)."""


class ConceptResult(Result):
    actor: str
    tree: Node
    text: str


class WorldResult(Result):
    tree: Node
    text: str


class SaveResult(Result):
    name: str
    turn: int


class ActionsResult(Result):
    commands: list[str]


class StateResult(Result):
    instance: str
    world: str
    actor: str
    turn: int
    room: str | None
    inventory: list[str]
    ended: bool
    hash: str
    room_name: str = ""
    """The room as the story heads it ("Foyer Bar"); "" when the actor is in none."""
    author: bool = False
    """Whether this session has author permission (the true world, any focalizer, world files by path)."""
    interactive: bool = True
    """Whether the world takes commands; a story (the robbery) is only told."""
    focalizers: list[str] = msgspec.field(default_factory=list)
    """The actors this session may tell the story through (a spin's focalizer); in an interactive world a
    player may use only its own actor."""
    concepts: list[str] = msgspec.field(default_factory=list)
    """The actors whose concepts this session may read with `concept`."""
    score: int = 0
    """Points scored so far, in a world that keeps a score (0 in one that keeps none); the `score` directive
    says the same in words."""
    max_score: int = 0
    """The points the world offers in all (0: it keeps no score). A story that ended with every point is won."""
    moves: int = 0
    """The turns this session's actor has taken: its commands that passed the time (not directives, nor
    commands the parser could not make out)."""


class VocabularyResult(Result):
    """The words the parser and the system understand, for completion: every story's verbs and directives
    (a world's own commands are in `actions`), and the names of what this session's actor knows."""

    verbs: list[str]
    """First words of commands ("take", "put", "x")."""
    particles: dict[str, list[str]]
    """For each verb, the words between or after its slots ("put" -> "on", "in")."""
    directed: list[str]
    """Verbs that take a direction ("go", "walk")."""
    looking: list[str]
    """The words before what is looked at ("x", "look at"): a room may follow them."""
    directions: list[str]
    directives: list[str]
    """The system's own commands by name ("undo", "world tree", "light level")."""
    names: list[str]
    """The names of the things, rooms and actors this session's actor knows, each once."""
    separators: str
    """How a line is split into commands, in one sentence; `protocol.commands.split_commands` implements it."""


class RealizeResult(Result):
    text: str


# -- notifications (server to client, WebSocket only) ------------------------------------------------------


class Narration(Result):
    """Something this session's actor perceived happened because of another actor."""

    instance: str
    turn: int
    text: str
    blocks: list[Block]
    seq: Seq = 0
    """Every notification carries the session's next sequence number."""


class LostReply(Result):
    """A Reply this session's connection lost (it dropped before the answer arrived), sent again on `resume`,
    numbered as it was first."""

    method: Annotated[str, msgspec.Meta(description="The call it answered: command, undo or restart.")]
    text: str
    blocks: list[Block]
    turn: int
    ended: bool
    seq: Seq = 0


class Presence(Result):
    """A player joined or left the instance."""

    instance: str
    name: str
    actor: str
    event: Literal["joined", "left"]
    seq: Seq = 0


class Ended(Result):
    """The story reached an ending."""

    instance: str
    turn: int
    seq: Seq = 0


NOTIFICATIONS: dict[str, type[Result]] = {
    "narration": Narration,
    "presence": Presence,
    "ended": Ended,
    "reply": LostReply,
}
