"""Grammatical person and reference to people: I and you, we, singular they, reflexives and possessives."""

from __future__ import annotations

from server.engine.actions.action import Behave
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room, Thing
from tests.helpers import sentences, tell

PEOPLE = (
    Room(tag="@hall", called="hall"),
    Actor(tag="@ann", called="old woman", gender="female", where="in @hall"),
    Actor(tag="@bob", called="tall man", gender="male", where="in @hall"),
    Actor(tag="@joe", called="short man", gender="male", where="in @hall"),
    Actor(tag="@kit", called="child", gender="nonbinary", where="in @hall"),
    Actor(tag="@rex", called="dog", where="in @hall"),
    Actor(tag="@crew", called="sailors", plural=True, article="some", where="in @hall"),
    Thing(tag="@hat", called="hat", where="of @bob"),
    Thing(tag="@tea", called="tea", article="some", where="in @hall"),
)


def hall(*events: tuple[str, str]) -> WorldDefinition:
    """Everyone in one hall; each (agent, template) pair is one event, a tick apart."""
    timeline = tuple(
        (tick, Behave(verb="act", agent=agent, template=template))
        for tick, (agent, template) in enumerate(events, start=1)
    )
    return WorldDefinition(name="hall", title="Hall", items=PEOPLE, player="@ann", interactive=False, timeline=timeline)


# -- the narrator: I ---------------------------------------------------------------------------------------------


def test_the_narrator_is_i_as_subject_and_me_as_object():
    told = sentences(tell("robbery", narrator="@robber"))
    assert told[0] == "I put on my Dora the Explorer mask."
    assert "The bank teller waves to me." in told
    # After a sentence about me, the one other person in it is "he".
    assert told[told.index("I turn to the burly guard.") + 1] == "He shoots me in the chest."
    assert told[-1] == "I die."


def test_the_narrator_says_my_and_myself():
    world = hall(("@ann", "[agent/s] [pour/v] [agent's] tea"), ("@ann", "[agent/s] [see/v] [agent/o] in a spoon"))
    assert tell(world, narrator="@ann") == "I pour my tea. I see myself in a spoon."


def test_a_narrating_teller_plays_solitaire_on_my_computer():
    told = sentences(tell("robbery", focalizer="@teller", narrator="@teller", time="after"))
    assert told[:2] == ["I read some deposit slips.", "I counted them."]
    assert "I played solitaire on my computer." in told
    assert "He brandished a gun-shaped object at me." in told


# -- the narratee: you -------------------------------------------------------------------------------------------


def test_the_narratee_is_you_with_your_and_yourself():
    world = hall(
        ("@bob", "[agent/s] [be/v] tired"),
        ("@bob", "[agent/s] [lift/v] [agent's] hat"),
        ("@bob", "[agent/s] [see/v] [agent/o] in a mirror"),
    )
    assert tell(world, narratee="@bob") == "You are tired. You lift your hat. You see yourself in a mirror."
    past = "You were tired. You lifted your hat. You saw yourself in a mirror."
    assert tell(world, narratee="@bob", time="after") == past


def test_the_robber_addressed_as_you():
    told = sentences(tell("robbery", narratee="@robber"))
    assert told[0] == "You put on your Dora the Explorer mask."
    assert "Something sees you." not in told, "he cannot see the guard watching him"
    assert "bank teller waves to you." in " ".join(told)


def test_narrator_and_narratee_in_one_telling():
    told = sentences(tell("robbery", "told_and_focalized_by_guard"))
    assert "You put something in a black bag." in told
    assert "The twitchy man turned to me." in told
    assert "I shot him in the chest." in told


def test_i_and_you_in_one_sentence():
    world = hall(("@ann", "[agent/s] [hand/v] [@bob/o] [@bob's] hat, and [@bob/s] [thank/v] [agent/o]"))
    assert tell(world, narrator="@ann", narratee="@bob") == "I hand you your hat, and you thank me."


def test_a_thing_can_be_told_to():
    told = sentences(tell("robbery", narratee="@bag"))
    assert "The bank teller puts something in you." in told


def test_when_the_narrator_is_also_the_narratee_it_speaks_as_i():
    assert tell("robbery", narrator="@robber", narratee="@robber") == tell("robbery", narrator="@robber")


# -- we ----------------------------------------------------------------------------------------------------------


def test_a_plural_narrator_is_we_us_our_ourselves():
    world = hall(
        ("@crew", "[agent/s] [be/v] hungry"),
        ("@crew", "[agent/s] [drink/v] [agent's] tea"),
        ("@bob", "[agent/s] [wave/v] to [@crew/o]"),
        ("@crew", "[agent/s] [laugh/v] at [agent/o]"),
    )
    told = "We are hungry. We drink our tea. A tall man waves to us. We laugh at ourselves."
    assert tell(world, narrator="@crew") == told
    assert sentences(tell(world, narrator="@crew", time="after"))[0] == "We were hungry."


def test_plural_actors_named_take_plural_verbs():
    world = hall(("@crew", "[agent/s] [be/v] hungry"), ("@crew", "[agent/s] [sing/v]"))
    assert tell(world) == "Some sailors are hungry. They sing."


# -- singular they -----------------------------------------------------------------------------------------------


