"""The order of telling: chronicle, retrograde, achrony, analepsis and syllepsis, and the time words between."""

from __future__ import annotations

import itertools
import re

from server.engine.actions.action import Behave, Configure
from server.engine.actions.verbs import look
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room
from tests.helpers import sentences, tell


def numbers(text: str) -> list[int]:
    """The event numbers of a telling told with event_numbers on, in the order told."""
    return [int(n) for n in re.findall(r"\[(\d+)\]", text)]


def paragraphs(text: str) -> list[str]:
    return text.split("\n\n")


def told_numbers(*spins: str, **settings: object) -> list[int]:
    return numbers(tell("robbery", *spins, event_numbers=True, **settings))


# -- chronicle and retrograde -----------------------------------------------------------------------------------


def test_chronicle_tells_events_as_they_happened():
    order = told_numbers(focalizer="@teller")
    assert order == sorted(order)
    assert len(order) > 10
    told = sentences(tell("robbery", focalizer="@teller"))
    assert told[0] == "The bank teller reads some deposit slips."
    assert told[-1] == "The bank teller cries."


def test_retrograde_tells_the_same_events_last_first():
    assert told_numbers(order="retrograde") == told_numbers()[::-1]


def test_retrograde_without_time_words_just_goes_back():
    told = sentences(tell("robbery", order="retrograde", focalizer="@teller"))
    assert told[:3] == ["The bank teller cries.", "A twitchy man died.", "He fell."]
    assert not any(s.startswith(("Before that", "Earlier")) for s in told)


def test_retrograde_with_time_words_walks_back_in_turn():
    told = sentences(tell("robbery", "retrograde", focalizer="@teller"))
    assert told[:3] == ["The bank teller cries.", "Before that, a twitchy man died.", "Just before that, he fell."]
    openings = [s.split(", ")[0] for s in told[1:]]
    assert set(openings) == {"Before that", "Just before that", "Previously", "Prior to that"}
    assert all(a != b for a, b in itertools.pairwise(openings))  # never the same twice running
    assert tell("robbery", "retrograde", focalizer="@teller") == tell("robbery", "retrograde", focalizer="@teller")


# -- achrony -----------------------------------------------------------------------------------------------------


def test_achrony_tells_every_event_once_in_some_other_order():
    chronicle = told_numbers()
    shuffled = told_numbers(order="achrony")
    assert sorted(shuffled) == chronicle
    assert shuffled != chronicle


def test_achrony_is_the_same_for_the_same_seed_and_differs_for_some_other_seed():
    first = numbers(tell("robbery", order="achrony", event_numbers=True, seed=3))
    assert numbers(tell("robbery", order="achrony", event_numbers=True, seed=3)) == first
    assert any(numbers(tell("robbery", order="achrony", event_numbers=True, seed=s)) != first for s in range(4, 8))


def test_achrony_tells_an_event_after_a_later_one_in_the_past():
    told = tell("robbery", order="achrony", event_numbers=True, time="after", seed=3)
    late = 0
    for number, sentence in re.findall(r"\[(\d+)\] ([^\[]*)", told):
        if int(number) < late:
            assert " had " in f" {sentence}", sentence
        late = max(late, int(number))


# -- analepsis ---------------------------------------------------------------------------------------------------


def test_analepsis_begins_in_the_middle_flashes_back_then_returns():
    order = told_numbers("flashback", focalizer="@teller")
    chronicle = told_numbers(focalizer="@teller")
    opening = order[0]
    assert chronicle[0] < opening < chronicle[-1]
    flashback = [n for n in order[1:] if n < opening]
    rest = [n for n in order[1:] if n > opening]
    # Everything before the opening, in order, then everything after it; the opening is never told again.
    assert order == [opening, *flashback, *rest]
    assert flashback == sorted(flashback) and rest == sorted(rest)
    assert sorted(order) == chronicle


def test_the_flashback_is_pluperfect_with_a_lead_and_the_return_has_its_own():
    opening, flashback, rest = paragraphs(tell("robbery", "flashback", focalizer="@teller"))
    assert opening == "A burly guard entered the lobby."
    assert flashback.startswith("Earlier, the bank teller had read some deposit slips. She had counted")
    assert all(" had " in s for s in sentences(flashback))
    assert rest.startswith("Then, the bank teller put some fake money in a black bag.")
    assert not any(" had " in s for s in sentences(rest))


def test_the_flashback_never_recalls_the_event_just_told():
    opening, flashback, _rest = paragraphs(tell("robbery", "flashback", focalizer="@teller"))
    assert "guard" in opening and "guard" not in flashback


