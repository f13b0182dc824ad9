"""Each actor's concept: what it perceived of every item and event, kept as per-item histories.

"What did the robber know of the guard just after event 12?" is a binary search in the guard's history
within the robber's concept, never a copy of the world: memory grows with what changes, and a look-up
costs O(log n), so telling a story stays linear in its length.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

from server.engine.world.items import ROOT, Link
from server.engine.world.state import WorldState

BEFORE_ANY_EVENT = -1
"""The moment of the opening look: each actor knows what it sees before anything happens."""


@dataclass(frozen=True, slots=True)
class ItemView:
    """An item as an actor last perceived it: where it was and its features."""

    link: Link | None
    parent: str | None
    features: tuple[tuple[str, Any], ...]

    def feature(self, name: str, default: Any = None) -> Any:
        for key, value in self.features:
            if key == name:
                return value
        return default


def view_of(world: WorldState, tag: str) -> ItemView:
    place = world.place(tag)
    return ItemView(
        link=place.link if place else None,
        parent=place.parent if place else None,
        features=tuple(sorted(world.features[tag].items())),
    )


class Views:
    """Every item's view as it is now, made once a change and shared by each concept that perceives it: the five
    perceivers of a change in Lost One keep one `ItemView`, not five equal copies (which were 43 % of what a turn
    of history kept), and it is worked out once, not once a perceiver."""

    def __init__(self, world: WorldState) -> None:
        self.world = world
        self._current: dict[str, tuple[int, ItemView]] = {}
        """Per item, its stamp (`WorldState.stamps`: a new one for every change) and its view at that stamp."""

    def current(self, tag: str, stamp: int) -> ItemView:
        made = self._current.get(tag)
        if made is not None and made[0] == stamp:
            return made[1]
        view = view_of(self.world, tag)
        self._current[tag] = (stamp, view)
        return view


class Concept:
    """One actor's picture of the world and of the story: item histories and the events it perceived."""

    def __init__(self, actor: str) -> None:
        self.actor = actor
        self._moments: dict[str, list[int]] = {}
        self._views: dict[str, list[ItemView]] = {}
        self._stamps: dict[str, int] = {}
        self.events: list[int] = []

    def perceive(self, now: Views, tags: Iterable[str], moment: int) -> None:
        """Record the current state of `tags` (their views `now`) as perceived at `moment` (an event number)."""
        stamps = now.world.stamps
        for tag in tags:
            if tag == ROOT:
                continue
            stamp = stamps[tag]
            if self._stamps.get(tag) == stamp:
                continue  # unchanged since last perceived: nothing new to record
            self._stamps[tag] = stamp
            view = now.current(tag, stamp)
            views = self._views.get(tag)
            if views is None:
                self._views[tag] = [view]
                self._moments[tag] = [moment]
            elif views[-1] is not view and views[-1] != view:
                # Only changes are stored: a long story about an unchanging room costs nothing more.
                views.append(view)
                self._moments[tag].append(moment)

    def witness(self, event_id: int) -> None:
        self.events.append(event_id)

    def knows(self, tag: str, moment: int | None = None) -> bool:
        """Whether the actor had perceived `tag` by `moment` (default: now)."""
        if tag == ROOT:
            return True
        moments = self._moments.get(tag)
        if not moments:
            return False
        return moment is None or moments[0] <= moment

    def view(self, tag: str, moment: int | None = None) -> ItemView | None:
        """How the actor pictured `tag` just after `moment` (default: now); None if it did not know it."""
        moments = self._moments.get(tag)
        if not moments:
            return None
        if moment is None:
            return self._views[tag][-1]
        index = bisect_right(moments, moment) - 1
        return self._views[tag][index] if index >= 0 else None

    def known(self) -> Iterator[str]:
        return iter(self._views)

    def truncate(self, last_event: int) -> None:
        """Forget everything perceived after `last_event` (for undo)."""
        self._stamps.clear()
        for tag in list(self._moments):
            moments = self._moments[tag]
            keep = bisect_right(moments, last_event)
            if keep == 0:
                del self._moments[tag], self._views[tag]
            else:
                del moments[keep:], self._views[tag][keep:]
        keep_events = bisect_right(self.events, last_event)
        del self.events[keep_events:]


def export_concept(concept: Concept) -> dict[str, Any]:
    """A concept as plain data (snapshots), in lists of its own: a snapshot encodes it while the story goes on
    (what the lists hold never changes; the concept's own lists grow, and undo cuts them back)."""
    return {
        "actor": concept.actor,
        "moments": {tag: list(moments) for tag, moments in concept._moments.items()},
        "views": {tag: list(views) for tag, views in concept._views.items()},
        "events": list(concept.events),
    }


def load_concept(data: dict[str, Any], shared: dict[Any, ItemView] | None = None) -> Concept:
    """A concept rebuilt from `export_concept`'s data. Views equal to one in `shared` (filled by the concepts
    loaded before, from the same snapshot) are that one, so concepts restored share views as they did when made."""
    concept = Concept(data["actor"])
    concept._moments = {tag: list(moments) for tag, moments in data["moments"].items()}
    known = {} if shared is None else shared
    views = msgspec.convert(data["views"], dict[str, list[ItemView]])
    concept._views = {tag: [_shared_view(known, view) for view in kept] for tag, kept in views.items()}
    concept.events = list(data["events"])
    return concept


def _shared_view(shared: dict[Any, ItemView], view: ItemView) -> ItemView:
    """`view`, or the equal one already in `shared`, so perceivers restored share one view as when it was made."""
    try:
        return shared.setdefault((view.link, view.parent, view.features), view)
    except TypeError:  # a feature's value that cannot be hashed (a list): this view is kept as it is
        return view


def concept_children(concept: Concept, moment: int | None = None) -> dict[str, list[str]]:
    """The actor's item tree at `moment`: parent tag -> children tags, as the actor pictured them."""
    children: dict[str, list[str]] = {}
    for tag in concept.known():
        view = concept.view(tag, moment)
        if view is None or view.parent is None:
            continue
        parent = view.parent if view.parent == ROOT or concept.knows(view.parent, moment) else ROOT
        children.setdefault(parent, []).append(tag)
    return children
