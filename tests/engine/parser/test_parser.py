"""The parser: every kind of command in its word orders, names, pronouns, lists, scopes and questions, at the
recognizer in a small world of its own, and end to end through a player on the shipped worlds."""

from __future__ import annotations

import pytest

from protocol.commands import split_commands
from server.catalog import load_world
from server.engine.parser.recognize import Clarify, Memory, NotUnderstood, Parsed, Understood
from server.engine.parser.words import words_of
from server.engine.player import Player
from server.engine.story import Story
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room, Substance, Thing

# -- a small world to parse in ------------------------------------------------------------------------------------

LAB_ITEMS = (
    Room(
        tag="@hall",
        called="hall",
        sight="[this] bare hall [have/v] a way north and a ladder up",
        exits={"n": "@yard", "u": "@loft", "s": "[agent/s] [can/not/v] walk through walls"},
    ),
    Room(tag="@yard", called="yard", sight="grass [grow/v] [here]", exits={"s": "@hall", "in": "@hall"}),
    Room(tag="@loft", called="loft", sight="dust [lie/v] [here]", exits={"d": "@hall"}),
    Actor(tag="@me", called="tinkerer", where="in @hall", referring="me self"),
    Actor(tag="@mime", called="mime", gender="male", where="in @hall", referring="performer"),
    Actor(tag="@nun", called="nun", gender="female", where="in @hall", referring="sister"),
    Thing(tag="@brass_lamp", called="brass lamp", where="in @hall", qualities=("device", "light"), on=False),
    Thing(tag="@oil_lamp", called="oil lamp", where="in @hall", lit=False, flame=True),
    Thing(tag="@keys", called="keys", article="some", plural=True, where="in @hall", referring="key ring"),
    Thing(tag="@box", called="wooden box", where="in @hall", holds=("in",), open=True),
    Thing(tag="@coin", called="gold coin", where="in @box"),
    Thing(tag="@chest", called="iron chest", where="in @hall", holds=("in",), open=False, locked=True, key="@keys"),
    Thing(tag="@table", called="table", where="part_of @hall", holds=("on",)),
    Thing(tag="@note", called="note", where="on @table", referring="paper"),
    Thing(tag="@plaque", called="brass plaque", where="part_of @hall"),
    Thing(tag="@switch", called="light switch", where="part_of @hall", on=False),
    Thing(tag="@dial", called="dial", where="part_of @hall", features={"setting": "1"}),
    Thing(
        tag="@barrel", called="wooden barrel", where="in @hall", holds=("in",), open=True, features={"enterable": True}
    ),
    Thing(tag="@well", called="well", where="part_of @hall", features={"source_of": "@water"}),
    Substance(tag="@water", called="water"),
    Thing(tag="@hat", called="felt hat", where="on @me", qualities=("clothing",)),
    Thing(tag="@bread", called="bread", article="some", where="of @me", qualities=("food",), referring="loaf"),
    Thing(tag="@cup", called="tin cup", where="of @me", qualities=("vessel",), features={"contents": None}),
    Thing(tag="@ball", called="ball", where="of @mime"),
    Thing(tag="@scarf", called="scarf", where="of @nun"),
)
LAB = WorldDefinition(name="lab", title="The Lab", items=LAB_ITEMS, player="@me")


class Session:
    """A recognizer driven as a story drives it: memory carried over, a question answered by the next line."""

    def __init__(self, world: WorldDefinition = LAB) -> None:
        self.story = Story(world)
        self.memory = Memory()
        self.pending: Clarify | None = None

    def parse(self, line: str, actor: str = "@me") -> Parsed:
        recognizer, sight = self.story.recognizer, self.story.simulation.sight
        parsed = recognizer.answer(self.pending, line, actor, sight, self.memory) if self.pending else None
        if parsed is None:
            parsed = recognizer.recognize(line, actor, sight, self.memory)
        self.pending = parsed if isinstance(parsed, Clarify) else None
        if isinstance(parsed, Understood):
            self.memory = parsed.memory
        return parsed

    def understood(self, line: str) -> Understood:
        parsed = self.parse(line)
        assert isinstance(parsed, Understood), f"{line!r}: {parsed}"
        return parsed

    def message(self, line: str) -> str:
        parsed = self.parse(line)
        assert isinstance(parsed, NotUnderstood), f"{line!r}: {parsed}"
        return parsed.message

    def question(self, line: str) -> str:
        parsed = self.parse(line)
        assert isinstance(parsed, Clarify), f"{line!r}: {parsed}"
        return parsed.question


