"""A random agent: it plays a world through the Gymnasium environment, each step a command picked at random from
the valid actions, and says how it went: `python -m clients.bots.examples.random_agent cloak --steps 200`."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from typing import Any

from clients.bots.env import CurveshipEnv


def play(world: str, *, steps: int, seed: int, url: str | None = None) -> dict[str, Any]:
    """Episodes of random valid actions, `steps` of them in all: the episodes' scores, and whether each was won."""
    rng = random.Random(seed)
    env = CurveshipEnv(world, url=url, max_steps=steps, infos=["valid_actions", "score", "max_score", "won"])
    episodes: list[dict[str, Any]] = []
    try:
        _, info = env.reset(seed=seed)
        taken = 0
        for taken in range(1, steps + 1):  # noqa: B007 (the count is reported)
            command = rng.choice(info["valid_actions"] or ["look"])
            _, _, terminated, truncated, info = env.step(command)
            if terminated or truncated:
                episodes.append({"score": info["score"], "won": info["won"], "ended": terminated})
                _, info = env.reset(seed=rng.randrange(2**31))
        return {"world": world, "steps": taken, "max_score": info["max_score"], "episodes": episodes}
    finally:
        env.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m clients.bots.examples.random_agent", description=__doc__)
    parser.add_argument("world", nargs="?", default="cloak")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--url")
    args = parser.parse_args(argv)
    print(json.dumps(play(args.world, steps=args.steps, seed=args.seed, url=args.url), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
