"""A world changed since an instance was made: the instance is refused with a message saying so, its data is
kept untouched, and it comes back once the world is as it was."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.persistence.conftest import DUO, connect, create, read_rows
from tests.wire import Address, Http

pytestmark = pytest.mark.asyncio

TABLES = {
    "instances": "SELECT * FROM instances WHERE id = ?",
    "log": "SELECT * FROM log WHERE instance = ? ORDER BY seq",
    "sessions": "SELECT * FROM sessions WHERE instance = ? ORDER BY token",
    "saves": "SELECT * FROM saves WHERE instance = ? ORDER BY name",
    "snapshots": "SELECT * FROM snapshots WHERE instance = ?",
}


@pytest.fixture
def world_file() -> Iterator[Path]:
    """A copy of the duo world at a short path (a world's name, here its path, is at most 64 characters)."""
    folder = Path(tempfile.mkdtemp(prefix="cw"))
    path = folder / "duo.py"
    shutil.copyfile(DUO, path)
    yield path
    shutil.rmtree(folder, ignore_errors=True)


def _rows(data: Path, instance: str) -> dict[str, list[tuple[Any, ...]]]:
    return {table: read_rows(data, sql, instance) for table, sql in TABLES.items()}


async def test_a_changed_world_is_refused_its_data_kept_and_it_comes_back_when_put_back(
    tmp_path: Path, servers: Any, http: Any, world_file: Path
) -> None:
    data = tmp_path / "data"
    server = servers(data)
    changing = await create(http, server.url, str(world_file), 4)
    steady = await create(http, server.url, "cloak_plus", 4)
    ann = await connect(http, server.url, "ws")
    token = (await ann.ok("join", instance=changing, actor="@ann"))["token"]
    await ann.ok("command", text="take ball")
    await ann.ok("save", name="ball")
    await ann.ok("command", text="n")
    before = await ann.ok("state")
    other = await connect(http, server.url, "http")
    other_token = (await other.ok("join", instance=steady))["token"]
    await other.ok("command", text="w")
    server.kill()
    kept = _rows(data, changing)
    assert kept["instances"] and kept["log"] and kept["sessions"] and kept["saves"]

    original = world_file.read_bytes()
    world_file.write_bytes(original.replace(b"a walled yard", b"a walled garden"))
    server = servers(data)
    error = await Http(Address(http, server.url)).fail(-32001, "join", instance=changing, actor="@bob")
    assert changing in error["message"] and "has changed since this instance was made" in error["message"]
    assert str(world_file) in error["message"]
    error = await Http(Address(http, server.url)).fail(-32002, "resume", token=token)
    assert "not loaded" in error["message"] and "has changed" in error["message"]
    listed = [info["instance"] for info in (await Http(Address(http, server.url)).ok("instances"))["instances"]]
    assert listed == [steady]
    # The other instance is untouched by it, and new ones can be made (of the world as it now is).
    other = await connect(http, server.url, "http")
    await other.ok("resume", token=other_token)
    assert (await other.ok("command", text="e"))["turn"] == 2
    fresh = await create(http, server.url, str(world_file), 4)
    assert fresh != changing
    assert f"instance {changing} (" in server.log() and "not brought back" in server.log()
    server.kill()
    assert _rows(data, changing) == kept

    world_file.write_bytes(original)
    server = servers(data)
    ann = await connect(http, server.url, "http")
    await ann.ok("resume", token=token)
    assert await ann.ok("state") == before
    assert (await ann.ok("restore", name="ball"))["turn"] == 1
    # The instance made while the world was changed is of that world, and is now the one refused.
    error = await Http(Address(http, server.url)).fail(-32001, "join", instance=fresh, actor="@bob")
    assert "has changed" in error["message"]