def play(world: str, *lines: str) -> tuple[Player, list[str]]:
    """A player of a shipped world, and what each line was answered."""
    player = Player(Story(load_world(world)))
    return player, [player.command(line).text for line in lines]


# -- every kind in every word order ---------------------------------------------------------------------------

KINDS = [
    # (input, kind, objects, second)
    ("look", "look", (), None),
    ("l", "look", (), None),
    ("look around", "look", (), None),
    ("look north", "look", (), None),
    ("examine note", "examine", ("@note",), None),
    ("x note", "examine", ("@note",), None),
    ("look at note", "examine", ("@note",), None),
    ("l at note", "examine", ("@note",), None),
    ("inspect the note", "examine", ("@note",), None),
    ("describe note", "examine", ("@note",), None),
    ("check note", "examine", ("@note",), None),
    ("look note", "examine", ("@note",), None),
    ("x hall", "examine", ("@hall",), None),
    ("look in box", "look in", ("@box",), None),
    ("look inside box", "look in", ("@box",), None),
    ("search box", "look in", ("@box",), None),
    ("listen", "listen", (), None),
    ("listen to mime", "listen", ("@mime",), None),
    ("hear mime", "listen", ("@mime",), None),
    ("smell", "smell", (), None),
    ("sniff", "smell", (), None),
    ("smell bread", "smell", ("@bread",), None),
    ("sniff the loaf", "smell", ("@bread",), None),
    ("taste bread", "taste", ("@bread",), None),
    ("lick bread", "taste", ("@bread",), None),
    ("touch plaque", "touch", ("@plaque",), None),
    ("feel plaque", "touch", ("@plaque",), None),
    ("rub plaque", "touch", ("@plaque",), None),
    ("pat mime", "touch", ("@mime",), None),
    ("touch plaque with cup", "touch", ("@plaque",), "@cup"),
    ("read note", "read", ("@note",), None),
    ("read paper", "read", ("@note",), None),
    ("take keys", "take", ("@keys",), None),
    ("get keys", "take", ("@keys",), None),
    ("pick up keys", "take", ("@keys",), None),
    ("pick keys up", "take", ("@keys",), None),
    ("grab keys", "take", ("@keys",), None),
    ("carry keys", "take", ("@keys",), None),
    ("take key ring", "take", ("@keys",), None),
    ("take coin from box", "remove from", ("@coin",), "@box"),
    ("get coin from box", "remove from", ("@coin",), "@box"),
    ("remove coin from box", "remove from", ("@coin",), "@box"),
    ("take coin out of box", "remove from", ("@coin",), "@box"),
    ("get the coin out of the box", "remove from", ("@coin",), "@box"),
    ("take note off table", "remove from", ("@note",), "@table"),
    ("pick up coin from box", "remove from", ("@coin",), "@box"),
    ("drop bread", "drop", ("@bread",), None),
    ("put down bread", "drop", ("@bread",), None),
    ("put bread down", "drop", ("@bread",), None),
    ("discard bread", "drop", ("@bread",), None),
    ("put bread in box", "put in", ("@bread",), "@box"),
    ("put bread into box", "put in", ("@bread",), "@box"),
    ("put bread inside box", "put in", ("@bread",), "@box"),
    ("place bread in box", "put in", ("@bread",), "@box"),
    ("insert bread into box", "put in", ("@bread",), "@box"),
    ("drop bread in box", "put in", ("@bread",), "@box"),
    ("put bread on table", "put on", ("@bread",), "@table"),
    ("put bread onto table", "put on", ("@bread",), "@table"),
    ("place bread on table", "put on", ("@bread",), "@table"),
    ("set bread on table", "put on", ("@bread",), "@table"),
    ("hang hat on table", "put on", ("@hat",), "@table"),
    ("drop bread on table", "put on", ("@bread",), "@table"),
    ("wear hat", "wear", ("@hat",), None),
    ("put on hat", "wear", ("@hat",), None),
    ("put hat on", "wear", ("@hat",), None),
    ("don hat", "wear", ("@hat",), None),
    ("take off hat", "take off", ("@hat",), None),
    ("take hat off", "take off", ("@hat",), None),
    ("doff hat", "take off", ("@hat",), None),
    ("remove hat", "take off", ("@hat",), None),
    ("open chest", "open", ("@chest",), None),
    ("open chest with keys", "open with", ("@chest",), "@keys"),
    ("close box", "close", ("@box",), None),
    ("shut box", "close", ("@box",), None),
    ("lock chest", "lock", ("@chest",), None),
    ("lock chest with keys", "lock", ("@chest",), "@keys"),
    ("unlock chest", "unlock", ("@chest",), None),
    ("unlock the chest with the keys", "unlock", ("@chest",), "@keys"),
    ("light oil lamp", "light", ("@oil_lamp",), None),
    ("burn oil lamp", "light", ("@oil_lamp",), None),
    ("ignite oil lamp", "light", ("@oil_lamp",), None),
    ("extinguish oil lamp", "extinguish", ("@oil_lamp",), None),
    ("put out oil lamp", "extinguish", ("@oil_lamp",), None),
    ("put oil lamp out", "extinguish", ("@oil_lamp",), None),
    ("blow out oil lamp", "extinguish", ("@oil_lamp",), None),
    ("douse oil lamp", "extinguish", ("@oil_lamp",), None),
    ("snuff oil lamp", "extinguish", ("@oil_lamp",), None),
    ("turn on brass lamp", "turn on", ("@brass_lamp",), None),
    ("turn brass lamp on", "turn on", ("@brass_lamp",), None),
    ("switch on brass lamp", "turn on", ("@brass_lamp",), None),
    ("switch brass lamp on", "turn on", ("@brass_lamp",), None),
    ("activate brass lamp", "turn on", ("@brass_lamp",), None),
    ("turn off brass lamp", "turn off", ("@brass_lamp",), None),
    ("turn brass lamp off", "turn off", ("@brass_lamp",), None),
    ("switch off brass lamp", "turn off", ("@brass_lamp",), None),
    ("switch brass lamp off", "turn off", ("@brass_lamp",), None),
    ("deactivate brass lamp", "turn off", ("@brass_lamp",), None),
    ("turn dial to 5", "turn to", ("@dial",), None),
    ("set dial to 5", "turn to", ("@dial",), None),
    ("toggle switch", "toggle", ("@switch",), None),
    ("switch switch", "toggle", ("@switch",), None),
    ("flip light switch", "toggle", ("@switch",), None),
    ("flick switch", "toggle", ("@switch",), None),
    # Verbs that begin with a word that also names a thing here ("switch", "light").
    ("switch on the light switch", "turn on", ("@switch",), None),
    ("switch the light switch off", "turn off", ("@switch",), None),
    ("turn the light switch on", "turn on", ("@switch",), None),
    ("light the oil lamp", "light", ("@oil_lamp",), None),
    ("press switch", "press", ("@switch",), None),
    ("depress switch", "press", ("@switch",), None),
    ("push barrel", "push", ("@barrel",), None),
    ("shove barrel", "push", ("@barrel",), None),
    ("eat bread", "eat", ("@bread",), None),
    ("devour bread", "eat", ("@bread",), None),
    ("consume the loaf", "eat", ("@bread",), None),
    ("drink cup", "drink", ("@cup",), None),
    ("drink from cup", "drink", ("@cup",), None),
    ("sip from cup", "drink", ("@cup",), None),
    ("quaff cup", "drink", ("@cup",), None),
    ("drink water", "drink", ("@well",), None),
    ("fill cup", "fill", ("@cup",), None),
    ("fill cup with water", "fill", ("@cup",), "@well"),
    ("fill cup from well", "fill", ("@cup",), "@well"),
    ("fill cup at well", "fill", ("@cup",), "@well"),
    ("pour cup", "pour", ("@cup",), None),
    ("pour out cup", "pour", ("@cup",), None),
    ("pour cup out", "pour", ("@cup",), None),
    ("empty cup", "pour", ("@cup",), None),
    ("pour from cup", "pour", ("@cup",), None),
    ("pour cup in box", "pour", ("@cup",), "@box"),
    ("pour cup into box", "pour", ("@cup",), "@box"),
    ("pour cup on mime", "pour", ("@cup",), "@mime"),
    ("pour cup onto mime", "pour", ("@cup",), "@mime"),
    ("empty cup into box", "pour", ("@cup",), "@box"),
    ("pour water from cup", "pour from", ("@cup",), None),
    ("pour the water out of the cup", "pour from", ("@cup",), None),
    ("pour out the water from cup", "pour from", ("@cup",), None),
    ("pour water from cup into box", "pour from", ("@cup",), "@box"),
    ("pour some water from the cup on the mime", "pour from", ("@cup",), "@mime"),
    ("pour it from cup over mime", "pour from", ("@cup",), "@mime"),
    ("give bread to mime", "give", ("@bread",), "@mime"),
    ("hand bread to mime", "give", ("@bread",), "@mime"),
    ("offer the bread to the mime", "give", ("@bread",), "@mime"),
    ("give mime bread", "give", ("@bread",), "@mime"),
    ("give the mime the bread", "give", ("@bread",), "@mime"),
    ("throw bread", "throw", ("@bread",), None),
    ("toss bread", "throw", ("@bread",), None),
    ("throw bread at mime", "throw", ("@bread",), "@mime"),
    ("hurl bread at mime", "throw", ("@bread",), "@mime"),
    ("feed bread to mime", "feed", ("@bread",), "@mime"),
    ("feed mime bread", "feed", ("@bread",), "@mime"),
    ("show hat to nun", "show", ("@hat",), "@nun"),
    ("show nun hat", "show", ("@hat",), "@nun"),
    ("shake cup", "shake", ("@cup",), None),
    ("wave", "wave", (), None),
    ("wave cup", "wave", ("@cup",), None),
    ("wave at nun", "wave at", ("@nun",), None),
    ("wave to nun", "wave at", ("@nun",), None),
    ("strike barrel", "strike", ("@barrel",), None),
    ("hit barrel", "strike", ("@barrel",), None),
    ("attack mime", "strike", ("@mime",), None),
    ("punch mime", "strike", ("@mime",), None),
    ("smash barrel", "strike", ("@barrel",), None),
    ("break barrel", "strike", ("@barrel",), None),
    ("attack mime with cup", "strike", ("@mime",), "@cup"),
    ("hit mime with cup", "strike", ("@mime",), "@cup"),
    ("kick barrel", "kick", ("@barrel",), None),
    ("free mime", "free", ("@mime",), None),
    ("release mime", "free", ("@mime",), None),
    ("untie mime", "free", ("@mime",), None),
    ("free mime from barrel", "free", ("@mime",), "@barrel"),
    ("release mime from barrel", "free", ("@mime",), "@barrel"),
    ("enter barrel", "enter", ("@barrel",), None),
    ("get in barrel", "enter", ("@barrel",), None),
    ("get into barrel", "enter", ("@barrel",), None),
    ("go into barrel", "enter", ("@barrel",), None),
    ("climb in barrel", "enter", ("@barrel",), None),
    ("climb into barrel", "enter", ("@barrel",), None),
    ("sit in barrel", "enter", ("@barrel",), None),
    ("hide in barrel", "enter", ("@barrel",), None),
    ("leave", "leave", (), None),
    ("exit", "leave", (), None),
    ("get out", "leave", (), None),
    ("climb out", "leave", (), None),
    ("get out of barrel", "leave", ("@barrel",), None),
    ("climb out of barrel", "leave", ("@barrel",), None),
    ("exit barrel", "leave", ("@barrel",), None),
    ("leave barrel", "leave", ("@barrel",), None),
    ("wander", "wander", (), None),
    ("roam", "wander", (), None),
    ("stroll", "wander", (), None),
    ("walk around", "wander", (), None),
    ("wait", "wait", (), None),
    ("z", "wait", (), None),
    ("stay", "wait", (), None),
    ("freeze", "freeze", (), None),
    ("stand still", "freeze", (), None),
    ("hold still", "freeze", (), None),
    ("inventory", "inventory", (), None),
    ("i", "inventory", (), None),
    ("inv", "inventory", (), None),
    ("say hello", "say", (), None),
    ("shout hello", "say", (), None),
    ("yell hello", "say", (), None),
    ("tell mime hello", "say", ("@mime",), None),
    ("say hello to mime", "say", ("@mime",), None),
]


