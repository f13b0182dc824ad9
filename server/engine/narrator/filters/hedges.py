"""Sentence filter: distance hedges — it seems that, evidently, apparently, perhaps — as the Lost One world uses.

Tense: "seem" is put in the past ("It seemed that…", "…, it seemed.") only when the sentence's verb is plainly
past, that is when the word taken for its verb is was/were/had/did or ends in -ed; otherwise it stays "seems".
That errs the safe way: an irregular past the guess misses still reads well ("It seems that I shot the man"),
while "seemed" before a present verb would not. The other hedges do not depend on tense at all."""

from __future__ import annotations

import random

from server.engine.narrator.filters.hesitant import (
    PAST_AUXILIARIES,
    bare,
    can_break,
    insert,
    open_with,
    split_end,
    verb_index,
)

SUMMARY = 'Distance hedges: "It seems that…", ", evidently,", ", apparently,", ", it seems", "Perhaps…".'

# How often each hedge is used; "none" keeps some sentences plain, so the hedging reads as a manner, not a tic.
_KINDS = ("none", "seems that", "evidently", "apparently", "it seems", "perhaps")
_WEIGHTS = (4, 2, 2, 2, 1, 2)


def _past(words: list[str], verb: int | None) -> bool:
    if verb is None:
        return False
    word = bare(words[verb])
    return word in PAST_AUXILIARIES or (len(word) > 3 and word.endswith("ed"))


def sentence(text: str, rng: random.Random) -> str:
    """The sentence, often with one hedge that puts the narrator at a distance from what is told."""
    ending = split_end(text)
    kind = rng.choices(_KINDS, _WEIGHTS)[0]
    # Only statements are hedged: "It seems that do you see?" is not English, nor is hedging a quotation's end.
    if ending is None or ending[1] != "." or kind == "none":
        return text
    body, stop = ending
    words = text.split()
    verb = verb_index(words)
    seem = "seemed" if _past(words, verb) else "seems"
    if kind in ("evidently", "apparently") and verb is not None and can_break(words, verb):
        return " ".join(insert(words, verb, kind))
    if kind == "seems that":
        return open_with(f"it {seem} that", text)
    if kind == "it seems":
        return f"{body}, it {seem}{stop}"
    # "Perhaps" is also where an adverb hedge goes when no subject-verb break was found.
    return open_with("perhaps", text)
