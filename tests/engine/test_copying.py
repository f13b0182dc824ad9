"""The engine's cheaper copy-with-changes makes exactly what dataclasses.replace makes, and refuses what it refuses."""

from __future__ import annotations

import dataclasses

import pytest

from server.engine.actions import verbs
from server.engine.copying import replace
from server.engine.narrator.draft import Block, Discourse, Draft, Told
from server.engine.parser.grammar import GRAMMAR
from tests.helpers import story


def _cases() -> list[tuple[object, dict[str, object]]]:
    event = story("robbery").simulation.events[3]
    take = verbs.take("@robber", "@bag")
    kind = GRAMMAR[0]
    return [
        (Told(event), {"count": 2, "lead": "then"}),  # positional fields, slots
        (Told(event), {}),
        (take, {"indirect": "@teller", "template": "[agent/s] [take/v] [direct/o] from [indirect/o]"}),  # keywords
        (kind, {"patterns": ("peer", "peer OBJ")}),  # a field __init__ does not take, made again by __post_init__
    ]


@pytest.mark.parametrize("index", range(4))
def test_a_copy_is_what_dataclasses_replace_makes(index):
    original, changes = _cases()[index]
    made, expected = replace(original, **changes), dataclasses.replace(original, **changes)  # type: ignore[type-var]
    assert type(made) is type(expected)
    assert all(getattr(made, f.name) == getattr(expected, f.name) for f in dataclasses.fields(expected))
    assert original != made or not changes


def test_a_new_word_order_is_split_into_its_tokens_again():
    kind = replace(GRAMMAR[0], patterns=("peer", "peer OBJ"))
    assert kind.tokens == (("peer",), ("peer", "OBJ"))


@pytest.mark.parametrize("changes", [{"nonsense": 1}, {"tokens": ()}])
def test_what_dataclasses_replace_refuses_is_refused_alike(changes):
    with pytest.raises((TypeError, ValueError)) as ours:
        replace(GRAMMAR[0], **changes)
    with pytest.raises((TypeError, ValueError)) as theirs:
        dataclasses.replace(GRAMMAR[0], **changes)
    assert type(ours.value) is type(theirs.value)


@dataclasses.dataclass
class _Mutable:
    a: int
    b: list[int]


def test_nothing_changed_gives_a_frozen_value_back_and_a_mutable_one_anew():
    told = Told(story("robbery").simulation.events[3], count=2)
    assert replace(told, count=2, lead="") is told
    changed = replace(told, count=2, lead="then")
    assert (changed.count, changed.lead, changed.event) == (2, "then", told.event)
    mutable = _Mutable(1, [2])
    copy = replace(mutable, a=1)
    assert copy == mutable and copy is not mutable
    copy.b.append(3)  # (a shallow copy, as dataclasses.replace makes)
    assert mutable.b == [2, 3]


def test_a_told_events_own_copy_changes_what_a_stage_decided_and_keeps_every_other_field():
    # Told.decided is written out field by field (a direct copy, compiled): a field it forgot to carry over
    # would silently fall back to its default and change the telling; each must be as dataclasses.replace has it.
    from server.engine.english.verbs import VerbForm

    told = Told(story("robbery").simulation.events[3])
    decisions = {
        "count": 3,
        "segment": 2,
        "lead": "then",
        "out_of_order": True,
        "form": VerbForm("past"),
        "state_form": VerbForm("future"),
        "present": False,
        "time_word": "before that",
        "templates": ((),),
        "heading": "Part two",
        "sentences": ("The robber waited.",),
    }
    assert set(decisions) == {f.name for f in dataclasses.fields(Told)} - {"event"}
    assert told.decided() == told
    for name, value in decisions.items():
        assert told.decided(**{name: value}) == dataclasses.replace(told, **{name: value}), name
    everything = told.decided(**decisions)
    assert everything == dataclasses.replace(told, **decisions) and everything.decided() == everything


def test_a_drafts_copy_changes_what_a_stage_decided_and_keeps_every_other_field():
    # Draft.decided is written out too: a field it dropped would reach the next stage as its default (another
    # spin's, focalizer's or turn's telling), and only the output tests far downstream would notice.
    robbery = story("robbery")
    drafts: list[Draft] = []
    robbery.tell(trace=lambda stage, draft: drafts.append(draft))
    # The finished draft (every field decided by some stage), its seed and turn made unlike any default, so that
    # one dropped could not pass for one carried over.
    draft = dataclasses.replace(drafts[-1], seed=41, turn=7)
    assert draft.told and draft.paragraphs and draft.blocks and draft.discourse.mentioned
    decisions = {
        "told": draft.told[:1],
        "paragraphs": draft.paragraphs[:1],
        "blocks": (Block("heading", "Part two"),),
        "discourse": Discourse(mentioned=frozenset({"@vault"})),
    }
    # Every other field is set once, when the telling begins; a field added to Draft must be added here, on one
    # side or the other, and given a value unlike its default above.
    assert {f.name for f in dataclasses.fields(Draft)} - set(decisions) == {
        "record",
        "spin",
        "focalizer",
        "seed",
        "turn",
    }
    assert draft.decided() == draft
    for name, value in decisions.items():
        assert draft.decided(**{name: value}) == dataclasses.replace(draft, **{name: value}), name
    everything = draft.decided(**decisions)
    assert everything == dataclasses.replace(draft, **decisions) and everything.decided() == everything
