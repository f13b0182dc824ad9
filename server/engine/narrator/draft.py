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

    def __init__(  # written out, to be compiled (server/compiled.py)
        self,
        event: Event,
        count: int = 1,
        segment: int = 0,
        lead: str = "",
        out_of_order: bool = False,
        form: VerbForm | None = None,
        state_form: VerbForm | None = None,
        present: bool = True,
        time_word: str = "",
        templates: tuple[tuple[Token, ...], ...] = (),
        heading: str = "",
        sentences: tuple[str, ...] = (),
    ) -> None:
        object.__setattr__(self, "event", event)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "segment", segment)
        object.__setattr__(self, "lead", lead)
        object.__setattr__(self, "out_of_order", out_of_order)
        object.__setattr__(self, "form", form)
        object.__setattr__(self, "state_form", state_form)
        object.__setattr__(self, "present", present)
        object.__setattr__(self, "time_word", time_word)
        object.__setattr__(self, "templates", templates)
        object.__setattr__(self, "heading", heading)
        object.__setattr__(self, "sentences", sentences)

    def decided(
        self,
        *,
        count: int | None = None,
        segment: int | None = None,
        lead: str | None = None,
        out_of_order: bool | None = None,
        form: VerbForm | None = None,
        state_form: VerbForm | None = None,
        present: bool | None = None,
        time_word: str | None = None,
        templates: tuple[tuple[Token, ...], ...] | None = None,
        heading: str | None = None,
        sentences: tuple[str, ...] | None = None,
    ) -> Told:
        """This event's telling with what a stage decided of it, the rest as it was: a direct copy, as
        `Draft.decided` is (no stage takes a decision back to None)."""
        return Told(
            self.event,
            self.count if count is None else count,
            self.segment if segment is None else segment,
            self.lead if lead is None else lead,
            self.out_of_order if out_of_order is None else out_of_order,
            self.form if form is None else form,
            self.state_form if state_form is None else state_form,
            self.present if present is None else present,
            self.time_word if time_word is None else time_word,
            self.templates if templates is None else templates,
            self.heading if heading is None else heading,
            self.sentences if sentences is None else sentences,
        )


@dataclass(frozen=True, slots=True)
class Block:
    """A heading or a paragraph of the finished telling."""

    kind: BlockKind
    text: str

    def __init__(self, kind: BlockKind, text: str) -> None:  # written out, to be compiled (server/compiled.py)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "text", text)


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A heading, or a paragraph's sentences before they are joined; `first_event` seeds its filters."""

    kind: BlockKind
    sentences: tuple[str, ...]
    first_event: int

    def __init__(self, kind: BlockKind, sentences: tuple[str, ...], first_event: int) -> None:  # (server/compiled.py)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "sentences", sentences)
        object.__setattr__(self, "first_event", first_event)


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

    def __init__(  # written out, to be compiled (server/compiled.py)
        self,
        record: Record,
        spin: Spin,
        focalizer: str,
        seed: int,
        discourse: Discourse = Discourse(),
        told: tuple[Told, ...] = (),
        paragraphs: tuple[Paragraph, ...] = (),
        blocks: tuple[Block, ...] = (),
        turn: int = 0,
    ) -> None:
        object.__setattr__(self, "record", record)
        object.__setattr__(self, "spin", spin)
        object.__setattr__(self, "focalizer", focalizer)
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "discourse", discourse)
        object.__setattr__(self, "told", told)
        object.__setattr__(self, "paragraphs", paragraphs)
        object.__setattr__(self, "blocks", blocks)
        object.__setattr__(self, "turn", turn)

    def decided(
        self,
        *,
        told: tuple[Told, ...] | None = None,
        paragraphs: tuple[Paragraph, ...] | None = None,
        blocks: tuple[Block, ...] | None = None,
        discourse: Discourse | None = None,
    ) -> Draft:
        """This draft with what a stage decided, the rest as it was. Each stage ends with one, some fifty a
        command: compiled, it is a direct call and a direct construction, where the generic `replace` spent
        about 5,000 instructions a copy reading fields by name and calling the class through Python."""
        return Draft(
            self.record,
            self.spin,
            self.focalizer,
            self.seed,
            self.discourse if discourse is None else discourse,
            self.told if told is None else told,
            self.paragraphs if paragraphs is None else paragraphs,
            self.blocks if blocks is None else blocks,
            self.turn,
        )

    @property
    def concept(self) -> Concept:
        return self.record.concepts[self.focalizer]
