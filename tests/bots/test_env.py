"""The Gymnasium environment against real servers: made by id, checked by Gymnasium's own checker, played to
the win with rewards from the score, cut off at its step limit, and taken back to a state by fork."""

from __future__ import annotations

from collections.abc import Iterator

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

import clients.bots
from clients.bots import Bot, CallError
from clients.bots.env import CurveshipEnv, EnvState
from protocol.errors import Code
from server.catalog import walked_worlds

WALK = ("w", "hang cloak on hook", "e", "s", "read message")


@pytest.fixture
def env() -> Iterator[CurveshipEnv]:
    made = gymnasium.make("curveship/cloak", infos=["valid_actions", "score", "max_score", "won", "lost", "moves"])
    yield made.unwrapped  # type: ignore[misc]
    made.close()


def test_one_id_for_each_interactive_world_the_server_has() -> None:
    with Bot() as bot:
        interactive = {world.name for world in bot.worlds() if world.interactive}
    assert {f"curveship/{name}" for name in interactive} == set(clients.bots.register())
    assert all(env_id in gymnasium.registry for env_id in clients.bots.register())


def test_gymnasiums_checker_passes() -> None:
    env = CurveshipEnv("cloak", max_steps=5)
    try:
        check_env(env, skip_render_check=True)
    finally:
        env.close()


def test_the_walkthrough_wins_with_a_point_for_the_cloak_and_one_for_the_message(env: CurveshipEnv) -> None:
    observation, info = env.reset(seed=4)
    assert observation.startswith("Cloak of Darkness") and "Foyer of the Opera House" in observation
    assert (info["score"], info["max_score"], info["moves"], info["won"]) == (0, 2, 0, False)
    assert "go west" in info["valid_actions"]
    rewards = []
    for line in WALK:
        observation, reward, terminated, truncated, info = env.step(line)
        rewards.append(reward)
    assert rewards == [0.0, 1.0, 0.0, 0.0, 1.0]
    assert (terminated, truncated, info["won"], info["lost"], info["moves"]) == (True, False, True, False, 5)
    assert "YOU HAVE WON" in observation and info["valid_actions"] == []
    with pytest.raises(gymnasium.error.ResetNeeded, match="ended"):
        env.step("look")


def test_trampling_the_message_is_a_loss(env: CurveshipEnv) -> None:
    env.reset(seed=1)
    for line in ("s", "dance", "dance", "n", "w", "hang cloak on hook", "e", "s"):
        env.step(line)
    _, reward, terminated, _, info = env.step("read message")
    assert (reward, terminated, info["won"], info["lost"], info["score"]) == (0.0, True, False, True, 1)


def test_the_step_limit_truncates_and_a_command_too_long_is_refused() -> None:
    env = CurveshipEnv("lost_one", max_steps=2, infos=["room", "state_hash", "blocks"])
    try:
        _, info = env.reset(seed=0, options={"actor": "@punk"})
        assert set(info) == {"room", "room_name", "state_hash", "blocks"} and info["room"]
        assert env.step("wait")[3] is False
        _, _, terminated, truncated, _ = env.step("wait")
        assert (terminated, truncated) == (False, True)
        with pytest.raises(CallError) as refused:
            env.step("x" * 2001)
        assert refused.value.code == Code.INVALID_PARAMS
        with pytest.raises(ValueError, match="options"):
            env.reset(options={"wrold": "cloak"})
    finally:
        env.close()


def test_reset_takes_another_world_actor_and_spin_and_a_seed_repeats_the_story(env: CurveshipEnv) -> None:
    first, _ = env.reset(seed=9, options={"world": "bank", "actor": "@teller", "spin": "memoir"})
    assert env.bot.actor == "@teller" and "bank" in first.lower()
    step = env.step("wait")[0]
    again, _ = env.reset(seed=9, options={"world": "bank", "actor": "@teller", "spin": "memoir"})
    assert (again, env.step("wait")[0]) == (first, step)


def test_set_state_goes_back_to_a_state_as_often_as_wanted(env: CurveshipEnv) -> None:
    env.reset(seed=3)
    env.step("w")
    saved = env.get_state()
    assert isinstance(saved, EnvState)
    _, _, _, _, info = env.step("hang cloak on hook")
    hung = info["score"]
    for _ in range(2):
        env.set_state(saved)
        state = env.bot.state()
        assert (state.room, state.inventory, state.score, state.turn) == ("@cloakroom", ["@cloak"], 0, 1)
        _, reward, _, _, info = env.step("hang cloak on hook")
        assert (reward, info["score"]) == (1.0, hung)
    for line in WALK[2:]:
        _, _, terminated, _, info = env.step(line)
    assert terminated and info["won"]
    env.set_state(saved)  # back from the ending, too
    assert env.step("e")[4]["score"] == 0


@pytest.mark.parametrize("world", walked_worlds())
def test_every_walkthrough_plays_to_its_ending_through_the_environment(world: str) -> None:
    env = CurveshipEnv(world)
    try:
        env.reset(seed=0)
        total = 0.0
        for command in env.walkthrough():
            _, reward, terminated, _, info = env.step(command)
            total += reward
        assert terminated, world
        assert total == info["score"]
        if world == "bank":  # the robbery as it went: the robber, his gun brandished, is shot dead
            assert (info["lost"], info["score"], info["max_score"]) == (True, 1, 3)
        else:
            assert info["won"] and info["score"] == info["max_score"] > 0, world
    finally:
        env.close()


def test_an_unknown_world_or_actor_is_named_in_the_error(env: CurveshipEnv) -> None:
    with pytest.raises(CallError) as world:
        env.reset(options={"world": "atlantis"})
    assert world.value.code == Code.UNKNOWN and "atlantis" in world.value.message
    with pytest.raises(CallError) as actor:
        env.reset(options={"actor": "@nobody"})
    assert actor.value.code == Code.UNKNOWN and "@nobody" in actor.value.message
    observation, _ = env.reset(seed=1)  # and the environment still plays
    assert observation.startswith("Cloak of Darkness")
