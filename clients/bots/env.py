"""A Gymnasium environment over the protocol: text in, narration out, reward the change in score.

One episode, in order:
1. `reset(seed=…, options={"world", "actor", "spin"})` leaves the last session, creates an instance of the
   world with that seed (the same seed gives the same story) and joins it: the observation is the opening,
   `info` what was asked for (`Infos`).
2. `step(command)` sends the command and, in the same message, asks for `state` (and `actions`, `concept`
   when asked for): the observation is the reply's narration, the reward the change in score, `terminated`
   the story's ending, `truncated` the step limit.
3. `get_state()` forks the instance (the bot plays on in the copy; the original is kept, untouched, as the
   state) and `set_state(state)` forks that kept one again, so a state can be gone back to as often as
   wanted, without replaying anything.
"""

from __future__ import annotations

import contextlib
import importlib.resources
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

import gymnasium
from gymnasium import spaces

from clients.bots.client import Bot, CallError
from protocol import messages as m

__all__ = ["Command", "CurveshipEnv", "EnvState", "Infos", "Narration"]

COMMAND_LENGTH = 2000
"""The longest command the protocol takes."""

OBSERVATION_LENGTH = 1_000_000
"""The longest narration the observation space admits (a retelling of a long story is long)."""


class Narration(spaces.Text):
    """Text of any characters (narration has punctuation, line breaks, curly quotes and dashes), up to a
    length; samples are drawn from printable ASCII."""

    def __init__(self, max_length: int) -> None:
        super().__init__(max_length, min_length=0, charset=string.printable)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length


class Command(Narration):
    """A command: any text up to the protocol's limit. Samples are a few random letters and spaces (never a
    line of many commands), which the story answers as words it does not know, as it would a person's."""

    SAMPLED = 24
    """The longest sample, in characters."""

    def __init__(self) -> None:
        super().__init__(COMMAND_LENGTH)

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        length = int(self.np_random.integers(1, self.SAMPLED + 1))
        letters = list(string.ascii_lowercase + " ")
        return "".join(str(c) for c in self.np_random.choice(letters, size=length))


@dataclass(frozen=True)
class Infos:
    """What `info` holds, as TextWorld's EnvInfos has it: each field named True is there after reset and every
    step. `valid_actions` and `concept` cost a little more (they are asked for in the same message)."""

    valid_actions: bool = False
    """Commands that would succeed now (`actions`): the admissible commands."""
    score: bool = True
    max_score: bool = True
    moves: bool = True
    """Turns the actor has taken."""
    won: bool = True
    """The story ended with every point scored."""
    lost: bool = True
    """The story ended short of them."""
    room: bool = True
    """The room's tag, and `room_name` as the story heads it."""
    inventory: bool = True
    """Tags of what the actor holds and wears."""
    concept: bool = False
    """The actor's concept tree (`protocol.messages.Node`): what it knows of the world."""
    state_hash: bool = True
    """Changes exactly when the world does: what a search deduplicates by."""
    blocks: bool = True
    """The last reply's headings and paragraphs."""
    turn: bool = True

    @classmethod
    def of(cls, wanted: Infos | Iterable[str] | None) -> Infos:
        """An Infos as given, or one asking for exactly the named fields."""
        if wanted is None or isinstance(wanted, Infos):
            return wanted or cls()
        names = set(wanted)
        known = {f.name for f in fields(cls)}
        if names - known:
            raise ValueError(f"no info named {sorted(names - known)}; the infos are {sorted(known)}")
        return cls(**{name: name in names for name in known})


@dataclass(frozen=True)
class EnvState:
    """A state to go back to (`set_state`): a session kept, untouched, at that turn, and the episode's count."""

    token: str
    score: int
    steps: int
    observation: str
    ended: bool


