"""A story captured whole as bytes, and a story resumed from them: what keeps persistent worlds quick to restore."""

from __future__ import annotations

from typing import Any

import msgspec

from server.engine.errors import EngineError
from server.engine.story import Story
from server.engine.world.definition import WorldDefinition

FORMAT = 1
"""Bumped whenever what a snapshot holds changes; an older snapshot is then not used (the log is replayed)."""


class SnapshotError(EngineError):
    """A snapshot that cannot be used: another format, another world, or damaged."""


def capture(story: Story) -> bytes:
    """The story as bytes (MessagePack): its world, events, concepts, log, undo marks, saves and spin."""
    return msgspec.msgpack.encode({"format": FORMAT, "world": story.definition.name, "story": story.export()})


def resume(definition: WorldDefinition, blob: bytes) -> Story:
    """A story rebuilt from `capture`'s bytes, exactly as it was: same turn, state, tellings and undo."""
    try:
        data: dict[str, Any] = msgspec.msgpack.decode(blob)
    except msgspec.DecodeError as error:
        raise SnapshotError(f"damaged snapshot: {error}") from None
    if data.get("format") != FORMAT:
        raise SnapshotError(f"snapshot format {data.get('format')!r}, not {FORMAT}")
    if data.get("world") != definition.name:
        raise SnapshotError(f"a snapshot of {data.get('world')!r}, not {definition.name!r}")
    story = Story(definition, seed=data["story"]["seed"])
    try:
        story.load(data["story"])
    except (KeyError, TypeError, ValueError, msgspec.ValidationError) as error:
        raise SnapshotError(f"damaged snapshot: {error!r}") from None
    return story
