"""`curveship tell`: a story told once, under the command line's spins, through the protocol."""

from __future__ import annotations

import argparse
import asyncio

from clients.cli.attach import attached
from clients.cli.status import show_status


def run_tell(args: argparse.Namespace) -> int:
    return asyncio.run(_tell(args))


async def _tell(args: argparse.Namespace) -> int:
    async with attached(args, show_status) as story:
        reply = await story.conn.call("narrate")
        print(reply.text)
    return 0
