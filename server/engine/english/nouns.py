"""English noun phrases: articles, plurals, possessives, lists and numbers in words."""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import inflect

Article = Literal["a", "an"]

# Characters that may open a noun phrase but are not pronounced: '"Apple" sign' takes "an".
_OPENERS = "\"'“‘([{«"

# Where inflect picks the wrong article; keyed by the first word, exact case first, then lower case,
# because acronyms are read by case ("an LED lamp", but "led" is a verb).
_ARTICLE_OVERRIDES: dict[str, Article] = {
    "ouija": "a",  # said "wee-ja"; inflect sees a vowel
    "LED": "an",  # said "ell-ee-dee"; inflect reads it as the word "led"
    "SUV": "an",  # said "ess-you-vee"; inflect reads it as a word
    "URL": "a",  # said "you-are-ell"; inflect sees a vowel
}

# Plurals inflect gets wrong, as the wrong word it produces -> the right one. Fixing its output (rather
# than its input) keeps its phrase handling: "master thief" and "thief of hearts" are mended too.
_PLURAL_FIXES: dict[str, str] = {
    "thiefs": "thieves",
    "passerbies": "passersby",
}
_PLURAL_FIX_PATTERN = re.compile(r"\b(" + "|".join(_PLURAL_FIXES) + r")\b")


def _no_typecheck(target: Any = None, **_: Any) -> Any:
    """Stands in for typeguard's @typechecked (bare or called) while inflect is imported."""
    return target if target is not None else _no_typecheck


@lru_cache(maxsize=1)
def _engine() -> inflect.engine:
    # inflect decorates its methods with typeguard's @typechecked, which re-parses inflect's whole source
    # for each of them: ~2.5 s per process, and every call checked at run time (5x slower). Its checks
    # only catch non-string arguments, which our typed wrappers rule out, so inflect is imported with a
    # stand-in typeguard module whose decorator does nothing, and only on first use, so verb-only callers
    # never pay. The stand-in is withdrawn at once; it also spares typeguard's own import (unittest.mock and
    # importlib.metadata among it), a fifth of `curveship play`'s start-up.
    if "inflect" not in sys.modules:
        real = sys.modules.get("typeguard")
        stand_in = types.ModuleType("typeguard")
        stand_in.typechecked = _no_typecheck  # type: ignore[attr-defined]
        sys.modules["typeguard"] = stand_in
        try:
            import inflect
        finally:
            if real is None:
                del sys.modules["typeguard"]
            else:
                sys.modules["typeguard"] = real
    import inflect

    return inflect.engine()


def _spoken_number(digits: str) -> str:
    """How a numeral at the start of a phrase is read aloud, as far as its first sound goes."""
    if len(digits) == 4 and digits[0] != "0" and int(digits) % 1000:
        # A bare four-digit number in prose is usually a year, read in pairs: "an 1820 map" ("eighteen...").
        return number_word(int(digits[:2]))
    return number_word(int(digits))


@lru_cache(maxsize=8192)
def indefinite_article(phrase: str) -> Article:
    """ "a" or "an" for a noun phrase, by the sound of its first word: "an hour", "a unicorn", "an 8-ball"."""
    words = phrase.strip().lstrip(_OPENERS).split(maxsplit=1)
    if not words:
        raise ValueError("a noun phrase cannot be empty")
    first = words[0]
    override = _ARTICLE_OVERRIDES.get(first) or _ARTICLE_OVERRIDES.get(first.lower())
    if override is not None:
        return override
    numeral = re.match(r"\d+", first)
    if numeral:  # inflect says "a 8" and "a 11": ask it about the words instead
        first = _spoken_number(numeral.group())
    return "an" if _engine().a(first).startswith("an ") else "a"


@lru_cache(maxsize=8192)
def plural(noun: str) -> str:
    """The plural of a singular noun phrase: "stolen coin" -> "stolen coins", "cup of tea" -> "cups of tea".

    Give it the noun without an article: inflect leaves an article alone ("a thieves").
    """
    text = " ".join(noun.split())
    if not text:
        raise ValueError("a noun cannot be empty")
    result: str = _engine().plural_noun(text)
    return _PLURAL_FIX_PATTERN.sub(lambda found: _PLURAL_FIXES[found.group()], result)


@lru_cache(maxsize=1024)
def number_word(n: int) -> str:
    """A whole number in words: 3 -> "three", 21 -> "twenty-one"."""
    words = _engine().number_to_words(str(n))
    assert isinstance(words, str)  # a list comes back only when asked for with wantlist=True
    return words


@lru_cache(maxsize=1024)
def ordinal(n: int) -> str:
    """An ordinal in words: 1 -> "first", 21 -> "twenty-first"."""
    words: str = _engine().ordinal(number_word(n))
    return words


def times(n: int) -> str:
    """How many times something happened: "once", "twice", "three times"."""
    if n < 0:
        raise ValueError(f"a count of times cannot be negative: {n}")
    if n == 1:
        return "once"
    if n == 2:
        return "twice"  # "thrice" is archaic: from three on, narrators count
    return f"{number_word(n)} times"


def join_list(items: Sequence[str], conjunction: str = "and") -> str:
    """Items as prose, with the serial comma: "a", "a and b", "a, b, and c"; "" for none."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return f"{items[0]} {conjunction} {items[1]}"
    return f"{', '.join(items[:-1])}, {conjunction} {items[-1]}"


def possessive(noun_phrase: str, plural: bool = False) -> str:
    """The possessive of a noun phrase: "the guard's", "the children's"; a plural in -s: "the boys'"."""
    text = noun_phrase.strip()
    if not text:
        raise ValueError("a noun phrase cannot be empty")
    # Only a plural that already ends in s takes the bare apostrophe; a singular name in -s takes 's
    # ("James's"), the usual style in American fiction.
    if plural and text[-1] in "sS":
        return f"{text}'"
    return f"{text}'s"
