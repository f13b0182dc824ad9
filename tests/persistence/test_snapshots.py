"""Snapshots keep restarts short: one is taken as the log grows, a restart resumes from it and replays only the
rest of the log; one that no longer fits the log (undo, restart, restore cut it short), is damaged, or is of an
older format is never used, and the whole log is replayed instead, to the same story.

Most of this runs a host and its keeper in this process (a restart is closing the store and bringing a new host
back from it), so what was replayed can be counted; the last test does it through a real server.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sqlite3
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from protocol import messages as m
from server import persist
from server.engine import snapshot
from server.engine.story import Story
from server.host import Host
from server.persist import SNAPSHOT_AFTER, Keeper, Restored
from server.seats import Session
from server.stores.sqlite import SqliteStore
from tests.persistence.conftest import connect, create, database, read_rows

pytestmark = pytest.mark.asyncio

COMMANDS = ("look", "i", "jump", "listen", "x cloak", "w", "e")
"""Cloak of Darkness Plus, each a turn wherever the player is."""


def _snapshot(data: Path) -> tuple[int, int] | None:
    """The stored snapshot's log length and size, if there is one."""
    rows = read_rows(data, "SELECT seq, length(data) FROM snapshots")
    return (rows[0][0], rows[0][1]) if rows else None


async def _host(data: Path) -> tuple[Host, Keeper]:
    keeper = Keeper(SqliteStore(data))
    host = Host(keeper=keeper)
    await host.reload()
    return host, keeper


async def _started(data: Path) -> tuple[Host, Keeper, Session]:
    host, keeper = await _host(data)
    instance = (await host.create(m.CreateParams(world="cloak_plus", seed=2), author=True)).instance
    session, _ = await host.join(m.JoinParams(instance=instance), author=False)
    return host, keeper, session


async def _play(host: Host, session: Session, count: int, start: int = 0) -> None:
    for index in range(start, start + count):
        await host.command(session, COMMANDS[index % len(COMMANDS)])
    assert host.keeper is not None
    await host.keeper.flushed()  # snapshots are taken after the change that makes one due, not with it


async def _seen(host: Host, session: Session) -> tuple[int, str, str]:
    """What a player can see of the story: its turn, its state hash and its whole telling."""
    state = await host.state(session)
    told = await host.narrate(session, m.NarrateParams())
    return state.turn, state.hash, told.text


async def _restarted(keeper: Keeper, data: Path, token: str) -> tuple[Host, Keeper, Session]:
    await keeper.flushed()
    await keeper.close()
    host, keeper = await _host(data)
    return host, keeper, host.sessions[token]


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every command any story carries out (replays included): [count]."""
    count = [0]
    command = Story.command

    def counted(self: Story, actor: str, text: str) -> Any:
        count[0] += 1
        return command(self, actor, text)

    monkeypatch.setattr(Story, "command", counted)
    return count


async def test_a_restart_resumes_from_the_snapshot_and_replays_only_the_rest(
    tmp_path: Path, replays: list[int]
) -> None:
    data = tmp_path / "data"
    host, keeper, session = await _started(data)
    await _play(host, session, SNAPSHOT_AFTER - 10)
    assert _snapshot(data) is None
    await _play(host, session, 40, start=SNAPSHOT_AFTER)
    # Taken once the log had SNAPSHOT_AFTER entries, as soon as the lock was free: after the change that made
    # it due, and whatever came in before it.
    taken = _snapshot(data)
    assert taken is not None and SNAPSHOT_AFTER <= taken[0] <= SNAPSHOT_AFTER + 2
    await _play(host, session, 15, start=500)
    seen = await _seen(host, session)
    log = len(session.instance.story.log)

    replays[0] = 0
    host, keeper, session = await _restarted(keeper, data, session.token)
    # The snapshot, then the entries after it: nothing before it was run again.
    assert keeper.restored == {session.instance.id: Restored(snapshot=taken[0], replayed=log - taken[0])}
    assert replays[0] == log - taken[0] < 60
    assert await _seen(host, session) == seen
    # Snapshots come each time the log grows by a tenth (here: every SNAPSHOT_AFTER entries while that is more).
    await _play(host, session, SNAPSHOT_AFTER - 60)
    assert _snapshot(data) == taken
    await _play(host, session, 60)
    again = _snapshot(data)
    assert again is not None and taken[0] + SNAPSHOT_AFTER <= again[0] <= taken[0] + SNAPSHOT_AFTER + 2
    await keeper.flushed()
    await keeper.close()


async def test_instances_that_come_due_together_each_get_their_snapshot(tmp_path: Path) -> None:
    # Snapshots are taken one at a time: those waiting for their turn are taken after, none is dropped.
    data = tmp_path / "data"
    host, keeper, first = await _started(data)
    other = (await host.create(m.CreateParams(world="cloak_plus", seed=3), author=True)).instance
    second, _ = await host.join(m.JoinParams(instance=other), author=False)
    for index in range(SNAPSHOT_AFTER + 5):
        for session in (first, second):
            await host.command(session, COMMANDS[index % len(COMMANDS)])
    await keeper.flushed()
    taken = dict(read_rows(data, "SELECT instance, seq FROM snapshots"))
    assert sorted(taken) == sorted([first.instance.id, other]), taken
    assert all(SNAPSHOT_AFTER <= seq <= SNAPSHOT_AFTER + 6 for seq in taken.values()), taken
    await keeper.close()


async def test_players_go_on_while_a_snapshot_is_encoded_and_one_of_a_turn_taken_back_is_not_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The instance is held only for a snapshot's first step: its player's next command is answered while the
    events are still being encoded. That command undoes the turn the snapshot was of, so it is not stored."""
    monkeypatch.setattr(snapshot, "EVENTS_A_PIECE", 1)  # many steps: the encoding lasts many passes of the loop
    first_step = asyncio.Event()

    def watched(story: Story) -> Any:
        steps = snapshot.capturing(story)
        next(steps)
        first_step.set()
        yield
        return (yield from steps)

    monkeypatch.setattr(persist, "capturing", watched)
    data = tmp_path / "data"
    host, keeper, session = await _started(data)
    for index in range(SNAPSHOT_AFTER - 1):  # the take and these: a snapshot due after the last
        await host.command(session, COMMANDS[index % len(COMMANDS)])
    await first_step.wait()
    kept = keeper.kept[session.instance.id]
    await host.undo(session)
    assert kept.snapshotting  # answered before the snapshot was done
    await keeper.flushed()
    assert _snapshot(data) is None
    # Played on, the next snapshot due is stored, and a restart resumes from it to the same story.
    for index in range(30):
        await host.command(session, COMMANDS[index % len(COMMANDS)])
    await keeper.flushed()
    assert _snapshot(data) is not None
    seen = await _seen(host, session)
    host, keeper, session = await _restarted(keeper, data, session.token)
    assert await _seen(host, session) == seen
    await keeper.close()


