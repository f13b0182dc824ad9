"""The terminal's options, from the command line and the environment: key bindings, looks, history file."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from clients.cli.terminal.history import history_path
from clients.cli.terminal.style import Look, look_of


@dataclass(frozen=True, slots=True)
class Options:
    vi: bool = False
    """Start with Vi key bindings rather than Emacs'."""
    look: Look = "color"
    history: Path | None = None
    """The history file; None keeps history in memory only (tests)."""

    @classmethod
    def of(cls, args: argparse.Namespace, environ: Mapping[str, str] = os.environ) -> Options:
        return cls(
            vi=args.vi,
            look=look_of(plain=args.plain, no_color=args.no_color, environ=environ),
            history=history_path(args.history, environ),
        )
