"""`curveship export`: the transcript of a kept instance, read from the data directory of a running server,
holds the story as it stands: each reply exactly as the player was told it, undone turns gone, every actor's
commands; a missing instance, directory or a foreign file is a one-line error, and nothing is written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.persistence.conftest import ROOT, connect, create, database

pytestmark = pytest.mark.asyncio


def export(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clients.cli.main", "export", *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


async def test_the_transcript_is_what_the_player_was_told_without_the_undone_turn(
    tmp_path: Path, servers: Any, http: Any
) -> None:
    data = tmp_path / "data"
    server = servers(data)
    instance = await create(http, server.url, "cloak", 2)
    player = await connect(http, server.url, "ws")
    opening = (await player.ok("join", instance=instance))["text"]
    told = []
    for text in ("w", "hang cloak on hook", "e", "jump"):
        told.append((text, (await player.ok("command", text=text))["text"]))
    await player.ok("command", text="undo")
    told.pop()
    for text in ("s", "read message"):
        told.append((text, (await player.ok("command", text=text))["text"]))

    # The server is still running on the directory: export only reads it.
    made = export(instance, "--data", str(data), "--format", "json")
    assert made.returncode == 0, made.stderr
    document = json.loads(made.stdout)
    assert (document["instance"], document["world"], document["seed"]) == (instance, "cloak", 2)
    assert document["turn"] == 5 and document["ended"] is True
    pages = document["pages"]
    assert pages[0]["command"] == "" and pages[0]["text"] == opening
    assert [(page["command"], page["text"]) for page in pages[1:]] == told
    assert all(page["text"] == "\n\n".join(block["text"] for block in page["blocks"]) for page in pages)
    assert [page["turn"] for page in pages] == [0, 1, 2, 3, 4, 5]

    text = export(instance, "--data", str(data))
    assert text.returncode == 0, text.stderr
    assert "> jump" not in text.stdout
    assert "> hang cloak on hook\n\nYou put your velvet cloak on the hook." in text.stdout
    assert text.stdout.rstrip().endswith("YOU HAVE WON.")

    written = tmp_path / "out.txt"
    assert export(instance, "--data", str(data), "-o", str(written)).returncode == 0
    assert written.read_text(encoding="utf-8") == text.stdout


async def test_every_player_in_a_shared_instance_is_in_the_transcript(tmp_path: Path, servers: Any, http: Any) -> None:
    data = tmp_path / "data"
    server = servers(data)
    instance = await create(http, server.url, "bank", 1)
    robber = await connect(http, server.url, "ws")
    teller = await connect(http, server.url, "http")
    await robber.ok("join", instance=instance, actor="@robber")
    await teller.ok("join", instance=instance, actor="@teller")
    await robber.ok("command", text="look")
    teller_told = (await teller.ok("command", text="look"))["text"]

    made = export(instance, "--data", str(data))
    assert made.returncode == 0, made.stderr
    assert "[@robber opening]" in made.stdout and "[@teller opening]" in made.stdout
    assert "> @robber look" in made.stdout
    assert f"> @teller look\n\n{teller_told}" in made.stdout


async def test_nothing_there_is_a_clear_error_and_nothing_is_written(tmp_path: Path, servers: Any, http: Any) -> None:
    empty = tmp_path / "empty"
    made = export("abc", "--data", str(empty))
    assert made.returncode == 2
    assert made.stderr.strip() == f"curveship: {empty}: no Curveship data here (no curveship.sqlite)"
    assert not empty.exists()

    data = tmp_path / "data"
    server = servers(data)
    instance = await create(http, server.url, "cloak", 1)
    made = export("nosuch", "--data", str(data))
    assert made.returncode == 2
    assert made.stderr.strip() == f"curveship: no instance 'nosuch' in {data}; instances: {instance}"
    server.stop()

    foreign = tmp_path / "foreign"
    foreign.mkdir()
    database(foreign).write_bytes(b"not a database at all" * 100)
    before = database(foreign).read_bytes()
    made = export("abc", "--data", str(foreign))
    assert made.returncode == 2 and "not a usable Curveship database" in made.stderr
    assert database(foreign).read_bytes() == before
    assert sorted(path.name for path in foreign.iterdir()) == ["curveship.sqlite"]
