"""Referring to items: I and you, names with the right article, clear pronouns, and "something" for the unknown."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from server.engine.concepts import Concept
from server.engine.english import Gender, indefinite_article, possessive, pronoun
from server.engine.narrator.templates import Case
from server.engine.world.items import ROOT, Item

UNKNOWN = "something"
"""What a focalizer calls an item it has not perceived."""


@dataclass(frozen=True, slots=True)
class Agreement:
    """The person and number a verb agrees with."""

    person: int
    plural: bool


THIRD_SINGULAR = Agreement(3, False)


class Reference:
    """The working memory of one telling: what has been introduced, and who was just spoken of.

    A third-person item becomes a pronoun only when that cannot be misread: it was already named in this
    sentence, or it was the subject of the last one, and nothing else that takes the same pronoun was
    named since."""

    def __init__(
        self,
        items: Mapping[str, Item],
        concept: Concept,
        narrator: str | None,
        narratee: str | None,
        mentioned: Iterable[str],
    ) -> None:
        self.items = items
        self.concept = concept
        self.narrator = narrator
        self.narratee = narratee
        self.mentioned = set(mentioned)
        self._previous: list[str] = []
        self._previous_subject: str | None = None
        self._current: list[str] = []
        self._current_subject: str | None = None

    # -- sentences ----------------------------------------------------------------------------------

    def end_sentence(self) -> None:
        self._previous, self._previous_subject = self._current, self._current_subject
        self._current, self._current_subject = [], None

    def forget_recent(self) -> None:
        """A new paragraph: pronouns must not reach back into the last one."""
        self._previous, self._previous_subject = [], None

    # -- grammar ------------------------------------------------------------------------------------

    def person(self, tag: str) -> int:
        if tag == self.narrator:
            return 1
        if tag == self.narratee:
            return 2
        return 3

    def known(self, tag: str, moment: int) -> bool:
        return tag == ROOT or tag == self.concept.actor or self.concept.knows(tag, moment)

    def agreement(self, tag: str, moment: int) -> Agreement:
        item = self.items[tag]
        person = self.person(tag)
        if person == 3 and not self.known(tag, moment):
            return THIRD_SINGULAR
        # Singular "they" (nonbinary, or a person of unknown gender) takes plural agreement.
        singular_they = item.kind == "actor" and item.gender in ("nonbinary", "unknown")
        return Agreement(person, item.plural or (person == 3 and singular_they))

    def _gender(self, tag: str) -> Gender:
        # Things are "it" whatever their declared gender; actors take the pronouns their gender gives.
        item = self.items[tag]
        return item.gender if item.kind == "actor" else "neuter"

    def _pronoun_class(self, tag: str) -> tuple[str, bool]:
        gender = self._gender(tag)
        return ("they" if gender in ("nonbinary", "unknown") else gender), self.items[tag].plural

    # -- referring ----------------------------------------------------------------------------------

    def refer(
        self,
        tag: str,
        case: Case,
        moment: int,
        clause_subjects: Iterable[str] = (),
        adjectives: tuple[str, ...] = (),
        force_pronoun: bool = False,
    ) -> str:
        """The words for `tag` in this position of the sentence being realized."""
        person = self.person(tag)
        item = self.items[tag]
        if person != 3:
            words = self._pronoun(tag, person, case, tag in clause_subjects)
        elif not self.known(tag, moment):
            # Unknown items are not introduced: when first seen, the guard is still "a burly guard".
            return possessive(UNKNOWN) if case == "'s" else UNKNOWN
        elif case == "o" and tag in clause_subjects:
            words = self._pronoun(tag, 3, case, reflexive=True)
        elif force_pronoun or self._clear_pronoun(tag):
            words = self._pronoun(tag, 3, case, reflexive=False)
        else:
            name = self.name(tag, adjectives)
            words = possessive(name, item.plural) if case == "'s" else name
        self._note(tag, case)
        return words

    def _pronoun(self, tag: str, person: int, case: Case, reflexive: bool) -> str:
        plural = self.items[tag].plural
        if case == "s":
            grammatical = "subject"
        elif case == "'s":
            grammatical = "possessive"
        else:
            grammatical = "reflexive" if reflexive else "object"
        return pronoun(person, plural, self._gender(tag), grammatical)  # type: ignore[arg-type]

    def _clear_pronoun(self, tag: str) -> bool:
        key = self._pronoun_class(tag)
        rivals_now = [t for t in self._current if t != tag and self._pronoun_class(t) == key]
        if tag in self._current:
            return not rivals_now
        if tag == self._previous_subject:
            rivals_before = [t for t in self._previous if t != tag and self._pronoun_class(t) == key]
            return not rivals_before and not rivals_now
        return False

    def _note(self, tag: str, case: Case) -> None:
        if self.person(tag) == 3:
            self._current.append(tag)
            if case == "s" and self._current_subject is None:
                self._current_subject = tag
        self.mentioned.add(tag)

    def name(self, tag: str, adjectives: tuple[str, ...] = ()) -> str:
        """The item's name with its article: "a mask" at first, "the mask" once mentioned."""
        item = self.items[tag]
        introduced = tag in self.mentioned
        if item.proper is not None:
            return item.proper.subsequent() if introduced else item.proper.initial()
        called = item.subsequent if (introduced and item.subsequent) else item.called
        noun = " ".join((*adjectives, called))
        if item.article == "":
            return noun
        if item.article == "the" or introduced:
            return f"the {noun}"
        if item.article == "some":
            return f"some {noun}"
        return f"{indefinite_article(noun)} {noun}"

    def phrase(self, article: str, words: str) -> str:
        """An unsimulated noun phrase (`_a_small_stream`): its own article at first, then "the"."""
        key = "_" + words
        introduced = key in self.mentioned
        self.mentioned.add(key)
        if introduced or article == "the":
            return f"the {words}"
        if article == "some":
            return f"some {words}"
        return f"{indefinite_article(words)} {words}"
