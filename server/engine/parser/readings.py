"""Readings: every way a command's words fit a word order of the grammar, the most literal first."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from server.engine.parser.kinds import CommandKind, verb_of
from server.engine.parser.words import ARTICLES, CONJUNCTIONS, DIRECTIONS, EXCEPT_WORDS, OWNER_WORDS, PRONOUNS, Token


@dataclass(frozen=True, slots=True)
class Reading:
    """One way a command's words fit one word order of the grammar: the words each slot took."""

    kind: CommandKind
    pattern: tuple[str, ...]
    slots: Mapping[str, tuple[str, ...]]
    text: str | None = None
    """The free text (TEXT) exactly as typed, brackets and all."""

    @property
    def verb(self) -> str:
        return verb_of(self.pattern)


Spans = dict[str, list[int]]
"""Slot name -> the word positions it takes."""


@dataclass(frozen=True, slots=True)
class WordOrders:
    """A grammar's word orders indexed by the word they begin with, so a line is matched only against those
    that could begin with its first word (and those that begin with a slot), not against all of them."""

    by_first: Mapping[str, tuple[tuple[int, int, CommandKind, tuple[str, ...]], ...]]
    """First word -> (-literal words, place in the grammar, kind, pattern), in the grammar's order."""
    open: tuple[tuple[int, int, CommandKind, tuple[str, ...]], ...]
    """The word orders that begin with a slot ("DIR"): tried for every line."""


def word_orders(grammar: Sequence[CommandKind]) -> WordOrders:
    orders = [
        (-sum(1 for p in pattern if not p.isupper()), order, kind, pattern)
        for order, (kind, pattern) in enumerate((k, p) for k in grammar for p in k.tokens)
    ]
    opening = tuple(o for o in orders if o[3][0].isupper())
    firsts = {o[3][0] for o in orders if not o[3][0].isupper()}
    by_first = {first: tuple(o for o in orders if o[3][0] == first or o[3][0].isupper()) for first in sorted(firsts)}
    return WordOrders(by_first, opening)


def readings(orders: WordOrders, command: str, tokens: list[Token]) -> Iterator[tuple[Reading, Spans]]:
    """Every reading of a command's words, with the positions each slot took; patterns that account for more of
    the words literally are the more specific readings, so they come first."""
    words = [token.text for token in tokens]
    found = []
    for literals, order, kind, pattern in orders.by_first.get(words[0], orders.open) if words else ():
        for spans in match(pattern, words, 0, 0):
            found.append((literals, order, kind, pattern, spans))
    for _, _, kind, pattern, spans in sorted(found, key=lambda f: (f[0], f[1])):
        slots = {name: tuple(words[i] for i in span) for name, span in spans.items()}
        text = _free_text(command, tokens, spans["TEXT"]) if "TEXT" in spans else None
        yield Reading(kind, pattern, slots, text), spans


def match(pattern: tuple[str, ...], words: list[str], p: int, w: int) -> Iterator[Spans]:
    """Every way `words[w:]` fits `pattern[p:]`: slot name -> the word positions it takes."""
    if p == len(pattern):
        if w == len(words):
            yield {}
        return
    token = pattern[p]
    if not token.isupper():
        if w < len(words) and words[w] == token:
            yield from match(pattern, words, p + 1, w + 1)
        return
    if token in ("DIR", "WORD"):
        if w < len(words) and (words[w] in DIRECTIONS if token == "DIR" else _SETTING.fullmatch(words[w])):
            for rest in match(pattern, words, p + 1, w + 1):
                yield {token: [w], **rest}
        return
    if p == len(pattern) - 1:
        # A last slot takes every word left.
        if w < len(words) and _could_name(token, words[w:], last=True):
            yield {token: list(range(w, len(words)))}
        return
    ends = range(w + 1, len(words) + 1)
    # Before free text, the longest name that works is meant: "tell the dazed mime hello", not "tell the
    # dazed" "mime hello".
    for end in reversed(ends) if pattern[p + 1] == "TEXT" else ends:
        if _could_name(token, words[w:end], last=False):
            for rest in match(pattern, words, p + 1, end):
                yield {token: list(range(w, end)), **rest}


# A setting is a plain word: not quoted text, not a comma, and not "_the_x", which a template would read as a phrase.
_SETTING = re.compile(r"[^\W_][\w'-]*")
_NOT_LAST = ARTICLES | CONJUNCTIONS | OWNER_WORDS | EXCEPT_WORDS


def _could_name(slot: str, words: list[str], *, last: bool) -> bool:
    """Whether words could fill a slot at all: a name does not begin with "and" or end with "the". (A last
    slot of only "the" is let through, to be asked about: "take the" is a command cut short.)"""
    if slot not in ("OBJ", "OBJ2"):
        return True
    alone = len(words) == 1 and (last or words[0] in PRONOUNS)
    return words[0] not in CONJUNCTIONS and (words[-1] not in _NOT_LAST or alone)


def _free_text(command: str, tokens: list[Token], span: list[int]) -> str:
    """Free text exactly as typed: from just after the word before it to just before the word after it, so
    brackets, @ signs and other punctuation stay."""
    start = tokens[span[0] - 1].end if span[0] > 0 else 0
    end = tokens[span[-1] + 1].start if span[-1] + 1 < len(tokens) else len(command)
    return command[start:end].strip()
