"""Adventure in Style served and kept: the style the lamp set (the royal "we") comes back with a server killed and
started again on the same data, and the next turn is told in it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.persistence.conftest import connect, create

pytestmark = pytest.mark.asyncio

ROYAL = ("in", "take lamp", "light lamp", "turn dial to 3", "take keys")


async def test_the_lamps_style_outlives_a_restart(tmp_path: Path, servers: Any, http: Any) -> None:
    data = tmp_path / "data"
    server = servers(data)
    instance = await create(http, server.url, "adventure", 3)
    player = await connect(http, server.url, "ws")
    token = (await player.ok("join", instance=instance))["token"]
    replies = [(await player.ok("command", text=text))["text"] for text in ROYAL]
    assert replies[-1] == "We take the keys."
    server.kill()

    server = servers(data)
    player = await connect(http, server.url, "http")
    await player.ok("resume", token=token)
    assert (await player.ok("command", text="drop keys"))["text"] == "We drop the keys."
    assert (await player.ok("command", text="turn dial to 1"))["text"].startswith("We turn the dial to 1")
    assert (await player.ok("command", text="take keys"))["text"] == "You take the keys."
