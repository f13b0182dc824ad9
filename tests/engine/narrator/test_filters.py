"""Tests of the narrator's named filters: reproducible from a seed, varied across seeds, faithful to the words
they are given, and well-formed (capitals, commas, stops) over generated sentences.

A sentence filter is given a sentence as the realize stage leaves it — its first letter as realized: "the teller
laughs.", but "I laugh." and "Bob laughs." — and the tense of the telling; the sentence is capitalized after the
filters. Each filter here is therefore tried as the narrator uses it: `told()` filters, then capitalizes."""

from __future__ import annotations

import random
import re
import typing
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.spin import FilterName
from server.catalog import load_spin, load_world
from server.engine.english import Tense, sentence
from server.engine.narrator.filtering import FILTERS
from server.engine.narrator.filters import double_entry, hedges, hesitant, surprise, valley_girl
from server.engine.narrator.templates import Ref, Text, Token, Verb, parse
from server.engine.player import Player
from server.engine.story import Story
from tests.helpers import tell

SentenceFilter = Callable[[str, random.Random, Tense], str]
SENTENCE_FILTERS: dict[str, SentenceFilter] = {
    "hesitant": hesitant.sentence,
    "valley_girl": valley_girl.sentence,
    "surprise": surprise.sentence,
    "hedges": hedges.sentence,
}
EXAMPLES = (
    "the teller laughs.",
    "I shot the twitchy man in the chest.",
    "something sees you.",
    "Bob was looking at the mask.",
    "in the lobby, the teller laughed.",
)


def told(name: str, text: str, seed: int, tense: Tense = "present") -> str:
    """A realized sentence through one filter, then capitalized, as the narrator tells it."""
    return sentence(SENTENCE_FILTERS[name](text, random.Random(seed), tense))


# Simple sentences, built from parts: a subject (pronoun, name or noun phrase), a verb, perhaps an object and a
# place, perhaps a leading time or place phrase, and a stop.
_SUBJECTS = ("the teller", "I", "you", "something", "someone", "the twitchy man", "a big bad wolf", "Bob", "they")
_VERBS = ("laughs", "laughed", "sees", "saw", "shot", "is laughing at", "was looking at", "had seen", "will take")
_OBJECTS = ("", "the mask", "you", "the twitchy man", "him", "a small stream", "Bob")
_PLACES = ("", "in the chest", "at the bar", "in the lobby")
_LEADS = ("", "then", "in the lobby,", "meanwhile,")


@st.composite
def sentences(draw: st.DrawFn, stops: tuple[str, ...] = (".",), leads: tuple[str, ...] = _LEADS) -> str:
    words = [draw(st.sampled_from(_SUBJECTS)), draw(st.sampled_from(_VERBS))]
    words += [draw(st.sampled_from(_OBJECTS)), draw(st.sampled_from(_PLACES))]
    lead = draw(st.sampled_from(leads))
    if lead:
        words.insert(0, lead)
    return " ".join(word for word in words if word) + draw(st.sampled_from(stops))


plain_sentences = sentences(leads=("", "then"))  # no commas, so each filter's insertions can be undone exactly
seeds = st.integers(min_value=0, max_value=2**32)


def assert_well_formed(told: str, original: str) -> None:
    assert told[0].isupper(), told
    assert "  " not in told, told
    assert not re.search(r"[,;:]\s*[,.;:!?]", told), told  # no ",," ",." ", ,"
    assert not re.search(r"\.\s*[.,!?]|[!?]\s*[.,]", told), told  # no ". ." "!." "?,"
    assert told.endswith((".", "!", "?")), told
    assert not re.search(r"(^|\s)i\b", told), told  # "I" is never lower-cased
    if "Bob" in original:
        assert "Bob" in told, told  # nor is a name


def words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


def without(text: str, phrases: tuple[str, ...]) -> list[str]:
    """The words of `text` with every occurrence of the given phrases taken out, longest phrase first."""
    found, result = words(text), []
    cut = sorted((phrase.split() for phrase in phrases), key=len, reverse=True)
    index = 0
    while index < len(found):
        match = next((p for p in cut if found[index : index + len(p)] == p), None)
        if match:
            index += len(match)
        else:
            result.append(found[index])
            index += 1
    return result


