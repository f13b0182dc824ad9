"""A served process's collector: collections walk only what is new, and cyclic garbage that was set aside is
reclaimed once the heap has doubled (server/heap.py). Run in a fresh interpreter, so that the policy and the heap
are that process's own, as in `curveship serve`."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

GROWING = textwrap.dedent(
    """
    import gc, json, weakref
    from server.heap import freeze_heap, thaw_heap

    class Node:
        pass

    walks = []
    def walked(phase, info):  # after the policy's own callback: what this collection is about to walk
        if phase == "start" and info["generation"] > 0:
            walks.append(sum(len(gc.get_objects(g)) for g in range(info["generation"] + 1)))

    base = [{"turn": [n]} for n in range(600_000)]  # what start-up made (the worlds, instances brought back)
    own = gc.get_threshold()
    freeze_heap()
    gc.callbacks.append(walked)

    history = []
    def grow(turns):  # a story's history: long-lived, never garbage
        history.extend({"event": [n], "words": (n, [n])} for n in range(turns))

    # A connection's objects, kept across several full collections, then closed: garbage in cycles, set aside
    # with the rest while it was alive.
    connection = []
    for _ in range(1_000):
        a, b = Node(), Node()
        a.other, b.other = b, a
        connection.append(a)
    probe = weakref.ref(connection[0])
    grow(150_000)
    del connection, a, b
    grow(150_000)
    kept_after_closing = probe() is not None
    grow(1_000_000)
    reclaimed = probe() is None
    gc.callbacks.remove(walked)
    thaw_heap()
    print(json.dumps({"walks": walks, "kept_after_closing": kept_after_closing, "reclaimed": reclaimed,
                      "heap": len(base) + len(history), "thawed": gc.get_threshold() == own}))
    """
)


def test_collections_walk_only_what_is_new_and_cycles_set_aside_are_reclaimed_as_the_heap_doubles() -> None:
    ran = subprocess.run(
        [sys.executable, "-c", GROWING], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    seen = json.loads(ran.stdout)
    walks, heap = seen["walks"], seen["heap"]
    whole = [n for n in walks if n > heap / 4]
    assert len(walks) > 100, walks
    # Every collection but the rare whole walk walks a few commands' worth, whatever the heap has grown to (left
    # alone, a full collection would walk all of it: here up to four million objects; and each of the middle
    # generation's, ten young collections' survivors).
    rest = [n for n in walks if n <= heap / 4]
    assert max(rest) < 5_000, sorted(rest)[-10:]
    assert 1 <= len(whole) <= 3, f"the heap doubled: a collection walks all of it, once each time ({whole})"
    assert seen["kept_after_closing"], "set aside while it lived, the connection's cycles wait"
    assert seen["reclaimed"], "and are reclaimed by the walk of the whole heap once it has doubled"
    assert seen["thawed"], "thaw_heap puts the collector's own thresholds back"
