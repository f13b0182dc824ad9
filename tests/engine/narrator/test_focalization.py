"""Focalization: each actor tells only what it perceived — by sight, light and prominence — and the spin chooses
which part of that is told (window, ellipsis, speed)."""

from __future__ import annotations

import re

import pytest

from protocol.spin import apply
from server.engine.actions.action import Behave
from server.engine.story import Story
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room, Thing
from tests.helpers import sentences, tell

# -- the robbery through each of its actors -----------------------------------------------------------------------


def test_being_watched_by_someone_unseen_is_not_perceived_and_the_watcher_is_introduced_when_first_seen():
    told = sentences(tell("robbery"))
    # The guard watches the robber through the one-way mirror: the robber cannot see him, so knows nothing of it.
    assert not any(" sees " in s or s.startswith("Something") for s in told)
    assert "A burly guard enters the lobby." in told
    assert told.index("The bank teller laughs.") < told.index("A burly guard enters the lobby.")


def test_the_one_watching_tells_of_it():
    assert "He sees a twitchy man." in sentences(tell("robbery", focalizer="@guard"))


@pytest.mark.parametrize(
    ("actor", "present", "absent"),
    [
        (
            "@teller",
            [
                "The bank teller reads some deposit slips.",
                "She plays solitaire on her computer.",
                "A twitchy man enters the lobby.",
                "The bank teller puts some fake money in a black bag.",
            ],
            ["mask", "snoozing", "wakes up", "guard post", "street"],
        ),
        (
            "@robber",
            [
                "A twitchy man puts on a Dora the Explorer mask.",
                "He leaves the street.",
                "The bank teller puts something in a black bag.",
            ],
            ["deposit slips", "solitaire", "types", "snoozing", "wakes up", "money", "cries"],
        ),
        (
            "@guard",
            [
                "A burly guard is snoozing.",
                "He wakes up.",
                "He sees a twitchy man.",
                "The burly guard leaves the guard post.",
                "The bank teller puts something in a black bag.",
            ],
            ["deposit slips", "solitaire", "mask", "laughs", "waves", "brandishes", "money"],
        ),
    ],
)
def test_each_actor_tells_only_what_it_perceived(actor, present, absent):
    text = tell("robbery", focalizer=actor)
    told = sentences(text)
    for sentence in present:
        assert sentence in told, sentence
    for words in absent:
        assert words not in text, words


def test_a_sleeping_guard_perceives_nothing_until_he_wakes():
    told = sentences(tell("robbery", focalizer="@guard"))
    assert told[:2] == ["A burly guard is snoozing.", "He wakes up."]


def test_what_is_not_prominent_enough_across_a_view_is_something():
    # The fake money (prominence 0.3) is plain to the teller beside it, not to the robber in the lobby (view 0.6).
    assert "The bank teller puts some fake money in a black bag." in sentences(tell("robbery", focalizer="@teller"))
    assert "The bank teller puts something in a black bag." in sentences(tell("robbery", focalizer="@robber"))


# -- light, views and prominence in small worlds ----------------------------------------------------------------


def place(glow: float, *events: tuple[str, str]) -> WorldDefinition:
    """A woman and a bat in a cave of the given glow, a man and his dog in a field that looks onto a yard where a
    cat and a mouse are; `events` are (agent, verb) pairs, one a tick."""
    items = (
        Room(tag="@cave", called="cave", glow=glow),
        Room(tag="@field", called="field", views={"@yard": (0.5, "over in the yard")}),
        Room(tag="@yard", called="yard"),
        Actor(tag="@eve", called="woman", gender="female", where="in @cave"),
        Actor(tag="@bat", called="bat", gender="neuter", where="in @cave"),
        Thing(tag="@stone", called="smooth stone", where="in @cave", prominence=0.5),
        Actor(tag="@joe", called="man", gender="male", where="in @field"),
        Actor(tag="@dog", called="dog", gender="male", where="in @field", awake=False),
        Actor(tag="@cat", called="cat", gender="female", where="in @yard"),
        Actor(tag="@mouse", called="mouse", gender="male", where="in @yard", prominence=0.3),
    )
    timeline = tuple(
        (tick, Behave(verb=verb, agent=agent, direct="@stone" if verb == "sniff" else None))
        for tick, (agent, verb) in enumerate(events, start=1)
    )
    return WorldDefinition(
        name="places", title="Places", items=items, player="@eve", interactive=False, timeline=timeline
    )


CAVE = (("@bat", "flap"), ("@eve", "yawn"), ("@bat", "sniff"))


def test_in_a_dark_room_an_actor_sees_nothing_that_happens_there():
    assert tell(place(0.0, *CAVE), focalizer="@eve") == "A woman yawns."
    # What one does oneself is known in the dark, and so is what one handles, by touch.
    assert tell(place(0.0, *CAVE), focalizer="@bat") == "A bat flaps. It sniffs a smooth stone."


