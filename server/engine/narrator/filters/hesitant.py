"""Sentence filter: a hesitant narrator, who puts uh, um and er between the words.

The word-level helpers here (where the verb probably is, where a word may be put, how to open a sentence) are
shared by the other sentence filters, which hedge and gush at the same places a hesitant narrator stalls.
A phrase the narrator says as one (a name, a time word such as "after that") comes with its words joined by a
word joiner, not a space, so no filter ever puts a word inside it."""

from __future__ import annotations

import random
import re

from server.engine.english import Tense

SUMMARY = "A hesitant narrator: uh, um, er (now and then well, I mean) at the start or between phrases."


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


DETERMINERS = _words("the a an some any my your his her its our their this that these those each every no")
SUBJECT_PRONOUNS = _words("i you he she it we they someone something somebody nobody nothing everyone everything")
AUXILIARIES = _words(
    "am is are was were has have had do does did will would shall should can cannot could may might must"
)

# Long words ending in -s or -ed that are not finite verbs, so they are not taken for the sentence's verb.
_NOT_VERBS = frozenset({"always", "perhaps", "towards", "afterwards", "indeed", "hundred", "naked", "wicked"})
_STRIP = "\"'“”‘’()[]{}«».,;:!?…"
_END = re.compile(r"[.!?…]+$")

_FILLERS = ("uh", "um", "er", "well", "I mean")
# The short noises are the hesitation; "well" and "I mean" are rarer, so they stay a tic and not a habit.
_FILLER_WEIGHTS = (4, 4, 3, 1, 1)


def bare(word: str) -> str:
    """A word without the punctuation around it, in lower case: '"Laughs,"' -> 'laughs'."""
    return word.strip(_STRIP).lower()


def _looks_finite(word: str) -> bool:
    if word in AUXILIARIES or word.endswith("n't"):
        return True
    if len(word) <= 3 or word in _NOT_VERBS:
        return False
    return word.endswith("ed") or (word.endswith("s") and not word.endswith(("ss", "us", "is")))


def verb_index(words: list[str]) -> int | None:
    """Where the sentence's verb (or its first auxiliary) probably is, so the subject ends just before it.

    A guess from spelling, not a parse: right after a subject pronoun ("I | shot"), else the first word after
    the start that looks finite (an auxiliary, or ending in -s or -ed) and does not follow a determiner, so
    "the glasses" is not taken for a verb. None when nothing looks like one."""
    if len(words) > 1 and bare(words[0]) in SUBJECT_PRONOUNS:
        return _past_fillers(words, 1)
    for index in range(1, len(words)):
        if bare(words[index - 1]) not in DETERMINERS and _looks_finite(bare(words[index])):
            return _past_fillers(words, index)
    return None


FILLER_WORDS = frozenset({"uh", "um", "er", "well", "like", "totally", "evidently", "apparently"})
"""Words the filters put in; an earlier filter's word is never the verb a later one looks for."""


def _past_fillers(words: list[str], index: int) -> int | None:
    """The first word at or after `index` that no filter put in ("he, uh, dies": the verb is "dies")."""
    while index < len(words):
        word = bare(words[index])
        if word in FILLER_WORDS:
            index += 1
        elif word == "i" and index + 1 < len(words) and bare(words[index + 1]) == "mean":
            index += 2
        else:
            return index
    return None


def can_break(words: list[str], index: int) -> bool:
    """Whether a word may be put before words[index] (0 < index): after a plain word or a comma, before a word
    that starts with a letter, and never inside "the | teller", whose determiner must keep its noun."""
    if not 0 < index < len(words):
        return False
    before, after = words[index - 1], words[index]
    plain = before[-1].isalnum() or before.endswith(",")
    return plain and after[0].isalpha() and bare(before) not in DETERMINERS


def insert(words: list[str], index: int, phrase: str) -> list[str]:
    """A new word list with `phrase` set off by commas before words[index]: "teller, uh, laughs"; after a word
    that already ends in a comma, only the phrase's own comma is added: "lobby, uh, the"."""
    before = words[index - 1]
    joined = f"{before} {phrase}," if before.endswith(",") else f"{before}, {phrase},"
    return [*words[: index - 1], joined, *words[index:]]


def open_with(prefix: str, text: str) -> str:
    """`prefix` put before the sentence: ("um,", "the teller laughs.") -> "um, the teller laughs.".

    Sentences reach the filters with their first letter as realized (a name or "I" capitalized, anything else
    not) and are capitalized after them, so nothing here lowers or raises a letter: "um, Bob laughs.", and
    "whoa, um, he enters." however many filters open the sentence."""
    return f"{prefix} {text}"


def split_end(text: str) -> tuple[str, str] | None:
    """The sentence and its final stop apart: "The teller laughs." -> ("The teller laughs", "."); None when it
    does not end in a word and a stop (it ends in a quotation, say), so nothing should go before its end."""
    match = _END.search(text)
    if match is None or match.start() == 0 or not text[match.start() - 1].isalnum():
        return None
    return text[: match.start()], match.group()


def places(words: list[str]) -> list[int]:
    """Plausible places to put a word before words[index]: the start (0), between the subject and the verb,
    and before each later determiner ("I shot | the twitchy man in | the chest")."""
    found = [0]
    verb = verb_index(words)
    if verb is not None and can_break(words, verb):
        found.append(verb)
    found.extend(
        index for index in range(1, len(words)) if bare(words[index]) in DETERMINERS and can_break(words, index)
    )
    return sorted(set(found))


def sentence(text: str, rng: random.Random, tense: Tense) -> str:
    """The sentence with one or two fillers at plausible places (whatever the tense)."""
    words = text.split()
    if not any(char.isalpha() for char in text):
        return text
    spots = places(words)
    chosen = rng.sample(spots, min(len(spots), rng.choice((1, 1, 2))))
    opening = ""
    for index in sorted(chosen):
        filler = rng.choices(_FILLERS, _FILLER_WEIGHTS)[0]
        if index == 0:
            opening = f"{filler},"
        else:
            words = insert(words, index, filler)
    told = " ".join(words)
    return open_with(opening, told) if opening else told
