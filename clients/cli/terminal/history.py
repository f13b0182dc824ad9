"""Where the prompt's history is kept between games: --history (or $CURVESHIP_HISTORY), else the user's data
directory, $XDG_DATA_HOME/curveship/history or ~/.local/share/curveship/history."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from prompt_toolkit.history import FileHistory, History, InMemoryHistory


def history_path(given: str | None, environ: Mapping[str, str]) -> Path:
    """The history file: the one given, else under the data directory the XDG spec names (an $XDG_DATA_HOME
    that is not absolute is to be ignored, says the spec)."""
    if given:
        return Path(given).expanduser()
    data = environ.get("XDG_DATA_HOME", "")
    if not Path(data).is_absolute():
        home = environ.get("HOME")
        data = str((Path(home) if home else Path.home()) / ".local" / "share")
    return Path(data) / "curveship" / "history"


def open_history(path: Path) -> tuple[History, str | None]:
    """The history kept in `path` (its directory made if need be); when it cannot be kept there, one kept in
    memory for this game only, and why."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(exist_ok=True)
    except OSError as error:
        return InMemoryHistory(), f"[history is not kept: cannot write {path}: {error.strerror or error}]"
    return FileHistory(str(path)), None
