"""`curveship tell`, `play` and `serve` as a user runs them, every path through the protocol: the in-process
server by default, or a running `curveship serve` attached with --server (and --instance)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from clients.connection import Connection
from protocol import messages as m
from tests.clients.conftest import PAIR, ROOT, WAIT, Served, curveship


def test_tell_attached_to_a_server_tells_what_the_in_process_server_tells(served: Served) -> None:
    here = curveship("tell", "robbery", "prophecy", "time=after", "narrator=@robber")
    there = curveship("tell", "robbery", "prophecy", "time=after", "narrator=@robber", "--server", served.url)
    assert here.returncode == there.returncode == 0
    assert here.stdout == there.stdout and here.stdout.startswith("I put on my Dora the Explorer mask.")


def test_play_with_settings_tells_the_opening_under_them_too() -> None:
    done = curveship("play", "cloak", "memoir", "time=before", stdin="w\n")
    assert done.returncode == 0
    assert "That hall will be grand" in done.stdout and " will leave the foyer." in done.stdout


def test_author_permission_comes_from_the_servers_token(served: Served) -> None:
    lines = "world tree\n"
    as_player = curveship("play", "cloak", "--server", served.url, stdin=lines)
    as_author = curveship("play", "cloak", "--server", served.url, f"--author-token={served.token}", stdin=lines)
    assert "for authors only" in as_player.stdout
    assert "@hook: small brass hook [" in as_author.stdout


def test_errors_from_a_server_are_one_line_and_a_status(served: Served) -> None:
    unknown = curveship("tell", "nowhere", "--server", served.url)
    assert unknown.returncode == 2 and unknown.stderr.count("\n") == 1 and "'nowhere'" in unknown.stderr
    wrong = curveship("play", "robbery", "--server", served.url, "--instance", "no-such-instance")
    assert wrong.returncode == 2 and "no-such-instance" in wrong.stderr
    away = curveship("tell", "robbery", "--server", "http://127.0.0.1:9")
    assert away.returncode == 1 and "cannot reach" in away.stderr


def test_the_instance_must_play_the_world_named(served: Served) -> None:
    instance = asyncio.run(_create(served, "cloak"))
    done = curveship("tell", "robbery", "--server", served.url, "--instance", instance)
    assert done.returncode == 2 and f"instance {instance} plays cloak, not robbery" in done.stderr


async def _create(served: Served, world: str) -> str:
    async with Connection(served.url, transport="http", author_token=served.token) as conn:
        return str((await conn.call("create", world=world, seed=1)).instance)


async def _read_until(stream: asyncio.StreamReader, needle: str) -> str:
    seen = ""
    async with asyncio.timeout(WAIT):
        while needle not in seen:
            line = await stream.readline()
            assert line, f"the output ended before {needle!r}: {seen}"
            seen += line.decode()
    return seen


@pytest.mark.asyncio
async def test_play_joins_an_instance_another_client_created_and_hears_it(served: Served) -> None:
    instance = await _create(served, PAIR)
    async with Connection(served.url) as ann:
        await ann.call("join", instance=instance, actor="@ann", name="Ann")
        notes = ann.notifications()
        bob = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "clients.cli.main", "play", "--server", served.url, "--instance", instance),
            *("--actor", "@bob", "--name", "Bob", "--player"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        assert bob.stdin is not None and bob.stdout is not None
        try:
            await _read_until(bob.stdout, "porch")  # the opening, as Bob sees it
            joined = await asyncio.wait_for(anext(notes), WAIT)
            assert joined == m.Presence(instance=instance, name="Bob", actor="@bob", event="joined", seq=1)

            await ann.call("command", text="take lamp")  # Bob hears of it as it happens
            assert "Ann takes the brass lamp" in await _read_until(bob.stdout, "lamp")

            bob.stdin.write(b"wave\n")  # and Ann of what Bob does
            await bob.stdin.drain()
            seen = await asyncio.wait_for(anext(notes), WAIT)
            assert isinstance(seen, m.Narration) and "Bob waves" in seen.text

            bob.stdin.close()
            assert await asyncio.wait_for(bob.wait(), WAIT) == 0
            left = await asyncio.wait_for(anext(notes), WAIT)
            assert isinstance(left, m.Presence) and (left.name, left.event) == ("Bob", "left")
        finally:
            if bob.returncode is None:
                bob.kill()
                await bob.wait()


def test_serve_says_where_it_listens_and_stops_on_ctrl_c(tmp_path) -> None:
    data = tmp_path / "kept"
    process = subprocess.Popen(
        [sys.executable, "-m", "clients.cli.main", "serve", "--port", "0", "--data", str(data), "--author"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    assert first.startswith("listening on http://127.0.0.1:")
    url = first.split()[2]
    told = ""
    while "Ctrl-C" not in told:
        told += process.stdout.readline()
    assert told.count("author token: ") == 1 and "act as authors" in told and data.is_dir()
    author = curveship("play", "cloak", "--server", url, "--player", stdin="world tree\n")
    assert "@hook: small brass hook [" in author.stdout  # --author: this machine is an author, token or not
    process.send_signal(2)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 0 and out.endswith("stopped\n") and "Traceback" not in err, (
        process.returncode,
        out,
        err,
    )


def test_a_world_file_named_by_a_relative_path_is_found_wherever_the_server_runs(served: Served, tmp_path) -> None:
    here = tmp_path / "elsewhere"
    (here / "mine").mkdir(parents=True)
    (here / "mine" / "porch.py").write_text(Path(ROOT, PAIR).read_text())
    done = subprocess.run(  # the server runs in the repository; this reader in a folder of its own
        [sys.executable, "-m", "clients.cli.main", "play", "mine/porch.py", "--server", served.url],
        input="look\n",
        env={**os.environ, "PYTHONPATH": str(ROOT), "CURVESHIP_AUTHOR_TOKEN": served.token},
        capture_output=True,
        text=True,
        cwd=here,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "wooden porch" in done.stdout


def test_sigterm_leaves_the_story_before_play_ends(served: Served) -> None:
    instance = asyncio.run(_create(served, PAIR))
    play = subprocess.Popen(
        [sys.executable, "-m", "clients.cli.main", "play", "--server", served.url, "--instance", instance],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert play.stdout is not None
        while "porch" not in play.stdout.readline():
            pass
        assert asyncio.run(_players(served, instance)) == ["@ann"]
        play.send_signal(signal.SIGTERM)
        assert play.wait(timeout=WAIT) == -signal.SIGTERM  # ended by the signal, as a process should be
        assert asyncio.run(_players(served, instance)) == []  # but only once it had left
    finally:
        if play.poll() is None:
            play.kill()
        play.communicate()


async def _players(served: Served, instance: str) -> list[str]:
    async with Connection(served.url, transport="http") as conn:
        found = await conn.call("instances")
    return [player.actor for each in found.instances if each.instance == instance for player in each.players]


def test_resume_needs_a_server_and_a_session_it_knows(served: Served) -> None:
    alone = curveship("play", "--resume", "x" * 32)
    assert alone.returncode == 2 and "give --server URL too" in alone.stderr
    unknown = curveship("play", "--server", served.url, "--resume", "x" * 32)
    assert unknown.returncode == 1 and "cannot resume that session: it was left, or has expired" in unknown.stderr
    both = curveship("play", "--server", served.url, "--resume", "x" * 32, "--instance", "abc")
    assert both.returncode == 2 and "instance and actor are its own" in both.stderr
