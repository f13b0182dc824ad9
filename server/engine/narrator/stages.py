"""The narrator's twelve stages in order, and a telling made by running them over a frozen draft (compiled: a
telling is resumed here between its pieces, dozens of times a command)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from protocol.spin import Spin
from server.engine.english import VerbForm, sentence
from server.engine.narrator import (
    compose,
    filtering,
    frequency,
    order,
    paragraphs,
    present,
    realize,
    select,
    tense,
    timewords,
)
from server.engine.narrator.draft import Block, Discourse, Draft, Record
from server.engine.narrator.pieces import Steps, drained
from server.engine.narrator.reference import NAME_SPACE
from server.engine.narrator.templates import parse

Stage = Callable[[Draft], Draft]

STAGES: tuple[tuple[str, Stage], ...] = (
    ("select", select.run),
    ("order", order.run),
    ("frequency", frequency.run),
    ("tense", tense.run),
    ("time words", timewords.run),
    ("compose", compose.run),
    ("template filters", filtering.templates),
    ("realize", realize.run),
    ("sentence filters", filtering.sentences),
    ("paragraphs", paragraphs.run),
    ("paragraph filters", filtering.paragraphs),
    ("present", present.run),
)

Trace = Callable[[str, Draft], None]

IN_PIECES: dict[Stage, Callable[[Draft], Steps[Draft]]] = {
    select.run: select.steps,
    tense.run: tense.steps,
    compose.run: compose.steps,
    realize.run: realize.steps,
    paragraphs.run: paragraphs.steps,
    present.run: present.steps,
}
"""The stages whose work grows with the events told, each also in pieces (narrator/pieces.py); the others are
each one piece."""


@dataclass(frozen=True, slots=True)
class Telling:
    """A finished telling: blocks, the same as plain text, and the discourse to continue from."""

    blocks: tuple[Block, ...]
    text: str
    discourse: Discourse

    def __init__(  # written out, to be compiled (server/compiled.py)
        self, blocks: tuple[Block, ...], text: str, discourse: Discourse
    ) -> None:
        object.__setattr__(self, "blocks", blocks)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "discourse", discourse)


def tell(
    record: Record,
    spin: Spin,
    *,
    focalizer: str,
    seed: int,
    turn: int,
    discourse: Discourse | None = None,
    trace: Trace | None = None,
) -> Telling:
    """Tell what `focalizer` perceived of `record` under `spin`; `trace` sees the draft after each stage."""
    return drained(telling(record, spin, focalizer=focalizer, seed=seed, turn=turn, discourse=discourse, trace=trace))


def telling(
    record: Record,
    spin: Spin,
    *,
    focalizer: str,
    seed: int,
    turn: int,
    discourse: Discourse | None = None,
    trace: Trace | None = None,
) -> Steps[Telling]:
    """`tell` in pieces: it pauses (yields) after each stage and within the long ones, every PIECE events, and
    returns the same telling. The record must not change between pieces (the caller holds the story still)."""
    draft = Draft(
        record=record,
        spin=spin,
        focalizer=focalizer,
        seed=seed,
        turn=turn,
        discourse=discourse or Discourse(),
    )
    for name, stage in STAGES:
        pieces = IN_PIECES.get(stage)
        draft = stage(draft) if pieces is None else (yield from pieces(draft))
        if trace is not None:
            trace(name, draft)
        yield
    return Telling(draft.blocks, present.plain_text(draft.blocks), draft.discourse)


def render(
    record: Record,
    spin: Spin,
    template: str,
    *,
    focalizer: str,
    seed: int,
    discourse: Discourse | None = None,
) -> str:
    """One string with slots told now, in a story's world, through `focalizer` (its agent) — the authoring
    aid behind the protocol's `realize`: "[agent/s] [take/v] [@lamp/o]" -> "You take the lamp."."""
    draft = Draft(record=record, spin=spin, focalizer=focalizer, seed=seed, discourse=discourse or Discourse())
    moment = len(record.events) - 1
    speech = tense.speech_tense(spin, moment)
    form = VerbForm(tense=speech, perfect=spin.perfect, progressive=spin.progressive)
    scene = realize.Scene(
        roles={"agent": focalizer, "*": focalizer}, moment=moment, form=form, present=speech == "present"
    )
    said = realize.realize(parse(template), scene, realize.reference_for(draft))
    return sentence(said).replace(NAME_SPACE, " ")
