"""The spin, as the contract defines it: every parameter of a telling, its allowed values and defaults, and
the one reading of spin words ("hesitant surprise time=after") that every client and the server share."""

from __future__ import annotations

from collections.abc import Sequence
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

import msgspec
from msgspec import Meta

ActorTag = Annotated[str, Meta(pattern=r"^@\w+$")]
PersonTag = Annotated[str, Meta(pattern=r"^(@\w+|focalizer)$")]
"""A narrator or narratee: an actor's tag, or the role `focalizer`, whoever the story is told through."""
Fraction = Annotated[float, Meta(ge=0.0, le=1.0)]
EventTime = Annotated[float, Meta(gt=-1e15, lt=1e15)]
"""A time of narrating between events (before the first, -0.5, is a prophecy): any finite number, so `nan`
and `inf` are refused wherever they are typed (over JSON they would arrive as null; typed at the prompt they
would reach the narrator)."""

TimeOfNarrating = Literal["before", "during", "after"]
Order = Literal["chronicle", "retrograde", "achrony", "analepsis", "syllepsis"]
GroupBy = Literal["place", "agent"]
Frequency = Literal["singulative", "iterative"]
WindowName = Literal["all", "turn"]
FilterName = Literal["hesitant", "valley_girl", "surprise", "hedges", "double_entry"]
EventRanges = Annotated[str, Meta(pattern=r"^\s*(\d+(\s*-\s*\d+)?\s*(;\s*\d+(\s*-\s*\d+)?\s*)*)?$")]

SPIN_SUMMARY = "How a story is told: time of narrating, order, narrator and narratee, focalizer, speed and filters."


class SpinError(ValueError):
    """A spin file, setting or spin word is invalid; the message names the source, the field and what it allows."""