@pytest.mark.parametrize(("line", "kind", "objects", "second"), KINDS, ids=[case[0] for case in KINDS])
def test_every_kind_of_command_in_each_word_order(line, kind, objects, second):
    found = Session().understood(line)
    assert (found.kind.name, found.objects, found.second) == (kind, objects, second)
    assert found.actions


@pytest.mark.parametrize(
    ("line", "verb"),
    [
        ("light brass lamp", "turn on"),  # a carbide lamp is switched on, not set alight
        ("light oil lamp", "light"),
        ("extinguish brass lamp", "turn off"),
        ("wave cup", "wave"),
        ("eat bread", "eat"),
        ("open chest with keys", "unlock"),
    ],
)
def test_a_command_makes_the_action_that_suits_the_thing(line, verb):
    assert Session().understood(line).actions[0].verb == verb


def test_free_text_is_taken_exactly_as_typed():
    found = Session().understood('say Hello, [you] @mime! "yes"')
    assert found.actions[0].utterance == 'Hello, \\[you\\] @mime! "yes'
    addressed = Session().understood("tell the mime the lamp is lit")
    assert addressed.second is None and addressed.objects == ("@mime",)
    assert addressed.actions[0].utterance == "the lamp is lit"


# -- directions ---------------------------------------------------------------------------------------------

