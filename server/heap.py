"""The cyclic collector's policy in a server's own process: the long-lived heap set aside as it grows.

Python's full collection walks every tracked object, and a server's heap is mostly its stories' history
(events, concepts, undo marks: some 60 objects a command in Lost One), which lives as long as its instance
and is never cyclic garbage. Left alone, a full collection comes each time the heap has grown by a quarter
and takes longer each time (240 ms in a crowd's heap after 10 s here), holding every player up meanwhile.

1. `freeze_heap`, once the server has started: one collection, then `gc.freeze()` — what start-up made is no
   longer walked.
2. From then on, whatever survives a collection of the middle generation is frozen as soon as it ends, so
   no collection walks it again: each walks only what was made since the last (a few commands' worth), and
   the middle one comes every MIDDLE_EVERY young collections, not ten, so that its pause stays short. (A
   full collection walked what had been promoted since the last, a quarter of the heap's survivors: 18-38 ms
   in a worker at 500 commands a second; the middle generation's, ten young collections' survivors, 3-11.)
3. What is frozen and later becomes garbage in a cycle (a connection's objects, say) is not reclaimed while
   frozen; a story is freed by reference counting alone. So once the heap has grown to THAW_GROWTH times
   what it was after the last whole walk, the middle generation's survivors are left where they are, a full
   collection comes (freezing starts every generation's count again, so while they are frozen none comes by
   itself), and it walks everything once (the frozen put back first), then freezes what is left: that pause
   is rare (the heap must double) and bounds what such garbage can hold. The heap is sized by the
   allocator's count of blocks in use (`sys.getallocatedblocks`, under a millisecond for fifteen million),
   not by `gc.get_freeze_count`, which walks the frozen list and would cost as much as the walk it spares.

Only a process that is a server's own uses this (`curveship serve`, a worker): one that hosts a server among
other work (a bot, the terminal's local game, the tests) keeps the collector's own policy.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

THAW_GROWTH = 2.0
"""The heap, against its size after the last collection that walked all of it, at which a full collection
walks all of it again."""
MIDDLE_EVERY = 3
"""Young collections between two of the middle generation (Python's default is 10)."""


class _Policy:
    walked_all_left = 0
    """Blocks in use after the last collection that walked the whole heap."""
    walking_all = False
    """Whether the full collection under way walks the frozen heap too."""
    middle_was: int | None = None
    """The middle generation's threshold before `freeze_heap` set it, for `thaw_heap` to put back."""


def freeze_heap() -> None:
    """Set aside what the process holds now, and from now on whatever survives a collection of the middle
    generation."""
    gc.collect()
    gc.freeze()
    young, middle, oldest = gc.get_threshold()
    if _Policy.middle_was is None:
        _Policy.middle_was = middle
    gc.set_threshold(young, MIDDLE_EVERY, oldest)
    _Policy.walked_all_left = sys.getallocatedblocks()
    if _setting_aside not in gc.callbacks:
        gc.callbacks.append(_setting_aside)


def thaw_heap() -> None:
    """Back to the collector's own policy, everything within its reach again (for a benchmark or a test)."""
    if _setting_aside in gc.callbacks:
        gc.callbacks.remove(_setting_aside)
    if _Policy.middle_was is not None:
        young, _, oldest = gc.get_threshold()
        gc.set_threshold(young, _Policy.middle_was, oldest)
        _Policy.middle_was = None
    gc.unfreeze()


def _grown() -> bool:
    return sys.getallocatedblocks() > THAW_GROWTH * _Policy.walked_all_left


def _setting_aside(phase: str, info: dict[str, Any]) -> None:
    generation = info["generation"]
    if generation == 1:
        if phase == "stop" and not _grown():
            gc.freeze()  # the survivors, just moved to the oldest generation, with the rest set aside
        return
    if generation != 2:
        return
    if phase == "start":
        # Unfrozen before the walk begins (the collector merges the frozen back into the oldest generation).
        _Policy.walking_all = _grown()
        if _Policy.walking_all:
            gc.unfreeze()
        return
    # A full collection has just ended, so the younger generations are empty (it took them in): everything
    # tracked now was just found reachable.
    gc.freeze()
    if _Policy.walking_all:
        _Policy.walked_all_left = sys.getallocatedblocks()
        _Policy.walking_all = False
