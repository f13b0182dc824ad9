"""The clock engine work is charged by: a collection of the server's garbage, however long, is not a caller's work."""

from __future__ import annotations

import gc
import time

from server.work import work_clock


def test_a_garbage_collection_is_not_counted_as_work() -> None:
    heap = [[{} for _ in range(5)] for _ in range(100_000)]  # kept alive: a full collection walks all of it
    began, cpu = work_clock(), time.thread_time()
    gc.collect()
    collecting = time.thread_time() - cpu
    counted = work_clock() - began
    assert len(heap) == 100_000
    assert counted < collecting / 5, f"{counted * 1000:.1f} ms counted of {collecting * 1000:.1f} ms collecting"


def test_work_between_collections_is_counted_whole() -> None:
    gc.disable()  # no collection in between: every bit of it is work
    try:
        began, cpu = work_clock(), time.thread_time()
        assert sum(sum(range(n)) for n in range(3000)) > 0
        counted, spent = work_clock() - began, time.thread_time() - cpu
    finally:
        gc.enable()
    assert spent > 0 and abs(counted - spent) < 0.001