DIRECTION_WORDS = [
    ("n", "n"),
    ("north", "n"),
    ("ne", "ne"),
    ("northeast", "ne"),
    ("e", "e"),
    ("east", "e"),
    ("se", "se"),
    ("southeast", "se"),
    ("s", "s"),
    ("south", "s"),
    ("sw", "sw"),
    ("southwest", "sw"),
    ("w", "w"),
    ("west", "w"),
    ("nw", "nw"),
    ("northwest", "nw"),
    ("u", "u"),
    ("up", "u"),
    ("d", "d"),
    ("down", "d"),
    ("in", "in"),
    ("inside", "in"),
    ("out", "out"),
    ("outside", "out"),
]


@pytest.mark.parametrize(("word", "direction"), DIRECTION_WORDS)
@pytest.mark.parametrize("form", ["{}", "go {}", "walk {}", "run {}", "head {}"])
def test_every_direction_bare_abbreviated_and_after_go(word, direction, form):
    found = Session().understood(form.format(word))
    assert found.kind.name == "go"
    assert found.actions[0].direction == direction


def test_go_north_n_and_north_tell_the_same():
    tellings = {line: play("cloak", line)[1][0] for line in ("go west", "w", "west", "walk w")}
    assert len(set(tellings.values())) == 1
    assert "Cloakroom" in tellings["w"]
    refused = {play("cloak", line)[1][0] for line in ("go north", "n", "north")}
    assert len(refused) == 1


