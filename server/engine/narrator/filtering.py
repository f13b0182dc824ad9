"""Stages: the spin's named text filters, over templates, sentences or paragraphs (one module per filter, in
filters/).

Filters are functions in the engine, chosen by name, so a spin file can never run code. Each random choice
comes from a generator seeded by the story's seed, the filter and the event, so a telling is reproducible
and an event reads the same however much of the story is told around it. A template or sentence filter is
also given the tense the spin tells the event in, and a sentence filter gets its sentence with the first letter
as realized (it is capitalized after the filters), so nothing a filter adds has to be guessed from the words."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from server.engine.english import Tense
from server.engine.narrator.draft import Draft, Paragraph
from server.engine.narrator.filters import double_entry, hedges, hesitant, surprise, valley_girl
from server.engine.narrator.templates import Token
from server.engine.narrator.tense import speech_tense

TemplateFilter = Callable[[tuple[Token, ...], random.Random, Tense], tuple[Token, ...]]
SentenceFilter = Callable[[str, random.Random, Tense], str]
ParagraphFilter = Callable[[tuple[str, ...], random.Random], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Filter:
    """A named filter: what it does, and the level (or levels) it works at."""

    summary: str
    template: TemplateFilter | None = None
    sentence: SentenceFilter | None = None
    paragraph: ParagraphFilter | None = None


FILTERS: dict[str, Filter] = {
    "hesitant": Filter(hesitant.SUMMARY, sentence=hesitant.sentence),
    "valley_girl": Filter(valley_girl.SUMMARY, sentence=valley_girl.sentence),
    "surprise": Filter(surprise.SUMMARY, sentence=surprise.sentence, paragraph=surprise.paragraph),
    "hedges": Filter(hedges.SUMMARY, sentence=hedges.sentence),
    "double_entry": Filter(double_entry.SUMMARY, template=double_entry.template),
}


def _rng(name: str, seed: int, *place: int) -> random.Random:
    return random.Random(":".join((name, str(seed), *map(str, place))))


def templates(draft: Draft) -> Draft:
    return _each_told(draft, "template", "templates")


def sentences(draft: Draft) -> Draft:
    return _each_told(draft, "sentence", "sentences")


def _each_told(draft: Draft, level: str, field: str) -> Draft:
    """Run the spin's filters of one level over each told event's templates or sentences, in order."""
    active = [(name, getattr(FILTERS[name], level)) for name in draft.spin.filters if getattr(FILTERS[name], level)]
    if not active:
        return draft
    told = []
    for item in draft.told:
        # Each filter hears the tense the spin tells this event in (before an out-of-order event's shift):
        # "it seemed that…" all through a telling after the events.
        tense = speech_tense(draft.spin, item.event.id)
        changed = []
        for index, piece in enumerate(getattr(item, field)):
            for name, apply in active:
                piece = apply(piece, _rng(name, draft.seed, item.event.id, index), tense)
            changed.append(piece)
        told.append(
            item.decided(templates=tuple(changed)) if level == "template" else item.decided(sentences=tuple(changed))
        )
    return draft.decided(told=tuple(told))


def paragraphs(draft: Draft) -> Draft:
    active = [(name, FILTERS[name].paragraph) for name in draft.spin.filters if FILTERS[name].paragraph]
    if not active:
        return draft
    result = []
    for paragraph in draft.paragraphs:
        if paragraph.kind == "paragraph":
            texts = paragraph.sentences
            for name, apply in active:
                assert apply is not None
                texts = apply(texts, _rng(name, draft.seed, paragraph.first_event))
            paragraph = Paragraph("paragraph", texts, paragraph.first_event)
        result.append(paragraph)
    return draft.decided(paragraphs=tuple(result))
