"""The standard verbs worlds build on: each makes an action with its template, checks and entailments."""

from __future__ import annotations

from collections.abc import Callable

from server.engine.actions.action import Action, Behave, Check, Configure, Modify, Reason, SenseAction
from server.engine.copying import replace
from server.engine.english.words import direction_name
from server.engine.world.items import Door, Room, Sense
from server.engine.world.perception import Perception
from server.engine.world.state import WorldState

# -- checks ---------------------------------------------------------------------------------------------


def precondition(test: Callable[[Action, WorldState], bool], name: str, template: str, *, alone: bool = False) -> Check:
    """A precondition: when `test` fails, the action fails for the reason `template` gives."""

    def check(action: Action, world: WorldState, sight: Perception) -> Reason | None:
        return None if test(action, world) else Reason(name, template, alone)

    return check


def _holds(action: Action, world: WorldState) -> bool:
    return action.direct is not None and world.parent(action.direct) == action.agent


def _wears(action: Action, world: WorldState) -> bool:
    return _holds(action, world) and world.link(action.direct or "") == "on"


def _not_actor(action: Action, world: WorldState) -> bool:
    return action.direct is not None and world.items[action.direct].kind != "actor"


def _has(feature: str, role: str = "direct") -> Callable[[Action, WorldState], bool]:
    def test(action: Action, world: WorldState) -> bool:
        tag = getattr(action, role)
        return tag is not None and world.get(tag, feature) is not None

    return test


def _quality(quality: str) -> Callable[[Action, WorldState], bool]:
    def test(action: Action, world: WorldState) -> bool:
        return action.direct is not None and quality in world.items[action.direct].qualities

    return test


def _recipient_is_actor(action: Action, world: WorldState) -> bool:
    return action.indirect is not None and world.items[action.indirect].kind == "actor"


def _to_another(action: Action, world: WorldState) -> bool:
    return action.indirect != action.agent


def where_word(world: WorldState, holder: str) -> str:
    """How things are with `holder`, for saying where something is or is not: in a room or container, on a
    supporter, held by an actor."""
    item = world.items[holder]
    if isinstance(item, Room) or "in" in item.holds:
        return "in"
    if "on" in item.holds:
        return "on"
    return "held by" if item.kind == "actor" else "in"


def _with(role: str) -> Callable[[Action, WorldState], bool]:
    """Whether the direct object is in, on, held by or part of the item in `role` (at any depth)."""

    def test(action: Action, world: WorldState) -> bool:
        holder = getattr(action, role)
        return holder is None or (action.direct is not None and world.is_descendant(action.direct, holder))

    return test


def _not_with(role: str) -> Check:
    def check(action: Action, world: WorldState, sight: Perception) -> Reason | None:
        if _with(role)(action, world):
            return None
        holder = getattr(action, role)
        return Reason("not there", f"[direct/s] [be/not/v] {where_word(world, holder)} [{role}/o]", alone=True)

    return check


NOT_ONTO_PEOPLE = precondition(
    lambda a, w: a.indirect is None or w.items[a.indirect].kind != "actor",
    "a person",
    "[indirect/s] [be/not/v] somewhere to put things",
)
HELD = precondition(_holds, "not held", "[agent/s] [have/not/v] [direct/o]")
HELD_SECOND = precondition(
    lambda a, w: a.indirect is None or w.parent(a.indirect) == a.agent,
    "not held",
    "[agent/s] [have/not/v] [indirect/o]",
)
"""What one does something with ("strike the box with the rod") is in hand: not given away, not lying about."""
FIXED = precondition(
    lambda a, w: a.direct is None or w.link(a.direct) != "part_of",
    "fixed",
    "[direct/s] [be/v] fixed to [parent/o]",
)
"""What is part of something else (a hook of a wall) stays with it: it is not freed, waved or shaken loose."""
WORN = precondition(_wears, "not worn", "[agent/s] [be/not/v] wearing [direct/o]")
A_THING = precondition(_not_actor, "a person", "[direct/s] [be/not/v] something to carry about")
TO_AN_ACTOR = precondition(_recipient_is_actor, "not a person", "[indirect/s] [can/not/v] take things")
TO_ANOTHER = precondition(_to_another, "to oneself", "[agent/s] [can/not/v] give [direct/o] to [agent/o]", alone=True)
FROM_THERE = _not_with("indirect")
"""Taking something from, or freeing it from, where it is not fails ("The ticket is not in the large sack")."""


# -- moving things ---------------------------------------------------------------------------------


NOT_YET_HAD = precondition(
    lambda a, w: w.parent(a.direct or "") != a.agent, "already had", "[agent/s] already [have/v] [direct/o]"
)


