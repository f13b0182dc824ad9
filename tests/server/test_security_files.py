"""Files of the server's machine: only an author names a spin or world by path; everyone else names what ships,
and is refused without a word about the files there; an author's path is read off the event loop, and only a
regular file of a spin file's size is read at all."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from server.catalog import MAX_SPIN_FILE
from tests.server.conftest import AUTHOR, Server
from tests.server.latency import a_player, unhurt
from tests.wire import Client, Http

pytestmark = pytest.mark.asyncio


async def again(stop: asyncio.Event, call: Any, *outcomes: int) -> list[dict[str, Any]]:
    """Make `call` (an attacker's) again and again until told to stop: each answer must be an error of one of
    `outcomes`, or -32006 once its rate is spent (it goes on regardless, as an attacker would). The errors."""
    errors = []
    while not stop.is_set():
        error = (await call())["error"]
        assert error["code"] in (*outcomes, -32006), error
        errors.append(error)
    return errors


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
    paths = list(files.values())

    def guess() -> Any:
        paths.append(paths.pop(0))
        return stranger.call("create", world="cloak", spin=paths[0])

    errors = await unhurt(await a_player(server), lambda stop: again(stop, guess, -32003))
    assert {e["message"] for e in errors if e["code"] == -32003} == {answers[0]["message"]}


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
    set_ = [(await player.fail(-32003, "spin", set=[path]))["message"] for path in files.values()]
    assert set_[0] == set_[1] == set_[2] and "hunter2" not in set_[0]
    typed = [(await player.fail(-32003, "command", text=f"spin {path}"))["message"] for path in files.values()]
    assert typed[0] == typed[1] == typed[2] and "author" in typed[0]
    spin = await player.ok("spin")
    assert spin["spin"]["time"] != "after", "the player's spin did not change"
    assert (await player.ok("narrate", spin="memoir"))["text"], "shipped names still work"


async def test_a_world_by_path_is_for_authors_only(server: Server) -> None:
    error = await Http(server).fail(-32003, "create", world="/etc/passwd")
    assert "passwd" not in error["message"]
    stranger = Http(server)
    errors = await unhurt(
        await a_player(server),
        lambda stop: again(stop, lambda: stranger.call("create", world="../../worlds/cloak.py"), -32003),
    )
    assert all("cloak.py" not in e["message"] for e in errors)


async def test_an_authors_path_to_a_fifo_holds_no_one_up(server: Server, tmp_path: Path) -> None:
    fifo = tmp_path / "never.toml"
    os.mkfifo(fifo)
    author = Http(server, AUTHOR)
    errors = await unhurt(
        await a_player(server),
        lambda stop: again(stop, lambda: author.call("create", world="cloak", spin=str(fifo)), -32602),
    )
    refused = [e for e in errors if e["code"] == -32602]
    assert refused and all("regular file" in e["message"] for e in refused), errors


async def test_an_authors_huge_spin_file_is_not_read(server: Server, tmp_path: Path) -> None:
    huge = tmp_path / "huge.toml"
    with huge.open("wb") as file:
        file.truncate(1 << 30)  # a GiB, sparse: nothing of it need be read to refuse it
    author = Http(server, AUTHOR)
    errors = await unhurt(
        await a_player(server),
        lambda stop: again(stop, lambda: author.call("create", world="cloak", spin=str(huge)), -32602),
    )
    refused = [e for e in errors if e["code"] == -32602]
    assert refused and all(str(MAX_SPIN_FILE) in e["message"] for e in refused), errors
    ok = tmp_path / "ok.toml"
    ok.write_text('time = "after"\n')
    assert await Http(server, AUTHOR).ok("create", world="cloak", spin=str(ok))


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
    errors = await unhurt(
        await a_player(server),
        lambda stop: again(stop, lambda: player.call("narrate", spin=["memoir"] * 5000), -32602),
    )
    assert any(e["code"] == -32602 for e in errors)
