"""Aspect read by an editor: the perfect never stacks on an auxiliary or on a description's own "have" or "be",
descriptions stay simple under the perfect and the progressive, and a mid-position adverb sits where English
puts it — swept over every world's templates and tellings, under every tense and aspect."""

from __future__ import annotations

import re

import pytest

from server.engine.english import VerbForm
from tests.engine.editor import FORMS, TIMES, WORLDS, engine_templates, realized, told, world_templates

STACKED = re.compile(
    r"\b(?:have|has|had|having) had (?:been|only|just|already|\w+ed|\w+en)\b"  # "has had been trampled"
    r"|\bwill have had been\b|\b(?:is|are|was|were|be) having been\b"
    r"|\b(?:is|are|was|were|be) (?:being|having|seeming)\b"
    r"|\b(?:I|you|he|she|it|we|they) (?:already|still|just|never) (?:will|(?:has|have|had) been)\b"
)
"""Wrong however it is told: an auxiliary on an auxiliary, a stative verb in the progressive, a misplaced adverb."""

DESCRIBED_AS_EVENT = re.compile(
    r"\b(?:has|have|had) been (?:a|an|the|this|that)\b"  # "the hook has been a small brass hook"
    r"|\b(?:is|are|was|were|be) (?:leading|facing|lining)\b"  # "doorways are leading south"
)
"""Wrong in a description, which tells a state as it held: no perfect, and no progressive of its stative verbs."""


@pytest.mark.parametrize("world", WORLDS)
def test_no_template_of_a_world_stacks_aspect_in_any_form(world):
    bad = []
    for template in {*world_templates(world), *engine_templates()}:
        for form in FORMS:
            for described in (False, True):
                said = realized(world, template, form, described=described)
                if STACKED.search(said) or (described and DESCRIBED_AS_EVENT.search(said)):
                    bad.append(f"{form.tense} perfect={form.perfect} progressive={form.progressive}: {said}")
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("world", WORLDS)
@pytest.mark.parametrize("time", TIMES)
def test_no_telling_stacks_aspect_or_makes_a_description_an_event(world, time):
    for perfect, progressive in ((True, False), (False, True), (True, True)):
        for order in ("chronicle", "analepsis", "retrograde"):
            text = told(world, time=time, perfect=perfect, progressive=progressive, order=order)
            found = STACKED.search(text) or DESCRIBED_AS_EVENT.search(text)
            assert found is None, f"{order}, perfect={perfect}, progressive={progressive}: …{found.group(0)}…"


@pytest.mark.parametrize(
    ("form", "said"),
    [
        (VerbForm(), "you have only just arrived, and besides, the weather outside is turning nasty."),
        (
            VerbForm(perfect=True),
            "you have only just arrived, and besides, the weather outside has been turning nasty.",
        ),
        (
            VerbForm(tense="past", perfect=True),
            "you had only just arrived, and besides, the weather outside had been turning nasty.",
        ),
        (
            VerbForm(tense="future"),
            "you will have only just arrived, and besides, the weather outside will be turning nasty.",
        ),
        (
            VerbForm(tense="past", progressive=True),
            "you had only just arrived, and besides, the weather outside was turning nasty.",
        ),
    ],
)
def test_a_have_before_a_participle_is_the_perfect_and_takes_only_the_tense(form, said):
    assert (
        realized(
            "cloak", "[agent/s] [have/v] only just arrived, and besides, the weather outside [be/v] turning nasty", form
        )
        == said
    )


@pytest.mark.parametrize(
    ("form", "said"),
    [
        (VerbForm(), "you already have yourself."),
        (VerbForm(tense="past"), "you already had yourself."),
        (VerbForm(tense="future"), "you will already have yourself."),
        (VerbForm(tense="past", perfect=True), "you had already had yourself."),
        (VerbForm(tense="future", perfect=True), "you will already have had yourself."),
    ],
)
def test_a_mid_position_adverb_goes_after_the_first_auxiliary(form, said):
    assert realized("cloak", "[agent/s] already [have/v] [agent/o]", form) == said


def test_an_adverb_before_a_lone_be_follows_it():
    assert realized("cloak", "[agent/s] still [be/v] [here]", VerbForm()) == "you are still here."
    assert realized("cloak", "[agent/s] still [be/v] [here]", VerbForm(tense="future")) == "you will still be there."