def take(agent: str, item: str) -> Configure:
    return Configure(
        verb="take",
        agent=agent,
        direct=item,
        to=f"of {agent}",
        template="[agent/s] [take/v] [direct/o]",
        checks=(A_THING, NOT_YET_HAD),
    )


def drop(agent: str, item: str, world: WorldState) -> Configure:
    place = world.parent(agent) or agent
    link = world.link(agent) or "in"
    return Configure(
        verb="drop",
        agent=agent,
        direct=item,
        to=f"{link} {place}",
        template="[agent/s] [drop/v] [direct/o]",
        checks=(HELD,),
    )


def put(agent: str, item: str, link: str, place: str) -> Configure:
    """Put in or on something; told "puts the cloak on the hook"."""
    return Configure(
        verb="put",
        agent=agent,
        direct=item,
        indirect=place,
        to=f"{link} {place}",
        template=f"[agent/s] [put/v] [direct/o] {link} [indirect/o]",
        checks=(NOT_ONTO_PEOPLE,),
    )


def remove(agent: str, item: str, source: str) -> Configure:
    return Configure(
        verb="remove",
        agent=agent,
        direct=item,
        indirect=source,
        to=f"of {agent}",
        template="[agent/s] [take/v] [direct/o] from [indirect/o]",
        checks=(FROM_THERE,),
    )


def wear(agent: str, item: str) -> Configure:
    return Configure(
        verb="wear",
        agent=agent,
        direct=item,
        to=f"on {agent}",
        template="[agent/s] [put/v] on [direct/o]",
        checks=(precondition(_quality("clothing"), "not clothing", "[direct/s] [be/not/v] something to wear"),),
    )


def take_off(agent: str, item: str) -> Configure:
    return Configure(
        verb="take off",
        agent=agent,
        direct=item,
        to=f"of {agent}",
        template="[agent/s] [take/v] off [direct/o]",
        checks=(WORN,),
    )


def give(agent: str, item: str, recipient: str) -> Configure:
    return Configure(
        verb="give",
        agent=agent,
        direct=item,
        indirect=recipient,
        to=f"of {recipient}",
        template="[agent/s] [give/v] [direct/o] to [indirect/o]",
        checks=(HELD, TO_AN_ACTOR, TO_ANOTHER),
    )


def feed(agent: str, food: str, recipient: str) -> Configure:
    return Configure(
        verb="feed",
        agent=agent,
        direct=food,
        indirect=recipient,
        to=f"of {recipient}",
        template="[agent/s] [feed/v] [direct/o] to [indirect/o]",
        checks=(
            HELD,
            TO_AN_ACTOR,
            TO_ANOTHER,
            precondition(_quality("food"), "not food", "[direct/s] [be/not/v] something to eat"),
        ),
    )


def throw(agent: str, item: str, world: WorldState, at: str | None = None) -> Configure:
    room = world.room_of(agent) or agent
    template = "[agent/s] [throw/v] [direct/o]" + (" at [indirect/o]" if at else "")
    return Configure(
        verb="throw", agent=agent, direct=item, indirect=at, to=f"in {room}", template=template, checks=(HELD,)
    )


def eat(agent: str, food: str) -> Configure:
    """Eating moves the food out of the world: it is used up."""
    return Configure(
        verb="eat",
        agent=agent,
        direct=food,
        to="of @cosmos",
        template="[agent/s] [eat/v] [direct/o]",
        checks=(precondition(_quality("food"), "not food", "[direct/s] [be/not/v] something to eat"),),
    )


# -- setting features ------------------------------------------------------------------------------


def _setting(verb: str, feature: str, value: object, template: str, cannot: str) -> Callable[[str, str], Modify]:
    """A verb that sets `feature` to `value`; on something without that feature at all it fails, told `cannot`
    alone ("Your ticket cannot be opened.")."""

    def build(agent: str, item: str) -> Modify:
        return Modify(
            verb=verb,
            agent=agent,
            direct=item,
            feature=feature,
            value=value,
            template=template,
            checks=(precondition(_has(feature), f"cannot {verb}", cannot, alone=True),),
        )

    return build


_open = _setting("open", "open", True, "[agent/s] [open/v] [direct/o]", "[direct/s] [can/not/v] be opened")


def open_(agent: str, item: str) -> Modify:
    """Open something; opening a container shows the one who opened it what is inside."""

    def reveal(action: Action, world: WorldState) -> list[Action]:
        inside = "in" in world.items[item].holds and world.children[item]
        return [look(agent, item, salience=0.4)] if inside else []

    return replace(_open(agent, item), entails=reveal)


