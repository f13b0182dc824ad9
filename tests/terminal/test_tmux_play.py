"""`curveship play` in a real terminal (tmux), as a person plays it: Cloak of Darkness to the end, completion,
history recalled in a later game, the toolbar, a resize, --plain and no colour."""

from __future__ import annotations

import re

import pytest

from tests.terminal.tmux import MISSING, Terminal, lines_of, prompt_line, toolbar

pytestmark = pytest.mark.skipif(MISSING, reason="tmux is not installed (and $CI is not set)")

COLOUR = re.compile(r"\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;5;\d+)m")
"""An escape sequence that sets a foreground colour."""


def turn(terminal: Terminal, line: str, turn: int) -> str:
    """Type a command, and wait until the toolbar says the turn and the prompt is back."""
    terminal.enter(line)
    terminal.wait_for(lambda screen: f" turn {turn}" in toolbar(screen), what=f"turn {turn} in the toolbar")
    return terminal.wait_for_prompt()


def test_cloak_of_darkness_played_to_the_end(terminal):
    terminal.run("play", "cloak")
    screen = terminal.wait_for_prompt(bar=" cloak · ")
    assert "Hurrying through the rainswept November night" in screen
    # The room as the story heads it, not as the concept names it ("foyer").
    assert toolbar(screen).startswith(" cloak · @operagoer · Foyer of the Opera House · turn 0 · during, chronicle")
    assert "Cloakroom" in turn(terminal, "w", 1)
    assert "You put your velvet cloak on the hook." in turn(terminal, "hang cloak on hook", 2)
    assert "Foyer Bar" in (turn(terminal, "e", 3) and turn(terminal, "s", 4))
    terminal.wait_for(lambda screen: " · Foyer Bar · turn 4" in toolbar(screen), what="the bar, as it is headed")
    screen = turn(terminal, "read message", 5)
    assert "YOU HAVE WON" in screen and "*** The story has ended." in screen
    assert "turn 5, ended" in toolbar(screen)
    terminal.enter(":quit")
    terminal.wait_for("[exited 0]")


def test_tab_completes_commands_names_and_meta_commands(terminal):
    terminal.run("play", "cloak")
    terminal.wait_for_prompt(bar=" cloak · ")  # the scene known: what completion offers
    terminal.type("take off v")
    terminal.press("Tab")
    terminal.wait_for_prompt("take off velvet cloak")
    terminal.press("C-u")
    terminal.type("spin prop")  # a directive's argument: a named spin, not a thing
    terminal.press("Tab")
    terminal.wait_for_prompt("spin prophecy")
    terminal.press("C-u")
    terminal.type(":sp")
    terminal.press("Tab")
    terminal.wait_for_prompt(":spin")
    terminal.type(" time ")
    terminal.press("Tab")  # several: a menu of them
    screen = terminal.wait_for(lambda screen: re.search(r"after\s+time", screen) is not None, what="the menu")
    assert re.search(r"before\s+time", screen) and re.search(r"during\s+time", screen)
    terminal.press("Tab")  # the first is chosen
    terminal.wait_for_prompt(":spin time after")
    terminal.press("Enter")
    screen = terminal.wait_for(lambda screen: "after, chronicle" in toolbar(screen), what="the spin in the toolbar")
    assert "time = after" in screen


def test_history_is_kept_between_games_and_recalled_with_up(terminal):
    terminal.run("play", "cloak")
    terminal.wait_for_prompt()
    turn(terminal, "w", 1)
    terminal.enter(":quit")
    terminal.wait_for("[exited 0]")
    assert terminal.history.is_file()
    assert "+w\n" in terminal.history.read_text() and "+:quit\n" in terminal.history.read_text()

    terminal.run("play", "cloak")  # a new game: the history is the file's
    terminal.wait_for_prompt(bar=" cloak · ")
    terminal.press("Up")
    terminal.wait_for_prompt(":quit")
    terminal.press("Up")
    terminal.wait_for_prompt("w")
    assert "Cloakroom" in turn(terminal, "", 1)  # Enter plays the recalled line


def test_the_toolbar_follows_the_room_the_turn_the_spin_and_the_keys(terminal):
    terminal.run("play", "cloak", "--vi")
    screen = terminal.wait_for_prompt(bar=" cloak · ")
    assert toolbar(screen) == " cloak · @operagoer · Foyer of the Opera House · turn 0 · during, chronicle · vi (F4)"
    turn(terminal, "w", 1)
    terminal.enter(":spin prophecy")
    screen = terminal.wait_for(lambda screen: "before, chronicle" in toolbar(screen), what="the new spin")
    assert toolbar(screen) == " cloak · @operagoer · Cloakroom · turn 1 · before, chronicle · vi (F4)"
    terminal.press("F4")
    terminal.wait_for(lambda screen: toolbar(screen).endswith("emacs (F4)"), what="emacs keys")
    assert "You will put your velvet cloak on the hook." in turn(terminal, "hang cloak on hook", 2)


