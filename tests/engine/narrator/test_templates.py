"""Strings with slots: every slot form a template may use, as it reads once told, and clear errors for bad ones."""

from __future__ import annotations

import pytest

from server.engine.actions.action import Behave, Modify, Reason
from server.engine.actions.preconditions import Refusal
from server.engine.errors import TemplateError, WorldError
from server.engine.narrator.templates import parse
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room, Thing
from tests.helpers import tell

ITEMS = (
    Room(tag="@hall", called="hall"),
    Actor(tag="@ann", called="old woman", gender="female", where="in @hall"),
    Actor(tag="@bob", called="tall man", gender="male", where="in @hall"),
    Thing(tag="@egg", called="egg", where="in @hall"),
    Thing(tag="@ticket", called="ticket", where="of @ann"),
    Thing(tag="@box", called="box", where="in @hall", open=False, holds=("in",)),
    Thing(tag="@lamp", called="lamp", where="in @hall", lit=False, glow=0.6),
    Thing(tag="@police", called="police", article="the", where="in @hall"),
    Thing(tag="@darts", called="darts", article="", plural=True, where="in @hall"),
)


def hall(*templates: str | Modify, agent: str = "@ann") -> WorldDefinition:
    """Each template is one event of `agent`, a tick apart (a Modify is taken as it is)."""
    timeline = tuple(
        (tick, made if isinstance(made, Modify) else Behave(verb="act", agent=agent, template=made))
        for tick, made in enumerate(templates, start=1)
    )
    return WorldDefinition(name="hall", title="Hall", items=ITEMS, player="@ann", interactive=False, timeline=timeline)


def say(template: str, **spin: object) -> str:
    return tell(hall(template), **spin)


# -- items: subject, object, possessive, the focalizer ------------------------------------------------------------


def test_subject_and_object_slots():
    assert say("[@ann/s] [greet/v] [@bob/o]") == "An old woman greets a tall man."


def test_agent_and_direct_roles():
    world = WorldDefinition(
        name="h",
        title="H",
        items=ITEMS,
        player="@ann",
        interactive=False,
        timeline=((1, Behave(verb="lift", agent="@bob", direct="@egg")),),
    )
    assert tell(world) == "A tall man lifts an egg."


def test_the_focalizer_slot():
    world = hall("[*/s] [hear/v] [agent/o]", agent="@bob")
    assert tell(world) == "An old woman hears a tall man."
    assert tell(world, focalizer="@bob") == "A tall man hears himself."


def test_possessive_slot():
    assert say("[@bob's] hat [fall/v]") == "A tall man's hat falls."
    assert say("[@bob's] hat [fall/v]", narrator="@bob") == "My hat falls."


def test_adjectives_in_an_object_slot_choose_the_article():
    assert say("[@ann/s] [find/v] [@egg/old/o]") == "An old woman finds an old egg."
    assert say("[@ann/s] [hold/v] [@ticket/crumpled/o]") == "An old woman holds a crumpled ticket."


def test_adjectives_stay_after_the_item_is_mentioned():
    world = hall("[@ann/s] [find/v] [@ticket/crumpled/o]", "[@bob/s] [see/v] [@ticket/crumpled/o]")
    assert tell(world) == "An old woman finds a crumpled ticket. A tall man sees the crumpled ticket."


def test_a_forced_pronoun():
    assert say("[@ann/s] [wave/v] and [@ann/pro/s] [smile/v]") == "An old woman waves and she smiles."
    assert say("[@ann/s] [wave/v] and [@ann/s] [smile/v]") == "An old woman waves and she smiles."


# -- verbs and their flags --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "time", "expected"),
    [
        ("[@ann/s] [wait/v]", "during", "An old woman waits."),
        ("[@ann/s] [wait/ed/v]", "during", "An old woman has waited."),
        ("[@ann/s] [wait/ed/v]", "after", "An old woman had waited."),
        ("[@ann/s] [wait/ing/v]", "during", "An old woman is waiting."),
        ("[@ann/s] [wait/ing/v]", "before", "An old woman will be waiting."),
        ("[@ann/s] [wait/ed/ing/v]", "after", "An old woman had been waiting."),
        ("[@ann/s] [wait/not/v]", "during", "An old woman does not wait."),
        ("[@ann/s] [wait/not/v]", "after", "An old woman did not wait."),
        ("[@ann/s] [wait/not/v]", "before", "An old woman will not wait."),
        ("[@ann/s] [be/not/v] late", "during", "An old woman is not late."),
        ("[@ann/s] [wait/do/v]", "during", "An old woman does wait."),
        ("[@ann/s] [wait/do/v]", "after", "An old woman did wait."),
        ("[@police/s] [be/2/v] here", "during", "The police are here."),
        ("[@police/s] [be/2/v] here", "after", "The police were here."),
        ("[@darts/s] [be/1/v] fun", "during", "Darts is fun."),
        ("[@ann/s] [can/not/v] reach [@lamp/o]", "during", "An old woman cannot reach a lamp."),
        ("[@ann/s] [can/not/v] reach [@lamp/o]", "after", "An old woman could not reach a lamp."),
    ],
)
def test_verb_flags(template, time, expected):
    assert say(template, time=time) == expected