def test_a_bare_go_asks_which_way():
    assert Session().message("go") == "Which way do you want to go?"


# -- names: articles, adjectives, owners, plurals -------------------------------------------------------------


def test_articles_and_adjectives_are_part_of_a_name():
    session = Session()
    assert session.understood("take the brass lamp").objects == ("@brass_lamp",)
    assert session.understood("take an oil lamp").objects == ("@oil_lamp",)
    assert session.understood("take some keys").objects == ("@keys",)
    assert session.understood("examine the gold coin").objects == ("@coin",)


def test_adjectives_settle_which_of_two_things():
    assert Session().question("take lamp") == "Which do you mean, the brass lamp or the oil lamp?"
    assert Session().understood("take oil lamp").objects == ("@oil_lamp",)
    assert Session().understood("take brass lamp").objects == ("@brass_lamp",)


def test_my_means_only_what_the_actor_has():
    session = Session()
    assert session.understood("drop my bread").objects == ("@bread",)
    assert session.understood("take off my hat").objects == ("@hat",)
    assert session.message("drop my ball") == "You have no ball."
    assert session.message("drop my") == "Which thing do you mean?"


def test_possessives_name_what_others_have():
    session = Session()
    assert session.understood("take the mime's ball").objects == ("@ball",)
    assert session.understood("take his ball").objects == ("@ball",)
    assert session.understood("take her scarf").objects == ("@scarf",)
    assert session.message("take his scarf") == "The mime has no scarf."


def test_a_plural_names_every_such_thing():
    found = Session().understood("take lamps")
    assert found.objects == ("@brass_lamp", "@oil_lamp")
    assert Session().message("open lamps") == "You can only do that with one thing at a time."


# -- pronouns --------------------------------------------------------------------------------------------------


def test_it_is_what_was_last_named():
    session = Session()
    session.understood("take brass lamp")
    assert session.understood("drop it").objects == ("@brass_lamp",)
    session.understood("put bread in box")
    assert session.understood("x it").objects == ("@bread",)


def test_him_and_her_are_the_male_and_female_actors_last_named():
    session = Session()
    session.understood("x mime")
    session.understood("x nun")
    assert session.understood("give bread to him").second == "@mime"
    assert session.understood("show her the hat").second == "@nun"
    assert session.understood("x him").objects == ("@mime",)


def test_him_and_her_need_no_naming_when_only_one_could_be_meant():
    assert Session().understood("x her").objects == ("@nun",)


def test_them_is_a_list_or_a_plural_thing_last_named():
    session = Session()
    session.understood("take keys")
    assert session.understood("drop them").objects == ("@keys",)
    session.understood("take brass lamp and oil lamp")
    assert session.understood("drop them").objects == ("@brass_lamp", "@oil_lamp")


