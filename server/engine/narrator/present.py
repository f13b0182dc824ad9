"""Stage: present the telling as blocks (headings, paragraphs) and as plain text."""

from __future__ import annotations

from server.engine.copying import replace
from server.engine.english import capitalize_first, join_sentences
from server.engine.narrator.draft import Block, Draft
from server.engine.narrator.reference import NAME_SPACE


def run(draft: Draft) -> Draft:
    blocks = tuple(
        Block("heading", capitalize_first(p.sentences[0]))
        if p.kind == "heading"
        else Block("paragraph", join_sentences(p.sentences).replace(NAME_SPACE, " "))
        for p in draft.paragraphs
    )
    return replace(draft, blocks=blocks)


def plain_text(blocks: tuple[Block, ...]) -> str:
    """Headings and paragraphs separated by blank lines."""
    return "\n\n".join(block.text for block in blocks)
