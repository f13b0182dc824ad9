"""`curveship play`: the opening, then each line as a `command`; what others do is shown as it arrives.

In order:
1. Attach (see attach.py); apply any settings left over; when an instance was created on a --server, say
   (on stderr) how others join it.
2. Choose the screen: the terminal's prompt (terminal/app.py) when input and output are both a terminal,
   else plain lines (piped.py). From now on the connection's statuses go to it.
3. Show the opening, as a reply is shown. A task shows notifications as they come: others' doings this actor
   perceived, who joins and leaves, the ending when someone else reaches it; after the connection came back,
   what it missed (the connection resumes with the last number seen): an answer it lost, or the turns retold.
4. Each line (--auto's first, then the screen's): a `#` comment is skipped; a meta command (`:spin`, `:who`…)
   is answered here and never reaches the world; `quit` ends play, wherever it stands in a line ("look; quit":
   what comes before it is given first); anything else goes to the server as `command`, and its reply is
   shown, or the error's message (a command after the ending, an author-only directive…). The ending is
   announced once, when the story reaches it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from clients.cli.attach import attached
from clients.cli.lines import auto_lines, readable
from clients.cli.meta import QUIT as QUIT_META
from clients.cli.meta import Answer, Desk, MetaCommands, MetaError, is_meta, standard
from clients.cli.piped import PipedScreen
from clients.cli.scene import Scene
from clients.cli.screen import Screen
from clients.cli.status import StatusRelay, show_retry, show_status
from clients.connection import CallError, Connection, ConnectionLost, NotSent
from protocol import messages as m
from protocol.commands import split_commands
from protocol.errors import Code

ENDED = "*** The story has ended. You may undo, restart, recount, or quit. ***"
QUIT = ("quit", "q", "exit game")


@dataclass(eq=False)
class Table:
    """What the reader has been shown: whether the story has ended, and whether a command is on its way
    (its reply will announce an ending, so the `ended` notification that comes before it is not repeated)."""

    ended: bool = False
    waiting: bool = False


def run_play(args: argparse.Namespace) -> int:
    return asyncio.run(_play(args))


async def _play(args: argparse.Namespace) -> int:
    auto = auto_lines(Path(args.auto)) if args.auto else []  # an unreadable file is named before anything starts
    relay = StatusRelay()
    async with attached(args, relay, relay.retried) as story:
        conn = story.conn
        if story.later:
            await conn.call("spin", set=story.later)
        if args.server and story.created:
            joining = f"--server {args.server} --instance {story.joined.instance}"
            print(f"[instance {story.joined.instance}: others join with {joining}]", file=sys.stderr)
        scene = Scene.of(conn, story.joined)
        metas = standard()
        try:
            async with _screen(args, scene, metas) as screen:
                relay.listener, relay.retry_listener = screen.status, screen.retrying
                try:
                    await game(Desk(conn, scene, screen), metas, story.joined, auto)
                finally:
                    relay.listener, relay.retry_listener = show_status, show_retry
        finally:
            await scene.close()
    return 0


def _screen(args: argparse.Namespace, scene: Scene, metas: MetaCommands) -> Screen:
    if sys.stdin.isatty() and sys.stdout.isatty():
        from clients.cli.terminal.app import TerminalScreen  # prompt_toolkit, only for a person at a terminal
        from clients.cli.terminal.options import Options

        return TerminalScreen(scene, Options.of(args), metas.names)
    return PipedScreen(prompting=sys.stdin.isatty())


async def game(desk: Desk, metas: MetaCommands, joined: m.JoinResult, auto: Sequence[str] = ()) -> None:
    """Steps 3 and 4: the game on a screen, from the opening until the lines end or the reader quits."""
    conn, screen = desk.conn, desk.screen
    screen.story(joined.blocks, joined.text)
    screen.turn_done()
    table = Table(ended=(await conn.call("state")).ended)
    shown = asyncio.create_task(_show_notifications(conn, screen, table))
    try:
        async for line in _lines(auto, screen):
            if line.lstrip().startswith("#"):
                continue  # a comment, in a transcript or a script
            if is_meta(line):
                if await _meta(metas, desk, line) is QUIT_META:
                    break
                continue
            given, quitting = before_quit(line)
            if given.strip():
                await _command(conn, screen, table, given)
            if quitting:
                break
    finally:
        shown.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await shown


def before_quit(line: str) -> tuple[str, bool]:
    """What of a line goes to the story, and whether the reader quits after it: "look; quit; look" gives
    "look", then quits."""
    parts = split_commands(line)
    for index, part in enumerate(parts):
        if part.strip().lower() in QUIT:
            return "; ".join(parts[:index]), True
    return line, False


async def _lines(auto: Sequence[str], screen: Screen) -> AsyncIterator[str]:
    for line in auto:
        screen.echo(line)
        yield line
    async for line in screen.lines():
        yield readable(line)


async def _command(conn: Connection, screen: Screen, table: Table, line: str) -> None:
    was_over = table.ended
    table.waiting = True
    try:
        reply = await conn.call("command", text=line)
        screen.story(reply.blocks, reply.text)
        ended = reply.ended
    except CallError as error:
        screen.notice(error.message, "error")
        ended = table.ended or error.code == Code.ENDED
    except ConnectionLost as error:
        if not screen.patient:
            raise
        taken = "it was not sent" if isinstance(error, NotSent) else "it may or may not have been taken"
        screen.notice(f"{error}; {taken}", "error")
        ended = table.ended
    finally:
        table.waiting = False
    if ended and not was_over:
        screen.notice(ENDED, "ended")
    table.ended = ended
    screen.turn_done()


async def _meta(metas: MetaCommands, desk: Desk, line: str) -> Answer:
    screen = desk.screen
    try:
        answer = await metas.run(line, desk)
    except MetaError as error:
        screen.notice(str(error), "error")
        answer = None
    except CallError as error:
        screen.notice(error.message, "error")
        answer = None
    except ConnectionLost as error:
        if not screen.patient:
            raise
        screen.notice(str(error), "error")
        answer = None
    if isinstance(answer, m.Reply):
        screen.story(answer.blocks, answer.text)
    elif isinstance(answer, str):
        screen.listing(answer)
    elif isinstance(answer, list):
        screen.items(answer)
    if answer is not QUIT_META:
        screen.turn_done()
    return answer


async def _show_notifications(conn: Connection, screen: Screen, table: Table) -> None:
    async for note in conn.notifications():
        if isinstance(note, m.Narration):
            screen.story(note.blocks, note.text, news=True)
        elif isinstance(note, m.Presence):
            came = "joins" if note.event == "joined" else "leaves"
            screen.notice(f"[{note.name} {came}, as {note.actor}.]", "presence")
        elif isinstance(note, m.Ended) and not (table.waiting or table.ended):
            table.ended = True
            screen.notice(ENDED, "ended")
        elif isinstance(note, m.LostReply):  # the answer the dropped connection lost, sent again on resume
            screen.notice(f"[the answer to your {note.method}, lost when the connection dropped:]", "link")
            screen.story(note.blocks, note.text)
            if note.ended and not table.ended:
                table.ended = True
                screen.notice(ENDED, "ended")
        elif isinstance(note, m.Reply):  # more was missed than the server keeps: those turns, retold
            screen.notice("[while the connection was down:]", "link")
            screen.story(note.blocks, note.text, news=True)
