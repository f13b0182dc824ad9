"""Sentence filter: distance hedges — it seems that, evidently, apparently, perhaps — as the Lost One world uses.

Tense: "seem" takes the tense the telling is in at the sentence's event, as the spin's time of narrating gives it,
never a guess from the words: a telling after the events hedges "it seemed that…" throughout, whatever its
verbs look like ("It seemed that I shot the man"); one in the present, or a prophecy, "it seems that…". The
other hedges do not depend on tense at all."""

from __future__ import annotations

import random

from server.engine.english import Tense, VerbForm, verb_phrase
from server.engine.narrator.filters.hesitant import can_break, insert, open_with, split_end, verb_index

SUMMARY = 'Distance hedges: "It seems that…", ", evidently,", ", apparently,", ", it seems", "Perhaps…".'

# How often each hedge is used; "none" keeps some sentences plain, so the hedging reads as a manner, not a tic.
_KINDS = ("none", "seems that", "evidently", "apparently", "it seems", "perhaps")
_WEIGHTS = (4, 2, 2, 2, 1, 2)


def seem(tense: Tense) -> str:
    """ "seems", or "seemed" in a telling of the past; a prophecy's narrator is unsure now: "it seems that it will"."""
    return verb_phrase("seem", 3, False, VerbForm(tense="past" if tense == "past" else "present"))


def sentence(text: str, rng: random.Random, tense: Tense) -> str:
    """The sentence, often with one hedge that puts the narrator at a distance from what is told; `tense` is the
    tense the telling is in at the sentence's event."""
    ending = split_end(text)
    kind = rng.choices(_KINDS, _WEIGHTS)[0]
    # Only statements are hedged: "It seems that do you see?" is not English, nor is hedging a quotation's end.
    if ending is None or ending[1] != "." or kind == "none":
        return text
    body, stop = ending
    words = text.split()
    verb = verb_index(words)
    if kind in ("evidently", "apparently") and verb is not None and can_break(words, verb):
        return " ".join(insert(words, verb, kind))
    if kind == "seems that":
        return open_with(f"it {seem(tense)} that", text)
    if kind == "it seems":
        return f"{body}, it {seem(tense)}{stop}"
    # "Perhaps" is also where an adverb hedge goes when no subject-verb break was found.
    return open_with("perhaps", text)
