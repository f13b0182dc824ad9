"""Meta commands in plain-line play (a pipe, a script): answered by the client, never sent to the world."""

from __future__ import annotations

import subprocess
import sys

from tests.terminal.tmux import ROOT


def test_meta_commands_answer_in_plain_lines_and_take_no_turn():
    done = subprocess.run(
        [sys.executable, "-m", "clients.cli.main", "play", "cloak", "--name", "Ann"],
        input=":who\n:spin prophecy\n:sp\n:s\nw\n:state\n:q\nlook\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Ann as @operagoer (you)" in out
    assert "time = before" in out and "You will leave the foyer." in out
    assert ":s could be :spin or :state" in out
    assert "turn: 1\nroom: @cloakroom" in out  # w was the only turn
    assert "This hall" not in out.split("turn: 1")[1]  # :q left before `look`


def test_help_in_plain_lines_names_no_keys():
    done = subprocess.run(
        [sys.executable, "-m", "clients.cli.main", "play", "cloak"],
        input=":help\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    helped = done.stdout.split("opera house.", 1)[1]
    assert ":spin" in helped and ":quit" in helped
    assert ":keys" not in helped and "F4" not in helped and "Ctrl-" not in helped  # there are no keys here
