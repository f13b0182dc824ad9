"""The world as it is now: the item tree (who is where, by which link) and every item's features."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from typing import Any

import msgspec

from server.engine.errors import UnknownName, WorldError
from server.engine.world.items import ROOT, Door, Item, Link, Room, SharedThing
from server.engine.world.place import Place

OPTICAL = frozenset({"glow", "lit", "on", "open", "transparent", "prominence"})
"""Features that light, sight or compartments depend on."""

MOVES_KEPT = 64
"""How many moves in a row `moved_since` can list; after that, its answer is None, as after an optical change."""


class WorldState:
    """The true, current world. Changed only through `move` and `set`, so every change is accounted for."""

    def __init__(self, items: Mapping[str, Item]) -> None:
        self.items = items
        self.places: dict[str, Place] = {}
        self.features: dict[str, dict[str, Any]] = {}
        self.children: dict[str, list[str]] = {tag: [] for tag in items}
        self.children[ROOT] = []
        self._order: dict[str, int] = {}
        for position, (tag, item) in enumerate(items.items()):
            self._order[tag] = position
            self.features[tag] = item.initial_features()
            if tag == ROOT:
                continue
            link, parent = item.placement()
            if parent not in items and parent != ROOT:
                raise WorldError(f"{tag}: placed {link} {parent}, which is not an item of this world")
            self.places[tag] = Place(link, parent)
        for tag in items:
            if tag in self.places:
                self.children[self.places[tag].parent].append(tag)
        for tag in items:
            self._check_acyclic(tag)
        self._shared = self._index_shared()
        self.journal: list[tuple[str, str, Any]] = []
        """Every change, with what it replaced, so the world can be rolled back a turn at a time (undo)."""
        self.version = 0
        """Counts changes to what light and sight depend on (places, and OPTICAL features), so perception
        can cache light and compartments until one of those changes."""
        self._optics = 0
        """The version at the last change that may alter sight anywhere (an OPTICAL feature, a load)."""
        self._moved: list[str] = []
        """The items moved since then, one a version: what `moved_since` answers."""
        self.stamps: dict[str, int] = dict.fromkeys(items, 0)
        """Per item, the number of the last change to it, so a concept can skip re-reading what did not change."""
        self._clock = 0
        self._digested: dict[str, tuple[int, bytes]] = {}
        """Per item, its stamp and its part of `digest` at that stamp."""

    def _index_shared(self) -> dict[str, tuple[str, ...]]:
        shared: dict[str, list[str]] = {tag: [] for tag in self.items if isinstance(self.items[tag], Room)}
        for tag, item in self.items.items():
            if isinstance(item, Room):
                for other in item.shared:
                    if other not in self.items:
                        raise WorldError(f"{tag}: shares {other}, which is not an item of this world")
                    shared[tag].append(other)
            elif isinstance(item, Door):
                for room in item.connects:
                    if room not in shared:
                        raise WorldError(f"{tag}: connects {room}, which is not a room of this world")
                    if self.places[tag].parent != room:
                        shared[room].append(tag)
        return {room: tuple(tags) for room, tags in shared.items()}

    def _check_acyclic(self, tag: str) -> None:
        seen = {tag}
        current = tag
        while current in self.places:
            current = self.places[current].parent
            if current in seen:
                raise WorldError(f"{tag}: its place leads back to itself")
            seen.add(current)

    # -- reading ------------------------------------------------------------------------------------

    def item(self, tag: str) -> Item:
        try:
            return self.items[tag]
        except KeyError:
            raise UnknownName(f"no item {tag} in this world") from None

    def place(self, tag: str) -> Place | None:
        return self.places.get(tag)

    def parent(self, tag: str) -> str | None:
        place = self.places.get(tag)
        return place.parent if place else None

    def link(self, tag: str) -> Link | None:
        place = self.places.get(tag)
        return place.link if place else None

    def get(self, tag: str, feature: str, default: Any = None) -> Any:
        return self.features[tag].get(feature, default)

    def ancestors(self, tag: str) -> Iterator[str]:
        """The parent, its parent, and so on up to @cosmos."""
        current = self.parent(tag)
        while current is not None:
            yield current
            current = self.parent(current)

    def descendants(self, tag: str) -> Iterator[str]:
        """Every item below `tag`, depth first, in declaration order."""
        for child in self.children[tag]:
            yield child
            yield from self.descendants(child)

    def is_descendant(self, tag: str, of: str) -> bool:
        # (walked here, not `of in self.ancestors(tag)`: compiled, a generator has no `in`; server/compiled.py)
        current = self.parent(tag)
        while current is not None:
            if current == of:
                return True
            current = self.parent(current)
        return False

    def room_of(self, tag: str) -> str | None:
        """The room an item is in (a room is in itself); None for @cosmos and things outside any room."""
        if isinstance(self.items.get(tag), Room):
            return tag
        for ancestor in self.ancestors(tag):
            if isinstance(self.items[ancestor], Room):
                return ancestor
        return None

    def rooms(self) -> list[str]:
        return [tag for tag, item in self.items.items() if isinstance(item, Room)]

    def actors(self) -> list[str]:
        return [tag for tag, item in self.items.items() if item.kind == "actor"]

    def moved_since(self, version: int) -> list[str] | None:
        """The items moved (each a change of place) since `version`, when nothing else that sight depends on
        changed since; None when something did, or too long ago to say."""
        if version < self._optics or version > self.version:
            return None
        return self._moved[version - self._optics :]

    def shared_in(self, room: str) -> tuple[str, ...]:
        """Shared things (sky, sun) present in a room, and doors that open onto it."""
        return self._shared.get(room, ())

    def is_shared(self, tag: str) -> bool:
        return isinstance(self.items[tag], SharedThing)

    # -- changing -----------------------------------------------------------------------------------

    def move(self, tag: str, link: Link, parent: str) -> None:
        """Put `tag` at (link, parent): the one way an item changes place."""
        old = self.places[tag]
        self.journal.append(("place", tag, old))
        self._place(tag, Place(link, parent))

    def _place(self, tag: str, place: Place) -> None:
        old = self.places[tag]
        self.children[old.parent].remove(tag)
        self.places[tag] = place
        parent = place.parent
        siblings = self.children[parent]
        # Keep children in declaration order so listings read the same however things moved.
        position = self._order[tag]
        index = 0
        while index < len(siblings) and self._order[siblings[index]] < position:
            index += 1
        siblings.insert(index, tag)
        self.version += 1
        if len(self._moved) < MOVES_KEPT:
            self._moved.append(tag)
        else:
            self._optical()
        self._touch(tag)

    def _optical(self) -> None:
        self._optics = self.version
        self._moved = []

    def _touch(self, tag: str) -> None:
        self._clock += 1
        self.stamps[tag] = self._clock

    def set(self, tag: str, feature: str, value: Any) -> None:
        """Set one feature of one item: the one way an item changes state."""
        features = self.features[tag]
        self.journal.append(("feature", tag, (feature, feature in features, features.get(feature))))
        features[feature] = value
        self._changed(tag, feature)

    def _changed(self, tag: str, feature: str) -> None:
        if feature in OPTICAL:
            self.version += 1
            self._optical()
        self._touch(tag)

    def rollback(self, to: int) -> None:
        """Undo every change after the first `to` entries of the journal, newest first."""
        while len(self.journal) > to:
            kind, tag, old = self.journal.pop()
            if kind == "place":
                self._place(tag, old)
            else:
                feature, existed, value = old
                if existed:
                    self.features[tag][feature] = value
                else:
                    self.features[tag].pop(feature, None)
                self._changed(tag, feature)

    # -- whole-world operations ---------------------------------------------------------------------

    # -- as plain data (snapshots) ------------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """Everything that changes, for msgspec to encode as it is: places, features and the undo journal."""
        return {"places": self.places, "features": self.features, "journal": self.journal}

    def load(self, data: dict[str, Any]) -> None:
        """Put back what `export` gave (for this world's items)."""
        self.places = msgspec.convert(data["places"], dict[str, Place])
        self.features = {tag: dict(values) for tag, values in data["features"].items()}
        # A journal entry's old value is a Place or a feature's (name, had it, value): its kind says which.
        self.journal = [
            (kind, tag, msgspec.convert(old, Place) if kind == "place" else tuple(old))
            for kind, tag, old in data["journal"]
        ]
        self.children = {tag: [] for tag in self.items}
        for tag in self.items:  # in declaration order, as `move` keeps them
            if tag in self.places:
                self.children[self.places[tag].parent].append(tag)
        for tag in self.items:
            self._touch(tag)
        self.version += 1
        self._optical()

    def digest(self) -> str:
        """A hash that changes exactly when the world's state (places or features) changes. It is stored with
        every change, so each item's part is written out again only when its stamp says the item changed."""
        parts = []
        for tag in self.items:
            stamp = self.stamps[tag]
            kept = self._digested.get(tag)
            if kept is None or kept[0] != stamp:
                kept = self._digested[tag] = (stamp, self._digest_part(tag))
            parts.append(kept[1])
        return hashlib.blake2b(b"".join(parts), digest_size=12).hexdigest()

    def _digest_part(self, tag: str) -> bytes:
        place = self.places.get(tag)
        features = "".join(f"{name}={value!r};" for name, value in sorted(self.features[tag].items()))
        return f"{tag}|{place.link if place else ''}|{place.parent if place else ''}|{features}".encode()
