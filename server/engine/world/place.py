"""Where an item is: the record the world's state keeps of each item's place, and snapshots decode."""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.world.items import Link


@dataclass(frozen=True, slots=True)
class Place:
    """Where an item is: its link to its parent."""

    link: Link
    parent: str