def opened(told: str, openers: tuple[str, ...]) -> str:
    """`told` without one of `openers` at its start (in any case)."""
    for opener in sorted(openers, key=len, reverse=True):
        if told.lower().startswith(opener.lower() + " "):
            return told[len(opener) + 1 :]
    return told


def realized(text: str) -> str:
    """A capitalized sentence as the realize stage gives it: its first letter lower-case unless "I" or a name."""
    first = text.split()[0]
    return text if first in ("I", "Bob") else text[0].lower() + text[1:]


# Each filter's own words, for taking them out again.
HESITANT_WORDS = ("uh", "um", "er", "well", "i mean")
VALLEY_WORDS = ("like", "totally", "oh my god", "so", "okay so", "you know", "whatever")
SURPRISE_WORDS = ("whoa", "wow", "oh")
HEDGE_WORDS = ("it seems that", "it seemed that", "evidently", "apparently", "it seems", "it seemed", "perhaps")
FILTER_WORDS = {
    "hesitant": HESITANT_WORDS,
    "valley_girl": VALLEY_WORDS,
    "surprise": SURPRISE_WORDS,
    "hedges": HEDGE_WORDS,
}


def undo_hesitant(told: str) -> str:
    told = opened(told, ("Uh,", "Um,", "Er,", "Well,", "I mean,"))
    return realized(re.sub(r", (uh|um|er|well|I mean),", "", told))


def undo_valley_girl(told: str) -> str:
    told = opened(told, ("Oh my God,", "So,", "Okay, so"))
    told = opened(told, ("Like,",))
    told = re.sub(r", like,", "", told).replace("totally ", "").replace(" totally", "")
    return realized(re.sub(r"(, you know\?| — whatever\.)$", ".", told))


def undo_surprise(told: str) -> str:
    told = opened(told, ("Whoa,", "Wow,", "Oh!"))
    return realized(re.sub(r"(\?!|!)$", ".", told))


def undo_hedges(told: str) -> str:
    told = opened(told, ("It seems that", "It seemed that", "Perhaps"))
    told = re.sub(r", (evidently|apparently),", "", told)
    return realized(re.sub(r", it seem(s|ed)\.$", ".", told))


UNDO = {"hesitant": undo_hesitant, "valley_girl": undo_valley_girl, "surprise": undo_surprise, "hedges": undo_hedges}


# Every filter


def test_every_spin_filter_name_has_a_filter_and_every_filter_a_name() -> None:
    assert set(typing.get_args(FilterName)) == set(FILTERS)


def test_every_filter_has_a_one_line_summary_and_works_at_some_level() -> None:
    for name, chosen in FILTERS.items():
        assert chosen.summary and "\n" not in chosen.summary, name
        assert chosen.template or chosen.sentence or chosen.paragraph, name


@pytest.mark.parametrize("name", sorted(SENTENCE_FILTERS))
def test_sentence_filter_is_reproducible_from_its_seed(name: str) -> None:
    for text in EXAMPLES:
        for seed in range(20):
            assert told(name, text, seed) == told(name, text, seed)


@pytest.mark.parametrize("name", sorted(SENTENCE_FILTERS))
def test_sentence_filter_varies_with_the_seed_and_keeps_the_words_in_order(name: str) -> None:
    for text in EXAMPLES:
        variants = {told(name, text, seed) for seed in range(50)}
        assert len(variants) > 2, variants
        # Surprise and hedges let some sentences pass; the hesitant and valley-girl narrators never do.
        assert (sentence(text) in variants) == (name in ("surprise", "hedges")), variants
        for each in variants:
            assert without(each, FILTER_WORDS[name]) == words(text), each
            assert_well_formed(each, text)


@pytest.mark.parametrize("name", sorted(SENTENCE_FILTERS))
def test_sentence_filter_leaves_the_global_random_state_alone(name: str) -> None:
    random.seed(7)
    expected = random.random()
    random.seed(7)
    SENTENCE_FILTERS[name]("the teller laughs.", random.Random(1), "present")
    assert random.random() == expected


