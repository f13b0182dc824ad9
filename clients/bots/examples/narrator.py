"""A narrator bot: it plays a world's walkthrough, then retells the whole story under every shipped spin, one
file each: `python -m clients.bots.examples.narrator cloak --out tellings/`. A spin the world cannot take (one
that names an actor it lacks) is listed as skipped, with the server's reason."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from clients.bots import Bot, CallError
from clients.bots.env import walkthrough


def retell(world: str, out: Path, *, seed: int = 0, url: str | None = None) -> dict[str, object]:
    """Play, then write `out/<world>.<spin>.txt` for each spin: which were written, which skipped and why."""
    out.mkdir(parents=True, exist_ok=True)
    written, skipped = [], {}
    # An author: the story may be retold through anyone, as every spin file means it.
    with Bot(url, author=True) as bot:
        bot.play(world, seed=seed)
        for command in walkthrough(world):
            if bot.command(command).ended:
                break
        for spin in bot.spins():
            try:
                told = bot.narrate(spin=spin.name, window="all")
            except CallError as error:
                skipped[spin.name] = error.message
                continue
            path = out / f"{world}.{spin.name}.txt"
            path.write_text(told.text + "\n", encoding="utf-8")
            written.append(path.name)
        bot.leave()
    return {"world": world, "written": written, "skipped": skipped}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m clients.bots.examples.narrator", description=__doc__)
    parser.add_argument("world", nargs="?", default="cloak")
    parser.add_argument("--out", type=Path, default=Path("tellings"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--url")
    args = parser.parse_args(argv)
    print(json.dumps(retell(args.world, args.out, seed=args.seed, url=args.url), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
