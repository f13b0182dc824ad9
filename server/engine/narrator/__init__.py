"""The narrator: tells what one actor perceived, under a spin, as headings and paragraphs.

Its stages, each `run(draft) -> draft` on an immutable Draft:
1. select      — events the focalizer perceived, within the window, salient enough, not elided.
2. order       — chronicle, retrograde, achrony, analepsis or syllepsis; marks events told out of order.
3. frequency   — singulative, or iterative (repeats folded into one telling with a count).
4. tense       — tense and aspect from event, reference and speech times.
5. time words  — then, meanwhile, before that, earlier.
6. compose     — the templates for each event: its action, a failure with its reason, or a description.
7. template filters (double entry).
8. realize     — templates to sentences: person, number, agreement, pronouns, articles, deictics.
9. sentence filters (hesitant, valley girl, surprise, hedges).
10. paragraphs — sentences gathered into headings and paragraphs.
11. paragraph filters (surprise).
12. present    — blocks and plain text.
"""

from __future__ import annotations

from server.engine.narrator.draft import Block, Discourse, Draft, Record
from server.engine.narrator.pieces import Steps
from server.engine.narrator.stages import STAGES, Telling, Trace, render, tell, telling

__all__ = ["STAGES", "Block", "Discourse", "Draft", "Record", "Steps", "Telling", "Trace", "render", "tell", "telling"]
