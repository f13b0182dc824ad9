"""`curveship play --server` in a real terminal (tmux) against a `curveship serve` process: another player's
doings shown above a half-typed line in a two-player bank game, and a server killed and restarted in the
middle of play, which the client says and survives."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from clients.connection import Connection
from tests.terminal.tmux import MISSING, Server, lines_of, prompt_line, toolbar

pytestmark = pytest.mark.skipif(MISSING, reason="tmux is not installed (and $CI is not set)")


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[Server]:
    made = Server(tmp_path / "server", data=tmp_path / "server" / "data")
    made.start()
    try:
        yield made
    finally:
        made.close()


async def robber_goes_in(url: str, instance: str) -> str:
    """A second player, through the Python client: joins as the robber, walks into the lobby, leaves."""
    async with Connection(url) as robber:
        await robber.call("join", instance=instance, actor="@robber", name="Rob")
        reply = await robber.call("command", text="in")
        await robber.call("leave")
    return str(reply.text)


def test_another_players_turn_appears_above_a_half_typed_line(terminal, serving):
    terminal.run("play", "bank", "--server", serving.url, "--actor", "@teller", "--name", "Tess")
    screen = terminal.wait_for_prompt(bar=" bank · @teller · vestibule · turn 0")
    found = re.search(r"\[instance ([\w-]+): others join with --server", screen)
    assert found, screen
    terminal.type("look at sl")
    terminal.wait_for_prompt("look at sl")

    assert "Lobby" in asyncio.run(robber_goes_in(serving.url, found.group(1)))

    screen = terminal.wait_for("[Rob leaves, as @robber.]")
    lines = [line.rstrip() for line in lines_of(screen)]
    news = next(index for index, line in enumerate(lines) if "A twitchy man enters the lobby." in line)
    assert "[Rob joins, as @robber.]" in lines[:news]
    assert lines.index("> look at sl") > news  # the line being typed is still there, below the news
    assert prompt_line(screen) == "> look at sl"
    terminal.wait_for(lambda screen: " turn 1" in toolbar(screen), what="the robber's turn in the toolbar")

    terminal.press("Tab")  # and goes on: completed, then sent
    terminal.wait_for_prompt("look at slips")
    terminal.press("Enter")
    terminal.wait_for(lambda screen: "> look at slips" in screen and " turn 2" in toolbar(screen), what="the reply")


def test_a_server_restart_is_said_and_survived(terminal, serving):
    terminal.run("play", "cloak", "--server", serving.url)
    terminal.wait_for_prompt(bar=" cloak · @operagoer · foyer · turn 0")
    terminal.enter("w")
    terminal.wait_for(lambda screen: " cloakroom · turn 1" in toolbar(screen), what="turn 1")
    terminal.wait_for_prompt()

    serving.kill()  # SIGKILL: no goodbye to anyone
    screen = terminal.wait_for("[the connection to the server dropped; reconnecting…]")
    terminal.wait_for(lambda screen: toolbar(screen).startswith(" reconnecting… "), what="the toolbar's alarm")
    serving.start()  # the same port, the same data

    terminal.wait_for("[reconnected]")
    terminal.wait_for(lambda screen: "reconnecting" not in toolbar(screen), what="the alarm gone")
    terminal.enter("hang cloak on hook")
    screen = terminal.wait_for(lambda screen: " turn 2" in toolbar(screen), what="turn 2 after the restart")
    assert "You put your velvet cloak on the hook." in screen
    terminal.wait_for_prompt()
    terminal.enter(":quit")
    terminal.wait_for("[exited 0]")
