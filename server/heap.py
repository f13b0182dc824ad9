"""The cyclic collector's policy in a server's own process: the long-lived heap set aside as it grows.

Python's full collection walks every tracked object, and a server's heap is mostly its stories' history
(events, concepts, undo marks: some 60 objects a command in Lost One), which lives as long as its instance
and is never cyclic garbage. Left alone, a full collection comes each time the heap has grown by a quarter
and takes longer each time (240 ms in a crowd's heap after 10 s here), holding every player up meanwhile.

1. `freeze_heap`, once the server has started: one collection, then `gc.freeze()` — what start-up made is no
   longer walked.
2. From then on, whatever survives a full collection is frozen as soon as it ends: every full collection walks
   only what was made since the last, so its pause stays as short as the first.
3. What is frozen and later becomes garbage in a cycle (a connection's objects, say) is not reclaimed while
   frozen; a story is freed by reference counting alone. So when the heap has grown to THAW_GROWTH times
   what it was after the last whole walk, the next full collection walks everything once (the frozen put
   back first), then freezes what is left: that pause is rare (the heap must double) and bounds what such
   garbage can hold. The heap is sized by the allocator's count of blocks in use (`sys.getallocatedblocks`,
   under a millisecond for fifteen million), not by `gc.get_freeze_count`, which walks the frozen list and
   would cost as much as the walk it spares.

Only a process that is a server's own uses this (`curveship serve`, a worker): one that hosts a server among
other work (a bot, the terminal's local game, the tests) keeps the collector's own policy.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

THAW_GROWTH = 2.0
"""The heap, against its size after the last collection that walked all of it, at which the next full
collection walks all of it again."""


class _Policy:
    walked_all_left = 0
    """Blocks in use after the last collection that walked the whole heap."""
    walking_all = False
    """Whether the full collection under way walks the frozen heap too."""


def freeze_heap() -> None:
    """Set aside what the process holds now, and from now on whatever survives a full collection."""
    gc.collect()
    gc.freeze()
    _Policy.walked_all_left = sys.getallocatedblocks()
    if _after_full_collections not in gc.callbacks:
        gc.callbacks.append(_after_full_collections)


def thaw_heap() -> None:
    """Back to the collector's own policy, everything within its reach again (for a benchmark or a test)."""
    if _after_full_collections in gc.callbacks:
        gc.callbacks.remove(_after_full_collections)
    gc.unfreeze()


def _after_full_collections(phase: str, info: dict[str, Any]) -> None:
    if info["generation"] != 2:
        return
    if phase == "start":
        # Unfrozen before the walk begins (the collector merges the frozen back into the oldest generation).
        _Policy.walking_all = sys.getallocatedblocks() > THAW_GROWTH * _Policy.walked_all_left
        if _Policy.walking_all:
            gc.unfreeze()
        return
    # A full collection has just ended, so the younger generations are empty (it took them in): everything
    # tracked now was just found reachable.
    gc.freeze()
    if _Policy.walking_all:
        _Policy.walked_all_left = sys.getallocatedblocks()
        _Policy.walking_all = False