def test_in_a_lit_room_the_same_events_are_seen():
    assert tell(place(1.0, *CAVE), focalizer="@eve") == "A bat flaps. A woman yawns. The bat sniffs a smooth stone."


def test_in_dim_light_people_are_seen_but_a_small_stone_is_not():
    # light 0.3: the bat (prominence 1) scores 0.3 and is seen; the stone (0.5) scores 0.15 and is not.
    assert tell(place(0.3, *CAVE), focalizer="@eve") == "A bat flaps. A woman yawns. The bat sniffs something."


def test_across_a_view_only_what_is_prominent_enough_is_seen():
    world = place(1.0, ("@cat", "purr"), ("@mouse", "squeak"), ("@joe", "whistle"))
    # From the field the yard is seen at 0.5: the cat scores 0.5, the mouse 0.15.
    assert tell(world, focalizer="@joe") == "A cat purrs. A man whistles."
    assert tell(world, focalizer="@cat") == "A cat purrs. A mouse squeaks."


def test_a_sleeping_actor_perceives_nothing_beside_it():
    world = place(1.0, ("@joe", "whistle"), ("@dog", "snore"))
    assert tell(world, focalizer="@dog") == "A dog snores."
    assert tell(world, focalizer="@joe") == "A man whistles. A dog snores."


# -- what part is told: window, ellipsis, speed -------------------------------------------------------------------


def test_window_tells_the_last_turn_the_last_n_turns_or_all():
    items = (
        Room(tag="@field", called="field"),
        Actor(tag="@joe", called="man", gender="male", where="in @field"),
        Actor(tag="@cat", called="cat", gender="female", where="in @field"),
    )
    timeline = tuple(
        (tick, Behave(verb=verb, agent="@cat")) for tick, verb in enumerate(("purr", "stretch", "yawn", "sleep"), 2)
    )
    world = WorldDefinition(name="w", title="W", items=items, player="@joe", interactive=True, timeline=timeline)
    story = Story(world)
    for _ in range(4):
        story.idle()

    def told(window: object) -> str:
        return story.tell(apply(story.spin, {"window": window})).text

    assert told("turn") == "A cat sleeps."
    assert told(2) == "A cat yawns. She sleeps."
    # All: from the opening look on.
    assert told("all") == "Field\n\nA man sees a cat here. The cat purrs. She stretches. She yawns. She sleeps."


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\[(\d+)\]", text)]


def test_event_numbers_prefix_each_told_event():
    told = sentences(tell("robbery", focalizer="@teller", event_numbers=True))
    assert told[0] == "[0] The bank teller reads some deposit slips."
    assert all(re.match(r"\[\d+\] [A-Z]", s) for s in told)


def test_ellipsis_leaves_out_the_events_it_names():
    every = numbers(tell("robbery", focalizer="@teller", event_numbers=True))
    kept = numbers(tell("robbery", focalizer="@teller", event_numbers=True, ellipsis="0;2;4-9"))
    assert kept == [n for n in every if n not in (0, 2, 4, 5, 6, 7, 8, 9)]
    assert numbers(tell("robbery", focalizer="@teller", event_numbers=True, ellipsis="20-10")) == [
        n for n in every if not 10 <= n <= 20
    ]


def test_ellipsis_can_begin_the_story_in_the_middle():
    told = sentences(tell("robbery", focalizer="@teller", ellipsis="0-9"))
    # The twitchy man and the teller are named afresh: nothing before was told.
    assert told[0] == "The bank teller laughs."
    assert told[1] == "A burly guard enters the lobby."
    assert told[3] == "A twitchy man turns to the burly guard."


def test_speed_drops_low_salience_events():
    slow = sentences(tell("robbery", focalizer="@teller"))
    brisk = sentences(tell("robbery", focalizer="@teller", speed=0.7))
    fast = sentences(tell("robbery", focalizer="@teller", speed=1.0))
    assert "She types." in slow and "She plays solitaire on her computer." in slow
    assert not any("types" in s or "solitaire" in s for s in brisk)
    assert "The bank teller laughs." in brisk
    assert fast == [
        "A twitchy man brandishes a gun-shaped object at the bank teller.",
        "A burly guard shoots the twitchy man in the chest.",
        "The burly guard shoots the twitchy man in the chest.",
        "The twitchy man falls.",
        "He dies.",
    ]


def test_slow_speeds_tell_everything_of_salience_two_tenths_or_more():
    assert tell("robbery", focalizer="@teller", speed=0.0) == tell("robbery", focalizer="@teller", speed=0.5)