def test_them_after_take_all_is_everything_taken():
    session = Session()
    taken = session.understood("take all").objects
    assert session.understood("drop them").objects == taken


def test_an_unclear_pronoun_is_said_to_be_unclear():
    assert Session().message("take it") == 'I\'m not sure what "it" refers to.'
    assert Session().message("drop them") == 'I\'m not sure what "them" refers to.'


def test_a_pronoun_for_something_no_longer_here_says_so():
    _, replies = play("cloak_plus", "w", "take lamp", "e", "drop lamp", "w", "x it")
    assert replies[-1] == '"It" would be the shiny brass carbide lamp, which you cannot see now.'


def test_it_after_an_answered_question_is_the_thing_chosen():
    session = Session()
    session.question("take lamp")
    session.understood("oil")
    assert session.understood("drop it").objects == ("@oil_lamp",)


# -- all and lists ------------------------------------------------------------------------------------------------


def test_take_all_takes_what_lies_about_and_not_fixtures_people_or_what_is_held():
    found = Session().understood("take all")
    assert set(found.objects) == {"@brass_lamp", "@oil_lamp", "@keys", "@box", "@chest", "@barrel"}


def test_all_but_leaves_things_out():
    assert "@keys" not in Session().understood("take all but the keys").objects
    left = Session().understood("take everything except keys and brass lamp").objects
    assert set(left) == {"@oil_lamp", "@box", "@chest", "@barrel"}
    # Leaving out is never ambiguous: "but the lamp" leaves out both lamps.
    assert set(Session().understood("take all but the lamp").objects) == {"@keys", "@box", "@chest", "@barrel"}
    assert Session().message("take all but the xyzzy") == 'I don\'t know the word "xyzzy".'


def test_all_from_a_container_is_what_it_holds():
    assert Session().understood("take all from box").objects == ("@coin",)
    assert Session().understood("put all in box").objects == ("@bread", "@cup")


def test_drop_all_drops_what_is_carried_and_not_what_is_worn():
    session = Session()
    assert session.understood("drop all").objects == ("@bread", "@cup")
    session.story.command("@me", "drop all")
    assert session.message("drop all") == "You have nothing to drop."
    assert session.message("drop all lamps") == "You have no lamps to drop."


def test_take_all_with_nothing_to_take_says_so():
    _, replies = play("cloak", "take all")
    assert replies == ["There is nothing here to take."]


@pytest.mark.parametrize("line", ["take keys and brass lamp", "take keys, brass lamp", "take keys, and brass lamp"])
def test_lists_of_things(line):
    assert Session().understood(line).objects == ("@keys", "@brass_lamp")


def test_a_list_is_only_for_commands_that_take_several_things():
    assert Session().message("open box and chest") == "You can only do that with one thing at a time."


# -- several commands on a line ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "commands"),
    [
        ("take lamp; drop it", ["take lamp", "drop it"]),
        ("take lamp. drop it.", ["take lamp", "drop it"]),
        ('say "hi. bye"; wave', ['say "hi. bye"', "wave"]),
        ("say “hi; there”", ['say "hi; there"']),
        (";;. ;", []),
        ("  ", []),
    ],
)
def test_lines_split_into_commands_at_semicolons_and_periods_but_not_inside_quotes(line, commands):
    assert split_commands(line) == commands


def test_several_commands_on_a_line_each_take_a_turn():
    player, replies = play("cloak_plus", "w. take lamp; turn on lamp")
    assert player.story.turn == 3
    world = player.story.simulation.world
    assert world.parent("@lamp") == "@operagoer" and world.get("@lamp", "on")
    assert "You take" in replies[0] and "You turn on" in replies[0]


def test_an_unrecognized_command_after_a_semicolon_does_not_rerun_the_one_before():
    player, replies = play("cloak", "w; xyzzy")
    assert player.story.turn == 1
    assert replies[0].count("You leave the foyer") == 1
    assert replies[0].endswith('I don\'t know the word "xyzzy".')
    leaving = [e for e in player.story.simulation.events if e.action.verb == "leave"]
    assert len(leaving) == 1


def test_quoted_text_with_a_period_is_one_command():
    player, replies = play("cloak", 'say "hi. bye"')
    assert replies == ['You say "hi. bye".']
    assert player.story.turn == 1


# -- scope -----------------------------------------------------------------------------------------------------


