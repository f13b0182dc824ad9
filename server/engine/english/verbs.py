"""English verb phrases: one lemma conjugated for person, number, tense and aspect."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

Tense = Literal["past", "present", "future"]

# Penn Treebank tags, as lemminflect names them: 3rd-singular present, past, past participle, -ing form.
_Tag = Literal["VBZ", "VBD", "VBN", "VBG"]
# What an auxiliary demands of the verb after it: "will take", "has taken", "is taking".
_Demand = Literal["base", "VBN", "VBG"]


@dataclass(frozen=True, slots=True)
class VerbForm:
    """Tense and aspect of one verb phrase; frozen (hashable) so verb_phrase can be cached on it."""

    tense: Tense = "present"
    perfect: bool = False  # anterior: "has taken", "had taken", "will have taken"
    progressive: bool = False  # "is taking"; ignored for stative verbs (see _STATIVE) and when posterior
    posterior: bool = False  # "is about to take", "was about to take", "will be about to take"
    negated: bool = False  # "does not take", "is not", "will not take"
    emphatic: bool = False  # "does take", "did take"; no effect when an auxiliary is already there
    descriptive: bool = False  # describes a state, where "lead", "face", "line"… are stative (see _DESCRIPTIVE)

    def __init__(  # written out, to be compiled (server/compiled.py)
        self,
        tense: Tense = "present",
        perfect: bool = False,
        progressive: bool = False,
        posterior: bool = False,
        negated: bool = False,
        emphatic: bool = False,
        descriptive: bool = False,
    ) -> None:
        object.__setattr__(self, "tense", tense)
        object.__setattr__(self, "perfect", perfect)
        object.__setattr__(self, "progressive", progressive)
        object.__setattr__(self, "posterior", posterior)
        object.__setattr__(self, "negated", negated)
        object.__setattr__(self, "emphatic", emphatic)
        object.__setattr__(self, "descriptive", descriptive)

    # Equality and hash written out too, as the dataclass would make them: the verb caches key on a form, ten
    # times a command, and the generated pair ran interpreted (0.7 us each call).
    def __eq__(self, other: object) -> bool:
        if type(other) is not VerbForm:
            return NotImplemented
        return (
            self.tense == other.tense
            and self.perfect == other.perfect
            and self.progressive == other.progressive
            and self.posterior == other.posterior
            and self.negated == other.negated
            and self.emphatic == other.emphatic
            and self.descriptive == other.descriptive
        )

    def __hash__(self) -> int:
        return hash(
            (self.tense, self.perfect, self.progressive, self.posterior, self.negated, self.emphatic, self.descriptive)
        )


# Where lemminflect's first spelling is wrong or is not the one we narrate in (American English,
# with the participle agreeing with the past tense). Each entry was found by probing lemminflect.
_OVERRIDES: dict[str, dict[_Tag, str]] = {
    "wake": {"VBN": "woken"},  # lemminflect prefers archaic "waked"
    "lie": {"VBD": "lay", "VBN": "lain"},  # it mixes recline's "lay" with deceive's "lied"; IF lies down
    "sting": {"VBG": "stinging"},  # it returns the bare "sting"
    "mimic": {"VBD": "mimicked", "VBN": "mimicked", "VBG": "mimicking"},  # it misses the k
    "ski": {"VBN": "skied"},  # it gives "ski'd"
    "quit": {"VBN": "quit"},  # it prefers the archaic "quitted"
    "light": {"VBN": "lit"},  # past "lit" but participle "lighted"
    "lean": {"VBN": "leaned"},  # past "leaned" but participle British "leant"
    "smell": {"VBN": "smelled"},  # past "smelled" but participle British "smelt"
    "spell": {"VBN": "spelled"},  # past "spelled" but participle British "spelt"
    "spoil": {"VBN": "spoiled"},  # past "spoiled" but participle British "spoilt"
    "refuel": {"VBN": "refueled"},  # past "refueled" but participle British "refuelled"
    "relay": {"VBN": "relayed"},  # "relaid" is re-lay (a carpet), not relay (a message)
    # Where its past and participle are two different spellings of one form (one British, one archaic or
    # rare), the participle follows the past: "has bused" after "bused", never "has bussed".
    "bear": {"VBN": "borne"},  # "born" is only of birth; one has borne a burden
    "broadcast": {"VBD": "broadcast"},  # it gives "broadcasted" but the participle "broadcast"
    "forecast": {"VBD": "forecast"},  # likewise
    "telecast": {"VBD": "telecast", "VBN": "telecast"},
    "simulcast": {"VBD": "simulcast", "VBN": "simulcast"},
    "webcast": {"VBD": "webcast", "VBN": "webcast"},
    "overbid": {"VBD": "overbid", "VBN": "overbid"},  # it gives "overbidded"
    "bid": {"VBD": "bid"},  # an offer: "bid", "has bid"; "bade" is biddance, archaic
    "spit": {"VBN": "spat"},  # past "spat" but participle "spit"
    "weave": {"VBD": "wove"},  # past "weaved" but participle "woven"
    "interweave": {"VBD": "interwove"},
    "bus": {"VBN": "bused"},  # past "bused" but participle "bussed" (which is kissed)
    "bust": {"VBN": "busted"},  # past "busted" but participle "bust"
    "bias": {"VBN": "biased"},
    "blend": {"VBN": "blended"},
    "alight": {"VBN": "alighted"},
    "channel": {"VBN": "channeled"},
    "dial": {"VBN": "dialed"},
    "duel": {"VBN": "dueled"},
    "initial": {"VBN": "initialed"},
    "misspell": {"VBN": "misspelled"},
    "respell": {"VBN": "respelled"},
    "unlearn": {"VBN": "unlearned"},
    "midwife": {"VBN": "midwifed"},
    "gird": {"VBN": "girded"},  # "girt" is archaic
    "heave": {"VBN": "heaved"},  # "hove" is only a ship's
    "fit": {"VBN": "fit"},  # past "fit" but participle "fitted"
    "wed": {"VBD": "wed"},  # past "wedded" but participle "wed"
    "wet": {"VBD": "wet"},  # past "wetted" but participle "wet"
    "floodlight": {"VBD": "floodlit"},  # past "floodlighted" but participle "floodlit"
    "okay": {"VBN": "okayed"},  # it gives "o.k.'d"
}

# Verbs that describe a state, not an action: "she knows", never "she is knowing". Their progressive is
# dropped rather than refused, because a spin sets the progressive for a whole telling. "have" is stative
# only alone (possession): "is having lunch" is fine. "remain" is NOT stative: "the guard is remaining at
# his post" is good English, and the progressive marks the state as temporary, which narration wants.
_STATIVE = frozenset(
    {"be", "seem", "resemble", "consist"}  # being
    | {"see", "hear", "know", "understand", "believe", "mean"}  # perceiving and knowing
    | {"own", "possess", "belong", "contain", "deserve"}  # having
    | {"like", "love", "hate", "want", "need", "prefer"}  # feeling and wanting
)

# Verbs that are actions of an actor but states of a place or thing in a description: "the guard is leading
# the teller", but "doorways lead south", "windows face the street", "hooks line the walls", never "doorways
# are leading south".
_DESCRIPTIVE = frozenset(
    {"lead", "face", "overlook", "line", "surround", "cover", "border", "stretch", "run", "open", "look", "fit"}
    | {"lack", "hold", "weigh", "cost", "matter", "stand", "lie", "hang", "show", "bear", "remain", "wear"}
)


# Modal verbs with their past. A modal has no infinitive or participles ("will can", "has could" are not
# English), never agrees ("he can") and needs no do-support ("cannot"). Templates say [can/not/v].
_MODAL_PAST = {"can": "could"}
# Where an auxiliary must come before the modal, English says it another way: "will be able to reach".
_MODAL_PERIPHRASIS = {"can": ["be", "able", "to"]}


def _split(lemma: str) -> tuple[str, list[str]]:
    """The word that is conjugated and the words kept after it ("wake up" -> "wake", ["up"])."""
    words = lemma.split()
    if not words:
        raise ValueError("a verb lemma cannot be empty")
    return words[0], words[1:]


@lru_cache(maxsize=8192)
def _inflect(word: str, tag: _Tag) -> str:
    """One inflected form of a single-word verb: override table first, then lemminflect's first choice that is
    written as one word, as the verb is ("babysat", "proofread", "overshot", never "baby-sat", "proof read")."""
    override = _OVERRIDES.get(word, {}).get(tag)
    if override is not None:
        return override
    from lemminflect import getInflection  # its lexicon and numpy load on the first verb no table covers

    forms = getInflection(word, tag)
    # lemminflect yields nothing for tokens it cannot analyse; the bare word beats failing mid-telling.
    whole = [form for form in forms if form.isalpha()] if word.isalpha() else []
    return (whole or forms or (word,))[0]


def _is_stative(head: str, rest: list[str]) -> bool:
    if head == "have":
        return not rest  # "have" alone is possession; "have lunch" is an action
    return head in _STATIVE


def _finite(verb: str, person: int, plural: bool, tense: Literal["past", "present"]) -> str:
    """The verb that agrees with the subject: "am", "were", "takes", "took"."""
    # "you" takes plural agreement whatever its number: "you are", "you were", never "you is".
    singular = not plural and person != 2
    if verb == "be":
        if tense == "past":
            return "was" if singular else "were"
        if singular:
            return "am" if person == 1 else "is"
        return "are"
    if tense == "past":
        return _inflect(verb, "VBD")
    return _inflect(verb, "VBZ") if singular and person == 3 else verb


def _nonfinite(verb: str, demand: _Demand) -> str:
    return verb if demand == "base" else _inflect(verb, demand)


@lru_cache(maxsize=16384)
def verb_phrase(lemma: str, person: int, plural: bool, form: VerbForm) -> str:
    """The verb phrase agreeing with the subject: ("take", 3, False, past, perfect) -> "had taken".

    Multi-word lemmas conjugate the first word and keep the rest after it ("has woken up").
    Singular "they" is the caller's plural=True; person 2 always agrees as plural ("you are").
    """
    if person not in (1, 2, 3):
        raise ValueError(f"person must be 1, 2 or 3, not {person!r}")
    head, rest = _split(lemma)
    if head in _MODAL_PAST:
        if form.tense != "future" and not form.perfect and not form.posterior:
            modal = head if form.tense == "present" else _MODAL_PAST[head]
            if form.negated:  # written as one word: "cannot"; "can not" reads as a contrast
                modal = "cannot" if modal == "can" else f"{modal} not"
            return " ".join([modal, *rest])
        head, *rest = [*_MODAL_PERIPHRASIS[head], *rest]
    # "About to" already places the event just after the reference time; "was about to be taking" adds
    # nothing a reader wants, so the posterior wins over the progressive.
    progressive = form.progressive and not form.posterior and not _is_stative(head, rest)
    progressive = progressive and not (form.descriptive and head in _DESCRIPTIVE)

    # The auxiliaries in English's fixed order (modal, perfect, posterior, progressive), each with the
    # words it brings and the form it demands of the verb after it.
    chain: list[tuple[str, list[str], _Demand | None]] = []
    if form.perfect:
        chain.append(("have", [], "VBN"))
    if form.posterior:
        chain.append(("be", ["about", "to"], "base"))
    if progressive:
        chain.append(("be", [], "VBG"))
    has_auxiliary = bool(chain) or form.tense == "future"
    # Do-support: a bare main verb (but not "be", which inverts and negates by itself) needs "do" to carry
    # "not" or emphasis. Main-verb "have" takes do-support too: "does not have", not "has not".
    if not has_auxiliary and head != "be" and (form.negated or form.emphatic):
        chain.append(("do", [], "base"))
    chain.append((head, rest, None))

    words: list[str] = []
    demand: _Demand | None = None
    finite_tense: Literal["past", "present"] = "past" if form.tense == "past" else "present"
    if form.tense == "future":
        words.append("will")  # the modal is the finite verb: it never agrees
        demand = "base"
    for verb, after, next_demand in chain:
        if demand is None:
            words.append(_finite(verb, person, plural, finite_tense))
        else:
            words.append(_nonfinite(verb, demand))
        words.extend(after)
        demand = next_demand
    if form.negated:
        words.insert(1, "not")  # always right after the finite verb: "will not", "has not", "is not about"
    return " ".join(words)


@lru_cache(maxsize=4096)
def base_form(lemma: str) -> str:
    """The infinitive without "to", whitespace normalized, for "unable to take" and "will take"."""
    head, rest = _split(lemma)
    return " ".join([head, *rest])


@lru_cache(maxsize=4096)
def participle(lemma: str) -> str:
    """The past participle, for "the stolen coin" and "has woken up"."""
    head, rest = _split(lemma)
    return " ".join([_inflect(head, "VBN"), *rest])


@lru_cache(maxsize=4096)
def gerund(lemma: str) -> str:
    """The -ing form, for "keeps typing" and "after waking up"."""
    head, rest = _split(lemma)
    return " ".join([_inflect(head, "VBG"), *rest])


# Adverbs that sit in the middle of a verb phrase: after its first auxiliary ("you will already have it", "has
# only just arrived"), after a lone "be" ("you are still here"), before a lone main verb ("you already have it").
MID_ADVERBS = (
    "only just",
    "just",
    "already",
    "still",
    "never",
    "always",
    "also",
    "often",
    "almost",
    "nearly",
    "hardly",
    "barely",
    "no longer",
    "ever",
)

_BE_FORMS = frozenset({"am", "is", "are", "was", "were"})


def place_adverb(adverb: str, phrase: str) -> str:
    """A mid-position adverb set into a verb phrase: ("already", "will have") -> "will already have";
    ("still", "is") -> "is still"; ("already", "have") -> "already have"."""
    words = phrase.split()
    if len(words) > 1 and words[1] == "not":  # "will not already" reads worse than "will already not"
        return " ".join([words[0], adverb, *words[1:]])
    if len(words) > 1 or words[0] in _BE_FORMS:
        return " ".join([words[0], adverb, *words[1:]])
    return f"{adverb} {phrase}"


@lru_cache(maxsize=4096)
def is_participle(word: str) -> bool:
    """Whether a word is a past participle, so that "have" before it is the perfect's auxiliary ("have arrived",
    "have been trampled"), not possession ("have a ticket")."""
    word = word.lower()
    if word == "been":
        return True
    from lemminflect import getAllLemmas, getInflection

    lemmas = getAllLemmas(word)
    return any(word in getInflection(lemma, "VBN") for lemma in lemmas.get("VERB", ()))
