"""A breadth-first explorer: it finds a way to win a world from `actions` and `state` alone, with no walkthrough.

The search, in order:
1. The root is a new instance of the world, joined. Each node of the search is a session kept at one state
   of the story, and a state is known by the world's state hash: two paths to the same world are one node.
2. A node is expanded by trying, in its own session, each command `actions` lists there (one message: the
   command and `state`). A command that passed no time, or led to a state already seen, is taken back with
   `undo` (or needs none); one that reached the goal ends the search; one that ended the story otherwise
   (a loss) is noted and taken back.
3. A new state becomes a node by `fork`: the copy is kept at that state, and the node's own session, resumed,
   takes the command back with `undo`. So nothing is ever replayed, and each state costs one fork.
4. Nodes are expanded in the order they were found (breadth first), so the first win found is a shortest one.

`python -m clients.bots.explore cloak` runs it against a server in this process (or `--url`), and prints the
way it found as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from clients.bots.client import AsyncBot, CallError
from protocol import messages as m

Goal = Callable[[m.StateResult], bool]


def won(state: m.StateResult) -> bool:
    """The story ended with every point scored."""
    return state.ended and state.score == state.max_score


@dataclass(frozen=True)
class Search:
    """What a search found: the commands that reach the goal (None if it was not reached within the limits),
    how many distinct states it saw, how many commands it tried, the endings that were not the goal, and how
    long it took."""

    world: str
    way: list[str] | None
    states: int
    tried: int
    losses: int
    seconds: float


@dataclass(frozen=True)
class _Node:
    token: str
    way: tuple[str, ...]
    turn: int


async def explore(
    bot: AsyncBot,
    world: str = "cloak",
    *,
    seed: int = 0,
    actor: str | None = None,
    goal: Goal = won,
    max_depth: int = 12,
    max_states: int = 500,
) -> Search:
    """Search `world` breadth first for a state meeting `goal` (a win, by default), within `max_depth`
    commands and `max_states` distinct states; `bot` must be open. The sessions it made are left at the end."""
    started = time.perf_counter()
    await bot.play(world, seed=seed, actor=actor, name="explorer")
    root = await bot.state()
    token = bot.token
    assert token is not None
    seen = {root.hash}
    frontier = deque([_Node(token, (), root.turn)])
    tried = losses = 0
    nodes: list[str] = [token]
    way: list[str] | None = None
    while frontier and way is None and len(seen) < max_states:
        node = frontier.popleft()
        if len(node.way) >= max_depth:
            continue
        resumed, listed = await bot.batch([("resume", {"token": node.token}), ("actions", {})])
        if isinstance(resumed, CallError) or isinstance(listed, CallError):
            continue  # the session expired or its instance is out of service: a lost branch, not the search
        for command in listed.commands:
            tried += 1
            reply, state = await bot.batch([("command", {"text": command}), ("state", {})])
            if isinstance(reply, CallError) or isinstance(state, CallError):
                continue
            advanced = state.turn != node.turn
            if goal(state):
                way = [*node.way, command]
                break
            fresh = state.hash not in seen
            seen.add(state.hash)
            if fresh and state.ended:
                losses += 1
            elif fresh:
                forked, _back, _undone = await bot.batch(
                    [("fork", {}), ("resume", {"token": node.token}), ("undo", {})]
                )
                if isinstance(forked, CallError):
                    raise forked  # the server's instance limit, say: the search cannot go on as asked
                frontier.append(_Node(forked.token, (*node.way, command), state.turn))
                nodes.append(forked.token)
                continue
            if advanced:
                await bot.undo()
    await _let_go(bot, nodes)
    return Search(world, way, len(seen), tried, losses, round(time.perf_counter() - started, 3))


async def _let_go(bot: AsyncBot, tokens: Sequence[str]) -> None:
    """Leave every session the search made (their instances stay, as every instance does)."""
    calls: list[tuple[str, dict[str, Any]]] = []
    for token in tokens:
        calls += [("resume", {"token": token}), ("leave", {})]
    for start in range(0, len(calls), 100):  # within a batch's limit
        await bot.batch(calls[start : start + 100])


async def _main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m clients.bots.explore", description=__doc__.splitlines()[0])
    parser.add_argument("world", nargs="?", default="cloak")
    parser.add_argument("--url", help="a server to search on (default: one started in this process)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--actor")
    parser.add_argument("--max-depth", type=int, default=12)
    parser.add_argument("--max-states", type=int, default=500)
    args = parser.parse_args(argv)
    async with AsyncBot(args.url) as bot:
        found = await explore(
            bot, args.world, seed=args.seed, actor=args.actor, max_depth=args.max_depth, max_states=args.max_states
        )
    print(json.dumps(asdict(found), indent=2))
    return 0 if found.way is not None else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(_main()))
