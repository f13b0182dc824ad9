"""`curveship play`: the opening, then each line as a `command`; what others do is printed as it arrives.

In order:
1. Attach (see attach.py); apply any settings left over; print the opening.
2. A task prints notifications as they come: others' doings this actor perceived, who joins and leaves,
   the ending when someone else reaches it.
3. Each line (--auto's first, then the keyboard or a pipe) goes to the server as `command`; its reply is
   printed, or the error's message (a command after the ending, an author-only directive…); the ending is
   announced once, when the story reaches it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from dataclasses import dataclass
from pathlib import Path

from clients.cli.attach import attached
from clients.cli.lines import lines
from clients.cli.status import show_status
from clients.connection import CallError, Connection
from protocol import messages as m
from protocol.errors import Code

ENDED = "*** The story has ended. You may undo, restart, recount, or quit. ***"
QUIT = ("quit", "q", "exit game")
PROMPT = "\n> "


@dataclass(eq=False)
class Table:
    """What the reader has been shown: whether the story has ended, and whether a command is on its way
    (its reply will announce an ending, so the `ended` notification that comes before it is not repeated)."""

    interactive: bool
    ended: bool = False
    waiting: bool = False


def run_play(args: argparse.Namespace) -> int:
    return asyncio.run(_play(args))


async def _play(args: argparse.Namespace) -> int:
    interactive = sys.stdin.isatty()
    async with attached(args, show_status) as story:
        conn = story.conn
        if story.settings:
            await conn.call("spin", set=story.settings)
        if args.server and story.created:
            joining = f"--server {args.server} --instance {story.joined.instance}"
            print(f"[instance {story.joined.instance}: others join with {joining}]", file=sys.stderr)
        print(story.joined.text)
        table = Table(interactive, ended=(await conn.call("state")).ended)
        shown = asyncio.create_task(_show_notifications(conn, table))
        try:
            auto = Path(args.auto) if args.auto else None
            async for line in lines(auto, prompt=PROMPT if interactive else None):
                if line.strip().lower() in QUIT:
                    break
                if line.strip():
                    await _command(conn, table, line)
        finally:
            shown.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await shown
    return 0


async def _command(conn: Connection, table: Table, line: str) -> None:
    was_over = table.ended
    table.waiting = True
    try:
        reply = await conn.call("command", text=line)
        text, ended = reply.text, reply.ended
    except CallError as error:
        text, ended = error.message, table.ended or error.code == Code.ENDED
    finally:
        table.waiting = False
    print(text)
    if ended and not was_over:
        print(f"\n{ENDED}")
    table.ended = ended
    if not table.interactive:
        print()


async def _show_notifications(conn: Connection, table: Table) -> None:
    async for note in conn.notifications():
        if isinstance(note, m.Narration):
            print(f"\n{note.text}")
        elif isinstance(note, m.Presence):
            print(f"\n[{note.name} {'joins' if note.event == 'joined' else 'leaves'}, as {note.actor}.]")
        elif isinstance(note, m.Ended):
            if table.waiting or table.ended:
                continue
            table.ended = True
            print(f"\n{ENDED}")
        if table.interactive and not table.waiting:
            print(PROMPT, end="", flush=True)
