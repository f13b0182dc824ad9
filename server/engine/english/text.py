"""English orthography of running text: capitals, full stops, and sentences joined into paragraphs."""

from __future__ import annotations

from collections.abc import Iterable

# Marks that may open a sentence before its first letter: '"where?" she asks' -> '"Where?" she asks'.
_OPENERS = frozenset("\"'“‘([{«")
# Marks that may close a sentence after its terminal punctuation: 'He said, "Go!"' needs no full stop.
_CLOSERS = "\"'”’)]}»"
_TERMINALS = (".", "!", "?", "…")


def capitalize_first(s: str) -> str:
    """Upper-case the first letter only, past leading quotes and brackets; the rest is left as it is."""
    for i, ch in enumerate(s):
        if ch.isspace() or ch in _OPENERS:
            continue
        # A sentence opening with a digit or a dash has no letter to capitalize: leave it alone.
        return s[:i] + ch.upper() + s[i + 1 :] if ch.isalpha() else s
    return s


def punctuate(s: str) -> str:
    """A sentence's words with its stop: trimmed, and a full stop unless it ends in . ! ? (perhaps inside a
    quote). Its first letter is left as it is, so words may still be put before it ("um, the teller laughs.")."""
    text = s.strip()
    if not text or text.rstrip(_CLOSERS).endswith(_TERMINALS):
        return text
    return f"{text}."


def sentence(s: str) -> str:
    """A sentence: trimmed, capitalized, and a full stop unless it ends in . ! ? (perhaps inside a quote)."""
    return capitalize_first(punctuate(s))


def join_sentences(sentences: Iterable[str]) -> str:
    """A paragraph: each non-empty string made a sentence, joined by single spaces."""
    return " ".join(made for made in map(sentence, sentences) if made)
