"""`curveship play --server` in a real terminal (tmux) against a `curveship serve` process: another player's
doings shown above a half-typed line in a two-player bank game; a server killed and restarted in the
middle of play, which the client says and survives; a line typed while it is away kept through more tries than
the client once made before giving up, and sent once it is back, or Ctrl-C or Ctrl-D leaving; a closed window
or SIGTERM leaving the story; a session cut off and taken back with --resume."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from clients.cli.arguments import BACKOFF
from clients.connection import Connection
from tests.terminal.tmux import MISSING, WAIT, Server, Terminal, lines_of, prompt_line, toolbar

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
    screen = terminal.wait_for_prompt(bar=" bank · @teller · Vestibule · turn 0")
    found = re.search(r"\[instance ([\w-]+): others join with --server", screen)
    assert found, screen
    terminal.type("look at sl")
    terminal.wait_for_prompt("look at sl")

    assert "Lobby" in asyncio.run(robber_goes_in(serving.url, found.group(1)))

    # Printing the news and drawing the prompt again below it are two steps: wait for both to have happened.
    screen = terminal.wait_for(
        lambda screen: "[Rob leaves, as @robber.]" in screen and prompt_line(screen) == "> look at sl",
        what="the news above the line being typed",
    )
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
    terminal.wait_for_prompt(bar=" cloak · @operagoer · Foyer of the Opera House · turn 0")
    terminal.enter("w")
    terminal.wait_for(lambda screen: " Cloakroom · turn 1" in toolbar(screen), what="turn 1")
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


OLD_GIVE_UP = 30.0
"""Seconds the client once waited for a server that was away before it gave up and ended (exit 1)."""
QUICK = "0.01,0.05"
"""--retry for the tests: the same doubling schedule as the default's, its waits cut short."""


def tries_within(seconds: float, first: float, longest: float) -> int:
    """How many tries a schedule (first wait, doubling up to longest) makes within `seconds`."""
    waited, wait, tries = 0.0, first, 0
    while waited + wait <= seconds:
        waited, tries, wait = waited + wait, tries + 1, min(longest, wait * 2)
    return tries


def tries_said(screen: str) -> int:
    """The tries the toolbar says have found no server (0 when it says none)."""
    found = re.search(r"not answering \((\d+) tr(?:y|ies)\)", toolbar(screen))
    return int(found.group(1)) if found else 0


def test_a_line_kept_through_a_long_outage_is_sent_once_the_server_is_back(terminal, serving):
    terminal.run("play", "cloak", "--server", serving.url, "--retry", QUICK)
    terminal.wait_for_prompt(bar=" cloak · @operagoer · Foyer of the Opera House · turn 0")
    serving.kill()
    terminal.wait_for(lambda screen: toolbar(screen).startswith(" reconnecting… "), what="the toolbar's alarm")
    terminal.enter("w")
    screen = terminal.wait_for("kept: the server is not answering; this line is sent once it is back")
    assert prompt_line(screen) == "> w"  # still in the input, not taken

    # More tries than the old client made before it gave up (19, at the default schedule over 30 s), with the
    # line still kept and the countdown still said.
    old = tries_within(OLD_GIVE_UP, *BACKOFF)
    screen = terminal.wait_for(lambda screen: tries_said(screen) > old, what=f"more than {old} tries")
    assert re.search(r"trying again (in [\d.]+ s|now)…", toolbar(screen)), toolbar(screen)
    assert prompt_line(screen) == "> w"
    assert "[exited" not in screen

    serving.start()  # the same port, the same data directory: the session is resumed
    screen = terminal.wait_for(lambda screen: " Cloakroom · turn 1" in toolbar(screen), what="the kept line sent")
    assert "[reconnected]" in screen
    assert "may or may not" not in screen
    assert "not answering" not in toolbar(screen)
    terminal.wait_for_prompt()  # taken, once: the input is empty again
    terminal.enter("e")
    terminal.wait_for(lambda screen: " turn 2" in toolbar(screen), what="play going on")


