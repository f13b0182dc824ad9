"""Referring to items: I and you, names with the right article, clear pronouns, and "something" for the unknown."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from server.engine.concepts import Concept
from server.engine.english import Gender, indefinite_article, possessive, pronoun
from server.engine.narrator.templates import Case
from server.engine.world.items import ROOT, Item

UNKNOWN = "something"

NAME_SPACE = "\u2060"  # a word joiner: not white space, so no filter splits a name there
"""Joins the words of a name until the telling is presented, so no filter puts an "um" inside
"Dora the Explorer"."""


def protect(name: str) -> str:
    return name.replace(" ", NAME_SPACE)


"""What a focalizer calls an item it has not perceived."""


@dataclass(frozen=True, slots=True)
class Agreement:
    """The person and number a verb agrees with."""

    person: int
    plural: bool

    def __init__(self, person: int, plural: bool) -> None:  # written out, to be compiled (server/compiled.py)
        object.__setattr__(self, "person", person)
        object.__setattr__(self, "plural", plural)


THIRD_SINGULAR = Agreement(3, False)

PLURAL_PERSON = "plural_person"
"""An actor's feature: while it is true, the actor told as I or you is told as we (or you all) — the royal "we".
Told in the third person it is still one person. Read as the focalizer knew it when each event happened."""


class Reference:
    """The working memory of one telling: what has been introduced, and who was just spoken of.

    A third-person item becomes a pronoun only when that cannot be misread: it was already named in this
    sentence, or it was the subject of the last one (or, when that subject was I or you, named in it), and
    nothing else that takes the same pronoun was named since."""

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

    def agreement(self, tag: str, moment: int, said: str = "") -> Agreement:
        """The person and number a verb agrees with when `tag`, said as `said`, is its subject."""
        person = self.person(tag)
        if person == 3 and not self.known(tag, moment):
            return THIRD_SINGULAR
        # Singular "they" takes plural agreement ("they laugh"), but only as the pronoun: named, a person of
        # unknown gender is singular ("a child laughs").
        return Agreement(person, self.plural(tag, moment) or (person == 3 and said.lower() == "they"))

    def plural(self, tag: str, moment: int) -> bool:
        """Whether `tag` is many: declared plural, or, as I or you, speaking as many at `moment`."""
        if self.items[tag].plural:
            return True
        if self.person(tag) == 3:
            return False
        view = self.concept.view(tag, moment)
        return bool(view is not None and view.feature(PLURAL_PERSON))

    def _gender(self, tag: str) -> Gender:
        # Things are "it" whatever their declared gender; actors take the pronouns their gender gives.
        item = self.items[tag]
        return item.gender if item.kind == "actor" else "neuter"

    def _pronoun_class(self, tag: str) -> str:
        # Items compete for a pronoun when it would be the same word: a nonbinary actor and the deposit slips
        # are both "they", so neither can be "they" while the other is in view.
        return pronoun(3, self.items[tag].plural, self._gender(tag), "subject")

    # -- referring ----------------------------------------------------------------------------------

    def refer(
        self,
        tag: str,
        case: Case,
        moment: int,
        clause_subjects: Iterable[str] = (),
        adjectives: tuple[str, ...] = (),
        force_pronoun: bool = False,
        determiner: bool = True,
        definite: bool = False,
        owned: bool = True,
    ) -> str:
        """The words for `tag` in this position of the sentence being realized; without a `determiner` (after a
        possessive) it is the bare noun: "her crumpled ticket"; `definite` names it with "the" from the first."""
        person = self.person(tag)
        item = self.items[tag]
        if not determiner and self.known(tag, moment):
            words = self.name(tag, adjectives, article=False)
        elif person != 3:
            words = self._pronoun(tag, person, case, tag in clause_subjects, moment)
        elif not self.known(tag, moment):
            # Unknown items are not introduced: when first seen, the guard is still "a burly guard".
            return possessive(UNKNOWN) if case == "'s" else UNKNOWN
        elif case == "o" and tag in clause_subjects:
            words = self._pronoun(tag, 3, case, reflexive=True)
        elif force_pronoun or self._clear_pronoun(tag):
            words = self._pronoun(tag, 3, case, reflexive=False)
        elif owned and not definite and (owner := self._owner(tag, moment)) is not None:
            # Introduced as "your cloak", not "a cloak": it is plain whose it is.
            whose = self._pronoun(owner, self.person(owner), "'s", reflexive=False, moment=moment)
            words = f"{whose} {self.name(tag, adjectives, article=False)}"
        else:
            name = self.name(tag, adjectives, definite=definite)
            words = possessive(name, item.plural) if case == "'s" else name
        self._note(tag, case)
        return words

    def _owner(self, tag: str, moment: int) -> str | None:
        """The narrator or narratee who holds or wears a not yet introduced thing, if one does."""
        if tag in self.mentioned or self.items[tag].proper is not None or self.items[tag].article == "the":
            return None
        view = self.concept.view(tag, moment - 1)  # whose it was as the event began: one puts down *one's* cloak
        if view is None or view.link not in ("of", "on") or view.parent is None:
            return None
        return view.parent if self.person(view.parent) != 3 else None

    def _pronoun(self, tag: str, person: int, case: Case, reflexive: bool, moment: int | None = None) -> str:
        plural = self.items[tag].plural if moment is None else self.plural(tag, moment)
        if case == "s":
            grammatical = "subject"
        elif case == "'s":
            grammatical = "possessive"
        else:
            grammatical = "reflexive" if reflexive else "object"
        return pronoun(person, plural, self._gender(tag), grammatical)  # type: ignore[arg-type]

    def _clear_pronoun(self, tag: str) -> bool:
        key = self._pronoun_class(tag)
        if key == "they" and tag not in self._current and len([t for t in self._previous if t != tag]) >= 2:
            # After a list ("a mime, a sack, and an operagoer"), "they" reads as all of them.
            return False
        rivals_now = [t for t in self._current if t != tag and self._pronoun_class(t) == key]
        if tag in self._current:
            return not rivals_now
        rivals_before = [t for t in self._previous if t != tag and self._pronoun_class(t) == key]
        if tag == self._previous_subject:
            return not rivals_before and not rivals_now
        # After a sentence about I or you, the one other person or thing in it is who "he" or "it" means:
        # "The twitchy man turned to me. I shot him. I shot him again."
        first_or_second = self._previous_subject is not None and self.person(self._previous_subject) != 3
        if first_or_second and tag in self._previous:
            return not rivals_before and not rivals_now
        return False

    def _note(self, tag: str, case: Case) -> None:
        if case == "s" and self._current_subject is None:
            self._current_subject = tag
        if self.person(tag) == 3:
            self._current.append(tag)
        self.mentioned.add(tag)

    def name(self, tag: str, adjectives: tuple[str, ...] = (), article: bool = True, definite: bool = False) -> str:
        """The item's name with its article: "a mask" at first, "the mask" once mentioned (or when `definite`)."""
        item = self.items[tag]
        introduced = tag in self.mentioned
        if item.proper is not None:
            return protect(item.proper.subsequent() if introduced else item.proper.initial())
        called = item.subsequent if (introduced and item.subsequent) else item.called
        noun = " ".join((*adjectives, called))
        shown = protect(noun)
        if item.article == "" or not article:
            return shown
        if item.article == "the" or introduced or definite:
            return f"the {shown}"
        if item.article == "some":
            return f"some {shown}"
        return f"{indefinite_article(noun)} {shown}"

    def phrase(self, article: str, words: str, determiner: bool = True) -> str:
        """An unsimulated noun phrase (`_a_small_stream`): its own article at first, then "the"."""
        key = "_" + words
        introduced = key in self.mentioned
        self.mentioned.add(key)
        if not determiner:
            return words
        if introduced or article == "the":
            return f"the {words}"
        if article == "some":
            return f"some {words}"
        return f"{indefinite_article(words)} {words}"
