"""What an author declares: the kinds of item (room, actor, thing, door, shared thing, substance) and their features."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from server.engine.errors import WorldError

if TYPE_CHECKING:
    from server.engine.actions.action import Action, Reason
    from server.engine.world.state import WorldState

Link = Literal["in", "on", "of", "part_of", "through"]
LINKS: tuple[Link, ...] = ("in", "on", "of", "part_of", "through")
Article = Literal["a", "an", "some", "the", ""]
Gender = Literal["female", "male", "neuter", "nonbinary", "unknown"]
Sense = Literal["sight", "touch", "hearing", "smell", "taste"]
SENSES: tuple[Sense, ...] = ("sight", "touch", "hearing", "smell", "taste")

TAG = re.compile(r"^@\w+$")
ROOT = "@cosmos"

# Qualities add the words a player would naturally use for such a thing, and let verbs test for them.
QUALITY_WORDS: Mapping[str, tuple[str, ...]] = {
    "clothing": ("clothing", "clothes", "garment"),
    "food": ("food",),
    "drink": ("drink",),
    "treasure": ("treasure",),
    "woman": ("woman", "lady", "person"),
    "man": ("man", "gentleman", "person"),
    "person": ("person",),
    "container": ("container",),
    "device": ("device", "machine"),
    "light": ("light",),
    "vessel": ("vessel", "container"),
}

Reaction = Callable[["Action", "WorldState"], "list[Action]"]
Prevention = Callable[["Action", "WorldState"], "str | Reason | None"]


@dataclass(frozen=True, kw_only=True)
class ProperName:
    """A proper name (as in curveship-js): "Ms. Ada Lovelace" at first, "Ms. Lovelace" after."""

    given: str = ""
    family: str = ""
    title: str = ""

    def initial(self) -> str:
        return " ".join(part for part in (self.title, self.given, self.family) if part)

    def subsequent(self) -> str:
        if self.title and self.family:
            return f"{self.title} {self.family}"
        return self.given or self.family or self.title


@dataclass(frozen=True, kw_only=True)
class Item:
    """Anything in a world. Subclasses set the kind; every field here is available to every kind.

    `where` places the item as "LINK @parent" ("in @lobby", "of @robber" for held, "on @robber" for worn,
    "part_of @wall" for fixtures). Features given here become the item's initial state; `features` adds any
    the world defines for itself (e.g. {"disturbed": 0}). `writing` is what reading it tells (a template);
    only what has writing (or whose reading the world answers) can be read.
    """

    kind: ClassVar[str] = "thing"

    tag: str
    called: str
    where: str = ""
    article: Article = "a"
    subsequent: str | None = None
    referring: str = ""
    qualities: tuple[str, ...] = ()
    gender: Gender = "neuter"
    plural: bool = False
    proper: ProperName | None = None
    prominence: float = 0.5
    mention: bool = True
    glow: float = 0.0
    accessible: bool = True
    open: bool | None = None
    locked: bool | None = None
    key: str | None = None
    transparent: bool = False
    on: bool | None = None
    lit: bool | None = None
    flame: bool = False
    consumable: bool = False
    holds: tuple[Link, ...] = ()
    sight: str = ""
    touch: str = ""
    hearing: str = ""
    smell: str = ""
    taste: str = ""
    writing: str = ""
    features: Mapping[str, Any] = field(default_factory=dict)
    prevent: Prevention | None = None
    react: Reaction | None = None

    def __post_init__(self) -> None:
        if not TAG.match(self.tag):
            raise WorldError(f"{self.tag!r}: an item tag is @ followed by letters, digits or _ (like @lobby)")
        if not 0.0 <= self.prominence <= 1.0:
            raise WorldError(f"{self.tag}: prominence must be between 0 and 1, not {self.prominence}")
        for quality in self.qualities:
            if quality not in QUALITY_WORDS:
                raise WorldError(f"{self.tag}: unknown quality {quality!r}; known: {', '.join(QUALITY_WORDS)}")

    def placement(self) -> tuple[Link, str]:
        """The (link, parent) that `where` declares."""
        if not self.where:
            raise WorldError(f"{self.tag}: needs a place, like where='in @lobby'")
        parts = self.where.split()
        if len(parts) != 2 or parts[0] not in LINKS or not TAG.match(parts[1]):
            raise WorldError(
                f"{self.tag}: where={self.where!r} should be a link ({', '.join(LINKS)}) and a tag, like 'in @lobby'"
            )
        return parts[0], parts[1]  # type: ignore[return-value]

    def initial_features(self) -> dict[str, Any]:
        """The item's state features at the start of the story: the standard ones that apply, then its own."""
        state: dict[str, Any] = {
            "prominence": self.prominence,
            "mention": self.mention,
            "glow": self.glow,
            "accessible": self.accessible,
            "transparent": self.transparent,
        }
        for name in ("open", "locked", "on", "lit"):
            value = getattr(self, name)
            if value is not None:
                state[name] = value
        if self.writing:
            state["writing"] = self.writing
        return state | dict(self.features)

    def words(self) -> frozenset[str]:
        """Every word a player may use for this item (name, subsequent name, referring words, qualities)."""
        text = " ".join([self.called, self.subsequent or "", self.referring.replace("|", " ")])
        if self.proper:
            text += " " + self.proper.initial()
        found = {word.lower() for word in re.findall(r"[\w'-]+", text)}
        for quality in self.qualities:
            found.update(QUALITY_WORDS[quality])
        return frozenset(found)

    def sense_text(self, sense: Sense) -> str:
        text: str = getattr(self, sense)
        return text