close = _setting("close", "open", False, "[agent/s] [close/v] [direct/o]", "[direct/s] [can/not/v] be closed")
lock = _setting("lock", "locked", True, "[agent/s] [lock/v] [direct/o]", "[direct/s] [have/not/v] a lock")
unlock = _setting("unlock", "locked", False, "[agent/s] [unlock/v] [direct/o]", "[direct/s] [have/not/v] a lock")
light = _setting("light", "lit", True, "[agent/s] [light/v] [direct/o]", "[direct/s] [be/not/v] something to light")
extinguish = _setting(
    "extinguish", "lit", False, "[agent/s] [put/v] out [direct/o]", "[direct/s] [be/not/v] something to put out"
)
switch_on = _setting(
    "turn on", "on", True, "[agent/s] [turn/v] on [direct/o]", "[direct/s] [be/not/v] something to turn on"
)
switch_off = _setting(
    "turn off", "on", False, "[agent/s] [turn/v] off [direct/o]", "[direct/s] [be/not/v] something to turn off"
)


def toggle(agent: str, item: str, world: WorldState) -> Modify:
    return (switch_off if world.get(item, "on") else switch_on)(agent, item)


def turn_to(agent: str, item: str, setting: str) -> Modify:
    return Modify(
        verb="turn to",
        agent=agent,
        direct=item,
        feature="setting",
        value=setting,
        template=f"[agent/s] [turn/v] [direct/o] to {setting}",
        checks=(
            precondition(_has("setting"), "no setting", "[direct/s] [have/not/v] settings to turn to", alone=True),
        ),
    )


# -- doing things that change nothing by themselves (worlds react to them) -------------------------------


def _reaches(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    if action.direct is None or sight.can_reach(action.agent, action.direct):
        return None
    return Reason("unreachable", "[agent/s] [can/not/v] reach [direct/o]")


REACHES: Check = _reaches
"""A precondition for a gesture that touches what it is done to (kick, push, press, shake, strike)."""


def gesture(
    verb: str,
    agent: str,
    item: str | None = None,
    template: str = "",
    *,
    salience: float = 0.5,
    touching: bool = False,
    held: bool = False,
) -> Behave:
    """press, push, shake, wave, kick, strike, show, free, wait, freeze…: the world's reactions give them effect.
    A `touching` gesture needs its object within reach, and is felt by it: someone who cannot see the one
    doing it perceives it through the thing touched (a gesture at something is seen only with its agent).
    A `held` gesture is done with its object in hand ("wave the lamp"): not what is fixed, nor given away."""
    touches = touching and item is not None
    checks = ((REACHES,) if touches else ()) + GESTURE_CHECKS.get(verb, ()) + ((FIXED, HELD) if held else ())
    return Behave(
        verb=verb,
        agent=agent,
        direct=item,
        template=template,
        salience=salience,
        checks=checks,
        data={"touching": True} if touches else {},
    )


GESTURE_CHECKS: dict[str, tuple[Check, ...]] = {
    "free": (FIXED, FROM_THERE),
    "shake": (FIXED,),
    "show": (HELD,),
}
"""What a gesture means beyond itself: what is fixed to something is not freed or shaken; freeing something from
something (once the second is named) needs it to be there; what is shown is in hand (not given away)."""


def say(agent: str, words: str) -> Behave:
    # Escape what templates read as syntax, so whatever is said is told exactly as typed.
    quoted = words.replace("[", "\\[").replace("]", "\\]").replace("_", "\\_").strip().strip('"')
    return Behave(verb="say", agent=agent, utterance=quoted, template=f'[agent/s] [say/v] "{quoted}"')


# -- senses --------------------------------------------------------------------------------------------


def look(
    agent: str, at: str | None = None, *, salience: float = 0.5, arriving: bool = False, private: bool = False
) -> SenseAction:
    """Look around (at=None) or at something; told to the one looking as what it saw. The look that comes
    with arriving somewhere is marked `arriving`, so worlds can tell it from a look the player asked for;
    a `private` look is perceived by the one looking alone (everyone's first look, as a story begins)."""
    template = "[agent/s] [look/v] around" if at is None else "[agent/s] [look/v] at [direct/o]"
    return SenseAction(
        verb="look",
        agent=agent,
        direct=at,
        template=template,
        salience=salience,
        description=True,
        data={"arriving": True} if arriving else {},
        witnessed="agent" if private else "either",
    )


SENSE_VERBS = {"hearing": "listen to", "smell": "smell", "taste": "taste", "touch": "touch"}


def sense(agent: str, modality: Sense, item: str | None = None) -> SenseAction:
    """listen, smell, taste, touch (something, or the surroundings): told as what was sensed."""
    verb = SENSE_VERBS[modality]
    if item is None:
        template = "[agent/s] [listen/v]" if modality == "hearing" else f"[agent/s] [{verb}/v] the air"
    else:
        template = f"[agent/s] [{verb}/v] [direct/o]"
    return SenseAction(
        verb=verb.split()[0],
        agent=agent,
        direct=item,
        modality=modality,
        template=template,
        description=True,
    )


NOTHING_WRITTEN = precondition(
    lambda a, w: a.direct is not None and bool(w.get(a.direct, "writing")),
    "nothing written",
    "there [be/v] nothing written on [direct/o]",
    alone=True,
)


def read(agent: str, item: str) -> SenseAction:
    """Read what is written on something (its `writing`), told to the reader as the writing itself. What has
    no writing cannot be read, unless the world makes something of the reading (the cloak's message)."""
    return SenseAction(
        verb="read",
        agent=agent,
        direct=item,
        template="[agent/s] [read/v] [direct/o]",
        description=True,
        unanswered=NOTHING_WRITTEN,
    )


def inventory(agent: str) -> SenseAction:
    return SenseAction(
        verb="inventory",
        agent=agent,
        direct=agent,
        template="[agent/s] [check/v] what [agent/s] [have/v]",
        salience=0.3,
        description=True,
    )


# -- going places -----------------------------------------------------------------------------------------

NO_WAY = "[agent/s] [can/not/v] go that way"


def go(
    agent: str,
    to: str,
    *,
    direction: str | None = None,
    link: str = "in",
    look_after: bool = False,
    salience: float = 0.5,
    checks: tuple[Check, ...] = (),
) -> Configure:
    """Leave the room one is in for `to`. The departure is seen from the room left; the arrival it entails
    from the room entered (and, if `look_after`, the arrival entails a look around)."""

    def arrive(action: Action, world: WorldState) -> list[Action]:
        entered = Behave(
            verb="enter",
            agent=agent,
            template="[agent/s] [enter/v] [room/o]",
            witnessed="newcomers" if look_after else "arrival",
            salience=salience,
            data={"arriving": True},
        )
        return [entered, look(agent, arriving=True)] if look_after else [entered]

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
        checks=checks,
    )


