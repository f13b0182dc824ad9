"""Everything English (verbs, nouns, pronouns, sentences), so the narrator stages stay language-free."""

from server.engine.english.nouns import (
    Article,
    indefinite_article,
    join_list,
    number_word,
    ordinal,
    plural,
    possessive,
    times,
)
from server.engine.english.pronouns import Case, Gender, agrees_plural, pronoun
from server.engine.english.text import capitalize_first, join_sentences, punctuate, sentence
from server.engine.english.verbs import Tense, VerbForm, base_form, gerund, participle, verb_phrase

__all__ = [
    "Article",
    "Case",
    "Gender",
    "Tense",
    "VerbForm",
    "agrees_plural",
    "base_form",
    "capitalize_first",
    "gerund",
    "indefinite_article",
    "join_list",
    "join_sentences",
    "number_word",
    "ordinal",
    "participle",
    "plural",
    "possessive",
    "pronoun",
    "punctuate",
    "sentence",
    "times",
    "verb_phrase",
]
