"""Stage: realize each told event's templates as English sentences (person, number, tense, reference).

A sentence leaves this stage with its first letter as realized — "the teller laughs.", "I laugh.", "Dora the
Explorer laughs." — and is capitalized when the paragraphs are gathered. So a filter that puts words before it
("um,", "it seems that") needs no guess at whether its first word is a name: a name is already capitalized."""

from __future__ import annotations

import re
from dataclasses import dataclass

from server.engine.copying import replace
from server.engine.english import VerbForm, base_form, punctuate, verb_phrase
from server.engine.english.pronouns import PRONOUN_WORDS
from server.engine.english.verbs import MID_ADVERBS, is_participle, place_adverb
from server.engine.english.words import (
    CLAUSE_OPENERS,
    DETERMINERS,
    SEPARABLE,
    SUBJECT_WORDS,
    deictic,
    feature_word,
)
from server.engine.errors import TemplateError
from server.engine.narrator.draft import Discourse, Draft, Told
from server.engine.narrator.pieces import PIECE, Steps, drained
from server.engine.narrator.reference import THIRD_SINGULAR, Agreement, Reference, protect
from server.engine.narrator.templates import Caps, Deictic, FeatureWord, Phrase, Ref, State, Text, Token, Verb
from server.engine.spin import person


@dataclass(frozen=True, slots=True)
class Scene:
    """What a template needs to know about the event it tells: its roles, moment, tense and aspect (`form` for
    the event, `state_form` for what held at its time, after a `State` token)."""

    roles: dict[str, str]
    moment: int
    form: VerbForm
    present: bool
    state_form: VerbForm | None = None

    def __init__(  # written out, to be compiled (server/compiled.py)
        self, roles: dict[str, str], moment: int, form: VerbForm, present: bool, state_form: VerbForm | None = None
    ) -> None:
        object.__setattr__(self, "roles", roles)
        object.__setattr__(self, "moment", moment)
        object.__setattr__(self, "form", form)
        object.__setattr__(self, "present", present)
        object.__setattr__(self, "state_form", state_form)


def run(draft: Draft) -> Draft:
    return drained(steps(draft))


def steps(draft: Draft) -> Steps[Draft]:
    """`run` in pieces (narrator/pieces.py): the events are realized in order, one reference carried through."""
    reference = reference_for(draft)
    told: list[Told] = []
    previous_segment = None
    for item in draft.told:
        if item.segment != previous_segment or item.heading:
            reference.forget_recent()
        previous_segment = item.segment
        scene = scene_for(draft, item)
        sentences = tuple(realize(tokens, scene, reference) for tokens in item.templates)
        told.append(item.decided(sentences=sentences))
        if len(told) % PIECE == 0:
            yield
    # Unchanged, the discourse is the one told from: each player's undo history keeps one a turn, so equal
    # copies of a growing set were most of what a turn of history kept.
    unchanged = reference.mentioned == draft.discourse.mentioned
    discourse = draft.discourse if unchanged else Discourse(mentioned=frozenset(reference.mentioned))
    return draft.decided(told=tuple(told), discourse=discourse)


def reference_for(draft: Draft) -> Reference:
    return Reference(
        draft.record.items,
        draft.concept,
        person(draft.spin.narrator, draft.focalizer),
        person(draft.spin.narratee, draft.focalizer),
        draft.discourse.mentioned,
    )


def scene_for(draft: Draft, item: Told) -> Scene:
    event = item.event
    action = event.action
    roles = {"agent": action.agent, "*": draft.focalizer}
    for role, tag in (
        ("direct", action.direct),
        ("indirect", action.indirect),
        ("parent", event.parent),
        ("room", event.room),
    ):
        if tag is not None:
            roles[role] = tag
    target = getattr(action, "to", "")
    if target:
        roles["target"] = target.split()[1]
    form = item.form or VerbForm()
    return Scene(roles=roles, moment=event.id, form=form, present=item.present, state_form=item.state_form or form)


