"""The breadth-first explorer wins Cloak of Darkness from `actions` and `state` alone, without a walkthrough,
and the way it found wins again when played through the environment."""

from __future__ import annotations

import pytest

from clients.bots import AsyncBot
from clients.bots.env import CurveshipEnv
from clients.bots.explore import explore
from tests.bots.conftest import Running


@pytest.mark.asyncio
async def test_the_explorer_wins_cloak_with_no_walkthrough(roomy: Running) -> None:
    async with AsyncBot(roomy.url) as bot:
        found = await explore(bot, "cloak", seed=0)
        assert found.way is not None, found
        # Five commands is the shortest win (west, hang the cloak, east, south, read), and BFS finds a shortest.
        assert len(found.way) == 5 and found.states < 100, found
        assert found.losses >= 1, "the dark bar's trampled message was met, and not taken for a win"
        instances = await bot.instances()
    assert all(not info.players for info in instances), "the search left every session it made"

    env = CurveshipEnv("cloak")
    try:
        env.reset(seed=0)
        for command in found.way:
            _, _, terminated, _, info = env.step(command)
        assert terminated and info["won"]
    finally:
        env.close()


@pytest.mark.asyncio
async def test_the_explorer_stops_at_its_limits_and_says_it_found_nothing(roomy: Running) -> None:
    async with AsyncBot(roomy.url) as bot:
        found = await explore(bot, "cloak", max_depth=3)
    assert found.way is None and found.states > 1
