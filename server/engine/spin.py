"""The spin: every parameter of how a story is told, and how spins are read, merged and validated."""

from __future__ import annotations

import tomllib
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

import msgspec

from server.engine.english import join_list
from server.engine.errors import SpinError

ActorTag = Annotated[str, msgspec.Meta(pattern=r"^@\w+$")]
PersonTag = Annotated[str, msgspec.Meta(pattern=r"^(@\w+|focalizer)$")]
"""A narrator or narratee: an actor's tag, or the role `focalizer`, whoever the story is told through."""
Fraction = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]

TimeOfNarrating = Literal["before", "during", "after"]
Order = Literal["chronicle", "retrograde", "achrony", "analepsis", "syllepsis"]
GroupBy = Literal["place", "agent"]
Frequency = Literal["singulative", "iterative"]
WindowName = Literal["all", "turn"]
FilterName = Literal["hesitant", "valley_girl", "surprise", "hedges", "double_entry"]
EventRanges = Annotated[str, msgspec.Meta(pattern=r"^\s*(\d+(\s*-\s*\d+)?\s*(;\s*\d+(\s*-\s*\d+)?\s*)*)?$")]


def _pattern(annotated: Any) -> str:
    """The pattern a constrained text type (`ActorTag`, `EventRanges`…) is checked against."""
    pattern: str = get_args(annotated)[1].pattern
    return pattern


