"""The database file: one that is not Curveship's, damaged, or of a newer schema is refused at start-up with an
error naming it, and not a byte of it changes; an older schema is migrated; a first start cut short leaves
nothing that stops the next."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from protocol import messages as m
from server.host import Host
from server.persist import Keeper
from server.store import APPLICATION_ID, MIGRATIONS, SCHEMA
from server.stores.sqlite import SqliteStore
from tests.persistence.conftest import Process, connect, database, read_rows

PAGE = 4096


def _refused(data: Path, *phrases: str) -> None:
    """The server on `data` does not start; the error, on its last line, names the file and says why."""
    process = Process(data)
    assert process.exit_code() != 0
    last = process.log().strip().splitlines()[-1]
    assert str(database(data)) in last, last
    for phrase in phrases:
        assert phrase in last, last


def _files(data: Path) -> dict[str, bytes]:
    """Every file of the database (the server's lock file, empty, aside)."""
    return {path.name: path.read_bytes() for path in sorted(data.iterdir()) if path.name != "curveship.lock"}


async def _played(data: Path, commands: int = 5) -> tuple[str, str, str]:
    """A data directory with one instance of Cloak Plus, played a little, the store closed cleanly:
    (instance, token, state hash)."""
    host = Host(keeper=Keeper(SqliteStore(data)))
    instance = (await host.create(m.CreateParams(world="cloak_plus", seed=9), author=True)).instance
    session, joined = await host.join(m.JoinParams(instance=instance), author=False)
    for text in ("x mime", "i", "w", "take bottle", "e")[:commands]:
        await host.command(session, text)
    digest = (await host.state(session)).hash
    assert host.keeper is not None
    await host.keeper.flushed()
    await host.keeper.close()
    return instance, joined.token, digest


def test_random_bytes_are_refused_and_left_as_they_are(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    database(data).write_bytes(random.Random(5).randbytes(3 * PAGE))
    before = _files(data)
    _refused(data, "not a usable Curveship database")
    assert _files(data) == before


def test_another_programs_database_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    foreign = sqlite3.connect(database(data))
    foreign.execute("CREATE TABLE birds (name TEXT, seen INTEGER)")
    foreign.executemany("INSERT INTO birds VALUES (?, ?)", [("wren", 3), ("kite", 1)])
    foreign.commit()
    foreign.close()
    before = _files(data)
    _refused(data, "is not a Curveship database")
    assert _files(data) == before


def test_a_database_of_a_newer_schema_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    data = tmp_path / "data"
    asyncio.run(_played(data))
    newer = sqlite3.connect(database(data))
    newer.execute(f"PRAGMA user_version = {SCHEMA + 1}")
    newer.close()
    before = _files(data)
    _refused(data, f"has schema {SCHEMA + 1}, newer than this server's {SCHEMA}")
    assert _files(data) == before


def test_a_database_damaged_past_its_header_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    data = tmp_path / "data"
    asyncio.run(_played(data))
    path = database(data)
    whole = path.read_bytes()
    assert len(whole) > 2 * PAGE and not (data / "curveship.sqlite-wal").exists()
    path.write_bytes(whole[:PAGE] + random.Random(6).randbytes(len(whole) - PAGE))
    before = _files(data)
    _refused(data, "damaged")
    assert _files(data) == before


def test_one_damaged_index_page_is_found_at_start_up_not_at_the_first_write(tmp_path: Path) -> None:
    """Damage a reading at start-up never touches (an index page, say) would let the server restore and serve,
    then fail every write: it is found by checking every page before anything is restored."""
    data = tmp_path / "data"
    asyncio.run(_played(data))
    path = database(data)
    whole = bytearray(path.read_bytes())
    pages = len(whole) // PAGE
    assert pages > 3
    damaged = 2 * PAGE  # the third page: past the header and the schema, one restoring does not need to read
    whole[damaged : damaged + 3000] = random.Random(7).randbytes(3000)
    path.write_bytes(bytes(whole))
    before = _files(data)
    _refused(data, "damaged")
    assert _files(data) == before


@pytest.mark.asyncio
async def test_a_database_of_the_first_schema_is_migrated_and_its_instances_come_back(
    tmp_path: Path, servers: Any, http: Any
) -> None:
    current = tmp_path / "current"
    instance, token, digest = await _played(current)
    # The same data in a file of schema 1, as the first server with persistence wrote it.
    data = tmp_path / "data"
    data.mkdir()
    old = sqlite3.connect(database(data), isolation_level=None)
    old.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    for statement in MIGRATIONS[1]:
        old.execute(statement)
    old.execute("PRAGMA user_version = 1")
    old.execute("ATTACH DATABASE ? AS current", (str(database(current)),))
    old.execute(
        "INSERT INTO instances SELECT id, world, fingerprint, seed, spin, created, turn, ended FROM current.instances"
    )
    old.execute(
        "INSERT INTO sessions SELECT token, instance, actor, name, author, spin, mentioned FROM current.sessions"
    )
    for table in ("log", "saves", "snapshots"):
        old.execute(f"INSERT INTO {table} SELECT * FROM current.{table}")
    old.execute("DETACH DATABASE current")
    old.close()

    server = servers(data)
    player = await connect(http, server.url, "http")
    await player.ok("resume", token=token)
    assert (await player.ok("state"))["hash"] == digest
    assert read_rows(data, "PRAGMA user_version") == [(SCHEMA,)]
    # Known only once the instance changes: the hash of the world after each change, checked at restore.
    assert read_rows(data, "SELECT digest FROM instances") == [("",)]
    await player.ok("command", text="look")
    new_digest = (await player.ok("state"))["hash"]
    assert read_rows(data, "SELECT digest FROM instances WHERE id = ?", instance) == [(new_digest,)]


@pytest.mark.asyncio
async def test_a_first_start_cut_short_leaves_nothing_in_the_way(tmp_path: Path, servers: Any, http: Any) -> None:
    data = tmp_path / "data"
    data.mkdir()
    # What a server killed while making its file leaves: the file half made, aside, never in place.
    (data / "curveship.sqlite.new").write_bytes(b"SQLite format 3\x00" + os.urandom(100))
    (data / "curveship.sqlite.new-journal").write_bytes(os.urandom(100))
    server = servers(data)
    player = await connect(http, server.url, "http")
    assert (await player.ok("instances"))["instances"] == []
    assert sorted(path.name for path in data.iterdir() if path.name.endswith((".new", ".new-journal"))) == []
    # An empty file is not one a server made (it makes its file whole or not at all): a filesystem that lost
    # what was written, say. It is refused, and left as it is, like any other damage.
    server.kill()
    for path in data.iterdir():
        path.unlink()
    database(data).touch()
    _refused(data, "is empty (0 bytes)", "left as it is")
    assert database(data).stat().st_size == 0


@pytest.mark.asyncio
async def test_a_second_server_on_the_same_directory_is_refused(tmp_path: Path, servers: Any, http: Any) -> None:
    data = tmp_path / "data"
    first = servers(data)
    instance = (await (await connect(http, first.url, "http")).call("instances"))["result"]
    assert instance["instances"] == []
    before = _files(data)
    second = Process(data)
    assert second.exit_code() != 0
    assert "is in use by another server" in second.log().strip().splitlines()[-1]
    assert _files(data) == before
    # The lock goes with the process that held it, however it ended.
    first.kill()
    servers(data)