def test_verbs_agree_with_each_clauses_subject():
    assert say("[@ann/s] [wave/v] and [@bob/s] [nod/v]", narratee="@bob") == "An old woman waves and you nod."
    assert say("[@ann/s] and [@bob/s] [bow/v]") == "An old woman and a tall man bow."
    assert say("[@bob/s] and [@ann/s] [bow/v]", narrator="@ann", time="after") == "A tall man and I bowed."


def test_a_verb_after_words_of_its_own_agrees_with_them():
    assert say("[@ann/s] [stop/v] because it [be/v] late", narrator="@ann") == "I stop because it is late."
    assert say("[@ann/s] [stop/v]; they [be/v] late", narrator="@ann") == "I stop; they are late."
    assert say("[@ann/s] [see/v] [@bob/o] and [wave/v]", narrator="@ann") == "I see a tall man and wave."


# -- features -----------------------------------------------------------------------------------------------------


def test_feature_words_tell_the_state_at_the_time():
    world = hall(
        "[@box/s] [be/v] [@box/open/a]",
        Modify(verb="open", agent="@ann", direct="@box", feature="open", value=True),
        "[@box/s] [be/v] [@box/open/a] [now]",
    )
    assert tell(world) == "A box is closed. An old woman opens it. The box is open now."
    assert tell(world, time="after") == "A box was closed. An old woman opened it. The box was open then."


def test_feature_words_for_light():
    assert say("[@lamp/s] [be/v] [@lamp/lit/a] but [@lamp/glow/a]") == "A lamp is unlit but bright."
    assert say("[@lamp/s] [be/v] [lit/@lamp/a]") == "A lamp is unlit."


# -- deictics, phrases, brackets, capitals --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("time", "expected"),
    [
        ("during", "An old woman is here now, and this is one of these."),
        ("after", "An old woman was there then, and that was one of those."),
        ("before", "An old woman will be there then, and that will be one of those."),
    ],
)
def test_here_now_this_these_are_there_then_that_those_outside_the_present(time, expected):
    assert say("[@ann/s] [be/v] [here] [now], and [this] [be/v] one of [these]", time=time) == expected


def test_an_unsimulated_phrase_is_introduced_then_definite():
    world = hall(
        "[@ann/s] [sit/v] by _a_small_stream", "_a_small_stream [gurgle/v]", "[@bob/s] [drink/v] from _a_small_stream"
    )
    assert tell(world) == (
        "An old woman sits by a small stream. The small stream gurgles. A tall man drinks from the small stream."
    )


def test_phrases_take_some_an_and_the():
    assert say("[@ann/s] [find/v] _some_old_coins and _an_iron_key near _the_well") == (
        "An old woman finds some old coins and an iron key near the well."
    )


def test_a_backslash_makes_a_literal_bracket():
    assert say("[@ann/s] [write/v] \\[sic\\] in the margin") == "An old woman writes [sic] in the margin."


def test_capitals_span():
    assert say("[begin-caps][@ann/s] [have/v] won[end-caps]", narratee="@ann") == "YOU HAVE WON."
    assert say("[begin-caps]the end[end-caps] [@ann/s] [bow/v]") == "THE END an old woman bows."


def test_a_sentence_gets_a_capital_and_a_stop_unless_it_has_one():
    assert say("[@ann/s] [shout/v] at [@bob/o]!") == "An old woman shouts at a tall man!"
    assert say("[@bob/s] [be/v] here?") == "A tall man is here?"


