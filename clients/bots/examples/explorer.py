"""The breadth-first explorer as an example bot: it wins a world with no walkthrough, then plays the way it found
again to show it: `python -m clients.bots.examples.explorer cloak`."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from clients.bots import AsyncBot
from clients.bots.explore import explore


async def run(world: str, *, seed: int = 0, url: str | None = None) -> list[str]:
    """What it prints: the way found, then the story told along it."""
    async with AsyncBot(url) as bot:
        found = await explore(bot, world, seed=seed)
        if found.way is None:
            return [f"no win found in {found.states} states ({found.tried} commands tried)"]
        lines = [f"won in {len(found.way)} commands, {found.states} states seen, {found.tried} tried:"]
        lines += [f"  {command}" for command in found.way]
        await bot.play(world, seed=seed)
        for command in found.way:
            lines += [f"> {command}", (await bot.command(command)).text]
        await bot.leave()
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m clients.bots.examples.explorer", description=__doc__)
    parser.add_argument("world", nargs="?", default="cloak")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--url")
    args = parser.parse_args(argv)
    print("\n".join(asyncio.run(run(args.world, seed=args.seed, url=args.url))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