class CurveshipEnv(gymnasium.Env[str, str]):
    """One actor of one Curveship world as a Gymnasium environment. `url`: a server to play on (none: one
    started in this process); `world`, `actor`, `spin`: the defaults `reset` options override; `max_steps`:
    the step limit (truncation); `infos`: what `info` holds (an Infos, or names of its fields)."""

    metadata = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (Gymnasium's own convention)

    def __init__(
        self,
        world: str = "cloak",
        *,
        url: str | None = None,
        actor: str | None = None,
        spin: m.SpinArgument | None = None,
        max_steps: int = 100,
        infos: Infos | Iterable[str] | None = None,
        render_mode: str | None = None,
        name: str | None = None,
        **bot_options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: this environment renders {self.metadata['render_modes']}")
        self.world, self.actor, self.spin, self.name = world, actor, spin, name
        self.max_steps = max_steps
        self.infos = Infos.of(infos)
        self.render_mode = render_mode
        self.observation_space = Narration(OBSERVATION_LENGTH)
        self.action_space = Command()
        self.bot = Bot(url, **bot_options)
        """The sync bot the environment plays through; `self.bot.bot` is its async twin."""
        self._steps = 0
        self._score = 0
        self._ended = False
        self._observation = ""
        self._closed = False
        self._kept: list[str] = []
        """Tokens of the sessions kept as states, let go of at close."""

    # -- the Gymnasium API --------------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: Mapping[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - {"world", "actor", "spin"}
        if unknown:
            raise ValueError(f"reset takes the options world, actor and spin, not {sorted(unknown)}")
        world = options.get("world", self.world)
        story_seed = seed if seed is not None else int(self.np_random.integers(2**31))
        if self.bot.instance is not None:
            self._leave()
        joined = self.bot.play(
            world,
            seed=story_seed,
            actor=options.get("actor", self.actor),
            name=self.name,
            spin=options.get("spin", self.spin),
        )
        self.world = world
        state, extra = self._looked([])
        self._steps, self._score, self._ended = 0, state.score, state.ended
        self._observation = joined.text
        return joined.text, self._info(state, joined.blocks, extra)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self._ended:
            raise gymnasium.error.ResetNeeded("the story has ended: call reset() before another step")
        if self.bot.instance is None:
            raise gymnasium.error.ResetNeeded("no story yet: call reset() first")
        reply, state, extra = self._commanded(action)
        reward = float(state.score - self._score)
        self._steps += 1
        self._score, self._ended = state.score, state.ended
        self._observation = reply.text
        truncated = self._steps >= self.max_steps and not state.ended
        if self.render_mode == "human":
            print(reply.text)
        return reply.text, reward, state.ended, truncated, self._info(state, reply.blocks, extra)

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self._observation
        if self.render_mode == "human":
            print(self._observation)
        return None

    def close(self) -> None:
        """Leave the session and every one kept as a state, then close the bot (and its in-process server)."""
        if self._closed:
            return
        self._closed = True
        try:
            if self.bot.instance is not None:
                self._leave()
            calls: list[tuple[str, dict[str, Any]]] = []
            for token in self._kept:
                calls += [("resume", {"token": token}), ("leave", {})]
            if calls:
                self.bot.batch(calls)
        finally:
            self._kept.clear()
            self.bot.close()

    def walkthrough(self) -> list[str]:
        """The winning commands of the world being played (`worlds/walks/`), for an expert policy or a test: the
        bank's is the robbery as it went in 2011, which ends badly for the robber."""
        return walkthrough(self.world)

    # -- going back without replaying ----------------------------------------------------------------------

    def get_state(self) -> EnvState:
        """The story as it stands, to come back to with `set_state`: the session is forked, play goes on in the
        copy, and the original is kept untouched."""
        token = self.bot.token
        if token is None:
            raise gymnasium.error.ResetNeeded("no story yet: call reset() first")
        self.bot.fork()
        self._kept.append(token)
        return EnvState(token, self._score, self._steps, self._observation, self._ended)

    def set_state(self, state: EnvState) -> None:
        """Go back to a state `get_state` gave: a fresh copy of the session kept there (which stays as it was,
        for another time), in place of the session played now, which is left."""
        answers = self.bot.batch([("leave", {}), ("resume", {"token": state.token}), ("fork", {})])
        for answer in answers[1:]:
            if isinstance(answer, CallError):
                raise answer
        self._score, self._steps, self._observation, self._ended = (
            state.score,
            state.steps,
            state.observation,
            state.ended,
        )

    # -- helpers ----------------------------------------------------------------------------------------------

    def _leave(self) -> None:
        with contextlib.suppress(CallError):  # already gone (expired, or out of service): nothing to free
            self.bot.leave()

    def _extra_calls(self) -> list[tuple[str, dict[str, Any]]]:
        calls: list[tuple[str, dict[str, Any]]] = [("state", {})]
        if self.infos.valid_actions:
            calls.append(("actions", {}))
        if self.infos.concept:
            calls.append(("concept", {}))
        return calls

    def _looked(self, first: list[tuple[str, dict[str, Any]]]) -> tuple[m.StateResult, list[Any]]:
        answers = self.bot.batch([*first, *self._extra_calls()])
        for answer in answers:
            if isinstance(answer, CallError):
                raise answer
        return answers[len(first)], answers[len(first) + 1 :]

    def _commanded(self, command: str) -> tuple[m.Reply, m.StateResult, list[Any]]:
        answers = self.bot.batch([("command", {"text": command}), *self._extra_calls()])
        for answer in answers:
            if isinstance(answer, CallError):
                raise answer
        return answers[0], answers[1], answers[2:]

    def _info(self, state: m.StateResult, blocks: list[m.Block], extra: list[Any]) -> dict[str, Any]:
        wanted = self.infos
        won = state.ended and state.score == state.max_score
        found: dict[str, Any] = {}
        if wanted.score:
            found["score"] = state.score
        if wanted.max_score:
            found["max_score"] = state.max_score
        if wanted.moves:
            found["moves"] = state.moves
        if wanted.turn:
            found["turn"] = state.turn
        if wanted.won:
            found["won"] = won
        if wanted.lost:
            found["lost"] = state.ended and not won
        if wanted.room:
            found["room"], found["room_name"] = state.room, state.room_name
        if wanted.inventory:
            found["inventory"] = list(state.inventory)
        if wanted.state_hash:
            found["state_hash"] = state.hash
        if wanted.blocks:
            found["blocks"] = list(blocks)
        answers = iter(extra)
        if wanted.valid_actions:
            found["valid_actions"] = next(answers).commands
        if wanted.concept:
            found["concept"] = next(answers).tree
        return found


def walkthrough(world: str) -> list[str]:
    """A shipped world's walkthrough, its commands in order (comments and blank lines left out); FileNotFoundError
    for a world that has none."""
    text = (importlib.resources.files("worlds") / "walks" / f"{world}.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
