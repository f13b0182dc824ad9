"""Several agents in one story: each plays its own actor of one instance and observes its own focalized telling
(the bank's robber, teller and guard), in the shape of PettingZoo's parallel API.

A round, in order:
1. `step({agent: command, …})` gives each agent's command in turn, in the order of `agents` (each command is
   a tick of the whole world; an agent given none waits, untold, as a player who types nothing does).
2. Each agent then asks its `state`, one round trip on its own socket, by which time every narration the
   server sent it of the others' turns has arrived (one socket keeps its messages in order).
3. Its observation is the round told through its own actor: its own reply and what it perceived of the
   others' turns, in the order of the turns. Each agent's reward is the change in the world's score (a
   world keeps one score; an agent with other ends can read `info`); the round terminates every agent when
   the story ends, and truncates them at `max_steps` rounds.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from clients.bots.client import AsyncBot, Bot, CallError
from protocol import messages as m

__all__ = ["MultiAgentEnv"]


class MultiAgentEnv:
    """One instance of `world`, an agent for each of `agents` (the world's playable actors by default), all on
    one server (`url`, or one started in this process)."""

    metadata = {"name": "curveship_multi_agent"}  # noqa: RUF012 (PettingZoo's convention)

    def __init__(
        self,
        world: str = "bank",
        *,
        agents: Sequence[str] | None = None,
        url: str | None = None,
        spin: m.SpinArgument | None = None,
        max_steps: int = 100,
    ) -> None:
        self.world, self.spin, self.max_steps = world, spin, max_steps
        self.desk = Bot(url)
        """Creates the instances; the agents' bots share its server and its loop."""
        found = next((w for w in self.desk.worlds() if w.name == world), None)
        if found is None or not found.interactive:
            self.desk.close()
            raise ValueError(f"no interactive world {world!r} here")
        self.possible_agents = list(agents) if agents else [actor.tag for actor in found.actors]
        self.agents: list[str] = []
        self._bots = {agent: AsyncBot(self.desk.url) for agent in self.possible_agents}
        for bot in self._bots.values():
            self.desk.run(bot.open())
        self._score = 0
        self._steps = 0

    def reset(
        self, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
        """A new instance, every agent joined as its actor: each one's opening, and each one's info."""
        return self.desk.run(self._reset(seed))

    def step(
        self, actions: Mapping[str, str]
    ) -> tuple[dict[str, str], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        """One round: each agent's command in turn, then each one's view of the round."""
        unknown = set(actions) - set(self.agents)
        if unknown:
            raise ValueError(f"no agent {sorted(unknown)} in this story; the agents are {self.agents}")
        return self.desk.run(self._step(actions))

    def close(self) -> None:
        async def closing() -> None:
            for bot in self._bots.values():
                if bot.instance is not None:
                    with contextlib.suppress(CallError):
                        await bot.leave()
                await bot.close()

        try:
            self.desk.run(closing())
        finally:
            self.desk.close()

    # -- on the loop -----------------------------------------------------------------------------------------

    async def _reset(self, seed: int | None) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
        for bot in self._bots.values():
            if bot.instance is not None:
                with contextlib.suppress(CallError):
                    await bot.leave()
        instance = await self._bots[self.possible_agents[0]].create(self.world, seed=seed)
        observations = {}
        for agent, bot in self._bots.items():
            joined = await bot.join(instance, actor=agent, name=agent.lstrip("@"), spin=self.spin)
            observations[agent] = joined.text
        for bot in self._bots.values():
            bot.arrived()  # the others' joining: presence, not story
        states = {agent: await bot.state() for agent, bot in self._bots.items()}
        self.agents = list(self.possible_agents)
        self._score, self._steps = next(iter(states.values())).score, 0
        return observations, {agent: _info(state) for agent, state in states.items()}

    async def _step(
        self, actions: Mapping[str, str]
    ) -> tuple[dict[str, str], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        told: dict[str, list[tuple[int, str]]] = {agent: [] for agent in self.agents}
        for agent in self.agents:
            if agent not in actions:
                continue
            reply = await self._bots[agent].command(actions[agent])
            told[agent].append((reply.turn, reply.text))
            if reply.ended:
                break  # the story is over: nobody after this agent acts
        states = {}
        for agent in self.agents:
            bot = self._bots[agent]
            states[agent] = await bot.state()
            told[agent] += [(note.turn, note.text) for note in bot.arrived() if isinstance(note, m.Narration)]
        self._steps += 1
        score = next(iter(states.values())).score
        reward, self._score = float(score - self._score), score
        ended = any(state.ended for state in states.values())
        truncated = self._steps >= self.max_steps and not ended
        observations = {
            agent: "\n\n".join(text for _, text in sorted(parts, key=lambda part: part[0]) if text)
            for agent, parts in told.items()
        }
        agents = list(self.agents)
        if ended or truncated:
            self.agents = []
        return (
            observations,
            dict.fromkeys(agents, reward),
            dict.fromkeys(agents, ended),
            dict.fromkeys(agents, truncated),
            {agent: _info(states[agent]) for agent in agents},
        )


def _info(state: m.StateResult) -> dict[str, Any]:
    won = state.ended and state.score == state.max_score
    return {
        "score": state.score,
        "max_score": state.max_score,
        "moves": state.moves,
        "turn": state.turn,
        "room": state.room,
        "room_name": state.room_name,
        "inventory": list(state.inventory),
        "state_hash": state.hash,
        "won": won,
        "lost": state.ended and not won,
    }