@pytest.mark.parametrize("name", sorted(SENTENCE_FILTERS))
@pytest.mark.parametrize("text", ["", "...", "—"])
def test_sentence_filter_leaves_wordless_text_alone(name: str, text: str) -> None:
    assert SENTENCE_FILTERS[name](text, random.Random(3), "present") == text


@pytest.mark.parametrize("name", sorted(SENTENCE_FILTERS))
@settings(max_examples=60, deadline=None)
@given(text=sentences(stops=(".", "!", "?")), seed=seeds)
def test_sentence_filter_output_is_well_formed_and_keeps_the_words(name: str, text: str, seed: int) -> None:
    said = told(name, text, seed)
    assert_well_formed(said, text)
    assert without(said, FILTER_WORDS[name]) == words(text)


@pytest.mark.parametrize("name", sorted(SENTENCE_FILTERS))
@settings(max_examples=60, deadline=None)
@given(text=plain_sentences, seed=seeds)
def test_taking_out_what_the_filter_put_in_gives_back_the_sentence(name: str, text: str, seed: int) -> None:
    assert UNDO[name](told(name, text, seed)) == text


@pytest.mark.parametrize(("first", "second"), [(a, b) for a in SENTENCE_FILTERS for b in SENTENCE_FILTERS if a != b])
def test_filters_one_after_another_leave_no_capital_inside_the_sentence(first: str, second: str) -> None:
    # "Whoa, Um, he enters", "Uh, Like, you leave", "Er, Okay, so": one filter's opening must not keep a capital
    # once the next opens the sentence again. Only "I", a name, and what follows "Oh!" keep theirs.
    for text in EXAMPLES:
        for seed in range(40):
            rng = random.Random(seed)
            said = sentence(SENTENCE_FILTERS[second](SENTENCE_FILTERS[first](text, rng, "past"), rng, "past"))
            assert_well_formed(said, text)
            inside = re.findall(r"(?<=[,;] )[A-Z]\w*|(?<=[a-z] )[A-Z]\w*", said)
            assert set(inside) <= {"I", "Bob", "God"}, said


# The shared word helpers


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the teller laughs.", "Um, the teller laughs."),
        ("something sees you.", "Um, something sees you."),
        ("then the teller laughs.", "Um, then the teller laughs."),
        ("I shot the twitchy man.", "Um, I shot the twitchy man."),
        ("Bob laughs.", "Um, Bob laughs."),
        ("YOU HAVE WON.", "Um, YOU HAVE WON."),
        ('"Hello," says the teller.', 'Um, "Hello," says the teller.'),
        ("hooks once lined the walls.", "Um, hooks once lined the walls."),
    ],
)
def test_a_word_put_before_a_sentence_leaves_its_first_word_as_realized(text: str, expected: str) -> None:
    assert sentence(hesitant.open_with("um,", text)) == expected


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("the teller laughs.", 2),
        ("I shot the twitchy man.", 1),
        ("the glasses shatter.", None),
        ("in the lobby, the teller laughed.", 5),
        ("Bob is laughing.", 1),
    ],
)
def test_the_verb_is_guessed_from_spelling(text: str, verb: int | None) -> None:
    assert hesitant.verb_index(text.split()) == verb


# hesitant


def test_hesitant_puts_one_or_two_fillers_in_each_sentence() -> None:
    for seed in range(50):
        said = told("hesitant", "I shot the twitchy man in the chest.", seed)
        fillers = len(words(said)) - len(words("I shot the twitchy man in the chest."))
        assert 1 <= fillers <= 3, said  # "I mean" is two words


def test_hesitant_stalls_before_the_verb_or_at_the_start() -> None:
    variants = {told("hesitant", "the teller laughs.", seed) for seed in range(50)}
    assert any(re.fullmatch(r"The teller, (uh|um|er|well|I mean), laughs\.", each) for each in variants), variants
    assert any(re.fullmatch(r"(Uh|Um|Er|Well|I mean), the teller laughs\.", each) for each in variants), variants


# valley girl