async def test_a_snapshot_of_a_log_since_cut_short_is_never_used(tmp_path: Path, replays: list[int]) -> None:
    data = tmp_path / "data"
    host, keeper, session = await _started(data)
    await _play(host, session, 50)
    await host.save(session, "fifty")
    # The log (a take, then the commands) reaches SNAPSHOT_AFTER entries with the last command: a snapshot.
    await _play(host, session, SNAPSHOT_AFTER - 51, start=50)
    assert _snapshot(data) is not None and _snapshot(data)[0] == SNAPSHOT_AFTER  # type: ignore[index]
    # Undo cuts the log below the snapshot's length: that snapshot is of a turn taken back, and goes.
    await host.undo(session)
    assert _snapshot(data) is None
    await host.command(session, "w")  # another turn where the undone one was: a snapshot of it
    await keeper.flushed()
    assert _snapshot(data) is not None and _snapshot(data)[0] == SNAPSHOT_AFTER  # type: ignore[index]
    seen = await _seen(host, session)
    host, keeper, session = await _restarted(keeper, data, session.token)
    assert await _seen(host, session) == seen
    assert keeper.restored[session.instance.id] == Restored(snapshot=SNAPSHOT_AFTER, replayed=0)

    # Restore goes back to fifty entries: a snapshot past that is dropped (the log is too short for another).
    await host.restore(session, "fifty")
    assert _snapshot(data) is None
    await _play(host, session, 3)
    seen = await _seen(host, session)
    host, keeper, session = await _restarted(keeper, data, session.token)
    assert await _seen(host, session) == seen
    assert keeper.restored[session.instance.id].snapshot == 0

    # Restart, after a snapshot was taken again: the same.
    await _play(host, session, SNAPSHOT_AFTER)
    assert _snapshot(data) is not None
    await host.restart(session)
    await _play(host, session, 2)
    seen = await _seen(host, session)
    assert seen[0] == 2
    host, keeper, session = await _restarted(keeper, data, session.token)
    assert await _seen(host, session) == seen
    await keeper.flushed()
    await keeper.close()


