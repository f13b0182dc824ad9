"""Sentence filter: a valley-girl narrator — like, totally, so, you know?"""

from __future__ import annotations

import random

from server.engine.english import Tense
from server.engine.narrator.filters.hesitant import (
    AUXILIARIES,
    bare,
    insert,
    open_with,
    places,
    split_end,
    verb_index,
)

SUMMARY = 'A valley-girl narrator: "like," and "totally" sprinkled in, "Oh my God," and ", you know?"'

_OPENERS = ("oh my God,", "so,", "okay, so")
_TAILS = (", you know?", " — whatever")


def _totally(words: list[str], verb: int) -> list[str]:
    """ "totally" before the verb ("totally laughs"), or after its auxiliary ("is totally laughing"), but never
    before a "not", where it would change what is said ("does totally not laugh")."""
    word = words[verb]
    following = words[verb + 1] if verb + 1 < len(words) else ""
    if bare(word) in AUXILIARIES:
        if not (word[-1].isalpha() and following[:1].isalpha()) or bare(following) == "not":
            return words
        return [*words[:verb], f"{word} totally", *words[verb + 1 :]]
    if not word[0].isalpha():
        return words
    return [*words[:verb], f"totally {word}", *words[verb + 1 :]]


def sentence(text: str, rng: random.Random, tense: Tense) -> str:
    """The sentence with one or two "like,"s, and sometimes "totally", an opening gasp or a trailing tag (whatever
    the tense)."""
    words = text.split()
    if not any(char.isalpha() for char in text):
        return text
    # Places are found before "totally" goes in; no edit here changes the number of words, so they stay valid.
    spots = places(words)
    verb = verb_index(words)
    if verb is not None and rng.random() < 0.4:
        words = _totally(words, verb)
    chosen = rng.sample(spots, min(len(spots), rng.choice((1, 1, 2))))
    opening: list[str] = []
    for index in sorted(chosen):
        if index == 0:
            opening.append("like,")
        else:
            # Put before "totally": "teller, like, totally laughs", never "teller totally, like, laughs".
            words = insert(words, index, "like")
    told = " ".join(words)
    ending = split_end(told)
    if ending is not None and rng.random() < 0.3:
        body, stop = ending
        tail = rng.choice(_TAILS)
        # The question tag asks; "— whatever" shrugs and keeps the sentence's own stop.
        told = f"{body}{tail}" if tail.endswith("?") else f"{body}{tail}{stop}"
    if rng.random() < 0.25:
        opening.insert(0, rng.choice(_OPENERS))
    return open_with(" ".join(opening), told) if opening else told