def test_valley_girl_says_like_and_sometimes_more() -> None:
    variants = [told("valley_girl", "the teller laughs.", seed) for seed in range(50)]
    assert all("like" in each.lower() for each in variants), variants
    for phrase in ("totally", "Oh my God, ", ", you know?", " — whatever."):
        assert any(phrase in each for each in variants), phrase


def test_valley_girl_never_splits_a_negation() -> None:
    for seed in range(50):
        assert "totally not" not in told("valley_girl", "the teller does not laugh.", seed)


# surprise


def test_surprise_exclaims_and_gasps_but_keeps_a_question() -> None:
    variants = {told("surprise", "the teller laughs.", seed) for seed in range(80)}
    assert "The teller laughs!" in variants and "The teller laughs?!" in variants
    assert any(each.startswith(("Whoa, the", "Wow, the")) for each in variants), variants
    assert any(each.startswith("Oh! The") for each in variants), variants
    for seed in range(30):
        assert told("surprise", "do you see?", seed).endswith("o you see?")


def test_surprise_leaves_a_quotation_its_own_stop() -> None:
    for seed in range(30):
        assert told("surprise", 'the teller says, "Go."', seed).endswith('"Go."')


def test_surprise_sometimes_wonders_after_a_paragraph() -> None:
    paragraph = ("The teller laughs.", "You see the mask.")
    grown_or_not = {surprise.paragraph(paragraph, random.Random(seed)) for seed in range(50)}
    assert paragraph in grown_or_not
    grown = [each for each in grown_or_not if each != paragraph]
    assert grown and all(each[:2] == paragraph and len(each) == 3 for each in grown)
    assert all(each[-1][0].isupper() and each[-1].endswith(("!", "?")) for each in grown)
    assert surprise.paragraph((), random.Random(1)) == ()


# hedges


def test_hedges_seem_in_the_tense_of_the_telling() -> None:
    present = {told("hedges", "the teller laughs.", seed, "present") for seed in range(80)}
    assert "It seems that the teller laughs." in present and "The teller laughs, it seems." in present
    assert "The teller, evidently, laughs." in present and "Perhaps the teller laughs." in present
    past = {told("hedges", "the teller laughed.", seed, "past") for seed in range(80)}
    assert "It seemed that the teller laughed." in past and "The teller laughed, it seemed." in past
    assert not any("seemed" in each for each in present) and not any("seems" in each for each in past)


def test_hedges_take_the_tense_from_the_telling_not_from_the_words() -> None:
    # An irregular past ("shot") and a present perfect ("has seen") in a telling after the events: "seemed" for
    # both, as for every sentence of that telling; in a prophecy the narrator is unsure now: "seems".
    for seed in range(50):
        assert "seems" not in told("hedges", "I shot the twitchy man.", seed, "past")
        assert "seems" not in told("hedges", "the visitor had seen the boy.", seed, "past")
        assert "seemed" not in told("hedges", "the teller will laugh.", seed, "future")


def test_hedges_keep_one_tense_through_a_telling_after_the_events() -> None:
    telling = tell("robbery", filters=("hedges",), time="after", order="retrograde", time_words=True)
    assert "seemed" in telling and "seems" not in telling
    assert "seems" in tell("robbery", filters=("hedges",)) and "seemed" not in tell("robbery", filters=("hedges",))


def test_hedges_leave_questions_and_exclamations_alone() -> None:
    for seed in range(30):
        assert hedges.sentence("do you see the mask?", random.Random(seed), "past") == "do you see the mask?"
        assert hedges.sentence("the teller laughs!", random.Random(seed), "present") == "the teller laughs!"


# double entry

BRANDISH = "[agent/s] [brandish/v] [indirect/o] at [direct/o]"


def _restatement(token: Token) -> str | None:
    if isinstance(token, Text) and token.text.startswith(", "):
        phrase = token.text.strip(", ")
        return phrase if phrase in double_entry.PHRASES else None
    return None


def _stand_in(token: Token) -> str:
    if isinstance(token, Text):
        return token.text
    return "v" if isinstance(token, Verb) else "X" if isinstance(token, Ref) else "w"


