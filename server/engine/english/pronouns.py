"""English personal pronouns by person, number, gender and case, and which of them take plural verbs."""

from __future__ import annotations

from typing import Literal, get_args

Gender = Literal["female", "male", "neuter", "nonbinary", "unknown"]
# "possessive" is the determiner ("her coin"); "possessive_pronoun" stands alone ("the coin is hers").
Case = Literal["subject", "object", "possessive", "possessive_pronoun", "reflexive"]

_CASE_INDEX: dict[str, int] = {case: i for i, case in enumerate(get_args(Case))}
_GENDERS = frozenset(get_args(Gender))

# Each row is in the order of Case.
_SINGULAR_THEY = ("they", "them", "their", "theirs", "themself")
_FIRST = {
    False: ("I", "me", "my", "mine", "myself"),
    True: ("we", "us", "our", "ours", "ourselves"),
}
_SECOND = {
    False: ("you", "you", "your", "yours", "yourself"),
    True: ("you", "you", "your", "yours", "yourselves"),
}
_THIRD_SINGULAR: dict[str, tuple[str, ...]] = {
    "male": ("he", "him", "his", "his", "himself"),
    "female": ("she", "her", "her", "hers", "herself"),
    "neuter": ("it", "it", "its", "its", "itself"),
    "nonbinary": _SINGULAR_THEY,
    # A person whose sex the narrator does not know is "they", as in ordinary speech.
    "unknown": _SINGULAR_THEY,
}
_THIRD_PLURAL = ("they", "them", "their", "theirs", "themselves")


def _check(person: int, gender: str) -> None:
    if person not in (1, 2, 3):
        raise ValueError(f"person must be 1, 2 or 3, not {person!r}")
    if gender not in _GENDERS:
        raise ValueError(f"unknown gender {gender!r}; expected one of {sorted(_GENDERS)}")


def pronoun(person: int, plural: bool, gender: Gender, case: Case) -> str:
    """The pronoun: (3, False, "female", "possessive_pronoun") -> "hers". Gender counts only in person 3."""
    _check(person, gender)
    index = _CASE_INDEX.get(case)
    if index is None:
        raise ValueError(f"unknown case {case!r}; expected one of {list(_CASE_INDEX)}")
    if person == 1:
        return _FIRST[plural][index]
    if person == 2:
        return _SECOND[plural][index]
    return (_THIRD_PLURAL if plural else _THIRD_SINGULAR[gender])[index]


def agrees_plural(plural: bool, gender: Gender, person: int) -> bool:
    """Whether the verb takes plural agreement: plurals, singular "they" ("they are") and every "you"."""
    _check(person, gender)
    return plural or person == 2 or (person == 3 and gender in ("nonbinary", "unknown"))


PRONOUN_WORDS = frozenset(
    word.lower()
    for table in (*_FIRST.values(), *_SECOND.values(), *_THIRD_SINGULAR.values(), _THIRD_PLURAL)
    for word in table
)
"""Every personal pronoun, in lower case: "i", "me", "themself", "ours"…"""
