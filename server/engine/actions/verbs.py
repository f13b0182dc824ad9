"""The standard verbs worlds build on: each makes an action with its template, checks and entailments."""

from __future__ import annotations

from server.engine.actions.action import Action, Behave, Configure, SenseAction
from server.engine.world.state import WorldState


def look(agent: str, at: str | None = None, *, salience: float = 0.5) -> SenseAction:
    """Look around (at=None) or at something; told to the one looking as what it saw."""
    template = "[agent/s] [look/v] around" if at is None else "[agent/s] [look/v] at [direct/o]"
    return SenseAction(
        verb="look", agent=agent, direct=at, template=template, salience=salience, description=True
    )


def go(
    agent: str,
    to: str,
    *,
    direction: str | None = None,
    link: str = "in",
    look_after: bool = False,
    salience: float = 0.5,
) -> Configure:
    """Leave the room one is in for `to`. The departure is seen from the room left; the arrival it entails
    from the room entered (and, if `look_after`, the arrival entails a look around)."""

    def arrive(action: Action, world: WorldState) -> list[Action]:
        entered = Behave(
            verb="enter",
            agent=agent,
            template="[agent/s] [enter/v] [room/o]",
            witnessed="after",
            salience=salience,
        )
        return [entered, look(agent)] if look_after else [entered]

    return Configure(
        verb="leave",
        agent=agent,
        direct=agent,
        to=f"{link} {to}",
        direction=direction,
        template="[agent/s] [leave/v] [parent/o]",
        witnessed="before",
        salience=salience,
        entails=arrive,
    )