def _flat(tokens: tuple[Token, ...]) -> str:
    """A stand-in for realizing: each slot a word, then the spaces before punctuation dropped."""
    return re.sub(r"\s+([,.;:!?])", r"\1", "".join(map(_stand_in, tokens))).strip()


@pytest.mark.parametrize(
    "template",
    [
        BRANDISH,
        "[agent/s] [take/v] [direct/o].",
        "[agent/s] [see/v] [direct/o], and [direct/s] [see/v] [agent/o]",
        "[agent's] hat [fall/v] on [direct/o]",
        "[@teller/s] [laugh/v]",
        "in [@lobby/o], [agent/s] [put/v] [direct/o] on [indirect/o] [now]",
    ],
)
def test_double_entry_restates_each_object_once_and_nothing_else(template: str) -> None:
    tokens = parse(template)
    for seed in range(20):
        told = double_entry.template(tokens, random.Random(seed), "present")
        assert isinstance(told, tuple)
        objects = [index for index, token in enumerate(told) if isinstance(token, Ref) and token.case == "o"]
        restated = [index for index, token in enumerate(told) if _restatement(token)]
        assert restated == [index + 1 for index in objects]
        assert tuple(token for token in told if not _restatement(token)) == tokens
        flat = _flat(told)
        assert "  " not in flat and not re.search(r",\s*[,.;:!?]", flat), flat


def test_double_entry_punctuates_for_what_follows() -> None:
    told = _flat(double_entry.template(parse(BRANDISH), random.Random(0), "present"))
    assert re.fullmatch(r"X v X, [a-z ]+, at X, [a-z ]+", told), told
    told = _flat(double_entry.template(parse("[agent/s] [take/v] [direct/o]."), random.Random(0), "present"))
    assert re.fullmatch(r"X v X, [a-z ]+\.", told), told


def test_double_entry_is_reproducible_and_varies_with_the_seed() -> None:
    tokens = parse(BRANDISH)
    assert double_entry.template(tokens, random.Random(5), "past") == double_entry.template(
        tokens, random.Random(5), "past"
    )
    told = {double_entry.template(tokens, random.Random(seed), "present") for seed in range(50)}
    assert len(told) > 4
    phrases = {_restatement(token) for each in told for token in each} - {None}
    assert phrases == set(double_entry.PHRASES)


# Filters in whole tellings


def capitals_inside(telling: str) -> set[str]:
    """Capitalized words that neither open a sentence nor follow "Oh!": a filter's opening left standing."""
    return set(re.findall(r"(?<=[,;] )[A-Z][a-z]\w*|(?<=[a-z] )[A-Z][a-z]\w*", telling))


def test_a_retold_robbery_under_two_filters_keeps_its_capitals_where_they_belong() -> None:
    for seed in range(6):
        telling = tell("robbery", seed=seed, time=6, filters=("hesitant", "surprise"))
        assert capitals_inside(telling) <= {"Dora", "Explorer"}, telling
        telling = tell("robbery", seed=seed, filters=("valley_girl", "hesitant", "hedges"))
        assert capitals_inside(telling) <= {"Dora", "Explorer", "God"}, telling


def test_a_played_game_under_two_filters_keeps_its_capitals_where_they_belong() -> None:
    for seed in range(1, 7):
        player = Player(Story(load_world("cloak"), seed=seed), named_spins=load_spin)
        player.change_spin(["filters=valley_girl,hesitant"])
        replies = [player.opening().text] + [player.command(line).text for line in ("w", "look", "take hook", "i")]
        for reply in replies:
            assert capitals_inside(reply) <= {"God", "Darkness", "Opera", "House", "November"}, reply
            assert "hooks once" in reply.lower() or "Hooks" not in reply


def test_hesitation_never_splits_a_time_word() -> None:
    for seed in range(8):
        telling = tell("robbery", seed=seed, order="retrograde", time_words=True, filters=("hesitant",))
        assert "before that" in telling.lower() or "previously" in telling.lower()
        assert not re.search(r"\b(before|after|prior|just), (uh|um|er|well|I mean),", telling, re.IGNORECASE)
        assert not re.search(r"\b(before|after|prior to), (uh|um|er|well|I mean), that\b", telling, re.IGNORECASE)
