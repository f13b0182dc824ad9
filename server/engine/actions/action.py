"""Actions (behave, configure, modify, sense), the reasons they fail, and the events they become."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from server.engine.errors import WorldError
from server.engine.world.items import LINKS, TAG, Link, Sense

if TYPE_CHECKING:
    from server.engine.world.perception import Perception
    from server.engine.world.state import WorldState

Kind = Literal["behave", "configure", "modify", "sense"]
Witnessed = Literal["before", "after", "either", "arrival", "newcomers", "agent"]
Outcome = Literal["done", "failed", "refused", "prevented"]

NEVER_TOLD = 0.2
"""Events of lower salience are never told."""

FULLY_TOLD = 0.75
"""Events above this salience are told even by the fastest spin."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an action did not happen: a name tests and worlds can match, and a template that tells it.

    The template uses the action's roles: [agent/s], [direct/o], [indirect/o], [target/o] (where a
    configure action puts its item), [parent/o] (where the item is now). A reason told `alone` stands in
    place of the attempt ("You can't go that way."); otherwise it follows it ("You are unable to take the
    hook because it is fixed to the wall."). `instead` are actions that happen in its place (blundering in
    the dark disturbs what is on the floor)."""

    name: str
    template: str
    alone: bool = False
    instead: tuple[Action, ...] = ()


Check = Callable[["Action", "WorldState", "Perception"], "Reason | None"]
Entailment = Callable[["Action", "WorldState"], "list[Action]"]


@dataclass(frozen=True, kw_only=True)
class Action:
    """Something an actor does or tries to do. Roles are item tags; `template` tells it.

    `salience` (0..1): below 0.2 never told; above 0.75 told even when the spin is fast.
    `progressive`: an activity told in the progressive ("was snoozing") whatever the spin.
    `witnessed`: whether onlookers perceive it by seeing the agent or direct object before the change,
    after it, or either (a departure is seen from the room left); an `arrival` is perceived by the one
    arriving and by those who see it now but did not see it leave; `newcomers` leaves out the one arriving
    (when a look around will tell it where it is); `agent`: only the agent itself (taking in the scene at
    the start of a story).
    `checks`: verb-specific preconditions, run before the ones every action of its kind has.
    `unanswered`: a precondition that holds only when nothing in the world answers the action (no reaction
    to it): reading what has nothing written on it fails, unless the world makes something of the reading.
    `entails`: what doing it brings about at once (leaving entails arriving, which entails looking).
    `duration`: for an activity lasting several ticks, how many ticks after its start it ends.
    """

    kind: Kind = "behave"
    verb: str
    agent: str
    direct: str | None = None
    indirect: str | None = None
    template: str = ""
    salience: float = 0.5
    final: bool = False
    progressive: bool = False
    witnessed: Witnessed = "either"
    direction: str | None = None
    utterance: str | None = None
    checks: tuple[Check, ...] = ()
    unanswered: Check | None = None
    entails: Entailment | None = None
    duration: int = 0
    data: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for role in ("agent", "direct", "indirect"):
            value = getattr(self, role)
            if value is not None and not TAG.match(value):
                raise WorldError(f"action {self.verb!r}: {role} {value!r} is not a tag like @lobby")
        if not 0.0 <= self.salience <= 1.0:
            raise WorldError(f"action {self.verb!r}: salience must be between 0 and 1")

    @property
    def told_as(self) -> str:
        """The template that tells this action; a plain one from the verb when none was given."""
        if self.template:
            return self.template
        words = ["[agent/s]", f"[{self.verb}/v]"]
        if self.direct:
            words.append("[direct/o]")
        return " ".join(words)


@dataclass(frozen=True, kw_only=True)
class Behave(Action):
    """An action that changes nothing in the world: wave, laugh, wait."""

    kind: Kind = "behave"


@dataclass(frozen=True, kw_only=True)
class Configure(Action):
    """An action that moves its direct object to a new place: `to="in @bag"`."""

    kind: Kind = "configure"
    to: str = ""

    def __post_init__(self) -> None:
        Action.__post_init__(self)
        if self.direct is None:
            raise WorldError(f"configure action {self.verb!r} needs a direct object, the item it moves")
        self.destination()

    def destination(self) -> tuple[Link, str]:
        parts = self.to.split()
        if len(parts) != 2 or parts[0] not in LINKS or not TAG.match(parts[1]):
            raise WorldError(f"action {self.verb!r}: to={self.to!r} should be a link and a tag, like 'in @bag'")
        return parts[0], parts[1]  # type: ignore[return-value]


@dataclass(frozen=True, kw_only=True)
class Modify(Action):
    """An action that sets one feature of its direct object (or of its agent): open, light, wake."""

    kind: Kind = "modify"
    feature: str = ""
    value: Any = None

    def __post_init__(self) -> None:
        Action.__post_init__(self)
        if not self.feature:
            raise WorldError(f"modify action {self.verb!r} needs the feature it sets")

    @property
    def target_item(self) -> str:
        return self.direct or self.agent


@dataclass(frozen=True, kw_only=True)
class SenseAction(Action):
    """An action of perceiving through one modality: look at, listen, smell, taste, touch.

    `description`: told to the one perceiving as what it perceived (a look tells the room), rather than
    as the act ("the guard sees the twitchy man")."""

    kind: Kind = "sense"
    modality: Sense = "sight"
    description: bool = False


def felt_by_direct(action: Action) -> bool:
    """Whether the action does something to its direct object that can be perceived there without seeing
    the agent: moving it or changing it, or a touch. Looking at something, listening to it, smelling it or a
    gesture at it leaves it as it was, so only those who see the agent perceive it: no one notices being
    looked at by someone they cannot see."""
    if action.kind in ("configure", "modify"):
        return True
    if isinstance(action, SenseAction):
        return action.modality in ("touch", "taste")
    return bool(action.data.get("touching"))


@dataclass(frozen=True, slots=True)
class Event:
    """An action as it happened (or failed to): told later through whoever perceived it.

    `id` is the event number, unique and increasing across the story; `tick` and `end` its start and end
    on the story's clock; `turn` the player turn it belongs to; `room` where its agent was.
    `observed` lists what a look let its agent see, so the look can be told as a description; `lit` says
    whether the agent's surroundings were light enough to see by.
    """

    id: int
    action: Action
    tick: int
    end: int
    turn: int
    cause: str
    outcome: Outcome
    reason: Reason | None
    room: str | None
    parent: str | None
    perceivers: frozenset[str]
    observed: tuple[str, ...] = ()
    lit: bool = True

    @property
    def done(self) -> bool:
        return self.outcome == "done"