def test_after_a_resize_text_is_wrapped_to_the_new_width(terminal):
    terminal.run("play", "cloak")
    screen = terminal.wait_for_prompt()
    assert any(len(line) > 80 for line in lines_of(screen))  # the foyer, at 100 columns
    terminal.resize(50, 30)

    def narrow(screen: str) -> bool:  # the last reply shown again, wrapped to 50
        body = [line for line in lines_of(screen)[:-1] if line.startswith("  ")]
        return bool(body) and "  This hall is grand" in screen and all(len(line) <= 49 for line in body)

    screen = terminal.wait_for(narrow, what="the foyer wrapped to 50 columns")
    terminal.enter("look")
    screen = terminal.wait_for(lambda screen: "> look" in screen and prompt_line(screen) == ">", what="look's reply")
    reply = lines_of(screen)[[line.rstrip() for line in lines_of(screen)].index("> look") :]
    assert any(line.startswith("  This hall is grand") for line in reply)
    assert all(len(line) <= 49 for line in reply[:-1])  # the toolbar may be cut short; the story is wrapped
    terminal.resize(100, 30)
    terminal.wait_for(lambda screen: any(len(line) > 80 for line in lines_of(screen)[:-1]), what="wide again")


def test_plain_for_screen_readers_one_line_a_paragraph_no_toolbar(terminal):
    terminal.run("play", "cloak", "--plain")
    screen = terminal.wait_for_prompt(bar=None)
    joined = terminal.screen("-J")  # lines the terminal wrapped, joined again: one paragraph, one line
    hall = "This hall is grand, all crimson and gilt, with chandeliers glittering overhead; the street door is to"
    assert f"\n{hall} the north, and doorways lead south and west.\n" in joined
    assert "(F4)" not in screen and "turn 0" not in screen
    assert not any(line.startswith(" ") for line in lines_of(screen))
    assert not COLOUR.search(terminal.screen("-e"))


def test_no_color_keeps_bold_and_drops_colour(terminal):
    terminal.run("play", "cloak")
    terminal.wait_for_prompt()
    assert COLOUR.search(terminal.screen("-e"))
    terminal.enter(":quit")
    terminal.wait_for("[exited 0]")
    terminal.run("play", "cloak", env={"NO_COLOR": "1"})
    # The heading once in the story (the toolbar, on the last line, names the room too).
    terminal.wait_for(
        lambda screen: (
            "\n".join(screen.splitlines()[:-1]).count("Foyer of the Opera House") == 1 and prompt_line(screen) == ">"
        )
    )
    coded = terminal.screen("-e")
    assert not COLOUR.search(coded)
    assert "\x1b[1mFoyer of the Opera House" in coded


def test_ctrl_l_and_a_line_typed_at_once_come_out_in_order(terminal):
    terminal.run("play", "cloak")
    terminal.wait_for_prompt(bar=" cloak · ")
    turn(terminal, "w", 1)
    terminal.press("C-l", "inputs", "Enter")  # in one go, as a quick typist's keys come

    def answered(screen: str) -> bool:
        return "  1. w" in screen and prompt_line(screen) == ">"

    screen = [line.rstrip() for line in lines_of(terminal.wait_for(answered, what="the inputs"))]
    assert "  Hurrying through the rainswept November night" not in "\n".join(screen)  # the screen was cleared
    again, typed, answer = screen.index("  You leave the foyer."), screen.index("> inputs"), screen.index("  1. w")
    assert again < typed < answer  # the last reply again, then the line, then its answer

    terminal.press("C-l", ":state", "Enter")
    screen = [line.rstrip() for line in lines_of(terminal.wait_for("hash: ", what=":state"))]
    again, typed, answer = screen.index("  1. w"), screen.index("> :state"), screen.index("world: cloak")
    assert again < typed < answer
    assert "> inputs" not in screen


def test_help_lists_the_keys_at_a_terminal(terminal):
    terminal.run("play", "cloak")
    terminal.wait_for_prompt(bar=" cloak · ")
    terminal.enter(":help")
    screen = terminal.wait_for("Ctrl-D on an empty line")
    assert ":keys [vi | emacs]" in screen and "F4 — switch" in screen