def test_singular_they_takes_plural_verbs_and_themself():
    world = hall(
        ("@kit", "[agent/s] [laugh/v]"),
        ("@kit", "[agent/s] [be/v] happy"),
        ("@kit", "[agent/s] [see/v] [agent/o] in a puddle"),
    )
    assert tell(world) == "A child laughs. They are happy. They see themself in a puddle."
    assert tell(world, time="after") == "A child laughed. They were happy. They saw themself in a puddle."


def test_a_person_named_is_singular_whatever_the_pronoun():
    # The child and the dog (of unknown sex) are "they", but their names take singular verbs.
    world = hall(("@kit", "[agent/s] [laugh/v]"), ("@rex", "[agent/s] [bark/v]"), ("@rex", "[agent/s] [wag/v]"))
    assert tell(world) == "A child laughs. A dog barks. They wag."


def test_singular_they_and_plural_they_compete_for_the_pronoun():
    world = hall(("@kit", "[agent/s] [wave/v] to [@crew/o]"), ("@kit", "[agent/s] [smile/v]"))
    # "They smile" could be the child or the sailors: the name is used.
    assert tell(world) == "A child waves to some sailors. The child smiles."


# -- reflexives and possessives ---------------------------------------------------------------------------------


def test_an_object_that_is_its_clauses_subject_is_reflexive():
    world = hall(("@bob", "[agent/s] [see/v] [agent/o]"), ("@ann", "[agent/s] [see/v] [@bob/o]"))
    assert tell(world) == "A tall man sees himself. An old woman sees him."


def test_the_reflexive_is_only_for_the_same_clause():
    world = hall(("@bob", "[agent/s] [wave/v], and [@ann/s] [see/v] [agent/o]"))
    assert tell(world) == "A tall man waves, and an old woman sees him."


def test_a_possessive_is_a_name_when_a_pronoun_would_be_unclear():
    world = hall(
        ("@bob", "[agent/s] [lift/v] [agent's] hat"),
        ("@joe", "[agent/s] [eye/v] [@bob's] hat"),
    )
    # "His hat" after "a short man eyes" could be the short man's own.
    assert tell(world) == "A tall man lifts his hat. A short man eyes the tall man's hat."


def test_a_possessive_is_a_pronoun_when_that_is_clear():
    world = hall(("@bob", "[agent/s] [lift/v] [agent's] hat"), ("@ann", "[@bob's] hat [fall/v]"))
    assert tell(world) == "A tall man lifts his hat. His hat falls."


def test_a_possessive_before_an_item_drops_the_items_article():
    world = hall(("@bob", "[agent/s] [brush/v] [agent's] [@hat/o]"), ("@bob", "[agent/s] [drop/v] [@hat/o]"))
    assert tell(world) == "A tall man brushes his hat. He drops the hat."


def test_a_possessive_before_an_item_with_adjectives():
    world = hall(("@bob", "[agent/s] [brush/v] [agent's] [@hat/old/felt/o]"))
    assert tell(world, narratee="@bob") == "You brush your old felt hat."


def test_after_a_sentence_about_me_the_one_other_person_in_it_is_a_pronoun():
    world = hall(("@ann", "[agent/s] [wave/v] to [@bob/o]"), ("@bob", "[agent/s] [nod/v]"))
    assert tell(world, narrator="@ann") == "I wave to a tall man. He nods."
    world = hall(("@ann", "[agent/s] [wave/v] to [@bob/o] and [@joe/o]"), ("@bob", "[agent/s] [nod/v]"))
    assert tell(world, narrator="@ann") == "I wave to a tall man and a short man. The tall man nods."


def test_pronouns_do_not_reach_across_a_rival():
    world = hall(("@bob", "[agent/s] [wave/v] to [@joe/o]"), ("@bob", "[agent/s] [laugh/v]"))
    # "He laughs" could be either man.
    assert tell(world) == "A tall man waves to a short man. The tall man laughs."


def test_pronouns_follow_the_last_subject_when_there_is_no_rival():
    world = hall(
        ("@bob", "[agent/s] [wave/v] to [@ann/o]"), ("@bob", "[agent/s] [laugh/v]"), ("@ann", "[agent/s] [sigh/v]")
    )
    assert tell(world) == "A tall man waves to an old woman. He laughs. The old woman sighs."


def test_forced_pronoun():
    world = hall(("@bob", "[agent/s] [wave/v] to [@joe/o]"), ("@bob", "[agent/pro/s] [laugh/v]"))
    assert tell(world) == "A tall man waves to a short man. He laughs."


def test_the_guards_pistol_when_his_would_be_unclear():
    items = (
        Room(tag="@bank", called="bank"),
        Actor(tag="@guard", called="guard", gender="male", where="in @bank"),
        Actor(tag="@thief", called="thief", gender="male", where="in @bank"),
        Thing(tag="@pistol", called="pistol", where="of @guard"),
    )
    timeline = (
        (1, Behave(verb="draw", agent="@guard", template="[agent/s] [draw/v] [agent's] pistol")),
        (2, Behave(verb="grab", agent="@thief", template="[agent/s] [grab/v] [@guard's] pistol")),
        (3, Behave(verb="shout", agent="@guard", template="[agent/s] [shout/v]")),
        (4, Behave(verb="drop", agent="@thief", template="[@guard's] pistol [fall/v]")),
    )
    world = WorldDefinition(
        name="bank", title="Bank", items=items, player="@guard", interactive=False, timeline=timeline
    )
    assert tell(world) == (
        "A guard draws his pistol. A thief grabs the guard's pistol. The guard shouts. His pistol falls."
    )
