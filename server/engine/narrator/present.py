"""Stage: present the telling as blocks (headings, paragraphs) and as plain text."""

from __future__ import annotations

from server.engine.english import capitalize_first, join_sentences
from server.engine.narrator.draft import Block, Draft, Paragraph
from server.engine.narrator.pieces import Steps, drained, mapped
from server.engine.narrator.reference import NAME_SPACE


def run(draft: Draft) -> Draft:
    return drained(steps(draft))


def steps(draft: Draft) -> Steps[Draft]:
    """`run` in pieces (narrator/pieces.py)."""
    blocks = yield from mapped(draft.paragraphs, _block)
    return draft.decided(blocks=blocks)


def _block(paragraph: Paragraph) -> Block:
    if paragraph.kind == "heading":
        return Block("heading", capitalize_first(paragraph.sentences[0]))
    return Block("paragraph", join_sentences(paragraph.sentences).replace(NAME_SPACE, " "))


def plain_text(blocks: tuple[Block, ...]) -> str:
    """Headings and paragraphs separated by blank lines."""
    return "\n\n".join(block.text for block in blocks)