def realize(tokens: tuple[Token, ...], scene: Scene, reference: Reference) -> str:
    """One template as one sentence, with its stop, its first letter as realized (see the module's docstring)."""
    words: list[str] = []
    said: list[Token] = []
    clause = Clause()
    capitals = False
    form = scene.form
    # Right after a possessive ("[agent's] [@ticket/o]") an item is a bare noun: "her ticket", not "her a ticket".
    after_possessive = False
    for index, token in enumerate(tokens):
        if isinstance(token, Text):
            piece = token.text
            clause.text(piece)
            after_possessive = after_possessive and not piece.strip()
        elif isinstance(token, Ref):
            tag = _resolve(token.role, scene, reference)
            piece = reference.refer(
                tag,
                token.case,
                scene.moment,
                clause_subjects=clause.subject_tags() if token.case == "o" else (),
                adjectives=token.adjectives,
                force_pronoun=token.pronoun,
                determiner=not after_possessive,
                definite=token.definite,
                owned=token.owned,
            )
            if token.case == "s":
                clause.subject(tag, piece)
            else:
                clause.noun()
                if piece.lower() in PRONOUN_WORDS:
                    piece = _particle_after(piece, said, words)
            after_possessive = token.case == "'s"
        elif isinstance(token, Verb):
            if said and isinstance(said[-1], Text):
                words[-1] = _join_written_subject(words[-1])
            following = tokens[index + 1] if index + 1 < len(tokens) else None
            auxiliary = isinstance(following, Text) and _before_participle(token, following.text)
            piece = _verb(token, clause.verb(scene, reference), form, auxiliary=auxiliary)
            piece = _adverb_into(piece, words, said)
            after_possessive = False
        elif isinstance(token, FeatureWord):
            piece = _feature(token, scene, reference)
            clause.noun()
            after_possessive = False
        elif isinstance(token, Deictic):
            piece = deictic(token.word, scene.present)
            clause.deictic(token.word)
            after_possessive = False
        elif isinstance(token, Phrase):
            piece = reference.phrase(token.article, token.words, determiner=not after_possessive)
            clause.phrase()
            after_possessive = False
        elif isinstance(token, State):
            form = scene.state_form or scene.form
            continue
        else:
            assert isinstance(token, Caps)
            capitals = token.on
            continue
        words.append(piece.upper() if capitals else piece)
        said.append(token)
    reference.end_sentence()
    return punctuate(_tidy("".join(words)))


def _particle_after(pronoun: str, said: list[Token], words: list[str]) -> str:
    """A pronoun object goes before a phrasal verb's particle: "turns on [direct/o]" is "turns it on".
    The particle is taken out of the words already said (`words`, made from the tokens `said`) and returned
    after the pronoun."""
    if len(said) >= 2 and isinstance(said[-1], Text) and isinstance(said[-2], Verb):
        # "[turn/v] on [direct/o]": the particle is the text between the verb and the object.
        particle = said[-1].text.strip()
        head = said[-2].lemma.split()[0]
        if (head, particle.lower()) in SEPARABLE and said[-1].text == f" {particle} ":
            words[-1] = " "
            return f"{pronoun} {particle}"
    if len(said) >= 2 and isinstance(said[-1], Text) and not said[-1].text.strip() and isinstance(said[-2], Verb):
        # "[turn on/v] [direct/o]": the particle is the last word of the verb phrase.
        lemma = said[-2].lemma.split()
        phrase, _space, particle = words[-2].rpartition(" ")
        if len(lemma) == 2 and (lemma[0], lemma[1]) in SEPARABLE and particle.lower() == lemma[1] and phrase:
            words[-2] = phrase
            return f"{pronoun} {particle}"
    return pronoun


class Clause:
    """Who the verbs of a sentence agree with, clause by clause.

    A subject slot starts a new clause once a verb has been given to the last one; until then slots add up
    to a compound subject ("you and the teller wave"). A verb with no new subject slot agrees with the last
    subject ("[agent/s] [see/v] [direct/o] and [laugh/v]"), unless the template's own words opened a clause
    with a subject of their own: "because it [be/v] too dark", "_a_small_stream [be/v] cold", "[these] [be/v]"."""

    def __init__(self) -> None:
        self.subjects: list[tuple[str, str]] = []
        self.closed = False  # a verb has been given to the current subjects
        self.written: Agreement | None = None  # a subject written as words, in force for the clause
        self.candidate: Agreement | None = None  # a subject written as words, waiting for its verb
        self.opening = True  # at a clause's start, where a word or a phrase may be its subject

    def subject_tags(self) -> list[str]:
        return [tag for tag, _said in self.subjects]

    def subject(self, tag: str, said: str) -> None:
        if self.closed:
            self.subjects, self.written, self.closed = [], None, False
        self.subjects.append((tag, said))
        self.candidate, self.opening = None, False

    def noun(self) -> None:
        self.opening = False

    def text(self, text: str) -> None:
        for raw in text.split():
            word = raw.strip("\"'“”‘’()—-").lower()
            bare = word.rstrip(",;:.!?")
            if bare in CLAUSE_OPENERS:
                self.opening, self.candidate = True, None
            elif self.opening and bare in SUBJECT_WORDS:
                self.candidate = Agreement(*SUBJECT_WORDS[bare])
                self.opening = False
            elif self.opening and bare in DETERMINERS:
                # A noun phrase written out opens the clause: "and besides, the weather outside [be/v] nasty".
                self.candidate = Agreement(3, DETERMINERS[bare])
                self.opening = False
            elif bare:
                self.opening = False
            if word.endswith((",", ";", ":")):
                self.opening = True

    def phrase(self) -> None:
        if self.opening:
            self.candidate = THIRD_SINGULAR
        self.opening = False

    def deictic(self, word: str) -> None:
        if self.opening and word in SUBJECT_WORDS:
            self.candidate = Agreement(*SUBJECT_WORDS[word])
        if word in ("this", "these"):
            self.opening = False

    def verb(self, scene: Scene, reference: Reference) -> Agreement:
        if self.candidate is not None and (self.closed or not self.subjects):
            self.subjects, self.written, self.candidate = [], self.candidate, None
        self.closed, self.opening = True, False
        if self.subjects:
            return _agreement(self.subjects, scene, reference)
        return self.written or THIRD_SINGULAR


