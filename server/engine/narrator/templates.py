"""Strings with slots: parsing `[agent/s] [brandish/v] [indirect/o] at [direct/o]` into tokens, once each."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from server.engine.copying import replace
from server.engine.errors import TemplateError

ROLES = frozenset({"agent", "direct", "indirect", "target", "parent", "room", "*"})
"""Names a slot may use instead of a tag: the action's roles, and `*` for the focalizer."""

DEICTICS = frozenset({"here", "now", "this", "these"})
VERB_FLAGS = frozenset({"1", "2", "ed", "ing", "not", "do", "base"})

Case = Literal["s", "o", "'s"]


@dataclass(frozen=True, slots=True)
class Text:
    """Words written as they are."""

    text: str

    def __init__(self, text: str) -> None:  # written out, to be compiled (server/compiled.py)
        object.__setattr__(self, "text", text)


@dataclass(frozen=True, slots=True)
class Ref:
    """An item in a sentence: a subject (s), an object (o) or a possessive ('s).

    Flags between the tag and the case: `pro` forces a pronoun; `the` names the item with "the" even when it
    was never mentioned ("as for [@dog/the/o]," is "as for the dog,", a topic and not an introduction); any
    other word is an adjective ("[@ticket/crumpled/o]"). `owned` (not in template syntax) lets a thing the
    narrator or narratee holds be introduced as "your cloak"; a list of one's belongings turns it off."""

    role: str
    case: Case
    adjectives: tuple[str, ...] = ()
    pronoun: bool = False
    definite: bool = False
    owned: bool = True

    def __init__(  # written out, to be compiled (server/compiled.py)
        self,
        role: str,
        case: Case,
        adjectives: tuple[str, ...] = (),
        pronoun: bool = False,
        definite: bool = False,
        owned: bool = True,
    ) -> None:
        object.__setattr__(self, "role", role)
        object.__setattr__(self, "case", case)
        object.__setattr__(self, "adjectives", adjectives)
        object.__setattr__(self, "pronoun", pronoun)
        object.__setattr__(self, "definite", definite)
        object.__setattr__(self, "owned", owned)


@dataclass(frozen=True, slots=True)
class Verb:
    """A verb agreeing with its clause's subject, in the telling's tense and aspect unless flagged."""

    lemma: str
    number: Literal[1, 2] | None = None
    perfect: bool = False
    progressive: bool = False
    negated: bool = False
    emphatic: bool = False
    base: bool = False


@dataclass(frozen=True, slots=True)
class FeatureWord:
    """The word for an item's feature value: open/closed, lit/unlit, a glow."""

    role: str
    feature: str


@dataclass(frozen=True, slots=True)
class Deictic:
    """here/now/this/these, which become there/then/that/those outside the present."""

    word: str


@dataclass(frozen=True, slots=True)
class Phrase:
    """A noun phrase for something not simulated: `_a_small_stream` is "a small stream", then "the small stream"."""

    article: str
    words: str


@dataclass(frozen=True, slots=True)
class Caps:
    """Start or end a span told in capitals."""

    on: bool


@dataclass(frozen=True, slots=True)
class State:
    """From here on, verbs tell what held at the event's time, never anterior to it, even when the event is told
    out of order: "you had been unable to take it because you already had it" (not "had had"). Put in by the
    compose stage before a failure's reason and a description; not written in templates."""


Token = Text | Ref | Verb | FeatureWord | Deictic | Phrase | Caps | State

_SLOT = re.compile(r"\\\[|\\\]|\\_|\[([^\[\]]*)\]")
_PHRASE = re.compile(r"(?<![\w@])_(a|an|the|some)_([A-Za-z][\w'-]*(?:_[A-Za-z][\w'-]*)*)")


@lru_cache(maxsize=4096)
def parse(template: str) -> tuple[Token, ...]:
    """Parse a template into tokens; raise TemplateError naming the template and the bad slot."""
    tokens: list[Token] = []
    position = 0
    for match in _SLOT.finditer(template):
        _text(template[position : match.start()], tokens)
        whole = match.group(0)
        if whole in ("\\[", "\\]", "\\_"):
            _literal(whole[1], tokens)
        else:
            tokens.append(_slot(match.group(1), template))
        position = match.end()
    rest = template[position:]
    if "[" in rest or "]" in rest:
        raise TemplateError(f"unbalanced bracket in template {template!r} (write \\[ for a literal bracket)")
    _text(rest, tokens)
    return tuple(tokens)


