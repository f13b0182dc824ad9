"""Stored data: readable by its owner alone, locked by the database itself, a damaged session record skipped
(not fatal), and sessions' idle clocks kept across a restart."""

from __future__ import annotations

import sqlite3
import stat
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.helpers import until
from tests.persistence.conftest import DUO, Process, connect, create, database

pytestmark = pytest.mark.asyncio


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def write(data: Path, sql: str, *args: Any) -> None:
    """Change the database behind the server's back (it is stopped)."""
    db = sqlite3.connect(database(data))
    try:
        db.execute(sql, args)
        db.commit()
    finally:
        db.close()


async def test_the_data_is_for_its_owner_alone(tmp_path: Path, servers: Any, http: Any) -> None:
    data = tmp_path / "data"
    server = servers(data)
    player = await connect(http, server.url, "http")
    await player.ok("join", instance=await create(http, server.url, "cloak", 1))
    await player.ok("command", text="look")
    assert mode(data) == 0o700
    for name in ("curveship.sqlite", "curveship.sqlite-wal", "curveship.sqlite-shm", "curveship.lock"):
        assert mode(data / name) == 0o600, name
    server.kill()
    data.chmod(0o755)
    database(data).chmod(0o644)  # as an older server left them
    servers(data)
    assert mode(data) == 0o700 and mode(database(data)) == 0o600


async def test_without_its_lock_file_the_database_is_still_locked(tmp_path: Path, servers: Any) -> None:
    data = tmp_path / "data"
    servers(data)
    (data / "curveship.lock").unlink()
    second = Process(data)
    assert second.exit_code() != 0
    assert "is in use by another server" in second.log().strip().splitlines()[-1]


async def test_a_damaged_session_record_is_skipped_and_said(tmp_path: Path, servers: Any, http: Any) -> None:
    data = tmp_path / "data"
    server = servers(data)
    instance = await create(http, server.url, str(DUO), 1)
    ann, bob = await connect(http, server.url, "http"), await connect(http, server.url, "http")
    await ann.ok("join", instance=instance, actor="@ann")
    await bob.ok("join", instance=instance, actor="@bob")
    server.kill()
    write(data, "UPDATE sessions SET spin = x'c1' WHERE token = ?", ann.token)  # 0xc1: never valid msgpack
    server = servers(data)
    assert "its record is damaged" in server.log()
    again = await connect(http, server.url, "http")
    await again.fail(-32002, "resume", token=ann.token)
    assert await again.ok("resume", token=bob.token), "the others come back"


async def test_idle_clocks_go_on_across_a_restart(tmp_path: Path, servers: Any, http: Any) -> None:
    data = tmp_path / "data"
    settings = {"session_idle": 30.0, "detach_after": 4.0}  # swept every second
    server = servers(data, **settings)
    player = await connect(http, server.url, "http")
    await player.ok("join", instance=await create(http, server.url, "cloak", 1))
    server.kill()
    write(data, "UPDATE sessions SET seen = ?", time.time() - 3600)  # last seen an hour before the restart
    server = servers(data, **settings)
    # At the first sweep, not thirty seconds after the start.
    await until(lambda: "expired" in server.log(), "the session expired", timeout=10.0)
    await (await connect(http, server.url, "http")).fail(-32002, "resume", token=player.token)


async def test_a_restored_sessions_spin_is_checked_against_its_player(tmp_path: Path, servers: Any, http: Any) -> None:
    """A spin stored by an older server, or edited by hand, that tells a player's story through an actor it may
    not use is not taken back at a restart: that session does not come back when its instance does, and says so in the
    log."""
    data = tmp_path / "data"
    server = servers(data)
    instance = await create(http, server.url, str(DUO), 1)
    ann, bob = await connect(http, server.url, "http"), await connect(http, server.url, "http")
    await ann.ok("join", instance=instance, actor="@ann")
    await bob.ok("join", instance=instance, actor="@bob")
    spin = (await ann.ok("spin"))["spin"]
    server.kill()
    peeking = msgspec.msgpack.encode({**spin, "focalizer": "@bob"})  # Ann's story told through Bob's eyes
    write(data, "UPDATE sessions SET spin = ? WHERE token = ?", peeking, ann.token)
    server = servers(data)
    again = await connect(http, server.url, "http")
    await again.fail(-32002, "resume", token=ann.token)  # its instance is brought back on this first use
    assert "not brought back" in server.log()
    assert await again.ok("resume", token=bob.token), "the others come back"
