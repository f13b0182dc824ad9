"""Stage: gather the realized sentences into headings and paragraphs (a new one at each heading or segment), each
sentence capitalized now that the sentence filters have put before it whatever they put."""

from __future__ import annotations

from server.engine.english import sentence
from server.engine.narrator.draft import Draft, Paragraph
from server.engine.narrator.pieces import PIECE, Steps, drained


def run(draft: Draft) -> Draft:
    return drained(steps(draft))


def steps(draft: Draft) -> Steps[Draft]:
    """`run` in pieces (narrator/pieces.py)."""
    paragraphs: list[Paragraph] = []
    sentences: list[str] = []
    first = -1
    segment: int | None = None

    def close() -> None:
        if sentences:
            paragraphs.append(Paragraph("paragraph", tuple(sentences), first))
            sentences.clear()

    for index, item in enumerate(draft.told, 1):
        if index % PIECE == 0:
            yield
        if item.heading or item.segment != segment:
            close()
            segment = item.segment
        if item.heading:
            paragraphs.append(Paragraph("heading", (item.heading,), item.event.id))
        # Each is made a sentence only now, after the sentence filters: its capital goes on whatever came first.
        told = [sentence(said) for said in item.sentences]
        if draft.spin.event_numbers and told:
            told[0] = f"[{item.event.id}] {told[0]}"
        if told and not sentences:
            first = item.event.id
        sentences.extend(told)
    close()
    return draft.decided(paragraphs=tuple(paragraphs))