def _literal(text: str, tokens: list[Token]) -> None:
    if tokens and isinstance(tokens[-1], Text):
        tokens[-1] = Text(tokens[-1].text + text)
    else:
        tokens.append(Text(text))


def _text(text: str, tokens: list[Token]) -> None:
    if "[" in text or "]" in text:
        raise TemplateError(f"unbalanced bracket near {text!r} (write \\[ for a literal bracket)")
    position = 0
    for match in _PHRASE.finditer(text):
        if match.start() > position:
            _literal(text[position : match.start()], tokens)
        tokens.append(Phrase(match.group(1), match.group(2).replace("_", " ")))
        position = match.end()
    if position < len(text):
        _literal(text[position:], tokens)


def _is_item(name: str) -> bool:
    return name in ROLES or name.startswith("@")


def _slot(body: str, template: str) -> Token:
    parts = [part.strip() for part in body.split("/")]
    if not body.strip():
        raise TemplateError(f"empty slot [] in {template!r} (write \\[ for a literal bracket)")
    if len(parts) == 1:
        word = parts[0]
        if word in DEICTICS:
            return Deictic(word)
        if word in ("begin-caps", "end-caps"):
            return Caps(word == "begin-caps")
        if word.endswith("'s") and _is_item(word[:-2]):
            return Ref(word[:-2], "'s")
        raise TemplateError(f"slot [{body}] in {template!r}: say what it is, like [{word}/o] or [{word}/v]")
    kind = parts[-1]
    if kind in ("s", "o"):
        role = parts[0]
        if not _is_item(role):
            raise TemplateError(f"slot [{body}] in {template!r}: {role!r} is not a tag or a role ({_roles()})")
        middle = parts[1:-1]
        adjectives = tuple(m for m in middle if m not in ("pro", "the"))
        return Ref(role, kind, adjectives, "pro" in middle, "the" in middle)  # type: ignore[arg-type]
    if kind == "v":
        return _verb(parts, body, template)
    if kind == "a":
        items = [p for p in parts[:-1] if _is_item(p)]
        features = [p for p in parts[:-1] if not _is_item(p)]
        if len(items) != 1 or len(features) != 1:
            raise TemplateError(f"slot [{body}] in {template!r}: a feature slot is [@item/feature/a]")
        return FeatureWord(items[0], features[0])
    raise TemplateError(f"slot [{body}] in {template!r}: ends in /{kind}; use /s, /o, /v or /a")


def _verb(parts: list[str], body: str, template: str) -> Verb:
    flags = parts[1:-1]
    if not parts[0]:
        raise TemplateError(f"slot [{body}] in {template!r}: a verb slot starts with its verb, like [laugh/v]")
    unknown = [flag for flag in flags if flag not in VERB_FLAGS]
    if unknown:
        allowed = ", ".join(f"/{flag}" for flag in sorted(VERB_FLAGS))
        raise TemplateError(f"slot [{body}] in {template!r}: unknown verb flag /{unknown[0]}; verb flags are {allowed}")
    number: Literal[1, 2] | None = 1 if "1" in flags else 2 if "2" in flags else None
    return Verb(
        lemma=parts[0],
        number=number,
        perfect="ed" in flags,
        progressive="ing" in flags,
        negated="not" in flags,
        emphatic="do" in flags,
        base="base" in flags,
    )


def _roles() -> str:
    return ", ".join(sorted(ROLES))


def infinitive(tokens: tuple[Token, ...]) -> tuple[Token, ...]:
    """The template as a bare infinitive clause: "[agent/s] [take/v] [direct/o]" -> "take [direct/o]".

    Used to tell a failed action: "You are unable to take the hook because…"."""
    result: list[Token] = []
    dropped_subject = False
    made_base = False
    for token in tokens:
        if not dropped_subject and isinstance(token, Ref) and token.case == "s" and token.role == "agent":
            dropped_subject = True
            continue
        if dropped_subject and not result and isinstance(token, Text):
            token = Text(token.text.lstrip())
            if not token.text:
                continue
        if not made_base and isinstance(token, Verb):
            token = replace(token, base=True)
            made_base = True
        result.append(token)
    return tuple(result)
