"""Lost One: a visitor waits in a plaza for a friend; the more they wander, the further the telling drifts."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from server.engine.authoring import (
    Action,
    Actor,
    Behave,
    Configure,
    Item,
    Modify,
    Reason,
    Refusal,
    Room,
    SenseAction,
    SharedThing,
    SpinChange,
    Thing,
    WorldDefinition,
    WorldState,
    verbs,
)
from worlds._scenery import leave_be, scenery

AREAS: dict[str, tuple[str, str]] = {
    # tag: (name, what makes it that part of the plaza)
    "@center": ("center of the plaza", "paving stones [spread/2/v] out in every direction from [this] open middle"),
    "@north": ("north side", "a bronze statue of a forgotten general [stand/1/v] [here], green with age"),
    "@south": ("south side", "a slender obelisk [rise/1/v] [here], its inscriptions worn smooth"),
    "@east": ("east side", "a fountain [splash/1/v] [here], scattering light across the stones"),
    "@west": ("west side", "a broad old tree [shade/1/v] [this] side of the plaza"),
    "@northeast": ("northeast corner", "cafe tables [crowd/2/v] [this] corner"),
    "@northwest": ("northwest corner", "a shuttered newsstand [stand/1/v] in [this] corner"),
    "@southeast": ("southeast corner", "a bus shelter [mark/1/v] [this] corner"),
    "@southwest": ("southwest corner", "pigeons [gather/2/v] in [this] corner, hoping for crumbs"),
}

GRID = {
    "@northwest": (0, 0), "@north": (1, 0), "@northeast": (2, 0),
    "@west": (0, 1), "@center": (1, 1), "@east": (2, 1),
    "@southwest": (0, 2), "@south": (1, 2), "@southeast": (2, 2),
}  # fmt: skip
STEPS = {
    "n": (0, -1),
    "s": (0, 1),
    "e": (1, 0),
    "w": (-1, 0),
    "ne": (1, -1),
    "nw": (-1, -1),
    "se": (1, 1),
    "sw": (-1, 1),
}
AT = {position: tag for tag, position in GRID.items()}

FRIEND_AFTER_WAITS = 3
"""Waiting this many turns in the center, not far gone, brings the friend."""

FARTHEST = 6
"""At this distance the visitor is adrift: whatever they mean to do, their feet carry them on through the plaza,
until they stand still (and every wait brings them a little nearer to themselves again)."""

STILL = frozenset({"wait", "freeze", "sleep", "smile"})
"""What an adrift visitor can still do: stand still, and what comes of it."""


def _exits(tag: str) -> dict[str, str]:
    x, y = GRID[tag]
    found = {}
    for direction, (dx, dy) in STEPS.items():
        other = AT.get((x + dx, y + dy))
        if other is not None:
            found[direction] = other
    return found


def _views(tag: str) -> dict[str, tuple[float, str]]:
    x, y = GRID[tag]
    views = {}
    for other, (ox, oy) in GRID.items():
        if other == tag:
            continue
        far = max(abs(ox - x), abs(oy - y))
        name = AREAS[other][0]
        # Neighbouring areas are seen well; across the plaza only people stand out (prominence 1 × 0.35).
        views[other] = (0.8 if far == 1 else 0.35, f"over by the {name}")
    return views


def _area(tag: str) -> Room:
    name, sight = AREAS[tag]
    return Room(tag=tag, called=name, sight=sight, exits=_exits(tag), views=_views(tag), shared=("@sky",))


# -- the others, each on their own --------------------------------------------------------------------


def _neighbors(world: WorldState, actor: str) -> list[str]:
    room = world.room_of(actor)
    return list(_exits(room).values()) if room in GRID else []


def _step(actor: str, world: WorldState, rng: random.Random) -> Action | None:
    places = _neighbors(world, actor)
    return verbs.go(actor, rng.choice(places)) if places else None


def punk(actor: str, world: WorldState, tick: int, rng: random.Random) -> Action | None:
    """Kicks whatever is lying about, or swaggers off somewhere else."""
    room = world.room_of(actor)
    things = [
        t for t in world.children.get(room or "", []) if world.items[t].kind == "thing" and world.link(t) != "part_of"
    ]
    if things and rng.random() < 0.5:
        return verbs.gesture("kick", actor, rng.choice(things), "[agent/s] [kick/v] [direct/o]", salience=0.5)
    return _step(actor, world, rng) if rng.random() < 0.5 else None


def boy(actor: str, world: WorldState, tick: int, rng: random.Random) -> Action | None:
    """Tosses his ball up; it drops to the ground; he picks it up again."""
    ball = "@ball"
    if world.parent(ball) == actor:
        return Configure(
            verb="toss",
            agent=actor,
            direct=ball,
            to=f"in {world.room_of(actor)}",
            template="[agent/s] [toss/v] [direct/o] into the air, and it [drop/v] to the ground",
        )
    if world.room_of(ball) == world.room_of(actor):
        return verbs.take(actor, ball)
    return None


def trash_collector(actor: str, world: WorldState, tick: int, rng: random.Random) -> Action | None:
    """Picks up litter where he is, or moves on to find some."""
    room = world.room_of(actor)
    litter = [t for t in world.children.get(room or "", []) if "litter" in world.get(t, "kind", "")]
    if litter:
        return Configure(
            verb="pick up", agent=actor, direct=litter[0], to=f"of {actor}", template="[agent/s] [pick/v] up [direct/o]"
        )
    return _step(actor, world, rng) if tick % 3 == 0 else None


def flaneur(actor: str, world: WorldState, tick: int, rng: random.Random) -> Action | None:
    """Strolls, unhurried, every other turn."""
    return _step(actor, world, rng) if tick % 2 == 0 else None


def visitor(actor: str, world: WorldState, tick: int, rng: random.Random) -> Action | None:
    """When no one commands the visitor any more, they drift on through the plaza."""
    return _step(actor, world, rng)


# -- distance: the world's own rule, and the spin it drives ----------------------------------------------


def drift(action: Action, world: WorldState) -> list[Action]:
    """Moving raises the visitor's distance; waiting lowers it, and waiting in the center brings the friend. The
    visitor is told when they go adrift, and when they come back to themselves."""
    if action.agent != "@visitor" or action.verb not in ("leave", "wait"):
        return []
    distance = world.get("@visitor", "distance")
    waits = world.get("@visitor", "waits")
    if action.verb == "leave":
        farther = min(FARTHEST, distance + 1)
        changes = _notes(world, distance=farther, waits=0, wandered=world.get("@visitor", "wandered") + 1)
        if farther == FARTHEST > distance:
            changes.append(ADRIFT)
        return changes
    in_center = world.room_of("@visitor") == "@center"
    waits = waits + 1 if in_center and distance <= 1 else 0
    changes = _notes(world, distance=max(0, distance - 1), waits=waits)
    if distance == FARTHEST:
        changes.append(BACK)
    if waits >= FRIEND_AFTER_WAITS:
        changes += [
            Configure(
                verb="arrive",
                agent="@friend",
                direct="@friend",
                to="in @center",
                template="[agent/s] [arrive/v]",
                salience=0.1,
            ),
            Behave(
                verb="smile",
                agent="@visitor",
                direct="@friend",
                template="[agent/s] [turn/v] and [see/v] [agent's] friend; [agent/s] [smile/v]",
                salience=0.9,
                final=True,
            ),
        ]
    return changes


ADRIFT = Behave(
    verb="drift",
    agent="@visitor",
    template=(
        "[agent/s] [lose/v] track of why [agent/s] [be/v] [here], and [drift/v] along; only standing still "
        "[can/v] bring it back"
    ),
    witnessed="agent",
    salience=0.9,
)
BACK = Behave(
    verb="remember",
    agent="@visitor",
    template=(
        "[agent/s] [stand/v] still, and [remember/v] the friend [agent/s] [be/v] to meet in the center of the plaza"
    ),
    witnessed="agent",
    salience=0.9,
)


def adrift(action: Action, world: WorldState) -> Reason | None:
    """Far gone, the visitor does nothing they mean to: whatever it was, their feet carry them on instead. Only
    standing still (or looking about) is still their own."""
    if action.agent != "@visitor" or world.get("@visitor", "distance") < FARTHEST:
        return None
    if action.verb in STILL or action in (ADRIFT, BACK) or action.salience < 0.2 or isinstance(action, SenseAction):
        return None
    if action.data.get("arriving") or action.data.get("drifting") or action.final:
        return None
    room = world.room_of("@visitor") or "@center"
    ways = sorted(_exits(room).items())
    direction, place = ways[world.get("@visitor", "wandered") * 7 % len(ways)]
    step = replace(verbs.go("@visitor", place, direction=direction, look_after=True), data={"drifting": True})
    return Reason(
        "adrift",
        "[agent/s] [mean/v] to, but instead [wander/v] on, hardly knowing where",
        alone=True,
        instead=(step,),
    )


def _notes(world: WorldState, **values: Any) -> list[Action]:
    """Silent bookkeeping on the visitor (salience 0: never told), only for what actually changes."""
    return [
        Modify(verb="feel", agent="@visitor", feature=feature, value=value, salience=0.0)
        for feature, value in values.items()
        if world.get("@visitor", feature) != value
    ]


def score(world: WorldState) -> tuple[int, int]:
    """The one point there is: meeting the friend, who comes to the center only for that."""
    return int(world.room_of("@friend") == "@center"), 1


SPIN_BY_DISTANCE: tuple[dict[str, Any], ...] = (
    {"narratee": "@visitor", "time": "during", "filters": (), "time_words": False, "order": "chronicle"},
    {"narratee": "@visitor", "time": "after", "filters": (), "time_words": False, "order": "chronicle"},
    {"narratee": "@visitor", "time": "after", "filters": ("hedges",), "time_words": False, "order": "chronicle"},
    {"narratee": None, "time": "after", "filters": ("hedges",), "time_words": False, "order": "chronicle"},
    {"narratee": None, "time": "after", "filters": ("hedges",), "time_words": True, "order": "retrograde"},
    {"narratee": None, "time": "after", "filters": ("hedges",), "time_words": True, "order": "achrony"},
    {"narratee": None, "time": "after", "filters": ("hedges",), "time_words": True, "order": "achrony"},
)


def distance_spin(change: SpinChange) -> dict[str, Any] | None:
    """The further the visitor has drifted, the further the telling drifts from them. Only the visitor's own
    telling drifts: someone playing the punk goes on being told the punk's story plainly."""
    if change.spin.focalizer != "@visitor":
        return None
    return dict(SPIN_BY_DISTANCE[change.world.get("@visitor", "distance")])


