"""The SQLite writer: a process of its own that holds the store's file and group-commits what it is sent.

server/stores/sqlite.py starts it and talks to it over two pipes, a message a frame (its length, then its
msgpack). Each request is `[id, method, args]`; each reply `[id, ok, value, commits]`, `value` being the
method's result, or `[kind, message]` of the error it raised. Everything that has arrived when the writer
looks is one batch: one transaction, each request in a savepoint of its own (one that fails takes back only
itself), then one commit, one sync to the disk, and the batch's replies. A read is a request like any other,
so it sees every write sent before it.

Why a process, not a thread: a thread must take the interpreter's lock for each statement, and the server's
event loop, running the compiled engine, seldom lets go of it; a change then waited 8-9 ms for a commit whose
sync took 0.2. Here the writer has an interpreter of its own. It ends when its input does: at the server's
close, or when the server dies, so it never outlives the process whose locks it shares.
"""

from __future__ import annotations

import logging
import os
import signal
import sqlite3
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from server.store import SqliteFile
from server.stores.records import StoredInstance, StoredSession, StoreError, changed

HEADER = struct.Struct("<I")
"""A frame's length, before its body."""

CHUNK = 1 << 20
"""Bytes read from a pipe at a time."""

_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder().decode


def framed(message: Any) -> bytes:
    """One message as a frame."""
    body = _encode(message)
    return HEADER.pack(len(body)) + body


class Frames:
    """The messages in a byte stream, each given once its whole frame has arrived."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Any]:
        buffer = self._buffer
        buffer += data
        messages, at = [], 0
        while len(buffer) - at >= HEADER.size:
            (size,) = HEADER.unpack_from(buffer, at)
            end = at + HEADER.size + size
            if end > len(buffer):
                break
            messages.append(_decode(buffer[at + HEADER.size : end]))
            at = end
        del buffer[:at]
        return messages


def failure(error: BaseException) -> list[str]:
    """An error as it crosses the pipe: its kind and its message."""
    return [type(error).__name__, str(error)]


def raised(kind: str, message: str) -> Exception:
    """The error a failure names, rebuilt on the server's side: a StoreError, or SQLite's own kind."""
    made = getattr(sqlite3, kind, None)
    if kind != "StoreError" and isinstance(made, type) and issubclass(made, sqlite3.Error):
        return made(message)
    return StoreError(message if kind == "StoreError" else f"{kind}: {message}")


class Writer:
    """The file and what was last committed of each session; runs one batch of requests at a time."""

    def __init__(self, file: SqliteFile) -> None:
        self.file = file
        self.commits = 0
        self.written: dict[str, StoredSession] = {}
        """What was last committed of each session, by token: a session unchanged since is not written again."""

    def batch(self, requests: list[Any]) -> list[Any]:
        """The replies to `requests`, committed together."""
        outcomes: list[tuple[bool, Any]] = []
        settled: list[Callable[[], None]] = []
        try:
            with self.file.batch() as each:
                for _, method, args in requests:
                    try:
                        work, committed = self._work(method, args)
                        outcomes.append((True, each(work)))
                        if committed is not None:
                            settled.append(committed)
                    except Exception as error:
                        outcomes.append((False, failure(error)))
            self.commits += 1
            for committed in settled:  # what they wrote is true now
                committed()
        except Exception as error:  # the commit failed: nothing of the batch is kept
            outcomes = [(False, failure(error))] * len(requests)
        return [[id, ok, value, self.commits] for (id, _, _), (ok, value) in zip(requests, outcomes, strict=True)]

    def _work(self, method: str, args: list[Any]) -> tuple[Callable[[], Any], Callable[[], None] | None]:
        """What a request does in the batch's transaction, and what is remembered once it is committed."""
        file = self.file
        if method == "record":
            instance, options = args
            sessions = changed([StoredSession(**s) for s in options.pop("sessions")], self.written)
            gone: list[str] = options["gone"]

            def remember() -> None:
                self.written.update((session.token, session) for session in sessions)
                for token in gone:
                    self.written.pop(token, None)

            return (lambda: file.record(instance, sessions=sessions, **options)), remember
        if method == "add_instance":
            return (lambda: file.add_instance(StoredInstance(**args[0]))), None
        if method == "delete_instance":
            (id,) = args

            def forget() -> None:
                for token in [token for token, session in self.written.items() if session.instance == id]:
                    del self.written[token]

            return (lambda: file.delete_instance(id)), forget
        if method in ("touch", "put_snapshot"):
            return (lambda: getattr(file, method)(*args)), None
        if method in ("instances", "instance", "log", "snapshot", "saves", "sessions"):

            def read() -> Any:
                with file.reading():
                    return getattr(file, method)(*args)

            return read, None
        raise StoreError(f"the store's writer knows no {method!r}")


def serve(file: SqliteFile, requests: int, replies: int) -> None:
    """Answer what arrives on `requests` on `replies`, a batch at a time, until `requests` ends."""
    writer, frames = Writer(file), Frames()
    while True:
        data = os.read(requests, CHUNK)
        if not data:
            return
        batch = frames.feed(data)
        if not batch:
            continue
        out = b"".join(framed(reply) for reply in writer.batch(batch))
        view = memoryview(out)
        while view:
            view = view[os.write(replies, view) :]


def main() -> None:
    """The writer's process, its arguments the data directory and the descriptors of the two locks the server
    passed on to it (server/stores/sqlite.py starts it)."""
    # Ctrl-C reaches the whole process group, and systemd's stop the whole service: the server closes this
    # writer in order, after its last change, and a server that is gone ends its input anyway.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file grown past its limit is a failed write, not a death
    logging.basicConfig(level=logging.WARNING, format="store writer: %(message)s")
    directory, lock, held = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    try:
        file = SqliteFile(directory, (lock, held))
    except StoreError as error:  # the server opened it a moment ago: something changed it since
        print(f"store writer: {error}", file=sys.stderr)
        sys.exit(2)
    replies = os.dup(sys.stdout.fileno())
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print must not land in the replies
    try:
        serve(file, sys.stdin.fileno(), replies)
    except BrokenPipeError:  # the server is gone
        pass
    finally:
        file.db.close()  # the locks are the server's too: they go when the last of us lets go of them


if __name__ == "__main__":
    main()
