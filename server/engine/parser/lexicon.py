"""The words one world's parser knows: the grammar's, the small words, every item's names and their plurals."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from server.engine.english.nouns import plural
from server.engine.parser.kinds import CommandKind
from server.engine.parser.words import (
    ALL_WORDS,
    ARTICLES,
    CONJUNCTIONS,
    DIRECTIONS,
    EXCEPT_WORDS,
    OWNER_WORDS,
    PRONOUNS,
    SELF_WORDS,
)
from server.engine.world.items import Item


@dataclass(frozen=True, slots=True)
class Lexicon:
    """Built once from a world's items and grammar (`lexicon_of`); read by every stage of recognizing."""

    words: frozenset[str]
    """Every word some command could use."""
    item_words: Mapping[str, frozenset[str]]
    """The words that name each item."""
    all_item_words: frozenset[str]
    plurals: Mapping[str, str]
    """A plural ("keys") and the word it is the plural of; only things have plurals here."""
    heads: frozenset[str]
    """The words a command's word orders begin with."""
    exact: Mapping[str, frozenset[str]]
    """The whole names of each item ("velvet cloak"), lowercased: what a name matches exactly."""

    def known(self, word: str) -> bool:
        """Whether a word is one this world's commands could use."""
        if word in self.words or word.isdigit():
            return True
        # "the boy's ball": a possessive of anything nameable
        return word.endswith("'s") and word[:-2] in self.all_item_words

    def singular(self, word: str) -> str:
        """The word a plural stands for ("keys": "key"); any other word as it is."""
        return word if word in self.all_item_words else self.plurals.get(word, word)

    def is_plural(self, word: str) -> bool:
        """A plural that names no item as it is ("keys", not "glasses" when glasses are a thing)."""
        return word in self.plurals and word not in self.all_item_words

    def names_anything(self, word: str) -> bool:
        """Whether a word could be (part of) naming something: an item's word, a plural, a pronoun, "all"."""
        return (
            word in self.all_item_words
            or word in self.plurals
            or word in PRONOUNS
            or word in SELF_WORDS
            or word in ALL_WORDS
            or word.startswith('"')
            or word.isdigit()
        )

    def begins_command(self, word: str) -> bool:
        """Whether a word begins some command of this grammar ("light", "take"), or is a direction."""
        return word in self.heads or word in DIRECTIONS

    def fits(self, words: Iterable[str], tag: str) -> bool:
        """Whether every one of the words names the item."""
        return set(words) <= self.item_words[tag]


def lexicon_of(items: Mapping[str, Item], grammar: Sequence[CommandKind]) -> Lexicon:
    """The lexicon of a world's items under a grammar."""
    words: set[str] = set(ARTICLES | PRONOUNS | SELF_WORDS | ALL_WORDS | EXCEPT_WORDS | CONJUNCTIONS | OWNER_WORDS)
    words.update(DIRECTIONS)
    for kind in grammar:
        words.update(kind.literal_words())
    item_words = {tag: item.words() for tag, item in items.items()}
    all_item_words = frozenset(w for found in item_words.values() for w in found)
    known = words | all_item_words
    # "keys" names every key. Only things have plurals here: the plural of "me" is "us", of no use.
    plurals: dict[str, str] = {}
    for tag, item in items.items():
        if item.kind in ("thing", "door", "substance"):
            for word in item_words[tag]:
                for form in (plural(word), word + "s"):
                    if form not in known:
                        plurals.setdefault(form, word)
    heads = frozenset(pattern[0] for kind in grammar for pattern in kind.tokens if not pattern[0].isupper())
    exact = {
        tag: frozenset(name.lower() for name in (item.called, item.subsequent) if name) for tag, item in items.items()
    }
    return Lexicon(frozenset(known | plurals.keys()), item_words, all_item_words, plurals, heads, exact)
