"""Template filter: Queneau's "Double Entry" — every object is said twice, with a phrase restating it."""

from __future__ import annotations

import random

from server.engine.english import Tense
from server.engine.narrator.templates import Ref, Text, Token

SUMMARY = 'Double entry, after Queneau: a phrase restating each object ("the mask, one and the same,").'

# Restatements as Text, not a second Ref: the same item named again would be made a pronoun ("the mask, that is
# to say it"). Each fits a person or a thing, one or many, so none needs the object's gender or number.
PHRASES = ("one and the same", "none other", "the very same", "the same and no other")

_STOPS = tuple(".,;:!?)]}\"'”’»—")


def _phrase(words: str, following: Token | None) -> Text:
    """The restatement set off by commas, but with no closing comma where punctuation or the end follows,
    which would give "mask, none other,." or "mask, none other,, and"."""
    if following is None:
        return Text(f", {words}")
    if isinstance(following, Text):
        if following.text.startswith(_STOPS):
            return Text(f", {words}")
        if following.text[:1].isspace():
            return Text(f", {words},")
    # A slot or a word glued to the object: the space the template lacked is supplied.
    return Text(f", {words}, ")


def template(tokens: tuple[Token, ...], rng: random.Random, tense: Tense) -> tuple[Token, ...]:
    """The template with a restating phrase after each object slot; subjects, verbs and possessives untouched
    (whatever the tense)."""
    result: list[Token] = []
    for index, token in enumerate(tokens):
        result.append(token)
        if isinstance(token, Ref) and token.case == "o":
            following = tokens[index + 1] if index + 1 < len(tokens) else None
            result.append(_phrase(rng.choice(PHRASES), following))
    return tuple(result)
