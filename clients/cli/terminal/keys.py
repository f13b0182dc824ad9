"""The terminal's own keys, over prompt_toolkit's Emacs or Vi bindings: F4 switches between the two, Ctrl-L
clears the screen and shows the last reply again, and while a line is kept for a server that is not answering,
Ctrl-C and Ctrl-D leave. The rest are prompt_toolkit's, listed in KEYS_HELP."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.enums import EditingMode
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.key_binding.vi_state import InputMode

KEYS_HELP = [
    "Tab — complete a verb, a name, a command that would work now, a meta command",
    "Up, Down — earlier and later lines (kept between games); Ctrl-R — search them",
    "→ or Ctrl-E at the end — take the grey suggestion from history",
    "F4 — switch between Emacs and Vi key bindings (:keys too); Ctrl-L — clear, then show the last reply",
    "Ctrl-C — clear the line; Ctrl-D on an empty line — leave",
    "while a line waits for the server to answer again: Ctrl-C or Ctrl-D — leave",
]


def bindings(clear: Callable[[], None], kept: Callable[[], bool] = lambda: False) -> KeyBindings:
    """F4 and Ctrl-L; `clear` clears the screen and shows the last reply again, before the next key. While
    `kept()` (a line waits to be sent), Ctrl-C and Ctrl-D end the input, as Ctrl-D on an empty line does."""
    keys = KeyBindings()

    @keys.add("c-c", filter=Condition(kept))
    @keys.add("c-d", filter=Condition(kept))
    def _leave(event: KeyPressEvent) -> None:
        event.app.exit(exception=EOFError())

    @keys.add("f4")
    def _switch(event: KeyPressEvent) -> None:
        switch(event.app)

    @keys.add("c-l")
    def _clear(event: KeyPressEvent) -> None:
        clear()

    return keys


def switch(app: Application[Any], mode: str | None = None) -> str:
    """Vi or Emacs bindings (None: the other one); Vi starts in insert mode, as a prompt should."""
    vi = mode == "vi" if mode is not None else app.editing_mode is EditingMode.EMACS
    app.editing_mode = EditingMode.VI if vi else EditingMode.EMACS
    if vi:
        app.vi_state.input_mode = InputMode.INSERT
    app.invalidate()
    return mode_name(app)


def mode_name(app: Application[Any]) -> str:
    """ "emacs", "vi", or "vi: normal" while Vi is not inserting."""
    if app.editing_mode is EditingMode.EMACS:
        return "emacs"
    return "vi" if app.vi_state.input_mode is InputMode.INSERT else "vi: normal"