def _litter(tag: str, called: str, where: str) -> Thing:
    return Thing(
        tag=tag, called=called, where=f"in {where}", referring="litter trash rubbish", features={"kind": "litter"}
    )


LANDMARKS: tuple[Thing, ...] = (
    # What gives each part of the plaza its name; the four great ones are seen from anywhere across it.
    scenery(
        "@statue",
        "bronze statue",
        "@north",
        "[@statue/s] [show/v] a general nobody [remember/1/v], green with age, one arm raised toward nothing",
        referring="general monument horse",
        prominence=0.9,
    ),
    scenery(
        "@obelisk",
        "obelisk",
        "@south",
        "[@obelisk/s] [rise/v] slender and grey, its inscriptions worn too smooth to read",
        referring="slender monument inscriptions column",
        prominence=0.9,
    ),
    scenery(
        "@fountain",
        "fountain",
        "@east",
        "water [splash/v] in [@fountain/o] and [scatter/v] light across the stones",
        referring="water basin spray",
        prominence=0.9,
    ),
    scenery(
        "@tree",
        "old tree",
        "@west",
        "[@tree/s] [be/v] broad and old, and [cast/v] a cool shade over the stones beneath it",
        referring="broad branches shade leaves",
        prominence=0.9,
    ),
    scenery(
        "@tables",
        "cafe tables",
        "@northeast",
        "[@tables/s] [wait/v] under faded umbrellas for customers who [be/v] slow to come",
        plural=True,
        referring="table cafe café chairs umbrellas",
        prominence=0.6,
    ),
    scenery(
        "@newsstand",
        "newsstand",
        "@northwest",
        "[@newsstand/s] [be/v] shuttered, its last headlines long out of date",
        referring="shuttered stand kiosk",
        prominence=0.6,
    ),
    scenery(
        "@shelter",
        "bus shelter",
        "@southeast",
        "[@shelter/s] [be/v] empty but for a timetable no one trusts",
        referring="shelter bus stop timetable",
        prominence=0.6,
    ),
    scenery(
        "@pigeons",
        "pigeons",
        "@southwest",
        "[@pigeons/s] [strut/v] and [peck/v] at the stones, hoping for crumbs",
        plural=True,
        referring="pigeon birds bird",
        prominence=0.6,
    ),
)