@dataclass(frozen=True, kw_only=True)
class Thing(Item):
    """An ordinary movable thing: a mask, a bag, a cloak."""

    kind: ClassVar[str] = "thing"


@dataclass(frozen=True, kw_only=True)
class Actor(Item):
    """Someone who acts: has a concept of the world, can be commanded or follow a script."""

    kind: ClassVar[str] = "actor"
    prominence: float = 1.0
    gender: Gender = "unknown"
    alive: bool = True
    awake: bool = True
    holds: tuple[Link, ...] = ("of", "on")

    def initial_features(self) -> dict[str, Any]:
        return super().initial_features() | {"alive": self.alive, "awake": self.awake}


@dataclass(frozen=True, kw_only=True)
class Room(Item):
    """A place. `exits` maps a direction to a room or door tag, or to a sentence saying why not;
    `views` maps a room seen from here to (visibility 0..1, the phrase locating things there); `heading` is
    its name as a heading, when that is not just its name capitalized ("Foyer of the Opera House")."""

    kind: ClassVar[str] = "room"
    heading: str = ""
    where: str = f"of {ROOT}"
    article: Article = "the"
    prominence: float = 1.0
    glow: float = 1.0
    holds: tuple[Link, ...] = ("in",)
    exits: Mapping[str, str] = field(default_factory=dict)
    views: Mapping[str, tuple[float, str]] = field(default_factory=dict)
    shared: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """The room as a heading names it: its `heading`, else its name capitalized."""
        return self.heading or self.called[:1].upper() + self.called[1:]

    def __post_init__(self) -> None:
        super().__post_init__()
        for room, (visibility, _phrase) in self.views.items():
            if not 0.0 <= visibility <= 1.0:
                raise WorldError(f"{self.tag}: the view onto {room} must have a visibility between 0 and 1")


@dataclass(frozen=True, kw_only=True)
class Door(Item):
    """A door between two rooms; it stands in the first (unless `where` says otherwise), and an actor passes
    `through` it."""

    kind: ClassVar[str] = "door"
    connects: tuple[str, str] = ("", "")
    open: bool | None = False
    holds: tuple[Link, ...] = ("through",)

    def __post_init__(self) -> None:
        super().__post_init__()
        if len(self.connects) != 2 or not all(TAG.match(room) for room in self.connects):
            raise WorldError(f"{self.tag}: a door connects two rooms, like connects=('@hall', '@study')")

    def placement(self) -> tuple[Link, str]:
        if not self.where:
            return "in", self.connects[0]
        return super().placement()


@dataclass(frozen=True, kw_only=True)
class SharedThing(Item):
    """One thing present in several rooms at once, like the sky; it cannot be reached."""

    kind: ClassVar[str] = "shared"
    where: str = f"of {ROOT}"
    accessible: bool = False


@dataclass(frozen=True, kw_only=True)
class Substance(Item):
    """A stuff like water: amounts of it sit in sources and vessels and vanish when poured out."""

    kind: ClassVar[str] = "substance"
    where: str = f"of {ROOT}"
    article: Article = "some"
    mention: bool = False