class Spin(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How a story is told. Each field's description names the narrator stage (or the story) that reads it.

    Frozen, so a spin can be shared between sessions and stages; keyword-only, so a spin reads as a list of
    settings; unknown fields are refused, so a typo in a spin file is an error, not a no-op. Examples are from
    the bank robbery (`curveship tell robbery key=value`)."""

    focalizer: Annotated[
        ActorTag | None,
        Meta(
            description="Whose concept is told (stage: select). None: the commanded actor, else the world's "
            'default actor. @robber: "Something sees the twitchy man." @guard: "The burly guard sees the '
            'twitchy man."'
        ),
    ] = None
    commanded: Annotated[
        ActorTag | None,
        Meta(
            description="Who receives the player's commands (read by the story, not the narrator). None: "
            "nobody; the world runs by itself."
        ),
    ] = None
    narrator: Annotated[
        PersonTag | None,
        Meta(
            description='Told in the first person by this actor (stage: realize). @guard: "I shoot the twitchy '
            'man." focalizer: by whoever the story is told through, telling their own story (the memoir spin).'
        ),
    ] = None
    narratee: Annotated[
        PersonTag | None,
        Meta(
            description='Addressed in the second person (stage: realize). @robber: "You put on a Dora the '
            'Explorer mask." focalizer: whoever the story is told through is addressed, as interactive fiction '
            "usually is."
        ),
    ] = None
    time: Annotated[
        TimeOfNarrating | EventTime,
        Meta(
            description='Time of narrating (stage: tense). during: present, "The teller laughs."; after: past, '
            '"The teller laughed."; before: future, prophecy, "The teller will laugh."; a number between two '
            "event numbers, e.g. 6.5: events up to 6 are past, later ones future."
        ),
    ] = "during"
    order: Annotated[
        Order,
        Meta(
            description="Order of telling (stage: order). chronicle: as it happened. retrograde: last first. "
            "achrony: a seeded random order. analepsis: starts in the middle, then a flashback in the "
            "pluperfect, then back to the main line. syllepsis: grouped, by group_by."
        ),
    ] = "chronicle"
    group_by: Annotated[
        GroupBy,
        Meta(description="What syllepsis groups events by (stage: order): the place they happened or their agent."),
    ] = "place"
    speed: Annotated[
        Fraction,
        Meta(
            description="How fast the telling moves (stages: select, compose): at 0.5 and below every event of "
            "salience 0.2 or more is told, with descriptions; faster spins skip less salient events (at 1.0 only "
            "those above 0.75) and, from 0.75, the descriptions that come with arriving. What the commanded actor "
            "does on command is told at any speed."
        ),
    ] = 0.5
    frequency: Annotated[
        Frequency,
        Meta(
            description="singulative: each event told once. iterative: a run of identical events told once, "
            '"The burly guard shoots the twitchy man in the chest twice." (stage: frequency).'
        ),
    ] = "singulative"
    window: Annotated[
        WindowName | Annotated[int, Meta(ge=1)],
        Meta(
            description="What part of the known story is told (stage: select): all, the last turn, or the last N turns."
        ),
    ] = "all"
    progressive: Annotated[
        bool,
        Meta(
            description='Progressive aspect for every event (stage: tense): "The teller is laughing." '
            "Stative verbs stay simple."
        ),
    ] = False
    perfect: Annotated[
        bool,
        Meta(
            description='Perfect aspect, reference time just after each event (stage: tense): "The teller has laughed."'
        ),
    ] = False
    time_words: Annotated[
        bool,
        Meta(
            description="Relate each event to the one told before it (stage: time words): then, meanwhile, "
            "before that, earlier, later."
        ),
    ] = False
    room_headings: Annotated[
        bool, Meta(description="A heading with the room's name when a room is looked at (stage: compose).")
    ] = True
    known_directions: Annotated[
        bool,
        Meta(
            description="Name each room one step away that the focalizer knows, once, when describing a room "
            '(stage: compose): "The cloakroom is to the west."'
        ),
    ] = False
    dynamic: Annotated[
        bool,
        Meta(description="Whether the world's dynamic-spin hook may change the spin during play (read by the story)."),
    ] = True
    filters: Annotated[
        tuple[FilterName, ...],
        Meta(
            description="Named text filters, applied in order (stages: template, sentence and paragraph "
            "filters): hesitant (uh, um, er), valley_girl (like, totally), surprise (whoa!), hedges (it seemed "
            "that…), double_entry (a phrase after each object). A named spin's filters add to those in force."
        ),
    ] = ()
    ellipsis: Annotated[
        EventRanges, Meta(description='Event numbers left untold, as ranges: "0;2;4-9" (stage: select).')
    ] = ""
    event_numbers: Annotated[
        bool,
        Meta(
            description="Prefix each told event with its number, for authors (stage: paragraphs): "
            '"[3] The teller laughs."'
        ),
    ] = False


SPIN_FIELDS: tuple[str, ...] = Spin.__struct_fields__

SpinSettings = dict[str, Any]
"""Spin fields to set, by name (see the Spin schema); validated by the server, which names a bad field."""

SpinPart = str | SpinSettings
"""One part of a spin argument: the name of a spin (an author may give the path of a spin file), or settings."""


def description(field: str) -> str:
    """A field's description, as the discovery document gives it."""
    return str(_HINTS[field].__metadata__[-1].description)


def allowed_values(field: str) -> str:
    """What a spin field accepts, in English, to follow "it takes" or "VALUE is": "chronicle, retrograde,
    achrony, analepsis, or syllepsis"; "a number from 0 to 1"; "an actor tag like @guard, or none"."""
    return _join(_alternatives(_HINTS[field]), "or")


_HINTS = get_type_hints(Spin, include_extras=True)

_PATTERNS = {
    get_args(ActorTag)[1].pattern: ["an actor tag like @guard"],
    get_args(PersonTag)[1].pattern: ["an actor tag like @guard", "focalizer"],
    get_args(EventRanges)[1].pattern: ["event ranges like 0;2;4-9 (or none)"],
}


def _join(words: list[str], conjunction: str = "and") -> str:
    # The engine's English has a richer join; the contract needs only the serial-comma list.
    if len(words) <= 2:
        return f" {conjunction} ".join(words)
    return f"{', '.join(words[:-1])}, {conjunction} {words[-1]}"


def _alternatives(hint: Any) -> list[str]:
    """The kinds of value a type hint allows, each in a few words, none last."""
    origin, args = get_origin(hint), get_args(hint)
    if origin is Annotated:
        meta = args[1]
        if meta.pattern is None and meta.ge is None:
            return _alternatives(args[0])  # only a description
        if args[0] is str:
            return _PATTERNS[meta.pattern]
        if args[0] is float and meta.le is None and meta.ge is None:
            return ["an event number such as 6.5"]
        if args[0] is float:
            return [f"a number from {meta.ge:g} to {meta.le:g}"]
        return [f"a whole number of at least {meta.ge}"]
    if origin in (Union, UnionType):
        kinds = [kind for arg in args if arg is not type(None) for kind in _alternatives(arg)]
        return kinds + (["none"] if type(None) in args else [])
    if origin is Literal:
        return [str(value) for value in args]
    if origin is tuple:
        return [f"names from {_join(_alternatives(args[0]))}, separated by commas (or none)"]
    if hint is bool:
        return ["true", "false"]
    if hint is float:
        return ["an event number such as 6.5"]
    return [getattr(hint, "__name__", str(hint))]


def shown(value: Any) -> str:
    """A value as it would be typed: "nosuch", "hesitant, shouty", "none", "on"."""
    if value is None or value == "":
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple | list):
        return ", ".join(map(shown, value)) or "none"
    return str(value)