async def _played_then_rewritten(data: Path, rewrite: Callable[[bytes], bytes]) -> tuple[Any, int]:
    """A story played past its first snapshot and its server stopped, then the stored snapshot rewritten by
    `rewrite` (as damage, or an older server, would leave it): what the player was shown, and the log's length."""
    host, keeper, session = await _started(data)
    await _play(host, session, SNAPSHOT_AFTER + 30)
    seen = await _seen(host, session)
    log = len(session.instance.story.log)
    await keeper.flushed()
    await keeper.close()
    writer = sqlite3.connect(database(data))
    (blob,) = writer.execute("SELECT data FROM snapshots").fetchone()
    writer.execute("UPDATE snapshots SET data = ?", (rewrite(blob),))
    writer.commit()
    writer.close()
    return seen, log


async def test_a_damaged_snapshot_is_passed_over_for_the_whole_log_and_then_replaced(
    tmp_path: Path, replays: list[int], caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "data"

    def damaged(blob: bytes) -> bytes:
        middle = len(blob) // 2
        return blob[:middle] + bytes([blob[middle] ^ 0xFF]) + blob[middle + 1 :]

    seen, log = await _played_then_rewritten(data, damaged)

    replays[0] = 0
    with caplog.at_level(logging.WARNING, logger="server.persist"):
        host, keeper = await _host(data)
    session = next(iter(host.sessions.values()))
    assert "snapshot not used (damaged snapshot" in caplog.text
    assert keeper.restored[session.instance.id] == Restored(snapshot=0, replayed=log)
    assert replays[0] == SNAPSHOT_AFTER + 30
    assert await _seen(host, session) == seen
    # The next change stores a good one in its place.
    await host.command(session, "look")
    await keeper.flushed()
    assert _snapshot(data) is not None and _snapshot(data)[0] == log + 1  # type: ignore[index]
    host, keeper, session = await _restarted(keeper, data, session.token)
    assert keeper.restored[session.instance.id] == Restored(snapshot=log + 1, replayed=0)
    await keeper.flushed()
    await keeper.close()


def _laid_out_otherwise(blob: bytes) -> bytes:
    body = msgspec.msgpack.decode(zlib.decompress(blob[snapshot.CHECKSUM :]))
    return snapshot.sealed(msgspec.msgpack.encode({**body, "format": snapshot.FORMAT - 1}))


def _not_compressed(blob: bytes) -> bytes:
    """As servers stored snapshots before format 5: the checksum, then the MessagePack as it is."""
    body = zlib.decompress(blob[snapshot.CHECKSUM :])
    return hashlib.blake2b(body, digest_size=snapshot.CHECKSUM).digest() + body


@pytest.mark.parametrize(
    ("older", "said"),
    [(_laid_out_otherwise, f"snapshot format {snapshot.FORMAT - 1}"), (_not_compressed, "older format")],
)
async def test_a_snapshot_of_an_older_format_is_passed_over_for_the_whole_log(
    tmp_path: Path,
    replays: list[int],
    caplog: pytest.LogCaptureFixture,
    older: Callable[[bytes], bytes],
    said: str,
) -> None:
    """A snapshot stored by an older server (its values laid out otherwise, or not compressed) is never read
    as this one's."""
    data = tmp_path / "data"
    seen, log = await _played_then_rewritten(data, older)

    replays[0] = 0
    with caplog.at_level(logging.WARNING, logger="server.persist"):
        host, keeper = await _host(data)
    session = next(iter(host.sessions.values()))
    assert said in caplog.text
    assert keeper.restored[session.instance.id] == Restored(snapshot=0, replayed=log)
    assert replays[0] == SNAPSHOT_AFTER + 30
    assert await _seen(host, session) == seen
    await keeper.flushed()
    await keeper.close()


async def test_through_a_server_killed_and_started_again(tmp_path: Path, servers: Any, http: Any) -> None:
    data = tmp_path / "data"
    server = servers(data)
    instance = await create(http, server.url, "cloak_plus", 3)
    player = await connect(http, server.url, "ws")
    token = (await player.ok("join", instance=instance))["token"]
    for index in range(SNAPSHOT_AFTER + 20):
        await player.ok("command", text=COMMANDS[index % len(COMMANDS)])
    seen = (await player.ok("state"), (await player.ok("narrate"))["text"])
    server.kill()
    assert _snapshot(data) is not None

    server = servers(data)
    player = await connect(http, server.url, "http")
    await player.ok("resume", token=token)
    assert (await player.ok("state"), (await player.ok("narrate"))["text"]) == seen
    assert "snapshot not used" not in server.log()
    server.kill()

    writer = sqlite3.connect(database(data))
    writer.execute("UPDATE snapshots SET data = zeroblob(length(data))")
    writer.commit()
    writer.close()
    server = servers(data)
    player = await connect(http, server.url, "ws")
    await player.ok("resume", token=token)
    assert (await player.ok("state"), (await player.ok("narrate"))["text"]) == seen
    assert "snapshot not used (damaged snapshot" in server.log()
