"""Several agents in one story: the bank's robber, teller and guard, each observing its own focalized telling of
the same rounds, through a real server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from clients.bots.agents import MultiAgentEnv


@pytest.fixture
def bank() -> Iterator[MultiAgentEnv]:
    env = MultiAgentEnv("bank", max_steps=5)
    yield env
    env.close()


def test_each_agent_is_told_the_round_through_its_own_actor(bank: MultiAgentEnv) -> None:
    observations, infos = bank.reset(seed=0)
    assert bank.agents == ["@robber", "@teller", "@guard"]
    assert {agent: infos[agent]["room"] for agent in bank.agents} == {
        "@robber": "@street",
        "@teller": "@vestibule",
        "@guard": "@guard_post",
    }
    assert "Street" in observations["@robber"] and "Vestibule" in observations["@teller"]

    bank.step({"@robber": "wear mask"})
    observations, *_ = bank.step({"@robber": "in"})
    assert observations["@robber"].startswith("You leave the street.")
    assert "enters the lobby" in observations["@teller"], "the teller, looking up, sees the robber come in"
    assert observations["@guard"] == "", "the guard, snoozing at his post, perceives nothing of it"

    observations, rewards, *_ = bank.step({"@robber": "brandish gun at teller", "@teller": "look"})
    assert "brandishes" in observations["@teller"] and "at you" in observations["@teller"]
    assert observations["@teller"].index("brandishes") < observations["@teller"].index("Vestibule"), "in turn order"
    assert rewards == {"@robber": 1.0, "@teller": 1.0, "@guard": 1.0}, "the threat is the robber's first point"


def test_a_round_limit_truncates_every_agent_and_unknown_agents_are_refused(bank: MultiAgentEnv) -> None:
    bank.reset(seed=0)
    with pytest.raises(ValueError, match="no agent"):
        bank.step({"@mime": "wave"})
    for _ in range(4):
        bank.step({"@guard": "wait"})
    _, _, terminated, truncated, _ = bank.step({"@guard": "wait"})
    assert truncated == dict.fromkeys(["@robber", "@teller", "@guard"], True)
    assert not any(terminated.values()) and bank.agents == []
