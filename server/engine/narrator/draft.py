"""The telling as it passes through the narrator's stages: immutable values each stage replaces, never edits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from protocol.spin import Spin
from server.engine.actions.action import Event
from server.engine.concepts import Concept
from server.engine.english import VerbForm
from server.engine.narrator.templates import Token
from server.engine.world.items import Item

BlockKind = Literal["heading", "paragraph"]


class Record(Protocol):
    """What the narrator reads of a story: its items, its events and each actor's concept."""

    @property
    def items(self) -> Mapping[str, Item]: ...

    @property
    def events(self) -> Sequence[Event]: ...

    @property
    def concepts(self) -> Mapping[str, Concept]: ...


@dataclass(frozen=True, slots=True)
class Told:
    """One event as it will be told.

    `count` > 1 when the iterative frequency folded repeats into it; `segment` numbers the stretch of the
    telling it belongs to (main line, flashback, a syllepsis group), each its own paragraph; `lead` opens
    a segment (a template such as "in [@lobby/o],"); `out_of_order` marks an event told after a later one,
    which takes the perfect; `form` is its tense and aspect, and `state_form` that of a state holding at its
    time (a failure's reason, what a look showed), which an out-of-order event does not make anterior;
    `time_word` relates it to the one told before.
    """

    event: Event
    count: int = 1
    segment: int = 0
    lead: str = ""
    out_of_order: bool = False
    form: VerbForm | None = None
    state_form: VerbForm | None = None
    present: bool = True
    time_word: str = ""
    templates: tuple[tuple[Token, ...], ...] = ()
    heading: str = ""
    sentences: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Block:
    """A heading or a paragraph of the finished telling."""

    kind: BlockKind
    text: str


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A heading, or a paragraph's sentences before they are joined; `first_event` seeds its filters."""

    kind: BlockKind
    sentences: tuple[str, ...]
    first_event: int


@dataclass(frozen=True, slots=True)
class Discourse:
    """What the telling has already said, so articles and references follow on across replies.

    `mentioned` holds items and phrases introduced so far ("a mask" becomes "the mask")."""

    mentioned: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Draft:
    """Everything a stage needs and everything the stages so far have decided."""

    record: Record
    spin: Spin
    focalizer: str
    seed: int
    discourse: Discourse = Discourse()
    told: tuple[Told, ...] = ()
    paragraphs: tuple[Paragraph, ...] = ()
    blocks: tuple[Block, ...] = ()
    turn: int = 0

    @property
    def concept(self) -> Concept:
        return self.record.concepts[self.focalizer]