def test_analepsis_in_the_present_recalls_in_the_past_and_returns_with_now():
    opening, flashback, rest = paragraphs(tell("robbery", order="analepsis", focalizer="@teller"))
    assert opening == "A burly guard enters the lobby."
    assert flashback.startswith("Earlier, the bank teller read some deposit slips.")
    assert rest.startswith("Now, the bank teller puts some fake money in a black bag.")


def test_analepsis_of_a_prophecy_is_future_perfect():
    _opening, flashback, rest = paragraphs(tell("robbery", order="analepsis", time="before", focalizer="@teller"))
    assert flashback.startswith("Earlier, the bank teller will have read some deposit slips.")
    assert rest.startswith("Then, the bank teller will put some fake money in a black bag.")


def test_analepsis_of_too_short_a_story_is_a_chronicle():
    world = kitchen(("@kim", 1, "[agent/s] [sing/v]"), ("@lou", 2, "[agent/s] [whistle/v]"))
    assert tell(world, order="analepsis") == tell(world)


# -- syllepsis ---------------------------------------------------------------------------------------------------


def test_syllepsis_by_place_gives_each_place_a_paragraph():
    vestibule, lobby = paragraphs(tell("robbery", order="syllepsis", focalizer="@teller"))
    assert vestibule.startswith("In the vestibule, the bank teller reads some deposit slips. She counts")
    assert vestibule.endswith("She cries.")
    assert "lobby" not in vestibule
    assert lobby.startswith("The twitchy man enters the lobby.")
    assert "vestibule" not in lobby


def test_the_guards_syllepsis_goes_from_the_guard_post_to_the_lobby_and_the_vestibule():
    post, lobby, vestibule = paragraphs(tell("robbery", order="syllepsis", focalizer="@guard"))
    assert post.startswith("In the guard post, a burly guard is snoozing. He wakes up.")
    # The lobby's first sentence names it: no lead, rather than "In the lobby, the burly guard enters it".
    assert lobby.startswith("The burly guard enters the lobby. The twitchy man turns to the burly guard.")
    assert vestibule == "In the vestibule, the bank teller puts something in a black bag. She cries."


def house(*events: tuple[str, str]) -> WorldDefinition:
    """A maid in a house of two rooms; each (room, template) event is hers, done in that room."""
    items = (
        Room(tag="@hall", called="hall"),
        Room(tag="@study", called="study"),
        Actor(tag="@maid", called="maid", gender="female", where="in @hall"),
    )
    timeline: list[tuple[int, Behave | Configure]] = []
    room = "@hall"
    for tick, (where, template) in enumerate(events, start=1):
        if where != room:
            timeline.append(
                (
                    tick,
                    Configure(
                        verb="go",
                        agent="@maid",
                        direct="@maid",
                        to=f"in {where}",
                        template="[agent/s] [walk/v] on",
                        salience=0.1,
                    ),
                )
            )
            room = where
        timeline.append((tick, Behave(verb="act", agent="@maid", template=template)))
    return WorldDefinition(
        name="house", title="House", items=items, player="@maid", interactive=False, timeline=tuple(timeline)
    )


def test_a_place_lead_is_left_out_when_the_first_sentence_names_the_place():
    world = house(
        ("@hall", "[agent/s] [sweep/v]"),
        ("@study", "[agent/s] [dust/v] [room/o]"),
        ("@study", "[agent/s] [yawn/v]"),
    )
    # Not "In the study, the maid dusts it": the lead would be the pronoun's only antecedent.
    assert tell(world, order="syllepsis") == "In the hall, a maid sweeps.\n\nThe maid dusts the study. She yawns."


def test_a_place_lead_never_makes_the_place_a_pronoun():
    world = house(
        ("@hall", "[agent/s] [sweep/v]"),
        ("@study", "[agent/s] [yawn/v]"),
        ("@study", "[agent/s] [dust/v] [room/o]"),
    )
    assert tell(world, order="syllepsis") == (
        "In the hall, a maid sweeps.\n\nIn the study, the maid yawns. She dusts the study."
    )


def test_syllepsis_by_agent_gives_each_agent_a_paragraph_with_as_for():
    groups = paragraphs(tell("robbery", order="syllepsis", group_by="agent", focalizer="@teller"))
    assert groups[0].startswith("As for the bank teller, she reads some deposit slips.")
    assert groups[1].startswith("As for the twitchy man, he ")
    assert "As for the burly guard, he " in groups[-1]
    assert sum(g.startswith("As for ") for g in groups) == 3


def test_syllepsis_by_agent_with_the_narrator():
    groups = paragraphs(tell("robbery", order="syllepsis", group_by="agent", narrator="@robber"))
    assert groups[0].startswith("As for me, I put on my Dora the Explorer mask.")


