"""Stage: realize each told event's templates as English sentences (person, number, tense, reference)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from server.engine.english import VerbForm, base_form, capitalize_first, sentence, verb_phrase
from server.engine.english.words import deictic, feature_word
from server.engine.errors import TemplateError
from server.engine.narrator.draft import Discourse, Draft, Told
from server.engine.narrator.reference import THIRD_SINGULAR, Agreement, Reference
from server.engine.narrator.templates import Caps, Deictic, FeatureWord, Phrase, Ref, Text, Token, Verb


@dataclass(frozen=True, slots=True)
class Scene:
    """What a template needs to know about the event it tells: its roles, moment, tense and aspect."""

    roles: dict[str, str]
    moment: int
    form: VerbForm
    present: bool


def run(draft: Draft) -> Draft:
    reference = reference_for(draft)
    told: list[Told] = []
    previous_segment = None
    for item in draft.told:
        if item.segment != previous_segment or item.heading:
            reference.forget_recent()
        previous_segment = item.segment
        scene = scene_for(draft, item)
        sentences = tuple(realize(tokens, scene, reference) for tokens in item.templates)
        told.append(replace(item, sentences=sentences))
    discourse = Discourse(mentioned=frozenset(reference.mentioned))
    return replace(draft, told=tuple(told), discourse=discourse)


def reference_for(draft: Draft) -> Reference:
    return Reference(
        draft.record.items,
        draft.concept,
        draft.spin.narrator,
        draft.spin.narratee,
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
    return Scene(roles=roles, moment=event.id, form=item.form or VerbForm(), present=item.present)


def realize(tokens: tuple[Token, ...], scene: Scene, reference: Reference) -> str:
    """One template as one sentence."""
    words: list[str] = []
    subjects: list[str] = []
    clause_closed = False
    capitals = False
    for token in tokens:
        if isinstance(token, Text):
            piece = token.text
        elif isinstance(token, Ref):
            tag = _resolve(token.role, scene)
            if token.case == "s":
                if clause_closed:
                    subjects, clause_closed = [], False
                subjects.append(tag)
            piece = reference.refer(
                tag,
                token.case,
                scene.moment,
                clause_subjects=subjects if token.case == "o" else (),
                adjectives=token.adjectives,
                force_pronoun=token.pronoun,
            )
        elif isinstance(token, Verb):
            piece = _verb(token, _agreement(subjects, scene, reference), scene.form)
            clause_closed = True
        elif isinstance(token, FeatureWord):
            piece = _feature(token, scene, reference)
        elif isinstance(token, Deictic):
            piece = deictic(token.word, scene.present)
        elif isinstance(token, Phrase):
            piece = reference.phrase(token.article, token.words)
        else:
            assert isinstance(token, Caps)
            capitals = token.on
            continue
        words.append(piece.upper() if capitals else piece)
    reference.end_sentence()
    return sentence(_tidy("".join(words)))


def _resolve(role: str, scene: Scene) -> str:
    if role.startswith("@"):
        return role
    tag = scene.roles.get(role)
    if tag is None:
        raise TemplateError(f"a template names [{role}], but this action has no {role}")
    return tag


def _agreement(subjects: list[str], scene: Scene, reference: Reference) -> Agreement:
    if not subjects:
        return THIRD_SINGULAR
    if len(subjects) == 1:
        return reference.agreement(subjects[0], scene.moment)
    # "You and the teller wave": a compound subject is plural, in the lowest person among its parts.
    return Agreement(min(reference.person(tag) for tag in subjects), True)


def _verb(token: Verb, agreement: Agreement, form: VerbForm) -> str:
    if token.base:
        return base_form(token.lemma)
    plural = agreement.plural if token.number is None else token.number == 2
    flagged = replace(
        form,
        perfect=form.perfect or token.perfect,
        progressive=form.progressive or token.progressive,
        negated=token.negated,
        emphatic=token.emphatic,
    )
    return verb_phrase(token.lemma, agreement.person, plural, flagged)


def _feature(token: FeatureWord, scene: Scene, reference: Reference) -> str:
    tag = _resolve(token.role, scene)
    view = reference.concept.view(tag, scene.moment)
    value = view.feature(token.feature) if view is not None else None
    if value is None:
        return "unknown"
    return feature_word(token.feature, value)


_SPACES = re.compile(r"[ \t]{2,}")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.;:!?])")


def _tidy(text: str) -> str:
    text = _SPACES.sub(" ", text.strip())
    return capitalize_first(_SPACE_BEFORE_PUNCT.sub(r"\1", text))
