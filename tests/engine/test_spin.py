"""Spins as files and settings: every shipped spin loads and tells; bad ones say where and what is wrong;
`key=value` settings are read into the right types; spins apply in order, later ones winning, their filters
adding up; the memoir is told by the one whose story it is."""

from __future__ import annotations

import pytest

from protocol.spin import SPIN_FIELDS, Spin, allowed_values, apply, describe, parse_value
from server.catalog import load_spin, spin_from_words, spin_names
from server.engine.errors import SpinError, UnknownName
from tests.helpers import sentences, story, tell

ROBBERY_ACTORS = ("@robber", "@teller", "@guard")


# -- the shipped spins ----------------------------------------------------------------------------------------------


def test_the_shipped_spins_include_the_2011_ones():
    assert {
        "flashback",
        "hesitant",
        "memoir",
        "prophecy",
        "retrograde",
        "surprise",
        "told_and_focalized_by_guard",
        "valley_girl",
    } <= set(spin_names())


@pytest.mark.parametrize("name", spin_names())
def test_every_shipped_spin_loads_with_a_summary_and_known_fields(name):
    found = load_spin(name)
    assert found.name == name
    assert found.summary.strip()
    assert set(found.overrides) <= set(SPIN_FIELDS)


@pytest.mark.parametrize("name", spin_names())
@pytest.mark.parametrize("actor", ROBBERY_ACTORS)
def test_every_shipped_spin_tells_the_robbery_through_every_actor(name, actor):
    made = story("robbery")
    spin = spin_from_words(made.spin, [name, f"focalizer={actor}"])
    text = made.tell(spin).text
    assert sentences(text)
    assert "[" not in text and "@" not in text


# -- bad spin files ---------------------------------------------------------------------------------------------------


def test_a_bad_value_in_a_spin_file_names_the_file_the_field_and_the_allowed_values(tmp_path):
    path = tmp_path / "sideways.toml"
    path.write_text('summary = "Sideways."\norder = "sideways"\n', encoding="utf-8")
    with pytest.raises(SpinError) as raised:
        load_spin(str(path))
    assert str(raised.value) == (
        f"{path}: 'sideways' is a bad value for order: it takes chronicle, retrograde, achrony, analepsis, or "
        "syllepsis."
    )


def test_an_unknown_field_in_a_spin_file_is_refused_with_the_fields_there_are(tmp_path):
    path = tmp_path / "colourful.toml"
    path.write_text('summary = "Colour."\ncolour = "red"\n', encoding="utf-8")
    with pytest.raises(SpinError, match=r"colourful\.toml: unknown spin field 'colour'; fields are focalizer, "):
        load_spin(str(path))


def test_a_spin_file_that_is_not_toml_says_so(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("order = \n", encoding="utf-8")
    with pytest.raises(SpinError, match=r"broken\.toml: not valid TOML"):
        load_spin(str(path))


def test_a_summary_must_be_text(tmp_path):
    path = tmp_path / "numbered.toml"
    path.write_text("summary = 3\n", encoding="utf-8")
    with pytest.raises(SpinError, match="'summary' must be text"):
        load_spin(str(path))


def test_a_good_spin_file_from_anywhere_loads(tmp_path):
    path = tmp_path / "slow_and_past.toml"
    path.write_text('summary = "Slow, past."\ntime = "after"\nperfect = true\n', encoding="utf-8")
    told = sentences(tell("robbery", str(path), focalizer="@teller"))
    assert told[0] == "The bank teller had read some deposit slips."


def test_an_unknown_spin_name_lists_the_spins_there_are():
    with pytest.raises(UnknownName, match="unknown spin 'sideways'; spins: flashback, hesitant"):
        load_spin("sideways")


@pytest.mark.parametrize(
    ("field", "value", "shown", "allowed"),
    [
        ("time", "sometime", "sometime", "before, during, after, or an event number such as 6.5"),
        ("speed", 2, "2", "a number from 0 to 1"),
        ("focalizer", "guard", "guard", "an actor tag like @guard or none"),
        ("narrator", "commanded", "commanded", "an actor tag like @guard, focalizer, or none"),
        ("window", 0, "0", "all, turn, or a whole number of at least 1"),
        (
            "filters",
            ("hesitant", "shouty"),
            "shouty",
            "names from hesitant, valley_girl, surprise, hedges, and double_entry, separated by commas (or none)",
        ),
        (
            "filters",
            ("nosuch",),
            "nosuch",
            "names from hesitant, valley_girl, surprise, hedges, and double_entry, separated by commas (or none)",
        ),
        ("group_by", None, "none", "place or agent"),
        ("perfect", "maybe", "maybe", "true or false"),
        ("ellipsis", "a-b", "a-b", "event ranges like 0;2;4-9 (or none)"),
    ],
)
def test_bad_values_say_in_english_what_the_field_takes(field, value, shown, allowed):
    # Never a Python value ("('nosuch',)", "None"): the value as typed, and the values the field takes.
    with pytest.raises(SpinError) as raised:
        apply(Spin(), {field: value}, source="here")
    assert str(raised.value) == f"here: '{shown}' is a bad value for {field}: it takes {allowed}."


@pytest.mark.parametrize("field", SPIN_FIELDS)
def test_every_field_says_what_it_takes_in_words(field):
    allowed = allowed_values(field)
    assert allowed and not any(python in allowed for python in ("Literal", "None", "<class", "'", "[", "tuple"))


# -- actors a spin names --------------------------------------------------------------------------------------------


def test_an_unknown_actor_names_the_field_and_the_actors_there_are():
    made = story("robbery")
    with pytest.raises(UnknownName) as raised:
        made.tell(apply(made.spin, {"focalizer": "@nobody"}))
    assert str(raised.value) == (
        "focalizer @nobody is not an actor in robbery; it takes one of @teller, @robber, and @guard, or none"
    )
    with pytest.raises(UnknownName, match=r"^narratee @nobody is not in robbery; it takes an actor .*focalizer"):
        made.tell(apply(made.spin, {"narratee": "@nobody"}))


def test_an_unknown_actor_in_a_spin_file_names_the_file_the_field_and_the_actors(tmp_path):
    path = tmp_path / "nobody.toml"
    path.write_text('summary = "Through nobody."\nfocalizer = "@nobody"\n', encoding="utf-8")
    found = load_spin(str(path))
    assert found.source == str(path)
    made = story("robbery")
    with pytest.raises(UnknownName) as raised:
        made.check_spin(apply(made.spin, dict(found.overrides), source=found.source), source=found.source)
    assert str(raised.value) == (
        f"{path}: focalizer @nobody is not an actor in robbery; it takes one of @teller, @robber, and @guard, or none"
    )


# -- key=value settings ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "text", "value"),
    [
        ("perfect", "true", True),
        ("perfect", "yes", True),
        ("perfect", "On", True),
        ("progressive", "false", False),
        ("progressive", "no", False),
        ("time_words", "off", False),
        ("narrator", "none", None),
        ("narrator", "nobody", None),
        ("narrator", "@guard", "@guard"),
        ("window", "3", 3),
        ("speed", "0.75", 0.75),
        ("time", "6.5", 6.5),
        ("time", "after", "after"),
        ("filters", "hesitant, surprise", ("hesitant", "surprise")),
        ("filters", "hedges", ("hedges",)),
        ("filters", "", ()),
        ("ellipsis", "0;2;4-9", "0;2;4-9"),
    ],
)
def test_settings_text_is_read_as_the_fields_type(field, text, value):
    assert parse_value(field, text) == value