# -- errors ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("[agent/s] [laugh/v", "unbalanced bracket"),
        ("agent/s] laughs", "unbalanced bracket"),
        ("[agent/s] [laugh/zz/v]", "unknown verb flag /zz; verb flags are /1, /2"),
        ("[agent/s] [laugh/x]", "ends in /x; use /s, /o, /v or /a"),
        ("[nobody/s] [laugh/v]", "'nobody' is not a tag or a role (*, agent, direct"),
        ("[agent/s] [/v]", "a verb slot starts with its verb"),
        ("[agent/s] [laugh]", "say what it is, like [laugh/o] or [laugh/v]"),
        ("[agent/s] [] [laugh/v]", "empty slot"),
        ("[@box/a] [laugh/v]", "a feature slot is [@item/feature/a]"),
    ],
)
def test_bad_templates_are_errors_that_say_what_is_wrong(template, message):
    with pytest.raises(TemplateError) as raised:
        parse(template)
    assert message in str(raised.value)
    assert repr(template) in str(raised.value) or "unbalanced" in str(raised.value)


def test_a_template_naming_a_role_its_action_lacks_is_an_error_when_told():
    with pytest.raises(TemplateError, match=r"names \[direct\], but this action has no direct"):
        say("[agent/s] [take/v] [direct/o]")


def test_a_template_naming_an_unknown_tag_is_an_error_when_the_world_is_made():
    with pytest.raises(WorldError, match="names @ghost, not an item of this world"):
        hall("[@ghost/s] [laugh/v]")


# -- failures and refusals ----------------------------------------------------------------------------------------


def failing(reason: Reason, *, times_tried: int = 1, refusal: Refusal | None = None) -> WorldDefinition:
    """The old woman tries to lift the egg, which fails for `reason` (or she refuses to, by `refusal`)."""

    def check(action: object, world: object, sight: object) -> Reason:
        return reason

    lift = Behave(verb="lift", agent="@ann", direct="@egg", checks=() if refusal else (check,))
    timeline = tuple((tick, lift) for tick in range(1, times_tried + 1))
    return WorldDefinition(
        name="f",
        title="F",
        items=ITEMS,
        player="@ann",
        interactive=False,
        timeline=timeline,
        refusals=(refusal,) if refusal else (),
    )


HEAVY = Reason("heavy", "[direct/s] [be/v] too heavy")


def test_a_failure_is_told_with_its_reason():
    assert tell(failing(HEAVY)) == "An old woman is unable to lift an egg because it is too heavy."
    assert tell(failing(HEAVY), narrator="@ann", time="after") == (
        "I was unable to lift an egg because it was too heavy."
    )


def test_a_reason_that_stands_alone_is_told_in_place_of_the_attempt():
    alone = Reason("no way", "[agent/s] [can/not/v] do that", alone=True)
    assert tell(failing(alone), narratee="@ann") == "You cannot do that."


def test_a_refusal_is_told_as_the_actors_own_reason():
    refusal = Refusal(verb="lift", reason="[agent/s] [be/v] too polite to lift [direct/o]")
    assert tell(failing(HEAVY, refusal=refusal), time="after") == "An old woman was too polite to lift an egg."


def test_repeated_failures_lead_with_the_count():
    assert tell(failing(HEAVY, times_tried=2), frequency="iterative") == (
        "Twice, an old woman is unable to lift an egg because it is too heavy."
    )


def test_a_verb_after_a_noun_phrase_of_its_own_agrees_with_it():
    told = say("[@ann/s] [stay/v] in, and besides, the weather [be/v] nasty", narratee="@ann", time="after")
    assert told == "You stayed in, and besides, the weather was nasty."
    told = say("[@ann/s] [wait/v] because these doors [be/v] shut", narrator="@ann")
    assert told == "I wait because these doors are shut."


def test_the_flag_names_an_item_with_the_from_the_first():
    assert say("as for [@bob/the/o], [@bob/s] [nod/v]") == "As for the tall man, he nods."
    assert say("[@ann/s] [see/v] [@egg/the/old/o]") == "An old woman sees the old egg."


def test_a_pronoun_object_goes_before_a_phrasal_verbs_particle():
    world = hall("[@lamp/s] [flicker/v]", "[@ann/s] [turn/v] off [@lamp/o]")
    assert tell(world) == "A lamp flickers. An old woman turns it off."
    world = hall("[@lamp/s] [flicker/v]", "[@ann/s] [switch off/v] [@lamp/o]")
    assert tell(world, time="after") == "A lamp flickered. An old woman switched it off."
    assert say("[@ann/s] [pick/v] up [@egg/o]") == "An old woman picks up an egg."


def test_a_preposition_stays_before_a_pronoun():
    world = hall("[@box/s] [creak/v]", "[@ann/s] [sit/v] on [@box/o]")
    assert tell(world) == "A box creaks. An old woman sits on it."