def test_taking_a_fixture_is_tried_and_fails_with_its_reason():
    player, replies = play("cloak", "w", "take hook")
    assert "unable to take the hook" in replies[1]
    assert "because it is fixed to the wall" in replies[1]
    assert player.story.turn == 2


def test_take_prefers_what_can_be_taken_when_two_share_a_word():
    # The brass hook is fixed to the wall; the brass lamp can be taken.
    player, replies = play("cloak_plus", "w", "take brass")
    assert "You take" in replies[1] and "lamp" in replies[1]
    assert player.story.simulation.world.parent("@lamp") == "@operagoer"
    assert Session().understood("take brass").objects == ("@brass_lamp",)
    # Looking is not taking: either brass thing might be meant.
    assert Session().question("x brass") == "Which do you mean, the brass lamp or the brass plaque?"


def test_take_prefers_what_is_not_already_held():
    session = Session()
    session.understood("take oil lamp")
    session.story.command("@me", "take oil lamp")
    assert session.understood("take lamp").objects == ("@brass_lamp",)
    assert session.understood("drop lamp").objects == ("@oil_lamp",)


def test_the_holder_of_a_thing_is_preferred_as_where_it_is_taken_from():
    session = Session()
    session.story.command("@me", "put bread in barrel")
    # The box and the barrel are both wooden; only the barrel holds the bread.
    assert session.understood("take bread from wooden").second == "@barrel"
    assert session.understood("take coin out of wooden").second == "@box"


def test_something_elsewhere_is_not_seen():
    assert Session().message("take grass") == 'I don\'t know the word "grass".'
    assert Session().message("take yard") == "You see no yard here."


def test_a_room_across_the_way_is_too_far_off():
    _, replies = play("lost_one", "x north side")
    assert replies == ["The north side is too far away for that."]


# -- questions ---------------------------------------------------------------------------------------------------


def test_an_ambiguous_name_is_asked_about_and_the_answer_finishes_the_command():
    player, replies = play("cloak_plus", "take sack", "large")
    assert replies[0] == "Which do you mean, the large sack or the massive sack?"
    assert player.story.turn == 1
    assert "You take" in replies[1] and "large sack" in replies[1]
    assert player.story.simulation.world.parent("@large_sack") == "@operagoer"


def test_after_a_question_another_command_is_just_that():
    player, replies = play("cloak_plus", "take sack", "x mime", "massive")
    assert "dazed mime stares into the middle distance" in replies[1]
    assert replies[2] == '"massive" is not a verb I know.'
    assert player.story.turn == 1


@pytest.mark.parametrize("answer", ["brass", "the brass one", "brass lamp", "the brass lamp", "I mean the brass lamp"])
def test_answers_to_which(answer):
    session = Session()
    session.question("take lamp")
    assert session.understood(answer).objects == ("@brass_lamp",)


def test_an_answer_that_fits_both_is_asked_again():
    session = Session()
    session.question("take lamp")
    assert session.question("lamp") == "Which do you mean, the brass lamp or the oil lamp?"
    assert session.understood("oil").objects == ("@oil_lamp",)


def test_both_answers_for_commands_that_take_several():
    session = Session()
    session.question("take lamp")
    assert session.understood("both").objects == ("@brass_lamp", "@oil_lamp")


def test_an_unrelated_reply_is_a_new_command():
    session = Session()
    session.question("take lamp")
    assert session.understood("wave").kind.name == "wave"
    assert session.message("brass") == '"brass" is not a verb I know.'


def test_a_question_in_a_list_keeps_the_rest_of_the_list():
    session = Session()
    session.question("take keys and lamp")
    assert session.understood("oil").objects == ("@keys", "@oil_lamp")


def test_each_ambiguous_slot_is_asked_about_in_turn():
    session = Session()
    session.story.command("@me", "take all")
    assert session.question("put lamp in wooden").startswith("Which do you mean, the brass lamp")
    assert session.question("brass") == "Which do you mean, the wooden box or the wooden barrel?"
    found = session.understood("barrel")
    assert (found.objects, found.second) == (("@brass_lamp",), "@barrel")


def test_answers_and_questions_are_replayed_on_restore():
    player, _ = play("cloak_plus", "take sack", "massive", "save one", "drop sack", "restore one")
    world = player.story.simulation.world
    assert world.parent("@massive_sack") == "@operagoer"
    assert world.parent("@large_sack") == "@foyer"