@pytest.mark.parametrize("key", ["C-c", "C-d"])
def test_ctrl_c_or_ctrl_d_leaves_while_a_line_is_kept(terminal, serving, key):
    terminal.run("play", "cloak", "--server", serving.url, "--retry", QUICK)
    terminal.wait_for_prompt(bar=" cloak · ")
    serving.kill()
    terminal.wait_for(lambda screen: tries_said(screen) > 0, what="a try that found no server")
    terminal.enter("w")
    terminal.wait_for("kept: the server is not answering")
    terminal.press(key)
    screen = terminal.wait_for("[exited 0]")
    assert "Traceback" not in screen


async def _players(url: str, instance: str) -> list[str]:
    async with Connection(url, transport="http") as desk:
        found = await desk.call("instances")
    return [player.actor for each in found.instances if each.instance == instance for player in each.players]


def players_once_settled(url: str, instance: str, wanted: list[str]) -> list[str]:
    """Who plays the instance, asked until it is `wanted` (or the wait is over: then as it is)."""
    deadline = time.monotonic() + WAIT
    while (now := asyncio.run(_players(url, instance))) != wanted and time.monotonic() < deadline:
        time.sleep(0.05)
    return now


def started(terminal: Terminal, url: str) -> tuple[str, str]:
    """Play Cloak of Darkness on the server in the window; the instance, and the session's token as said."""
    terminal.run("play", "cloak", "--server", url)
    terminal.wait_for_prompt(bar=" cloak · ")
    screen = terminal.screen("-J")  # lines the terminal wrapped, joined again
    instance = re.search(r"\[instance ([\w-]+): others join with", screen)
    token = re.search(r"\[if play is cut off, --resume=(\S+) takes this session back\]", screen)
    assert instance and token, screen
    assert players_once_settled(url, instance.group(1), ["@operagoer"]) == ["@operagoer"]
    return instance.group(1), token.group(1)


def test_closing_the_window_leaves_the_story_so_the_actor_is_free_again(terminal, serving):
    instance, _ = started(terminal, serving.url)
    terminal.close_window()  # SIGHUP
    assert players_once_settled(serving.url, instance, []) == []

    async def take_the_actor() -> str:
        async with Connection(serving.url) as someone:
            return str((await someone.call("join", instance=instance, name="Sam")).actor)

    assert asyncio.run(take_the_actor()) == "@operagoer"


def test_sigterm_leaves_the_story_and_ends_play_as_sigterm_does(terminal, serving):
    instance, _ = started(terminal, serving.url)
    os.kill(terminal.program(), signal.SIGTERM)
    screen = terminal.wait_for("[exited 143]")  # 128 + SIGTERM: ended by the signal, after leaving
    assert "Traceback" not in screen
    assert players_once_settled(serving.url, instance, []) == []


def test_a_session_cut_off_is_taken_back_with_resume(terminal, serving):
    instance, token = started(terminal, serving.url)
    terminal.enter("w")
    terminal.wait_for(lambda screen: " Cloakroom · turn 1" in toolbar(screen), what="turn 1")
    os.kill(terminal.program(), signal.SIGKILL)  # no leaving: the server keeps the session
    terminal.wait_for("[exited 137]")

    terminal.run("play", "--server", serving.url, f"--resume={token}")  # a token may begin with "-"
    screen = terminal.wait_for_prompt(bar=" cloak · @operagoer · Cloakroom · turn 1")
    assert f"[resumed: @operagoer in instance {instance}, at turn 1]" in screen
    assert "pocked with the holes of hooks" in screen  # the last turn, told again
    terminal.enter(":state")
    terminal.wait_for(f"session: {token}")
    terminal.enter("hang cloak on hook")
    screen = terminal.wait_for(lambda screen: " turn 2" in toolbar(screen), what="turn 2, played on")
    assert "You put your velvet cloak on the hook." in screen
    assert players_once_settled(serving.url, instance, ["@operagoer"]) == ["@operagoer"]