def test_syllepsis_groups_keep_each_groups_events_in_order():
    text = tell("robbery", order="syllepsis", event_numbers=True, focalizer="@teller")
    for group in paragraphs(text):
        assert numbers(group) == sorted(numbers(group))
    assert sorted(numbers(text)) == told_numbers(focalizer="@teller")


# -- time words --------------------------------------------------------------------------------------------------


def kitchen(*events: tuple[str, int, str], lasting: int = 0) -> WorldDefinition:
    """(agent, tick, template) events; the first lasts `lasting` ticks."""
    items = (
        Room(tag="@kitchen", called="kitchen"),
        Actor(tag="@kim", called="cook", gender="female", where="in @kitchen"),
        Actor(tag="@lou", called="waiter", gender="male", where="in @kitchen"),
    )
    timeline = tuple(
        (
            tick,
            Behave(
                verb="act",
                agent=agent,
                template=template,
                duration=lasting if index == 0 else 0,
                progressive=bool(lasting) and index == 0,
            ),
        )
        for index, (agent, tick, template) in enumerate(events)
    )
    return WorldDefinition(
        name="kitchen", title="Kitchen", items=items, player="@kim", interactive=False, timeline=timeline
    )


def test_forward_time_words_take_turns():
    world = kitchen(
        ("@kim", 1, "[agent/s] [sing/v]"),
        ("@lou", 2, "[agent/s] [whistle/v]"),
        ("@kim", 3, "[agent/s] [laugh/v]"),
        ("@lou", 4, "[agent/s] [bow/v]"),
    )
    told = "A cook sings. Then, a waiter whistles. Next, the cook laughs. After that, the waiter bows."
    assert tell(world, time_words=True) == told


def test_meanwhile_for_what_happens_while_an_activity_goes_on():
    world = kitchen(("@kim", 1, "[agent/s] [stir/v] the soup"), ("@lou", 2, "[agent/s] [whistle/v]"), lasting=3)
    assert tell(world, time_words=True, time="after") == "A cook was stirring the soup. Meanwhile, a waiter whistled."


def test_earlier_for_a_jump_further_back():
    text = tell("robbery", order="achrony", time_words=True, seed=3, focalizer="@teller")
    assert "Earlier, " in text
    assert "Before that, " in text or "Then, " in text


SING_WHISTLE_BOW = (
    ("@kim", 1, "[agent/s] [sing/v]"),
    ("@lou", 2, "[agent/s] [whistle/v]"),
    ("@kim", 3, "[agent/s] [bow/v]"),
)


def test_an_agent_lead_names_its_topic_with_the_even_at_first():
    world = kitchen(*SING_WHISTLE_BOW)
    assert tell(world, order="syllepsis", group_by="agent") == (
        "As for the cook, she sings. She bows.\n\nAs for the waiter, he whistles."
    )


def test_syllepsis_groups_are_not_joined_by_time_words():
    world = kitchen(*SING_WHISTLE_BOW)
    assert tell(world, order="syllepsis", group_by="agent", time_words=True) == (
        "As for the cook, she sings. Then, she bows.\n\nAs for the waiter, he whistles."
    )


def test_a_group_that_opens_with_a_look_is_headed_by_the_room_and_takes_no_lead():
    items = (
        Room(tag="@hall", called="hall", sight="[this] [be/v] a long hall"),
        Actor(tag="@maid", called="maid", gender="female", where="in @hall"),
    )
    world = WorldDefinition(
        name="h",
        title="H",
        items=items,
        player="@maid",
        interactive=False,
        timeline=((1, look("@maid")), (2, Behave(verb="yawn", agent="@maid"))),
    )
    assert tell(world, order="syllepsis") == "Hall\n\nThis is a long hall. A maid yawns."
    told = tell(world, order="syllepsis", group_by="agent", time="after")
    assert told == "Hall\n\nThat was a long hall. A maid yawned."


def test_a_description_takes_no_time_word():
    items = (
        Room(tag="@hall", called="hall", sight="[this] [be/v] a long hall"),
        Actor(tag="@maid", called="maid", gender="female", where="in @hall"),
    )
    timeline = ((1, look("@maid")), (2, Behave(verb="yawn", agent="@maid")), (3, look("@maid")))
    world = WorldDefinition(name="h", title="H", items=items, player="@maid", interactive=False, timeline=timeline)
    told = tell(world, time_words=True)
    assert told == "Hall\n\nThis is a long hall. Then, a maid yawns.\n\nHall\n\nThis is a long hall."
