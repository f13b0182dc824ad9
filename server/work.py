"""The clock engine work is measured by, to charge it to its caller: this thread's CPU time, less garbage collection.

A call is charged the engine time it took (see `server.rpc.TURN_WORK`). The thread's own CPU time leaves out
whatever else the machine is doing; but a collection of Python's garbage runs inside whichever call happens to
allocate when one is due, and in a server holding many instances a full one takes a good part of a second. It
is the process's own housekeeping, not the caller's work, so the time spent collecting is kept apart (timed by
the `gc` module's callbacks, on the thread that collects) and left out.
"""

from __future__ import annotations

import atexit
import gc
import threading
import time
from typing import Any

_collecting: dict[int, float] = {}
"""Threads collecting garbage now → the CPU time at which they began."""
_collected: dict[int, float] = {}
"""CPU seconds each thread has spent collecting garbage, in all."""


def _timed_collection(phase: str, info: dict[str, Any]) -> None:
    thread = threading.get_ident()
    if phase == "start":
        _collecting[thread] = time.thread_time()
    elif thread in _collecting:
        _collected[thread] = _collected.get(thread, 0.0) + time.thread_time() - _collecting.pop(thread)


gc.callbacks.append(_timed_collection)
atexit.register(gc.callbacks.remove, _timed_collection)  # the collections of shutting down are nobody's call


def work_clock() -> float:
    """Seconds of this thread's CPU time, garbage collection aside: the difference of two readings is the work
    done between them."""
    return time.thread_time() - _collected.get(threading.get_ident(), 0.0)