class Spin(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How a story is told. Each field names the narrator stage (or the story) that reads it.

    Frozen, so a spin can be shared between sessions and stages; keyword-only, so a spin reads as
    a list of settings; unknown fields are refused, so a typo in a spin file is an error, not a no-op.
    Examples are from the bank robbery (`curveship tell robbery key=value`).
    """

    focalizer: ActorTag | None = None
    """Whose concept is told (stage: select). None: the commanded actor, else the world's default actor.
    `@robber`: "Something sees the twitchy man." `@guard`: "The burly guard sees the twitchy man." """

    commanded: ActorTag | None = None
    """Who receives the player's commands (read by the story, not the narrator). None: nobody; the world
    runs by itself."""

    narrator: PersonTag | None = None
    """Told in the first person by this actor (stage: realize). `@guard`: "I shoot the twitchy man."
    `focalizer`: by whoever the story is told through, telling their own story (the memoir spin): "I put on a
    Dora the Explorer mask." """

    narratee: PersonTag | None = None
    """Addressed in the second person (stage: realize). `@robber`: "You put on a Dora the Explorer mask."
    `focalizer`: whoever the story is told through is addressed, as interactive fiction usually is."""

    time: TimeOfNarrating | float = "during"
    """Time of narrating (stage: tense). `during`: present, "The teller laughs."; `after`: past, "The teller
    laughed."; `before`: future, prophecy, "The teller will laugh."; a number between two event numbers,
    e.g. 6.5: events up to 6 are past, later ones future."""

    order: Order = "chronicle"
    """Order of telling (stage: order). `chronicle`: as it happened. `retrograde`: last first ("The teller
    cries. Before that, the twitchy man died."). `achrony`: a seeded random order. `analepsis`: starts in the
    middle, then a flashback told in the pluperfect, then back to the main line. `syllepsis`: grouped, by
    `group_by`."""

    group_by: GroupBy = "place"
    """What syllepsis groups events by (stage: order): the `place` they happened or their `agent`."""

    speed: Fraction = 0.5
    """How fast the telling moves (stages: select, compose): at 0.5 and below every event of salience 0.2 or
    more is told, with descriptions; faster spins skip less salient events (at 1.0 only those above 0.75)
    and, from 0.75, the descriptions that come with arriving. What the commanded actor does on command (done,
    failed or refused) is told at any speed, and so is a look it was told to take."""

    frequency: Frequency = "singulative"
    """`singulative`: each event told once. `iterative`: a run of identical events told once, "The burly guard
    shoots the twitchy man in the chest twice." (stage: frequency)."""

    window: WindowName | Annotated[int, msgspec.Meta(ge=1)] = "all"
    """What part of the known story is told (stage: select): `all`, the last `turn`, or the last N turns."""

    progressive: bool = False
    """Progressive aspect for every event (stage: tense): "The teller is laughing." Stative verbs (be, see,
    know…) stay simple."""

    perfect: bool = False
    """Perfect aspect, reference time just after each event (stage: tense): "The teller has laughed." """

    time_words: bool = False
    """Relate each event to the one told before it (stage: time words): then, meanwhile, before that,
    earlier, later."""

    room_headings: bool = True
    """A heading with the room's name when a room is looked at (stage: compose)."""

    known_directions: bool = False
    """Name each room one step away that the focalizer knows, once, when describing a room (stage: compose):
    "The cloakroom is to the west.", "The belfry is above.", "The foyer is outside, to the east." """

    dynamic: bool = True
    """Whether the world's dynamic-spin hook may change the spin during play (read by the story)."""

    filters: tuple[FilterName, ...] = ()
    """Named text filters, applied in order (stages: template, sentence and paragraph filters): `hesitant`
    (uh, um, er), `valley_girl` (like, totally), `surprise` (whoa!), `hedges` (it seemed that…), `double_entry`
    (a phrase after each object)."""

    ellipsis: EventRanges = ""
    """Event numbers left untold, as ranges: "0;2;4-9" (stage: select)."""

    event_numbers: bool = False
    """Prefix each told event with its number, for authors (stage: paragraphs): "[3] The teller laughs." """


class SpinFile(msgspec.Struct, frozen=True, kw_only=True):
    """A named spin as shipped in spins/ (or any spin file): a summary, the overrides it applies (its `filters`
    as `Adding`, so they add to those in force) and where it was read from, for messages."""

    name: str
    summary: str
    overrides: dict[str, Any]
    source: str = ""


SPIN_FIELDS: tuple[str, ...] = Spin.__struct_fields__


def allowed_values(field: str) -> str:
    """What a spin field accepts, in English, to follow "it takes" or "VALUE is": "chronicle, retrograde, achrony,
    analepsis, or syllepsis"; "a number from 0 to 1"; "an actor tag like @guard, or none"."""
    return join_list(_alternatives(_HINTS[field]), "or")


_HINTS = get_type_hints(Spin, include_extras=True)

_PATTERNS = {
    _pattern(ActorTag): ["an actor tag like @guard"],
    _pattern(PersonTag): ["an actor tag like @guard", "focalizer"],
    _pattern(EventRanges): ["event ranges like 0;2;4-9 (or none)"],
}


def _alternatives(hint: Any) -> list[str]:
    """The kinds of value a type hint allows, each in a few words, none last."""
    origin, args = get_origin(hint), get_args(hint)
    if origin is Annotated:
        meta = args[1]
        if args[0] is str:
            return _PATTERNS[meta.pattern]
        if args[0] is float:
            return [f"a number from {meta.ge:g} to {meta.le:g}"]
        return [f"a whole number of at least {meta.ge}"]
    if origin in (Union, UnionType):
        kinds = [kind for arg in args if arg is not type(None) for kind in _alternatives(arg)]
        return kinds + (["none"] if type(None) in args else [])
    if origin is Literal:
        return [str(value) for value in args]
    if origin is tuple:
        return [f"names from {join_list(_alternatives(args[0]))}, separated by commas (or none)"]
    if hint is bool:
        return ["true", "false"]
    if hint is float:
        return ["an event number such as 6.5"]
    return [getattr(hint, "__name__", str(hint))]


def _shown(value: Any) -> str:
    """A value as it would be typed: "nosuch", "hesitant, shouty", "none", "on"."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple | list):
        return ", ".join(map(_shown, value)) or "none"
    return str(value)


def person(tag: str | None, focalizer: str) -> str | None:
    """The actor a narrator or narratee setting names, its role (`focalizer`) resolved: ("focalizer", "@guard")
    -> "@guard"."""
    return focalizer if tag == "focalizer" else tag


class Adding(tuple[str, ...]):
    """Filters to add to those in force rather than replace them: what a spin file's `filters` becomes, so that
    named spins add up (`hesitant surprise` is both), while a `filters=` setting still says the whole list."""


def apply(spin: Spin, overrides: dict[str, Any], source: str = "spin") -> Spin:
    """Return `spin` with `overrides` applied, validated; errors name the source, the field, the bad value and
    what the field takes, in English. Filters given as `Adding` join those in force, each once, in order."""
    unknown = sorted(set(overrides) - set(SPIN_FIELDS))
    if unknown:
        raise SpinError(f"{source}: unknown spin field {unknown[0]!r}; fields are {', '.join(SPIN_FIELDS)}")
    merged = msgspec.structs.asdict(spin) | overrides
    if isinstance(overrides.get("filters"), Adding):
        merged["filters"] = tuple(dict.fromkeys((*spin.filters, *overrides["filters"])))
    try:
        return msgspec.convert(merged, Spin, strict=False)
    except msgspec.ValidationError as error:
        field = _field_of(str(error))
        if field is None:
            raise SpinError(f"{source}: {error}") from None
        raise SpinError(
            f"{source}: {_bad(field, merged.get(field))} is a bad value for {field}: it takes {allowed_values(field)}."
        ) from None


def _bad(field: str, value: Any) -> str:
    """The part of a value that is wrong, quoted: the filter names that are not filters, or the whole value."""
    if field == "filters" and isinstance(value, tuple | list):
        value = [name for name in value if name not in get_args(FilterName)] or value
    return f"'{_shown(value)}'"


def _field_of(message: str) -> str | None:
    # msgspec says where a value failed as "... - at `$.field`" or "`$.field[0]`".
    marker = "at `$."
    if marker not in message:
        return None
    rest = message.split(marker, 1)[1]
    name = rest.split("`", 1)[0].split("[", 1)[0]
    return name if name in SPIN_FIELDS else None


def parse_value(field: str, text: str) -> Any:
    """Read a `key=value` override typed at a command line or prompt into the value the field wants."""
    lowered = text.strip().lower()
    if field == "filters":
        if lowered in ("none", ""):
            return ()
        return tuple(part for part in (p.strip() for p in text.split(",")) if part)
    if field == "ellipsis":
        return "" if lowered == "none" else text.strip()
    if lowered in ("none", "null", "nobody"):
        return None
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text.strip()


def parse_spin_file(text: str, name: str, source: str) -> SpinFile:
    """Read and validate a spin file's text; a bad file raises SpinError naming `source` and the field."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SpinError(f"{source}: not valid TOML: {error}") from None
    summary = data.pop("summary", "")
    if not isinstance(summary, str):
        raise SpinError(f"{source}: 'summary' must be text")
    if isinstance(data.get("filters"), list):
        data["filters"] = Adding(data["filters"])  # a named spin's filters add to those in force
    apply(Spin(), data, source=source)  # validate now, so a bad file fails when read, not when used
    return SpinFile(name=name, summary=summary, overrides=data, source=source)


def describe(spin: Spin) -> str:
    """Every setting of a spin, one `key = value` a line, in the order they are documented."""
    lines = []
    for field in SPIN_FIELDS:
        value = getattr(spin, field)
        if isinstance(value, tuple):
            shown = ", ".join(value) or "none"
        elif value is None:
            shown = "none"
        elif isinstance(value, bool):
            shown = "on" if value else "off"
        else:
            shown = str(value) if value != "" else "none"
        lines.append(f"{field} = {shown}")
    return "\n".join(lines)