OPENINGS = {
    "@visitor": "[agent/s] [come/ed/v] back to the plaza where [agent/s] used to live, to meet someone in its center "
    "about midday",
    "@punk": "[agent/s] [be/v] bored, and the plaza [be/v] full of things to kick",
    "@boy": "[agent/s] [have/v] a ball, and the whole afternoon to throw it",
    "@collector": "[agent/s] [have/v] the whole plaza to sweep clean before evening",
    "@flaneur": "[agent/s] [have/v] nowhere to be, and all day to get there",
}
"""Each playable actor's own first moment, told only to whoever plays them."""

ITEMS: tuple[Item, ...] = (
    *(_area(tag) for tag in AREAS),
    SharedThing(
        tag="@sky",
        called="sky",
        article="the",
        mention=False,  # over every part of the plaza alike: not something to list in each
        sight="the sky [be/v] a hazy blue, the sun near its height",
    ),
    *LANDMARKS,
    Actor(
        tag="@visitor",
        called="visitor",
        gender="unknown",
        where="in @center",
        referring="me self",
        features={"distance": 0, "waits": 0, "wandered": 0},
        prevent=adrift,
    ),
    Thing(tag="@tortilla", called="tortilla", where="of @visitor", qualities=("food",), referring="flatbread wrap"),
    Actor(tag="@punk", called="punk", gender="male", where="in @northeast", referring="youth mohawk"),
    Actor(tag="@boy", called="boy", gender="male", where="in @west", referring="kid child"),
    Thing(tag="@ball", called="ball", where="of @boy", referring="rubber"),
    Actor(
        tag="@collector", called="trash collector", gender="female", where="in @south", referring="collector sweeper"
    ),
    Actor(tag="@flaneur", called="flâneur", gender="male", where="in @east", referring="flaneur stroller man"),
    Actor(tag="@friend", called="friend", gender="unknown", where="in @friend_elsewhere"),
    Room(tag="@friend_elsewhere", called="elsewhere", sight="somewhere else in the city"),
    _litter("@shirt", "shredded shirt", "@southwest"),
    _litter("@newspaper", "newspaper", "@north"),
    _litter("@cup", "smashed cup", "@east"),
    _litter("@scrap", "plastic scrap", "@center"),
    _litter("@wrapper", "candy wrapper", "@northwest"),
)

WORLD = WorldDefinition(
    name="lost_one",
    title="Lost One",
    summary="Back in the plaza where you once lived, you wait for a friend. Wander, and the telling wanders too.",
    author="after Nick Montfort's Curveship demonstration",
    interactive=True,
    items=ITEMS,
    player="@visitor",
    # Anyone in the plaza may be played by someone; the drift of the telling is the visitor's alone.
    playable=("@visitor", "@punk", "@boy", "@collector", "@flaneur"),
    spin={"narratee": "@visitor"},
    prologue="Midday, or nearly, in a broad old city plaza.",
    timeline=tuple(
        (1, Behave(verb="begin", agent=actor, template=opening, witnessed="agent", salience=0.6))
        for actor, opening in OPENINGS.items()
    ),
    refusals=(
        Refusal(verb="drink", direct="@fountain", reason="[agent/s] [think/v] better of drinking from [direct/o]"),
        leave_be([landmark.tag for landmark in LANDMARKS], "[direct/s] [belong/v] to the plaza, not to [agent/o]"),
    ),
    scripts={"@punk": punk, "@boy": boy, "@collector": trash_collector, "@flaneur": flaneur, "@visitor": visitor},
    reactions=(drift,),
    dynamic_spin=distance_spin,
    score=score,
)
