"""Where history is kept: the file given, else $XDG_DATA_HOME/curveship/history, else under ~/.local/share."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from prompt_toolkit.history import FileHistory, InMemoryHistory

from clients.cli.terminal.history import history_path, open_history


def test_the_file_given_wins():
    assert history_path("/tmp/h", {"XDG_DATA_HOME": "/data"}) == Path("/tmp/h")


def test_else_the_xdg_data_directory_else_home(tmp_path):
    assert history_path(None, {"XDG_DATA_HOME": "/data", "HOME": "/home/ann"}) == Path("/data/curveship/history")
    assert history_path(None, {"HOME": "/home/ann"}) == Path("/home/ann/.local/share/curveship/history")
    # The XDG spec says a relative $XDG_DATA_HOME is to be ignored.
    assert history_path(None, {"XDG_DATA_HOME": "data", "HOME": "/home/ann"}).parts[:3] == ("/", "home", "ann")


def test_its_directory_is_made(tmp_path):
    kept, trouble = open_history(tmp_path / "deep" / "er" / "history")
    assert isinstance(kept, FileHistory) and trouble is None
    assert (tmp_path / "deep" / "er" / "history").is_file()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_history_that_cannot_be_kept_is_kept_in_memory_and_said(tmp_path):
    tmp_path.chmod(0o500)
    try:
        kept, trouble = open_history(tmp_path / "sub" / "history")
    finally:
        tmp_path.chmod(0o700)
    assert isinstance(kept, InMemoryHistory) and trouble is not None and "cannot write" in trouble


def test_a_history_under_a_file_is_kept_in_memory_and_said(tmp_path):
    (tmp_path / "file").write_text("")
    kept, trouble = open_history(tmp_path / "file" / "history")
    assert isinstance(kept, InMemoryHistory) and trouble is not None and "cannot write" in trouble