class Adding(tuple[str, ...]):
    """Filters to add to those in force rather than replace them: what a named spin's `filters` becomes, so
    that named spins add up (`hesitant surprise` is both), while a `filters=` setting still says the whole list."""


def apply(spin: Spin, overrides: SpinSettings, source: str = "spin") -> Spin:
    """Return `spin` with `overrides` applied, validated; errors name the source, the field, the bad value and
    what the field takes, in English (the source first, unless it is ""). Filters given as `Adding` join those
    in force, each once, in order."""
    where = f"{source}: " if source else ""
    unknown = sorted(set(overrides) - set(SPIN_FIELDS))
    if unknown:
        raise SpinError(f"{where}unknown spin field {unknown[0]!r}; fields are {', '.join(SPIN_FIELDS)}")
    merged = msgspec.structs.asdict(spin) | overrides
    if isinstance(overrides.get("filters"), Adding):
        merged["filters"] = tuple(dict.fromkeys((*spin.filters, *overrides["filters"])))
    try:
        return msgspec.convert(merged, Spin, strict=False)
    except msgspec.ValidationError as error:
        field = _field_of(str(error))
        if field is None:
            raise SpinError(f"{where}{error}") from None
        raise SpinError(
            f"{where}{_bad(field, merged.get(field))} is a bad value for {field}: it takes {allowed_values(field)}."
        ) from None


def _bad(field: str, value: Any) -> str:
    """The part of a value that is wrong, quoted: the filter names that are not filters, or the whole value."""
    if field == "filters" and isinstance(value, tuple | list):
        value = [name for name in value if name not in get_args(FilterName)] or value
    return f"'{shown(value)}'"


def _field_of(message: str) -> str | None:
    # msgspec says where a value failed as "... - at `$.field`" or "`$.field[0]`".
    marker = "at `$."
    if marker not in message:
        return None
    rest = message.split(marker, 1)[1]
    name = rest.split("`", 1)[0].split("[", 1)[0]
    return name if name in SPIN_FIELDS else None


def parse_value(field: str, text: str) -> Any:
    """Read a value typed at a command line or prompt (`after`, `on`, `6.5`, `hesitant,surprise`) into the
    value the field wants."""
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


def spin_argument(words: Sequence[str]) -> list[SpinPart]:
    """The one reading of spin words, as typed anywhere (`curveship tell`, `play`, the `spin` directive, the
    terminal's `:spin`): `key=value` or a field's name and then its value is a setting, neighbouring settings
    join into one object, and any other word names a spin. Applied in order, later parts win, and named
    spins' filters add up. A field with no value is an error that shows how to give one."""
    parts: list[SpinPart] = []
    queue = list(words)
    while queue:
        word = queue.pop(0)
        if "=" in word:
            key, _, value = word.partition("=")
        elif word.lower() in SPIN_FIELDS:
            if not queue:
                raise SpinError(f"{word.lower()} needs a value, as in `{word.lower()} {example(word.lower())}`.")
            key, value = word, queue.pop(0)
        else:
            parts.append(word)
            continue
        key = key.strip().lower()
        if key not in SPIN_FIELDS:
            raise SpinError(f"There is no spin setting {key}. The settings are {', '.join(SPIN_FIELDS)}.")
        if parts and isinstance(parts[-1], dict):
            parts[-1][key] = parse_value(key, value)
        else:
            parts.append({key: parse_value(key, value)})
    return parts


def example(field: str) -> str:
    """A value the field takes, to show in a hint: `after`, `@guard`, `on`, `0.75`."""
    hint = allowed_values(field)
    first = hint.split(", ")[0].split(" or ")[0]
    if first.startswith("an actor tag"):
        return "@guard"
    if first.startswith("a number"):
        return "0.75"
    if first.startswith("names from"):
        return "hesitant,surprise"
    if first.startswith("a whole number"):
        return "3"
    if first.startswith("event ranges"):
        return "0;2;4-9"
    return "on" if first == "true" else first


def describe(spin: Spin, fields: Sequence[str] = SPIN_FIELDS) -> str:
    """A spin's settings (every one, or `fields`), one `key = value` a line, in the order given: how the `spin`
    directive and the terminal's `:spin` show a spin."""
    return "\n".join(f"{field} = {shown(getattr(spin, field))}" for field in fields)
