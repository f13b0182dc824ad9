"""A forked instance is kept like any other: after the server restarts on its data directory, both the copy and
the original are back, each at its own turn, and each session resumes where it was."""

from __future__ import annotations

import pytest

from clients.bots import AsyncBot
from tests.bots.conftest import Running


@pytest.mark.asyncio
async def test_a_fork_and_its_original_both_come_back_after_a_restart(keeping: Running) -> None:
    async with AsyncBot(keeping.url) as bot:
        await bot.play("cloak", seed=5)
        await bot.command("w")
        original = bot.token
        forked = await bot.fork()
        await bot.command("hang cloak on hook")
        copied = await bot.state()
        assert original is not None and copied.score == 1
    await keeping.replace()  # a new app on the same data directory: only what was stored comes back
    async with AsyncBot(keeping.url) as bot:
        back = await bot.resume(forked.token)
        assert back.instance == forked.instance
        again = await bot.state()
        assert (again.turn, again.hash, again.score) == (copied.turn, copied.hash, 1)
        await bot.resume(original)
        first = await bot.state()
        assert (first.turn, first.room, first.score, first.inventory) == (1, "@cloakroom", 0, ["@cloak"])
