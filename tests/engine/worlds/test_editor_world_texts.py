"""The shipped worlds' texts follow the spin: every verb that tells the story's time and every here, now, this and
these is a slot, so a past telling has no "only a few words remain" and a prophecy no "this hall is grand". Swept
over every world's templates (the words written outside slots) and every description told at every time."""

from __future__ import annotations

import re

import pytest
from lemminflect import getAllLemmas, getInflection

from server.engine.english import VerbForm
from server.engine.narrator.templates import Caps, Ref, Text, Verb, parse
from tests.engine.editor import WORLDS, played, realized, world_templates

AUXILIARIES = frozenset(
    {"is", "are", "am", "was", "were", "has", "have", "had", "does", "do", "did", "will", "would", "shall"}
    | {"can", "could", "may", "might", "must", "should"}
)
DEICTICS = frozenset({"this", "these", "here", "now"})
NOT_VERBS = frozenset({"bar", "handcuffs", "shut", "see"})
"""Words lemminflect knows only as verbs that the worlds' texts use otherwise: a bar (the room), handcuffs (the
thing), shut (the state: "zip it shut"), and "see" after a slotted modal ("[can/not/v] see")."""

_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")


def literal_verbs(template: str) -> list[str]:
    """The words written outside slots (and outside capitals and quotes, which are writing and speech) that are
    finite verbs or deictics: those the spin cannot change."""
    found = []
    capitals = False
    before: object = None
    for token in parse(template):
        if isinstance(token, Caps):
            capitals = token.on
        elif isinstance(token, Text) and not capitals:
            words = re.findall(r"[A-Za-z']+", _QUOTED.sub(" ", token.text))
            for index, word in enumerate(words):
                previous = words[index - 1].lower() if index else ("verb" if isinstance(before, Verb) else "")
                if _finite(word.lower(), previous):
                    found.append(word)
        before = token
    return found


def _finite(word: str, previous: str) -> bool:
    if word in DEICTICS:
        return True
    if previous in ("to", "verb"):
        return False  # an infinitive, after "to" or after a slotted verb ("[watch/v] [direct/o] come in")
    if word in AUXILIARIES:
        return True
    lemmas = getAllLemmas(word)
    if not lemmas or set(lemmas) - {"VERB", "AUX"} or word in NOT_VERBS:
        return False
    for lemma in lemmas.get("VERB", ()):
        if word in getInflection(lemma, "VBN") or word in getInflection(lemma, "VBG"):
            return False  # a participle: "screwed firmly to the wall", "glittering overhead"
        if word == lemma or word in getInflection(lemma, "VBZ") or word in getInflection(lemma, "VBD"):
            return True
    return False


@pytest.mark.parametrize("world", WORLDS)
def test_every_verb_and_deictic_in_a_worlds_texts_is_a_slot(world):
    bad = {template: words for template in world_templates(world) if (words := literal_verbs(template))}
    assert not bad, "\n".join(f"{words}: {template}" for template, words in bad.items())


# The finite forms each tense must not use, outside capitals (writing) and quotes (speech).
WRONG_FOR = {
    "present": re.compile(r"\b(?:was|were|had|did|could|would)\b"),
    "past": re.compile(r"\b(?:is|are|am|has|have|does|will|can|this|these|here|now)\b"),
    "future": re.compile(r"\b(?:is|are|am|was|were|has|had|does|did|can|could|would|this|these|here|now)\b"),
}


def _descriptions(world: str) -> list[str]:
    items = played(world).definition.items
    return [text for item in items for text in (item.sight, item.touch, item.hearing, item.smell) if text]


@pytest.mark.parametrize("world", WORLDS)
@pytest.mark.parametrize("tense", ["present", "past", "future"])
def test_every_description_is_told_in_the_tellings_tense(world, tense):
    bad = []
    for template in _descriptions(world):
        said = realized(world, template, VerbForm(tense=tense), described=True)
        lowered = " ".join(word for word in _QUOTED.sub(" ", said).split() if not word.isupper())
        wrong = WRONG_FOR[tense].search(lowered.replace("will have", "").replace("will be", ""))
        if wrong and not (tense == "future" and wrong.group(0) in ("have",)):
            bad.append(f"{wrong.group(0)!r}: {said}")
    assert not bad, "\n".join(bad)


def test_the_sweep_finds_the_editors_examples():
    assert literal_verbs("the message [have/v] been trampled; only a few words remain") == ["remain"]
    assert literal_verbs("[agent/s] [be/v] an artist who will settle for less") == ["will", "settle"]
    assert literal_verbs("this [be/not/v] the place") == ["this"]
    assert literal_verbs("[agent/s] [watch/v] [direct/o] come in; [begin-caps]you have won[end-caps]") == []
    assert isinstance(parse("[@x/s]")[0], Ref)
