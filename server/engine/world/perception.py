"""What an actor can see and reach: compartments, light, visibility across views, and reach."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from server.engine.world.items import ROOT, Room
from server.engine.world.state import WorldState

VISIBLE_AT = 0.2
"""An actor sees an item when prominence × view × light reaches this."""

Limit = Literal["dark", "view", "prominence", "enclosed", "elsewhere"]


@dataclass(frozen=True, slots=True)
class Sight:
    """How well an actor sees an item, and, when not well enough, the weakest factor."""

    score: float
    limit: Limit | None

    def __init__(self, score: float, limit: Limit | None) -> None:  # written out, to be compiled (server/compiled.py)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "limit", limit)

    @property
    def seen(self) -> bool:
        return self.score >= VISIBLE_AT


CLEAR = Sight(1.0, None)


class Perception:
    """Answers sight and reach questions about one world. Light, compartments and sight are cached until the
    next change to what they depend on (a place, or an optical feature: `WorldState.version`). Sight is kept
    per compartment, not per actor: everyone in one room (or closed box) sees the same, so the many perceivers
    of a tick, and the tellings after it, ask each question once. A move of something that gives no light (a
    person walking on, with what they carry) forgets only the answers about it and from inside it."""

    def __init__(self, world: WorldState) -> None:
        self.world = world
        self._version = -1
        self._light: dict[str, float] = {}
        self._compartment: dict[str, str] = {}
        self._sight: dict[str, dict[str, Sight]] = {}
        """From each compartment, how well each item is seen."""
        self._visible: dict[str, list[str]] = {}

    def _fresh(self) -> None:
        world = self.world
        if self._version == world.version:
            return
        moved = world.moved_since(self._version)
        self._version = world.version
        self._visible.clear()
        if moved is None or not self._forget_moved(moved):
            self._light.clear()
            self._compartment.clear()
            self._sight.clear()

    def _forget_moved(self, moved: list[str]) -> bool:
        """Forget what the moves of `moved` (and what each holds) may have changed, if none of them gives light
        (or takes it: the cloak), so that every compartment's light stands; False, forgetting nothing, if one does.
        What else is seen from elsewhere does not depend on where they are: its compartment, light, and the views
        from a compartment not among them are as they were."""
        world = self.world
        affected = set(moved)
        for tag in moved:
            affected.update(world.descendants(tag))
        if any(self.glow(tag) for tag in affected):
            return False
        sight = self._sight
        for tag in affected:
            self._compartment.pop(tag, None)
            sight.pop(tag, None)
        for seen in sight.values():
            for tag in affected:
                seen.pop(tag, None)
        return True

    def encloses(self, tag: str) -> bool:
        """A closed, opaque container bounds sight, light and reach."""
        world = self.world
        return world.get(tag, "open") is False and not world.get(tag, "transparent", False)

    def compartment(self, tag: str) -> str:
        """The room, or closed opaque container, whose light and air an item shares."""
        self._fresh()
        cached = self._compartment.get(tag)
        if cached is not None:
            return cached
        world = self.world
        found = ROOT
        current = tag
        while (place := world.place(current)) is not None:
            parent = place.parent
            if isinstance(world.items[parent], Room):
                found = parent
                break
            if place.link == "in" and self.encloses(parent):
                found = parent
                break
            current = parent
        if isinstance(world.items.get(tag), Room):
            found = tag
        self._compartment[tag] = found
        return found

    def light(self, compartment: str) -> float:
        """The glow of a compartment and of everything in it, clamped to 0..1 (the cloak's glow is negative)."""
        self._fresh()
        cached = self._light.get(compartment)
        if cached is not None:
            return cached
        world = self.world
        total = self.glow(compartment)
        stack = list(world.children[compartment])
        while stack:
            tag = stack.pop()
            total += self.glow(tag)
            if not self.encloses(tag):
                stack.extend(world.children[tag])
        value = min(1.0, max(0.0, total))
        self._light[compartment] = value
        return value

    def glow(self, tag: str) -> float:
        """An item's own light: its glow, but only while it is lit or switched on if it can be."""
        world = self.world
        if world.get(tag, "lit") is False or world.get(tag, "on") is False:
            return 0.0
        return float(world.get(tag, "glow", 0.0) or 0.0)

    def sight(self, actor: str, item: str) -> Sight:
        """How well `actor` sees `item` now."""
        if item in (actor, ROOT):
            return CLEAR
        here = self.compartment(actor)  # (which freshens the caches)
        return self._sight_of(here, item)

    def _sight_of(self, here: str, item: str) -> Sight:
        seen = self._sight.get(here)
        if seen is None:
            seen = self._sight[here] = {}
        found = seen.get(item)
        if found is None:
            found = seen[item] = self._sight_from(here, item)
        return found

    def _sight_from(self, here: str, item: str) -> Sight:
        """How well anyone in the compartment `here` sees `item` (not itself)."""
        world = self.world
        there = self.compartment(item)
        prominence = float(world.get(item, "prominence", 0.5))
        if item == here:
            # The room or container one is in is always known, even in the dark.
            return CLEAR
        if there == here or item in world.shared_in(here):
            view = 1.0
            light = self.light(here)
        elif isinstance(world.items[here], Room) and isinstance(world.items[there], Room):
            if item == there:
                prominence = 1.0
            seen_room = world.items[here]
            assert isinstance(seen_room, Room)
            view_of = seen_room.views.get(there)
            if view_of is None:
                return Sight(0.0, "elsewhere")
            view = view_of[0]
            light = self.light(there)
        elif item == there or world.is_descendant(here, there):
            return Sight(0.0, "elsewhere")
        else:
            # (One's room is the room of one's compartment: a closed box is in the room one is in.)
            return Sight(0.0, "enclosed" if world.room_of(item) == world.room_of(here) else "elsewhere")
        score = prominence * view * light
        if score >= VISIBLE_AT:
            return Sight(score, None)
        weakest = min((light, "dark"), (view, "view"), (prominence, "prominence"))
        return Sight(score, weakest[1])  # type: ignore[arg-type]

    def sees(self, actor: str, item: str) -> bool:
        # `sight(actor, item).seen`, asked some hundred times a tick: the cached answer is looked up here.
        if item in (actor, ROOT):
            return True
        if self._version != self.world.version:
            self._fresh()
        here = self._compartment.get(actor) or self.compartment(actor)
        seen = self._sight.get(here)
        found = seen.get(item) if seen is not None else None
        if found is None:
            found = self._sight_of(here, item)
        return found.score >= VISIBLE_AT

    def seen_from(self, here: str, tags: Iterable[str]) -> set[str]:
        """Of `tags`, those anyone in the compartment `here` sees (as `sees` answers for each of them, but for
        an actor's seeing itself): what one event shows everyone in one room, worked out once for all of them."""
        self._fresh()
        return {tag for tag in tags if tag == ROOT or self._sight_of(here, tag).score >= VISIBLE_AT}

    def can_reach(self, actor: str, item: str) -> bool:
        """Whether `actor` can touch `item`: in the same compartment, or the container it is in, or a door."""
        world = self.world
        if item == actor:
            return True
        if not world.get(item, "accessible", True):
            return False
        here = self.compartment(actor)
        if item == here:
            return True
        if item in world.shared_in(world.room_of(actor) or ROOT):
            return True
        return self.compartment(item) == here and not isinstance(world.items[item], Room)

    def visible_items(self, actor: str) -> list[str]:
        """Everything `actor` sees now, nearest first: its compartment, then rooms in view."""
        here = self.compartment(actor)
        found = self._visible.get(here)
        if found is None:
            found = self._visible[here] = self._visible_from(here)
        return [tag for tag in found if tag != actor]

    def _visible_from(self, here: str) -> list[str]:
        """Everything seen from the compartment `here`, nearest first (anyone in it among them)."""
        world = self.world
        found: list[str] = [here]
        seen = {here}
        candidates = list(world.descendants(here)) + list(world.shared_in(here))
        room = world.items[here]
        if isinstance(room, Room):
            for other in room.views:
                candidates.append(other)
                candidates.extend(world.descendants(other))
        for tag in candidates:
            if tag not in seen and (tag == ROOT or self._seen_from(here, tag)):
                found.append(tag)
                seen.add(tag)
        return found

    def _seen_from(self, here: str, item: str) -> bool:
        return self._sight_of(here, item).score >= VISIBLE_AT
