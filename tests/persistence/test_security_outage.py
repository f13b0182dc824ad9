"""The client through an outage: `curveship play --server`, its server killed while a line is typed, keeps the
line, says it is reconnecting, and sends it once the server is back; the story goes on where it was."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import until
from tests.persistence.conftest import AUTHOR, ROOT

pytestmark = pytest.mark.asyncio


def said(path: Path, phrase: str) -> bool:
    return phrase in path.read_text(errors="replace")


async def test_play_keeps_a_line_typed_in_an_outage_and_sends_it_when_back(tmp_path: Path, servers: Any) -> None:
    data = tmp_path / "data"
    server = servers(data)
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        client = subprocess.Popen(
            [sys.executable, "-m", "clients.cli.main", "play", "cloak", "--server", server.url, "--retry", "0.01,0.05"],
            cwd=ROOT,
            env={**os.environ, "CURVESHIP_AUTHOR_TOKEN": AUTHOR},
            stdin=subprocess.PIPE,
            stdout=stdout,
            stderr=stderr,
        )
    assert client.stdin is not None
    try:
        await until(lambda: said(out, "Cloak of Darkness"), "the opening")
        server.kill()
        await until(lambda: said(err, "reconnecting"), "the client says it is reconnecting")
        client.stdin.write(b"w\n")  # typed while the server is away
        client.stdin.flush()
        # Said now and then (the 1st, 2nd, 4th… try), not every try: past the 19 tries the client once made in
        # the 30 s it waited before it gave up with exit 1.
        await until(lambda: said(err, "not answering (32 tries)"), "tries past the old give-up, said now and then")
        told = err.read_text(errors="replace")
        assert "not answering (1 try)" in told and "not answering (3 tries)" not in told
        assert client.poll() is None, "the client is still there"
        servers(data, server.port)
        # A server process started again, on a busy machine, may take a while: waited for, never slept on.
        try:
            await until(lambda: said(out, "Cloakroom"), "the line sent once the server was back", timeout=60.0)
        except AssertionError as failed:  # what the client said, to tell why
            raise AssertionError(
                f"{failed}\nstdout: {out.read_text(errors='replace')[-1500:]}\nstderr: "
                f"{err.read_text(errors='replace')[-1500:]}"
            ) from None
        client.stdin.close()
        assert client.wait(timeout=20) == 0
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()
