"""Sentence and paragraph filter: a narrator surprised by everything — whoa, wow, and exclamation marks."""

from __future__ import annotations

import random

from server.engine.english import Tense, capitalize_first
from server.engine.narrator.filters.hesitant import open_with, split_end

SUMMARY = 'A surprised narrator: "!" for ".", "Whoa," or "Wow," at the start, "Amazing!" after a paragraph.'

_OPENERS = ("whoa,", "wow,", "oh!")
_EXCLAMATIONS = ("Amazing!", "Can you believe it?", "Incredible!", "Who would have thought?", "Unbelievable!")


def sentence(text: str, rng: random.Random, tense: Tense) -> str:
    """The sentence, often exclaimed rather than stated, and sometimes opened with a gasp (whatever the tense)."""
    if not any(char.isalpha() for char in text):
        return text
    ending = split_end(text)
    # Only a plain full stop turns: a question stays a question, and a sentence ending in a quotation keeps
    # the speaker's own punctuation.
    if ending is not None and ending[1] == ".":
        body = ending[0]
        roll = rng.random()
        if roll < 0.1:
            text = f"{body}?!"
        elif roll < 0.6:
            text = f"{body}!"
    if rng.random() < 0.3:
        opener = rng.choice(_OPENERS)
        # "Oh!" is a sentence of its own, so what follows it starts with a capital.
        text = f"{opener} {capitalize_first(text)}" if opener.endswith("!") else open_with(opener, text)
    return text


def paragraph(sentences: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
    """The paragraph, sometimes with an exclamation of wonder after its last sentence."""
    if not sentences or rng.random() >= 0.4:
        return sentences
    return (*sentences, rng.choice(_EXCLAMATIONS))
