"""Tab completion: commands that would succeed now, verbs, directions, directives, the names the actor knows,
and after a colon the meta commands, named spins, spin fields and their values."""

from __future__ import annotations

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from clients.cli.meta import standard
from clients.cli.scene import Scene
from clients.cli.terminal.completer import StoryCompleter
from tests.terminal.scenes import cloakroom

METAS = standard().names


def offered(text: str, scene: Scene | None = None) -> list[str]:
    """What Tab offers for `text` with the cursor at its end, each as the line would read after it."""
    completer = StoryCompleter(scene or cloakroom(), METAS)
    document = Document(text, len(text))
    return [text[: len(text) + c.start_position] + c.text for c in completer.get_completions(document, CompleteEvent())]


def test_a_first_word_completes_to_verbs_directives_and_directions():
    assert "examine" in offered("exa")
    assert "undo" in offered("un")
    assert "northeast" in offered("northe")
    assert "light level" in offered("light l")  # a directive of two words, taken whole


def test_commands_that_would_succeed_now_come_first_and_whole():
    assert offered("put v")[0] == "put velvet cloak on small brass hook"
    assert offered("take off v") == ["take off velvet cloak"]
    assert offered("TAKE OFF v") == ["TAKE OFF velvet cloak"]  # what was typed stays as typed


def test_a_later_word_completes_to_the_names_the_actor_knows():
    assert "hang small brass hook" in offered("hang sm")
    assert "hang hook" in offered("hang ho")  # a name's later word alone
    assert "hang brass hook" in offered("hang br")  # or the name from it on
    assert not any(line.endswith("operagoer") for line in offered("x op"))  # not the actor itself


def test_each_thing_is_offered_once_and_rooms_only_to_look_at_where_one_is():
    things = [line for line in offered("hang ") if line not in ("hang on", "hang up")]
    assert things == ["hang small brass hook", "hang velvet cloak"]  # not "cloak" again, nor the rooms
    assert "x cloakroom" in offered("x ") and "look at cloakroom" in offered("look at ")
    assert "x foyer" not in offered("x ")  # a room one is not in is not there to look at
    assert offered("hang fo") == []


def test_after_a_name_the_verbs_small_words_come_first():
    assert offered("hang velvet cloak ")[:2] == ["hang velvet cloak on", "hang velvet cloak up"]
    assert offered("hang cloak o")[0] == "hang cloak on"


def test_directions_only_after_a_verb_of_motion():
    assert "go east" in offered("go ea")
    assert "take east" not in offered("take ea")


def test_a_new_command_begins_after_a_semicolon_or_full_stop():
    assert "w; examine" in offered("w; exa")
    assert "w. take off velvet cloak" in offered("w. take off ve")


def test_meta_commands_their_spins_fields_and_values():
    assert offered(":sp") == [":spin"]
    assert set(offered(":")) >= {":spin", ":narrate", ":concept", ":state", ":who", ":quit"}
    assert offered(":spin pro") == [":spin prophecy", ":spin progressive"]  # named spins first, then fields
    assert offered(":spin time ") == [":spin time after", ":spin time before", ":spin time during"]
    assert offered(":spin order=re") == [":spin order=retrograde"]
    assert ":spin narrator @operagoer" in offered(":spin narrator @")
    assert ":narrate turn" in offered(":narrate tu")
    assert ":sp memoir" in offered(":sp me")  # a shortened meta command still knows its arguments
    assert offered(":keys v") == [":keys vi"]


def test_concept_offers_only_the_actors_whose_concepts_may_be_read():
    assert offered(":concept ") == [":concept @operagoer"]  # no rooms, no things
    scene = cloakroom()
    scene.known |= {"@guard": "burly guard", "@robber": "twitchy man"}
    scene.actors = ["@guard", "@robber"]
    scene.readable = ["@operagoer", "@guard"]  # as `state` says: the robber's concept is not to be read here
    assert offered(":concept @", scene) == [":concept @operagoer", ":concept @guard"]
    assert offered("concept ", scene) == ["concept tree", "concept @operagoer", "concept @guard"]
    assert ":spin narrator @robber" in offered(":spin narrator @", scene)  # any actor may narrate


def test_a_directives_arguments_are_completed_as_the_directive_takes_them():
    spun = offered("spin ")
    assert {"spin prophecy", "spin memoir", "spin time", "spin order"} <= set(spun)
    assert not {"spin velvet cloak", "spin cloak", "spin foyer"} & set(spun)
    assert offered("spin time ") == ["spin time after", "spin time before", "spin time during"]
    assert offered("spin order=re") == ["spin order=retrograde"]
    assert offered("spin prophecy ") == [] and offered("spin time after ") == []  # one setting at a time
    assert offered("undo ") == [] and offered("save ") == []
    assert offered("world ") == ["world tree"]
    assert "light level" in offered("light ") and "light velvet cloak" in offered("light ")  # a verb too


def test_nothing_is_offered_twice_or_what_is_typed_already():
    lines = offered("wa")
    assert len(lines) == len(set(lines)) and "wa" not in lines
    assert "wait" in lines
