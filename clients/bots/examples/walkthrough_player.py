"""A walkthrough player, the expert policy: it plays a world's walkthrough through the Gymnasium environment and
prints each command with what it was told: `python -m clients.bots.examples.walkthrough_player cloak_plus`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from clients.bots.env import CurveshipEnv


def play(world: str, *, seed: int = 0, url: str | None = None) -> tuple[list[str], dict[str, object]]:
    """The walkthrough played: what was printed, line by line, and the last info."""
    env = CurveshipEnv(world, url=url)
    try:
        observation, info = env.reset(seed=seed)
        printed = [observation]
        for command in env.walkthrough():
            observation, _, terminated, _, info = env.step(command)
            printed += [f"> {command}", observation]
            if terminated:
                break
        printed.append(f"[score {info['score']} of {info['max_score']}; {'won' if info['won'] else 'not won'}]")
        return printed, info
    finally:
        env.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m clients.bots.examples.walkthrough_player", description=__doc__)
    parser.add_argument("world", nargs="?", default="cloak")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--url")
    args = parser.parse_args(argv)
    printed, _ = play(args.world, seed=args.seed, url=args.url)
    print("\n\n".join(printed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
