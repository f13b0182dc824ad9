"""`curveship export --store URL`: a game kept in PostgreSQL, read while its server runs, is the same transcript
as the same game kept in SQLite and exported from `--data`; exporting claims no lease and writes nothing."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest

from tests.persistence.conftest import ROOT, WAIT, Process, connect, create
from tests.wire import Client

pytestmark = pytest.mark.asyncio

PLAYED = ("w", "hang cloak on hook", "e", "jump", "undo", "s", "read message")
"""Cloak of Darkness won, with a turn undone on the way (not part of the transcript)."""


def export(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clients.cli.main", "export", *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Any]:
    """start(data, **settings): a serving server; every one started is killed after."""
    started: list[Process] = []

    def start_(data: Path, **settings: Any) -> Process:
        process = Process(data, **settings)
        started.append(process)
        process.wait_until_serving()
        return process

    yield start_
    for process in started:
        process.kill()


async def _played(http: aiohttp.ClientSession, url: str) -> tuple[str, Client]:
    instance = await create(http, url, "cloak", 2)
    player = await connect(http, url, "http")
    await player.ok("join", instance=instance, name="Ann")
    for text in PLAYED:
        await player.ok("command", text=text)
    return instance, player


async def _lease(url: str, instance: str) -> tuple[str, int, Any]:
    connection = await asyncpg.connect(url)
    try:
        row = await connection.fetchrow("SELECT owner, token, expires FROM leases WHERE instance = $1", instance)
    finally:
        await connection.close()
    assert row is not None
    return str(row["owner"]), int(row["token"]), row["expires"]


def _without_id(transcript: str, instance: str) -> str:
    return transcript.replace(instance, "<instance>")


async def test_a_game_kept_in_postgresql_exports_as_the_same_game_kept_in_sqlite(
    tmp_path: Path, start: Any, postgres_url: str
) -> None:
    data = tmp_path / "data"
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=WAIT)) as http:
        in_sqlite, _ = await _played(http, start(data).url)
        in_postgres, player = await _played(http, start(tmp_path / "logs", store=postgres_url).url)
        held = await _lease(postgres_url, in_postgres)

        # Both servers still running on their stores: export only reads them.
        from_sqlite = export(in_sqlite, "--data", str(data))
        from_postgres = export(in_postgres, "--store", postgres_url)
        assert from_sqlite.returncode == 0, from_sqlite.stderr
        assert from_postgres.returncode == 0, from_postgres.stderr
        assert from_postgres.stdout.startswith(f"Transcript of instance {in_postgres} (cloak, seed 2), turn 5")
        assert "> jump" not in from_postgres.stdout
        assert from_postgres.stdout.rstrip().endswith("YOU HAVE WON.")
        assert _without_id(from_postgres.stdout, in_postgres) == _without_id(from_sqlite.stdout, in_sqlite)
        sqlite_json = export(in_sqlite, "--data", str(data), "--format", "json")
        postgres_json = export(in_postgres, "--store", postgres_url, "--format", "json")
        assert sqlite_json.returncode == 0 and postgres_json.returncode == 0, postgres_json.stderr
        assert _without_id(postgres_json.stdout, in_postgres) == _without_id(sqlite_json.stdout, in_sqlite)

        # No lease claimed nor renewed: the server holds the instance under the same token, and still writes it.
        assert (await _lease(postgres_url, in_postgres))[:2] == held[:2]
        assert (await player.ok("save", name="after_export"))["name"] == "after_export"


async def test_an_instance_not_in_the_database_is_a_clear_error(start: Any, tmp_path: Path, postgres_url: str) -> None:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=WAIT)) as http:
        instance, _ = await _played(http, start(tmp_path / "logs", store=postgres_url).url)
    made = export("nosuch", "--store", postgres_url)
    assert made.returncode == 2
    assert made.stderr.strip().startswith("curveship: no instance 'nosuch' in postgresql://")
    assert made.stderr.strip().endswith(f"; instances: {instance}")
    both = export(instance, "--store", postgres_url, "--data", str(tmp_path))
    assert both.returncode == 2 and "not allowed with argument" in both.stderr
