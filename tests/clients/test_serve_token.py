"""`curveship serve`'s author token: kept in the data directory, so it is the same after a restart (authors'
scripts and sessions keep working); set by $CURVESHIP_AUTHOR_TOKEN when given; new at each start in memory."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

from tests.clients.conftest import ROOT


def _started(*arguments: str, token: str | None = None) -> list[str]:
    """Start `curveship serve --port 0 ARGUMENTS`, read what it prints up to "Ctrl-C stops", stop it."""
    process = subprocess.Popen(
        [sys.executable, "-m", "clients.cli.main", "serve", "--port", "0", *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=_environment(token),
    )
    assert process.stdout is not None
    lines: list[str] = []
    try:
        while not lines or not lines[-1].startswith("Ctrl-C stops"):
            line = process.stdout.readline()
            assert line, f"serve ended: {process.communicate()}"
            lines.append(line.rstrip("\n"))
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=20)
    return lines


def _environment(token: str | None) -> dict[str, str]:
    """This process's environment, with $CURVESHIP_AUTHOR_TOKEN set to `token` or left out."""
    environment = {key: value for key, value in os.environ.items() if key != "CURVESHIP_AUTHOR_TOKEN"}
    return environment if token is None else {**environment, "CURVESHIP_AUTHOR_TOKEN": token}


def _token(lines: list[str]) -> str:
    return next(line for line in lines if line.startswith("author token: ")).split(": ", 1)[1]


def test_the_author_token_is_kept_with_the_data_and_the_same_after_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = _started("--data", str(data))
    token = _token(first)
    assert f"(kept in {data / 'author-token'}: the same at every start)" in first
    kept = data / "author-token"
    assert kept.read_text().strip() == token
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600, "readable by its owner alone"
    assert _token(_started("--data", str(data))) == token
    # In memory, nothing is kept: a new token at each start.
    assert _token(_started()) != _token(_started())


def test_the_environment_sets_the_token_and_nothing_is_written(tmp_path: Path) -> None:
    data = tmp_path / "data"
    lines = _started("--data", str(data), token="chosen-by-the-author")
    assert _token(lines) == "chosen-by-the-author"
    assert not (data / "author-token").exists()
    assert not any(line.startswith("(kept in") for line in lines)


def test_data_that_is_a_file_is_refused_in_one_line(tmp_path: Path) -> None:
    plain = tmp_path / "notes.txt"
    plain.write_text("mine\n")
    refused = subprocess.run(
        [sys.executable, "-m", "clients.cli.main", "serve", "--port", "0", "--data", str(plain)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert refused.returncode == 1
    assert refused.stderr.strip() == f"curveship: --data {plain}: not a directory"
    assert plain.read_text() == "mine\n"