def test_settings_become_a_spin():
    spin = spin_from_words(
        Spin(), ["time=after", "filters=hesitant,surprise", "window=3", "narrator=none", "perfect=yes"]
    )
    assert (spin.time, spin.filters, spin.window, spin.narrator, spin.perfect) == (
        "after",
        ("hesitant", "surprise"),
        3,
        None,
        True,
    )


def test_a_single_event_can_be_elided_by_a_setting():
    assert spin_from_words(Spin(), ["ellipsis=4"]).ellipsis == "4"


def test_filters_none_clears_the_filters():
    assert spin_from_words(Spin(filters=("hesitant",)), ["filters=none"]).filters == ()


# -- order of application -----------------------------------------------------------------------------------------


def test_spins_apply_in_order_and_later_ones_win():
    assert spin_from_words(Spin(), ["prophecy", "memoir"]).time == "after"
    assert spin_from_words(Spin(), ["memoir", "prophecy"]).time == "before"


def test_spins_combine_what_they_do_not_share():
    spin = spin_from_words(Spin(), ["retrograde", "prophecy", "hesitant"])
    assert (spin.order, spin.time_words, spin.time, spin.filters) == ("retrograde", True, "before", ("hesitant",))


def test_settings_override_named_spins():
    assert spin_from_words(Spin(), ["prophecy", "time=during"]).time == "during"
    told = sentences(tell("robbery", "prophecy", time="after"))
    assert told[0] == "A twitchy man put on a Dora the Explorer mask."


def test_named_spins_add_their_filters_up():
    assert spin_from_words(Spin(), ["hesitant", "surprise"]).filters == ("hesitant", "surprise")
    assert spin_from_words(Spin(), ["hesitant", "surprise", "hesitant"]).filters == ("hesitant", "surprise")
    told = tell("robbery", "hesitant", "surprise")
    assert any(word in told for word in ("um", "uh", "er,")) and "!" in told


def test_a_filters_setting_still_gives_the_whole_list():
    assert spin_from_words(Spin(), ["hesitant", "surprise", "filters=hedges"]).filters == ("hedges",)
    assert spin_from_words(Spin(), ["hesitant", "filters=none"]).filters == ()
    assert apply(Spin(filters=("hesitant",)), {"filters": ("surprise",)}).filters == ("surprise",)


# -- the memoir -----------------------------------------------------------------------------------------------------


def test_the_memoir_is_told_in_the_first_person_by_the_one_whose_story_it_is():
    told = sentences(tell("robbery", "memoir"))
    assert told[:2] == ["I put on my Dora the Explorer mask.", "I left the street."]
    assert "He shot me in the chest." in told
    guard = sentences(tell("robbery", "memoir", focalizer="@guard"))
    assert guard[:2] == ["I was snoozing.", "I woke up."] and "I shot him in the chest." in guard


def test_a_narratee_can_be_the_focalizer():
    told = sentences(tell("robbery", narratee="focalizer", focalizer="@teller"))
    assert told[0] == "You read some deposit slips."


def test_describe_lists_every_field_once():
    lines = describe(spin_from_words(Spin(), ["told_and_focalized_by_guard"])).splitlines()
    assert [line.split(" = ")[0] for line in lines] == list(SPIN_FIELDS)
    assert "narrator = @guard" in lines and "time = after" in lines and "filters = none" in lines


@pytest.mark.parametrize("typed", ["nan", "inf", "-inf"])
def test_a_time_that_is_no_event_number_is_refused_however_it_is_typed(typed):
    """`spin time nan` at the prompt was taken (and over JSON a nan became null): every reading refuses it."""
    with pytest.raises(SpinError, match=f"'{typed}' is a bad value for time"):
        spin_from_words(Spin(), [f"time={typed}"])
    with pytest.raises(SpinError, match=f"'{typed}' is a bad value for time"):
        spin_from_words(Spin(), ["time", typed])
