"""A story captured whole as bytes, and a story resumed from them: what keeps persistent worlds quick to restore.

The bytes are a checksum (BLAKE2b, 16 bytes) of what follows, then MessagePack compressed with zlib (a
story's MessagePack is mostly the same keys and tags again: a fourteenth of the bytes to write, for a few
milliseconds of a thread). A snapshot that fails its checksum, decodes to something else, or does not load
is refused with SnapshotError, so a damaged one is never half used: whoever stored it replays the story's log
instead.

Capturing and resuming build or read millions of small objects in one go; Python's cyclic collector would
walk the growing heap again and again meanwhile (more than half the time, for a story of 10,000 turns), and
none of it is garbage, so it is paused while they run.

A story is captured in pieces (`capturing`): what can still change is taken in the first step, while the
caller holds the story still: the world, the log and undo encoded; each concept's lists copied, not encoded
(what they hold never changes; the lists grow and are cut back), since the concepts are most of what changes
and a long story's take the longest to encode. Then the concepts, one a step, and the events, never changed
once they happen, a piece at a time, are encoded while the story goes on. `sealed` compresses and checksums
what they made; it lets go of the interpreter's lock while it works, so a server runs it in a thread.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import zlib
from collections.abc import Generator, Iterator
from typing import Any

import msgspec

from server.engine.actions.records import event_data
from server.engine.errors import SnapshotError
from server.engine.narrator.pieces import drained
from server.engine.story import Story
from server.engine.world.definition import WorldDefinition

FORMAT = 5
"""Bumped whenever what a snapshot holds changes; an older snapshot is then not used (the log is replayed).
2: checksummed; 3: the engine's values encoded by msgspec from their own types (fields by name), not as lists;
4: the simulation and its events beside the story, not inside it (they are encoded at different times);
5: compressed, and the concepts beside the simulation (encoded in steps of their own)."""

CHECKSUM = 16
"""Bytes of BLAKE2b digest at the start of a snapshot."""


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many long-lived objects; as it was afterwards."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


EVENTS_A_PIECE = 200
"""Events encoded in one step of `capturing` (about 0.6 ms of work here: at 500, steps of 2 ms gave a crowd of
durable players a p99 2.11-2.24 times in memory's, against 1.45-1.92 at 200)."""


def capture(story: Story) -> bytes:
    """The story as bytes, as a store keeps them: its world, events, concepts, log, undo marks, saves and spin,
    compressed and checksummed."""
    return sealed(drained(capturing(story)))


def capturing(story: Story) -> Generator[None, None, bytes]:
    """`capture` in steps, but not sealed: the story as it stood at the first, which must see it still (the
    caller holds it so until the first pause); it may go on while the later steps encode its concepts and
    events as they were at that moment."""
    with collector_paused():
        data = story.export()
        simulation = data.pop("simulation")
        concepts = simulation.pop("concepts")  # their own lists (`export_concept`): encoded in the steps after
        # Encoded at once, which copies it: the world changes with the next turn.
        still = {"simulation": msgspec.Raw(_encode(simulation))}
        # The log, the undo marks and the saves only grow or are cut short, and what they hold is frozen: copies
        # of the lists are enough, and the story's part (mostly the log and the marks) is encoded after.
        data["log"], data["saves"] = list(data["log"]), dict(data["saves"])
        events = list(story.simulation.events)  # (the events themselves are frozen: the list is all to copy)
    yield
    with collector_paused():
        still = {"story": msgspec.Raw(_encode(data)), **still}
    encoded_concepts: list[msgspec.Raw] = []
    for concept in concepts:
        yield
        encoded_concepts.append(msgspec.Raw(_encode(concept)))
    encoded: list[msgspec.Raw] = []
    for start in range(0, len(events), EVENTS_A_PIECE):
        yield
        with collector_paused():
            encoded.extend(msgspec.Raw(_encode(event_data(event))) for event in events[start : start + EVENTS_A_PIECE])
    with collector_paused():
        return _encode(
            {"format": FORMAT, "world": story.definition.name, **still, "concepts": encoded_concepts, "events": encoded}
        )


def sealed(body: bytes) -> bytes:
    """What `capturing` made, as a snapshot is stored: compressed, then checksummed. Safe in any thread."""
    packed = zlib.compress(body, 1)  # the fastest level: 5 MB in 9 ms here, to 7 %; level 6 halves the speed for 5 %
    return _checksum(packed) + packed


_encode = msgspec.msgpack.Encoder().encode


def resume(definition: WorldDefinition, blob: bytes) -> Story:
    """A story rebuilt from `capture`'s bytes, exactly as it was: same turn, state, tellings and undo."""
    packed = bytes(blob[CHECKSUM:])
    if len(blob) <= CHECKSUM or _checksum(packed) != bytes(blob[:CHECKSUM]):
        raise SnapshotError("damaged snapshot: its checksum does not match (or it is of an older format)")
    try:
        body = zlib.decompress(packed)
    except zlib.error:  # checksummed, so not damaged: stored before snapshots were compressed
        raise SnapshotError(f"a snapshot of an older format than {FORMAT} (not compressed)") from None
    return _rebuilt(definition, body)


def copied(story: Story) -> Story:
    """The story as it stands, as a new one, by way of its capture (not sealed: it never leaves memory)."""
    return _rebuilt(story.definition, drained(capturing(story)))


def _rebuilt(definition: WorldDefinition, body: bytes) -> Story:
    """A story rebuilt from what `capturing` made."""
    with collector_paused():
        try:
            data: Any = msgspec.msgpack.decode(body)
        except msgspec.DecodeError as error:
            raise SnapshotError(f"damaged snapshot: {error}") from None
        if not isinstance(data, dict) or not all(isinstance(data.get(part), dict) for part in ("story", "simulation")):
            raise SnapshotError("damaged snapshot: not a captured story")
        if data.get("format") != FORMAT:
            raise SnapshotError(f"snapshot format {data.get('format')!r}, not {FORMAT}")
        if data.get("world") != definition.name:
            raise SnapshotError(f"a snapshot of {data.get('world')!r}, not {definition.name!r}")
        try:
            story = Story(definition, seed=data["story"]["seed"])
            simulation = {**data["simulation"], "concepts": data["concepts"], "events": data["events"]}
            story.load({**data["story"], "simulation": simulation})
        except Exception as error:  # whatever a damaged snapshot breaks, it is refused, never half used
            raise SnapshotError(f"damaged snapshot: {error!r}") from None
    return story


def _checksum(body: bytes) -> bytes:
    return hashlib.blake2b(body, digest_size=CHECKSUM).digest()