def test_undo_takes_back_what_pronouns_meant():
    _, replies = play("cloak_plus", "w", "x hook", "take lamp", "undo", "x it")
    assert replies[-1] == replies[1] == "The hook is a small brass hook, screwed firmly to the wall."
    _, kept = play("cloak_plus", "w", "x hook", "take lamp", "x it")
    assert kept[-1].startswith("The lamp is shiny brass")


def test_a_pronoun_not_yet_used_means_what_the_telling_last_mentioned():
    # "You see a box here. You frown at it." (the opening): "it" is the box before the player names anything.
    _, opened = play("artmaking", "x it")
    assert "is a sturdy cardboard box, closed" in opened[-1]
    # What the player named wins over what the telling mentioned since: the scrap, not the boy's ball.
    _, replies = play("lost_one", "take scrap", "drop it")
    assert replies[-1].startswith("You drop the plastic scrap")


# -- what is not understood --------------------------------------------------------------------------------------


def test_unknown_words_are_named_back():
    assert Session().message("take the xyzzy") == 'I don\'t know the word "xyzzy".'
    assert Session().message("xyzzy") == 'I don\'t know the word "xyzzy".'
    _, replies = play("cloak", "frobozz the cloak")
    assert replies == ['I don\'t know the word "frobozz".']


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("take", "What do you want to take?"),
        ("x", "What do you want to examine?"),
        ("look at", "What do you want to look at?"),
        ("put bread in", "What do you want to put the bread in?"),
        ("give the bread", "What do you want to give the bread to?"),
        ("give", "What do you want to give?"),
        ("put bread", "I don't understand that."),  # in it, or on it?
        ("go", "Which way do you want to go?"),
        ("say", "What do you want to say?"),
        ("lamp", '"lamp" is not a verb I know.'),
        ("take the", "Which thing do you mean?"),
        ("take lamp and", "I only understood you as far as wanting to take the lamp."),
        ('"hello"', 'To say something, begin with "say": say "hello".'),
    ],
)
def test_a_command_cut_short_is_asked_about(line, message):
    assert Session().message(line) == message


def test_take_alone_is_asked_about_and_takes_no_turn():
    player, replies = play("cloak", "take")
    assert replies == ["What do you want to take?"]
    assert player.story.turn == 0


@pytest.mark.parametrize("line", ["", "   ", ".", ";;", "?!", "...", ",", ", ,", "!@#$%^&*()", '"', '""', "[]", "\\"])
def test_empty_and_punctuation_lines_change_nothing(line):
    player, replies = play("cloak", line)
    assert player.story.turn == 0
    assert replies[0] in ("", "Say what you want to do.")


def test_stray_punctuation_is_no_part_of_a_word():
    assert Session().understood("take keys!").objects == ("@keys",)
    assert Session().understood("take the keys?").objects == ("@keys",)


def test_words_keep_quoted_text_whole():
    assert words_of('Say "Hi. There" to the Mime') == ["say", '"Hi. There"', "to", "the", "mime"]


def test_a_very_long_command_is_refused_at_once():
    assert "too long" in Session().message("take " + "lamp " * 200)


def test_a_direction_is_not_a_thing():
    assert Session().message("take north") == "I don't understand that."


# -- end to end on the shipped worlds ------------------------------------------------------------------------------


def test_the_cloak_walk_wins():
    _, replies = play("cloak", "w", "hang cloak on hook", "e", "s", "read message")
    assert "velvet cloak on the hook." in replies[1]
    assert "YOU HAVE WON" in replies[-1]


def test_cloak_plus_words_for_water():
    player, replies = play("cloak_plus", "w", "take bottle", "fill bottle with water", "drink water")
    assert "You fill the bottle from the stone basin." in replies[2]
    assert replies[3] == "You drink some water from the bottle."  # the water one holds, rather than the basin's
    assert player.story.simulation.world.get("@bottle", "contents") is None


def test_artmaking_pronoun_walk():
    _, replies = play("artmaking", "open box", "take sculpture", "x it", "kick it")
    assert "sculpture is a mountain in miniature" in replies[2]
    assert "A WORTHY CONTRIBUTION TO THE ART WORLD" in replies[3]


def test_lost_one_plaza_words():
    player, replies = play("lost_one", "take scrap", "drop it", "x sky", "go north", "s")
    assert "You take" in replies[0] and "You drop" in replies[1]
    assert player.story.simulation.world.parent("@scrap") == "@center"
    assert player.story.turn == 5


def test_telling_the_mime_something():
    _, replies = play("cloak_plus", "tell the dazed mime [hello] there")
    assert replies[0].startswith('You say "[hello] there" to ')