def go_direction(agent: str, direction: str, world: WorldState, *, look_after: bool = True) -> Action:
    """Go the way an exit leads: through a door if there is one; a sentence instead of a room refuses. "Out"
    from inside something (a sack, a booth) gets out of it."""
    room = world.room_of(agent)
    container = world.parent(agent)
    if direction == "out" and container is not None and container != room and room is not None:
        return get_out(agent, world)  # out of the sack one is in, before out of the room
    place = world.items[room] if room else None
    exits = place.exits if isinstance(place, Room) else {}
    way = exits.get(direction)
    if way is None:
        return Behave(
            verb="go",
            agent=agent,
            direction=direction,
            template=f"[agent/s] [go/v] {direction_name(direction)}",
            checks=(precondition(lambda a, w: False, "no exit", NO_WAY, alone=True),),
        )
    if not way.startswith("@"):
        return Behave(
            verb="go",
            agent=agent,
            direction=direction,
            template=f"[agent/s] [go/v] {direction_name(direction)}",
            checks=(precondition(lambda a, w: False, "refused", way, alone=True),),
        )
    item = world.items[way]
    if isinstance(item, Door):
        destination = item.connects[1] if item.connects[0] == room else item.connects[0]
        door_open = precondition(
            lambda a, w: w.get(way, "open") is not False, "door closed", f"[{way}/s] [be/v] closed"
        )
        return go(agent, destination, direction=direction, look_after=look_after, checks=(door_open,))
    return go(agent, way, direction=direction, look_after=look_after)


def enter(agent: str, place: str, world: WorldState, link: str = "in") -> Action:
    """Get into (or, `link` "on", onto) something an actor can be in (a sack, a booth), or go into a room
    through a door. Putting oneself in something is entering it ("put me in the sack")."""
    item = world.items[place]
    if isinstance(item, Room):
        return go(agent, place, look_after=True)
    into = "into" if link == "in" else "onto"
    return Configure(
        verb="enter",
        agent=agent,
        direct=agent,
        indirect=place,
        to=f"{link} {place}",
        template=f"[agent/s] [get/v] {into} [indirect/o]",
        checks=(
            precondition(
                lambda a, w: bool(w.get(place, "enterable")),
                "not enterable",
                f"[indirect/s] [be/not/v] a place to get {into}",
            ),
        ),
        entails=lambda a, w: [look(agent, salience=0.3, arriving=True)],
    )


def get_out(agent: str, world: WorldState) -> Action:
    """Leave what one is in: a sack for the room around it, or the room by its way out."""
    container = world.parent(agent)
    if container is not None and not isinstance(world.items[container], Room):
        room = world.room_of(agent) or container
        return Configure(
            verb="exit",
            agent=agent,
            direct=agent,
            indirect=container,
            to=f"in {room}",
            template="[agent/s] [get/v] out of [indirect/o]",
            entails=lambda a, w: [look(agent, salience=0.3, arriving=True)],
        )
    return go_direction(agent, "out", world)
