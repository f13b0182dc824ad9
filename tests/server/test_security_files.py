"""Files of the server's machine: only an author names a spin or world by path; everyone else names what ships,
and is refused without a word about the files there; an author's path is read off the event loop, and only a
regular file of a spin file's size is read at all."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from server.catalog import MAX_SPIN_FILE
from tests.server.conftest import AUTHOR, Server, Start
from tests.wire import Client, Http

pytestmark = pytest.mark.asyncio

NOTICEABLE = 2.0
"""Seconds an innocent client may wait during an attack before a person would call the server stuck."""


async def innocent(server: Server, bystander: Client | None = None) -> float:
    """How long a bystander waits for an answer, in seconds (a turn, or a fresh instance and its state); fails
    if it takes longer than a person would wait."""
    started = time.perf_counter()
    async with asyncio.timeout(NOTICEABLE):
        if bystander is not None:
            await bystander.ok("command", text="look")
        else:
            player = Http(server)
            await player.play("cloak")
            await player.ok("state")
    return time.perf_counter() - started


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    """A spin file that exists and is valid, one that is not a spin, and a path where nothing is."""
    good = tmp_path / "mine.toml"
    good.write_text('time = "after"\n')
    secret = tmp_path / "secret.toml"
    secret.write_text('password = "hunter2"\n')
    return {"good": str(good), "secret": str(secret), "missing": str(tmp_path / "nothing-here.toml")}


async def test_a_stranger_naming_a_spin_by_path_learns_nothing(server: Server, files: dict[str, str]) -> None:
    stranger = Http(server)
    answers = []
    for path in files.values():
        error = await stranger.fail(-32003, "create", world="cloak", spin=path)
        assert "hunter2" not in str(error) and "password" not in str(error) and "no such" not in str(error)
        answers.append(error)
    assert answers[0] == answers[1] == answers[2], "an existing file, a secret one and none are told apart"
    assert "author" in answers[0]["message"]
    await innocent(server)


async def test_a_player_names_no_path_anywhere(server: Server, transport: str, files: dict[str, str]) -> None:
    player = await server.client(transport)
    instance = await server.create("cloak")
    await player.fail(-32003, "join", instance=instance, spin=files["good"])
    await player.ok("join", instance=instance)
    for method in ("narrate", "realize"):
        params = {"template": "[@cloak/s]"} if method == "realize" else {}
        for path in files.values():
            error = await player.fail(-32003, method, spin=[path], **params)
            assert "hunter2" not in str(error)
    typed = [(await player.fail(-32003, "command", text=f"spin {path}"))["message"] for path in files.values()]
    assert typed[0] == typed[1] == typed[2] and "author" in typed[0]
    spin = await player.ok("spin")
    assert spin["spin"]["time"] != "after", "the player's spin did not change"
    assert (await player.ok("narrate", spin="memoir"))["text"], "shipped names still work"


async def test_a_world_by_path_is_for_authors_only(server: Server) -> None:
    error = await Http(server).fail(-32003, "create", world="/etc/passwd")
    assert "passwd" not in error["message"]
    await Http(server).fail(-32003, "create", world="../../worlds/cloak.py")
    await innocent(server)


async def test_an_authors_path_to_a_fifo_holds_no_one_up(start: Start, tmp_path: Path) -> None:
    server = await start()
    fifo = tmp_path / "never.toml"
    os.mkfifo(fifo)
    author = Http(server, AUTHOR)
    attack = asyncio.create_task(author.call("create", world="cloak", spin=str(fifo)))
    waited = await innocent(server)
    error = (await asyncio.wait_for(attack, NOTICEABLE))["error"]
    assert error["code"] == -32602 and "regular file" in error["message"], error
    assert waited < NOTICEABLE


async def test_an_authors_huge_spin_file_is_not_read(server: Server, tmp_path: Path) -> None:
    huge = tmp_path / "huge.toml"
    with huge.open("wb") as file:
        file.truncate(1 << 30)  # a GiB, sparse: nothing of it need be read to refuse it
    error = await Http(server, AUTHOR).fail(-32602, "create", world="cloak", spin=str(huge))
    assert str(MAX_SPIN_FILE) in error["message"]
    ok = tmp_path / "ok.toml"
    ok.write_text('time = "after"\n')
    assert await Http(server, AUTHOR).ok("create", world="cloak", spin=str(ok))
    await innocent(server)


async def test_an_author_may_still_type_a_spin_path(server: Server, files: dict[str, str]) -> None:
    author = Http(server, AUTHOR)
    await author.play("cloak")
    await author.ok("command", text=f"spin {files['good']}")
    assert (await author.ok("spin"))["spin"]["time"] == "after"


async def test_a_long_list_of_spin_names_is_refused_before_any_is_read(server: Server, transport: str) -> None:
    player: Client = await server.client(transport)
    await player.play("cloak")
    error = await player.fail(-32602, "narrate", spin=["memoir"] * 5000)
    assert error["data"]["field"] == "spin" and "16" in error["data"]["reason"]
    assert (await player.ok("narrate", spin=["memoir"] * 16))["text"]
    await innocent(server)
