"""Each example bot runs against a real server (its own, in the process) and does what it says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from clients.bots.examples import explorer, narrator, random_agent, walkthrough_player
from tests.clients.conftest import ROOT


def test_the_random_agent_plays_its_steps_in_episodes() -> None:
    played = random_agent.play("cloak", steps=30, seed=1)
    assert played["steps"] == 30 and played["max_score"] == 2
    assert all(0 <= episode["score"] <= 2 for episode in played["episodes"])


def test_the_walkthrough_player_wins_and_shows_every_command() -> None:
    printed, info = walkthrough_player.play("artmaking")
    assert info["won"] and printed[-1] == "[score 1 of 1; won]"
    assert "> kick it" in printed


@pytest.mark.asyncio
async def test_the_explorer_example_wins_and_tells_the_way() -> None:
    lines = await explorer.run("cloak")
    assert lines[0].startswith("won in 5 commands")
    assert any("YOU HAVE WON" in line for line in lines)


def test_the_narrator_retells_the_story_under_every_spin_into_files(tmp_path: Path) -> None:
    done = narrator.retell("cloak", tmp_path)
    assert "cloak.memoir.txt" in done["written"] and "told_and_focalized_by_guard" in done["skipped"]
    memoir = (tmp_path / "cloak.memoir.txt").read_text()
    prophecy = (tmp_path / "cloak.prophecy.txt").read_text()
    assert memoir != prophecy and "will" in prophecy
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(done["written"])


def test_an_example_runs_with_one_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "clients.bots.examples.walkthrough_player", "cloak"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    assert done.stdout.rstrip().endswith("[score 2 of 2; won]")
