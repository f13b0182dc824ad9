"""The bank robbery told through each of its actors and under the shipped spins."""

import pytest

from server.engine.trees import listing
from tests.helpers import sentences, story, tell


def test_plain_telling_is_present_tense_from_the_robber_and_begins_with_the_mask():
    told = sentences(tell("robbery"))
    assert told[0] == "A twitchy man puts on a Dora the Explorer mask."
    assert "He leaves the street." in told
    assert told[-1] == "He dies."


def test_robber_does_not_know_the_guard_until_he_sees_him():
    told = sentences(tell("robbery"))
    # He never sees the guard watching him through the one-way mirror, so is told nothing of it.
    assert not any("sees" in s or "Something" in s for s in told)
    # Once the guard walks into the lobby the robber sees him, and he is introduced, not "the" guard.
    assert "A burly guard enters the lobby." in told


def test_robber_never_learns_what_is_in_the_bag():
    text = tell("robbery")
    assert "The bank teller puts something in a black bag." in text
    assert "money" not in text


def test_teller_sees_the_fake_money_go_into_the_bag():
    assert "The bank teller puts some fake money in a black bag." in tell("robbery", focalizer="@teller")


def test_prophecy_is_future():
    told = sentences(tell("robbery", "prophecy"))
    assert told[0] == "A twitchy man will put on a Dora the Explorer mask."
    assert all(" will " in s for s in told)


def test_retrograde_tells_the_last_event_first_with_backward_time_words():
    told = sentences(tell("robbery", "retrograde", focalizer="@teller"))
    assert told[0] == "The bank teller cries."
    assert all(
        s.startswith(("Before that, ", "Just before that, ", "Previously, ", "Prior to that, ")) for s in told[1:]
    )
    # Told last, the slips were already mentioned (counted) and the teller was the subject just before.
    assert told[-1].endswith(", she read the deposit slips.")


def test_guard_tells_it_to_the_teller_afterwards_in_the_first_person():
    told = sentences(tell("robbery", "told_and_focalized_by_guard"))
    assert told[0] == "I was snoozing."
    assert "You put something in a black bag." in told
    assert told[-1] == "You cried."
    text = " ".join(told)
    assert "mask" not in text
    assert "bank teller" not in text  # she is the narratee: always "you"


def test_only_the_teller_knows_the_fake_money_is_in_the_bag():
    made = story("robbery")
    for actor, knows in (("@teller", True), ("@robber", False), ("@guard", False)):
        tree = listing(made.concept_tree(actor))
        assert ("        @bag: black bag [in]\n            @fake_money: fake money [in]" in tree) is knows, actor


def test_concept_tree_lists_one_item_a_line_from_cosmos_down():
    tree = listing(story("robbery").concept_tree("@robber")).splitlines()
    assert tree[0] == "@cosmos: cosmos"
    assert "    @street: street [of]" in tree
    assert "        @robber: twitchy man [in]" in tree
    assert "            @mask: Dora the Explorer mask [on]" in tree
    assert not any("@guard_post" in line for line in tree)


@pytest.mark.parametrize("spin", ["hesitant", "surprise", "valley_girl"])
def test_seeded_filters_are_reproducible_and_the_seed_matters(spin):
    first, again = tell("robbery", spin, seed=7), tell("robbery", spin, seed=7)
    assert first == again
    assert first != tell("robbery")
    assert any(tell("robbery", spin, seed=seed) != first for seed in range(8, 12))