def _resolve(role: str, scene: Scene, reference: Reference) -> str:
    if role.startswith("@"):
        if role not in reference.items:
            raise TemplateError(f"a template names {role}, which is not an item of this world")
        return role
    tag = scene.roles.get(role)
    if tag is None:
        raise TemplateError(f"a template names [{role}], but this action has no {role}")
    return tag


def _agreement(subjects: list[tuple[str, str]], scene: Scene, reference: Reference) -> Agreement:
    if len(subjects) == 1:
        tag, said = subjects[0]
        return reference.agreement(tag, scene.moment, said)
    # "You and the teller wave": a compound subject is plural, in the lowest person among its parts.
    return Agreement(min(reference.person(tag) for tag, _said in subjects), True)


def _verb(token: Verb, agreement: Agreement, form: VerbForm, *, auxiliary: bool = False) -> str:
    if token.base:
        return base_form(token.lemma)
    plural = agreement.plural if token.number is None else token.number == 2
    # A number flag says the verb agrees with words the template wrote ("only one [be/1/v] left"), which are
    # in the third person whoever the last subject slot was.
    person = agreement.person if token.number is None else 3
    flagged = replace(
        form,
        perfect=form.perfect or token.perfect,
        progressive=form.progressive or token.progressive,
        negated=token.negated,
        emphatic=token.emphatic,
    )
    if auxiliary:
        # "[have/v] arrived" is already perfect: the telling's perfect or progressive would stack another
        # auxiliary on it ("has had arrived", "is having been trampled"); only its tense is the telling's.
        flagged = replace(flagged, perfect=False, progressive=False)
    return verb_phrase(token.lemma, person, plural, flagged)


_BOUNDARY = re.compile(r"[,;:]\s|\b(?:" + "|".join(sorted(CLAUSE_OPENERS)) + r")\s", re.IGNORECASE)


def _join_written_subject(text: str) -> str:
    """The words a template wrote just before a verb ("paving stones [spread/2/v]", "and doorways [lead/2/v]")
    are the clause's subject, a noun phrase: they are joined (as names are) so no filter puts its word inside it
    ("paving, um, stones"). Only what follows the clause's last boundary (a comma, a conjunction) is joined."""
    if not text.endswith(" ") or not text.strip():
        return text
    start = 0
    for match in _BOUNDARY.finditer(text):
        start = match.end()
    head, subject = text[:start], text[start:]
    if len(subject.split()) < 2:
        return text
    lead = subject[: len(subject) - len(subject.lstrip())]
    return f"{head}{lead}{protect(subject.strip())} "


def _before_participle(token: Verb, following: str) -> bool:
    """Whether a "have" slot is the perfect's auxiliary: a past participle follows it, perhaps after a
    mid-position adverb ("[have/v] only just arrived", "[have/v] been trampled")."""
    if token.lemma != "have" or not following.startswith(" "):
        return False
    rest = following.strip().lower()
    for adverb in MID_ADVERBS:
        if rest.startswith(adverb + " "):
            rest = rest[len(adverb) :].strip()
            break
    first = rest.split(" ", 1)[0].strip(",;:.") if rest else ""
    return bool(first) and is_participle(first)


def _adverb_into(phrase: str, words: list[str], said: list[Token]) -> str:
    """A mid-position adverb written between a subject and its verb slot ("[agent/s] already [have/v] it") is
    set into the phrase as English places it: "you will already have it", "you are still here", "you already
    have it". It is taken out of the words said before the verb. Elsewhere ("standing still [can/v]") the word
    may be no adverb of the verb, and stays."""
    if len(said) < 2 or not isinstance(said[-1], Text) or not isinstance(said[-2], Ref) or said[-2].case != "s":
        return phrase
    before = words[-1]
    for adverb in MID_ADVERBS:
        if before.lower() == f" {adverb} ":
            placed = place_adverb(adverb, phrase)
            if placed.startswith(adverb):
                return phrase  # where it was written is where it goes
            words[-1] = before[: len(before) - len(adverb) - 1]
            return placed
    return phrase


def _feature(token: FeatureWord, scene: Scene, reference: Reference) -> str:
    tag = _resolve(token.role, scene, reference)
    view = reference.concept.view(tag, scene.moment)
    value = view.feature(token.feature) if view is not None else None
    if value is None:
        return "unknown"
    return feature_word(token.feature, value)


_SPACES = re.compile(r"[ \t]{2,}")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.;:!?])")


def _tidy(text: str) -> str:
    """A sentence's runs of spaces made one, and no space before its punctuation. Each substitution is tried only
    where it could change something: most sentences need neither, and a substitution with a group in its
    template sets that template up in Python on every call, found or not (2.8 us a sentence)."""
    text = text.strip()
    if "  " in text or "\t" in text:  # every run _SPACES matches holds one or the other
        text = _SPACES.sub(" ", text)
    if _SPACE_BEFORE_PUNCT.search(text) is not None:
        text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    return text
