"""Adventure in Style: Crowther and Woods' cave, told twelve ways by the dial of a brass lamp.

The cave itself (every room, its description and its ways out) is data, in `worlds/_adventure_map.py`; the lamp's
styles, and the spin each sets, are in `worlds/_adventure_styles.py`. Here are the things and creatures, the
puzzles, the score, the cave's closing and the commands of the cave's own: the named ways ("xyzzy", "plugh",
"upstream", "bedquilt"…), "turn the dial to 7", "water the plant", "oil the door", "kill the dragon", "catch the
bird", "unchain the bear".

Guardians, in brief: the snake bars the Hall of the Mountain King's ways until the bird is freed at it; the
fissure is crossed by the crystal bridge that waving the black rod calls up; the troll takes a treasure as its
toll (or flees from the bear) and comes back to bar the return; the dragon bars the secret canyon until it is
killed; the rusty door opens once oiled; the plant, watered twice, becomes a beanstalk to climb; the bear, fed,
can be led by its golden chain — but never over the troll's rickety bridge.
"""

from __future__ import annotations

import random
from dataclasses import replace

from server.engine.authoring import (
    DIRECTIONS,
    GRAMMAR,
    VISIBLE_AT,
    Action,
    Actor,
    Behave,
    CommandKind,
    Configure,
    Door,
    Item,
    Modify,
    Perception,
    Reason,
    Refusal,
    Request,
    Room,
    SharedThing,
    Substance,
    Thing,
    WorldDefinition,
    WorldState,
    substances,
    verbs,
)
from worlds._adventure_map import BLOCKED, ROOMS
from worlds._adventure_styles import (
    DIAL_WORDS,
    LAMP,
    STYLE_NAMES,
    controls_of,
    lamp_spin,
    read_setting,
    style_change,
)
from worlds._scenery import leave_be, like, scenery, standard

ADVENTURER = "@adventurer"
LIMBO = "@limbo"
"""Where what has left the story waits: the troll between tolls, a shattered vase, a scared-off snake."""
CLOCK = "@cave"
"""The cave itself, as an actor nobody sees: it keeps the lamp's styles and the closing in time."""

TREASURES = (
    "@nugget",
    "@diamonds",
    "@bars",
    "@jewelry",
    "@coins",
    "@eggs",
    "@trident",
    "@vase",
    "@emerald",
    "@pyramid",
    "@pearl",
    "@chest",
    "@rug",
    "@spices",
    "@chain",
)
POINTS_A_TREASURE = 5
POINTS_FOR_CLOSING = 10
POINTS_FOR_VICTORY = 15
MOST_POINTS = POINTS_A_TREASURE * len(TREASURES) + POINTS_FOR_CLOSING + POINTS_FOR_VICTORY

CLOSING_TICKS = 28
"""Ticks between the voice's warning (every treasure home) and the adventurer's waking in the repository."""

SNAKE_BLOCKS = frozenset({"w", "n", "s", "secret", "sw"})
TROLL_BLOCKS = {"@southwest_side_of_chasm": frozenset({"ne", "over", "cross"})}
CROSSINGS = {
    "@southwest_side_of_chasm": frozenset({"ne", "over", "cross"}),
    "@northeast_side_of_chasm": frozenset({"sw", "over", "cross"}),
}
DRAGON_BLOCKS = frozenset({"n", "onward"})
FISSURE_WAYS = {"@fissure_east": frozenset({"w", "over", "across"}), "@fissure_west": frozenset({"e", "over"})}
MAGIC_WORDS = frozenset({"xyzzy", "plugh", "plover", "y2"})
SUMMONING = "fee fie foe foo"


def _tag(name: str) -> str:
    return f"@{name}"


def in_the_dark(world: WorldState, actor: str) -> bool:
    sight = Perception(world)
    return sight.light(sight.compartment(actor)) < VISIBLE_AT


def _holds(world: WorldState, actor: str, item: str) -> bool:
    return world.is_descendant(item, actor)


def _quiet(agent: str, tag: str, feature: str, value: object) -> Modify:
    """Bookkeeping no one is told (salience 0)."""
    return Modify(verb="note", agent=tag, direct=tag, feature=feature, value=value, salience=0.0)


def _move(agent: str, tag: str, to: str, template: str, salience: float = 0.6) -> Configure:
    """Something the cave does to `tag` because of what `agent` did: done by the thing itself, so that it needs
    no one's reach (the eggs come back from wherever they are)."""
    return Configure(verb="happen", agent=tag, direct=tag, to=to, template=template, salience=salience)


def _event(agent: str, template: str, *, final: bool = False, salience: float = 0.7) -> Behave:
    return Behave(verb="happen", agent=agent, template=template, salience=salience, final=final, witnessed="agent")


# -- the map ------------------------------------------------------------------------------------------------


def _exit(room: str, way: str, to: str) -> str:
    if to == "(blocked)":
        return BLOCKED.get((room, way), "[agent/s] [can/not/v] go that way")
    if to not in ROOMS and to not in ("grate", "rusty_door"):
        return "the passage [pinch/v] out after a few steps"  # the 2011 map's way east from one maze room led nowhere
    return _tag(to)


def _room(name: str) -> Room:
    kind, called, sight, exits = ROOMS[name]
    ways = {way: _exit(name, way, to) for way, to in exits.items()}
    if name == "fissure_east":
        ways |= {"w": "@bridge", "over": "@bridge", "across": "@bridge"}
    if name == "fissure_west":
        ways |= {"e": "@bridge", "over": "@bridge"}
    if "house" in ways:
        ways.setdefault("building", ways["house"])  # the building is the house the road's end calls it
    if name == "west_pit":
        ways |= {"climb": "@narrow_corridor"}  # once the plant is a beanstalk
    heading = called[:1].upper() + called[1:]
    repository = name in ("northeast_end", "southwest_end")
    return Room(
        tag=_tag(name),
        called=called,
        article="" if name in ("bedquilt", "y2", "witts_end") else "the",
        heading=heading,
        sight=sight,
        exits=ways,
        glow=1.0 if kind != "cave" or repository or name == "plover_room" else 0.0,
        shared=("@sky", "@sun") if kind == "outside" else CHASM_SHARED.get(name, ()),
        prevent=PREVENTIONS.get(_tag(name)),
    )


CHASM_SHARED = {
    "southwest_side_of_chasm": ("@rickety_bridge",),
    "northeast_side_of_chasm": ("@rickety_bridge",),
    "fissure_east": ("@fissure",),
    "fissure_west": ("@fissure",),
}

NAMED_WAYS: tuple[str, ...] = tuple(
    sorted(
        {way for _kind, _called, _sight, exits in ROOMS.values() for way in exits} - set(DIRECTIONS.values())
        | {"building"}
    )
)
"""Every way out of a room that is a word of its own ("xyzzy", "upstream", "bedquilt"), typed to go there."""


# -- guardians: what stops the adventurer, and what gives way -------------------------------------------------


def _going(action: Action, ways: frozenset[str]) -> bool:
    return action.verb == "leave" and action.direction in ways


def snake_bars(action: Action, world: WorldState) -> Reason | None:
    if _going(action, SNAKE_BLOCKS) and world.room_of("@snake") == world.room_of(action.agent):
        return Reason("snake", "the huge snake [rear/v] up, hissing, and [bar/v] the way", alone=True)
    return None


def dragon_bars(action: Action, world: WorldState) -> Reason | None:
    if _going(action, DRAGON_BLOCKS) and world.get("@dragon", "alive"):
        return Reason("dragon", "the dragon [lift/v] its head and [bar/v] the way on", alone=True)
    return None


def fissure(action: Action, world: WorldState) -> Reason | None:
    room = world.room_of(action.agent) or ""
    if _going(action, FISSURE_WAYS.get(room, frozenset())) and world.room_of("@bridge") != "@fissure_east":
        return Reason("fissure", "the fissure [be/v] far too wide to jump", alone=True)
    return None


def chasm(action: Action, world: WorldState) -> Reason | None:
    """The troll's bridge: the troll bars it (or comes back to, once paid), and a bear led onto it brings it
    down."""
    room = world.room_of(action.agent) or ""
    if not _going(action, CROSSINGS.get(room, frozenset())):
        return None
    if world.room_of("@troll") == room:
        return Reason(
            "troll",
            "the troll [step/v] onto the bridge and [demand/v] a treasure before anyone [cross/v]",
            alone=True,
        )
    if not world.get("@troll", "scared") and not world.get("@troll", "paid"):
        # Paid once, the troll lets one crossing by; after that it is back, on whichever side one stands.
        back = (
            _move(action.agent, "@troll", f"in {room}", "", salience=0.0),
            _event(action.agent, "the troll [climb/v] up from under the bridge and [bar/v] the way", salience=0.8),
        )
        flees = _scare_troll(world, action.agent, room)
        return Reason("troll", "", alone=True, instead=(*back, *flees))
    if _leashed(world) and world.room_of("@bear") == room:
        collapse = _event(
            action.agent,
            "[agent/s] [lead/v] the bear onto the bridge; it [sway/v], [crack/v] and [give/v] way, and "
            "[agent/s] and the bear [plunge/2/v] together into the chasm",
            final=True,
            salience=0.95,
        )
        return Reason("collapse", "", alone=True, instead=(collapse,))
    return None


def beanstalk(action: Action, world: WorldState) -> Reason | None:
    if _going(action, frozenset({"climb"})) and world.get("@plant", "stage") != 2:
        return Reason("no beanstalk", "there [be/v] nothing [here] tall enough to climb", alone=True)
    return None


def tight_tunnel(action: Action, world: WorldState) -> Reason | None:
    """Between the alcove and the plover room only the emerald (or nothing) fits through with the adventurer."""
    ways = {"@alcove": "e", "@plover_room": "w"}
    room = world.room_of(action.agent) or ""
    if not _going(action, frozenset({ways.get(room, "")})):
        return None
    carried = [t for t in world.children[action.agent] if t != "@emerald"]
    if carried:
        return Reason(
            "tight",
            "the tunnel [be/v] too tight to squeeze through with anything but the clothes on one's back",
            alone=True,
        )
    return None


PREVENTIONS = {
    "@alcove": tight_tunnel,
    "@plover_room": tight_tunnel,
    "@secret_canyon": dragon_bars,
    "@fissure_east": fissure,
    "@fissure_west": fissure,
    "@southwest_side_of_chasm": chasm,
    "@northeast_side_of_chasm": chasm,
    "@west_pit": beanstalk,
}


# -- the creatures -------------------------------------------------------------------------------------------


def _leashed(world: WorldState) -> bool:
    return bool(world.get("@bear", "leashed"))


def _scare_troll(world: WorldState, agent: str, room: str) -> list[Action]:
    if world.room_of("@bear") != room or not _leashed(world):
        return []
    return _troll_flees(agent)


def _troll_flees(agent: str) -> list[Action]:
    return [
        _move(agent, "@troll", f"in {LIMBO}", "", salience=0.0),
        _quiet(agent, "@troll", "scared", True),
        _event(agent, "the troll [catch/v] sight of the bear, [shriek/v] and [flee/v], never to come back"),
    ]


def creatures(action: Action, world: WorldState) -> list[Action]:
    """What the creatures do about what the adventurer does (asked about every action that succeeds)."""
    agent, verb, item = action.agent, action.verb, action.direct
    room = world.room_of(agent)
    if verb == "free" and item == "@bird" and world.parent("@bird") == "@cage":
        freed = _move(agent, "@bird", f"in {room}", "the little bird [flutter/v] out of the cage")
        if world.room_of("@snake") == room:
            flees = _move(
                agent,
                "@snake",
                f"in {LIMBO}",
                "the bird [fly/v] at the snake, shrieking, and the snake, terrified, [slither/v] away for good",
                salience=0.8,
            )
            return [freed, flees]
        return [freed]
    if verb in ("give", "feed") and action.indirect == "@troll" and item in TREASURES:
        return [
            _move(agent, item, f"in {LIMBO}", "the troll [snatch/v] [direct/o] and [vanish/v] under the bridge"),
            _move(agent, "@troll", f"in {LIMBO}", "", salience=0.0),
            _quiet(agent, "@troll", "paid", True),
        ]
    if verb == "leave" and action.direction in CROSSINGS.get(room or "", ()) and world.get("@troll", "paid"):
        return [_quiet(agent, "@troll", "paid", False)]  # the toll is spent on this crossing
    if verb in ("give", "feed") and action.indirect == "@bear" and item == "@food":
        return [
            _move(agent, "@food", f"in {LIMBO}", "the bear [gobble/v] the food and [calm/v] down at once"),
            _quiet(agent, "@bear", "calm", True),
        ]
    if verb in ("take", "remove") and item == "@chain" and world.parent("@chain") == "@hook":
        return [_quiet(agent, "@bear", "leashed", True)]
    if verb in ("drop", "put", "throw") and item == "@chain" and _leashed(world):
        return [_unleash(agent)]
    if verb == "leave" and _leashed(world) and world.parent("@chain") == agent and world.room_of("@bear") == room:
        to = getattr(action, "to", "")
        follows = _move("@bear", "@bear", to, "the bear [lumber/v] along behind, on its chain", salience=0.6)
        return [follows, *_troll_meets_bear(world, agent, to.split()[-1])]
    if verb == "strike" and item == "@dragon" and world.get("@dragon", "alive"):
        return [
            _move(
                agent,
                "@dragon",
                f"in {room}",
                "the dragon [shudder/v] and [die/v], and its great body [slide/v] off the rug",
                salience=0.8,
            ),
            _quiet(agent, "@dragon", "alive", False),
        ]
    return []


def _troll_meets_bear(world: WorldState, agent: str, room: str) -> list[Action]:
    if world.room_of("@troll") != room:
        return []
    return _troll_flees(agent)


def _unleash(agent: str) -> Action:
    return Modify(
        verb="unchain",
        agent=agent,
        direct="@bear",
        feature="leashed",
        value=False,
        template="[agent/s] [unfasten/v] the chain from the bear, which [settle/v] down where it [be/v]",
        salience=0.7,
    )


# -- the puzzles ---------------------------------------------------------------------------------------------


def _poured(action: Action, world: WorldState) -> str | None:
    """The substance an action pours out, if it is a pouring."""
    if action.verb != "pour" or action.direct is None:
        return None
    return substances.substance_in(world, action.direct)


def puzzles(action: Action, world: WorldState) -> list[Action]:
    agent, verb, item = action.agent, action.verb, action.direct
    room = world.room_of(agent)
    poured = _poured(action, world)
    if poured is not None and action.indirect == "@plant":
        return _water_plant(world, agent, poured)
    if poured is not None and action.indirect == "@rusty_door":
        if poured == "@oil":
            return [
                Modify(
                    verb="loosen",
                    agent=agent,
                    direct="@rusty_door",
                    feature="rusted",
                    value=False,
                    template="the oil [soak/v] into the rusted hinges, and [direct/s] [come/v] loose",
                    salience=0.8,
                )
            ]
        return [_event(agent, "the water only [make/v] the hinges rustier")]
    if verb in ("wave", "shake") and item == "@rusty_rod" and room in FISSURE_WAYS:
        if world.room_of("@bridge") == "@fissure_east":
            return [_move(agent, "@bridge", f"in {LIMBO}", "the crystal bridge [fade/v] away to nothing", 0.8)]
        return [
            _move(
                agent, "@bridge", "in @fissure_east", "a crystal bridge [shimmer/v] into being across the fissure", 0.8
            )
        ]
    if verb == "say" and (action.utterance or "").lower().strip(" .!") == SUMMONING:
        if room == "@giant_room" and world.room_of("@eggs") != "@giant_room":
            return [_move(agent, "@eggs", "in @giant_room", "the golden eggs [appear/v] out of thin air", 0.8)]
        return [_event(agent, "nothing [happen/v]")]
    if verb == "open" and item == "@clam":
        return [
            _move(agent, "@clam", f"in {LIMBO}", "", salience=0.0),
            _move(agent, "@oyster", f"in {room}", "the clam [turn/1/v] out to be an oyster", salience=0.7),
            _move(agent, "@pearl", "in @cul_de_sac", "a glistening pearl [roll/v] out and away down the slope", 0.8),
        ]
    if verb in ("drop", "put", "throw") and item == "@vase" and not _safe_for_vase(action, world):
        return [
            _move(agent, "@vase", f"in {LIMBO}", "[direct/s] [shatter/v] into a thousand pieces", 0.9),
            _move(agent, "@shards", f"in {room}", "", salience=0.0),
        ]
    if verb == "press" and item == "@button":
        if world.room_of("@black_rod") == "@northeast_end":
            return [
                _quiet(agent, "@cave", "won", True),
                _event(
                    agent,
                    "a blast [shake/v] the repository; the far wall [crumble/v] into a hole, and through it "
                    "[agent/s] [see/v] the treasure vault glittering. [agent/s] [have/v] won the game",
                    final=True,
                    salience=0.95,
                ),
            ]
        return [_event(agent, "the button [click/v], and nothing [happen/v]")]
    return []


PLANT_LOOKS = {
    0: "tiny, and droops as if it wants water",
    1: "a twelve-foot beanstalk, still thirsty",
    2: "a towering beanstalk that reaches up through the hole above",
    "dead": "dead and withered",
}


def _grown(agent: str, stage: int | str, template: str) -> list[Action]:
    grow = Modify(
        verb="grow", agent=agent, direct="@plant", feature="stage", value=stage, template=template, salience=0.8
    )
    return [grow, _quiet(agent, "@plant", "looks", PLANT_LOOKS[stage])]


def _water_plant(world: WorldState, agent: str, poured: str) -> list[Action]:
    stage = world.get("@plant", "stage")
    if poured == "@oil" or stage == "dead":
        if stage == "dead":
            return [_event(agent, "the dead plant [soak/v] it up and [do/v] nothing")]
        return _grown(agent, "dead", "[direct/s] [shrivel/v] and [die/v]")
    if stage == 2:
        return [_event(agent, "the beanstalk [drink/v] the water and [stay/v] as tall as ever")]
    grown = (
        "[direct/s] [shoot/v] up into a beanstalk twelve feet tall",
        "[direct/s] [grow/v] on into a towering beanstalk, twenty-five feet tall, up through the hole above",
    )[stage]
    return _grown(agent, stage + 1, grown)


def _safe_for_vase(action: Action, world: WorldState) -> bool:
    to = getattr(action, "to", "")
    link, _space, place = to.partition(" ")
    if place == "@pillow" or link == "of":
        return True
    return world.room_of(action.agent) == "@soft_room" and action.verb != "throw"


# -- the lamp ------------------------------------------------------------------------------------------------


CONTROLS = frozenset({LAMP, "@dial", "@hesitant", "@surprise", "@valley_girl"})


def lamplight(action: Action, world: WorldState) -> list[Action]:
    """Whoever works the lamp's controls is the one whose telling they change; lighting it in the dark shows
    where one is."""
    if not isinstance(action, Modify) or action.direct not in CONTROLS or action.salience == 0.0:
        return []
    found: list[Action] = []
    if world.get(LAMP, "worked_by") != action.agent:
        found.append(_quiet(action.agent, LAMP, "worked_by", action.agent))
    lit = action.feature == "on" and action.value is True and action.direct == LAMP
    if lit and in_the_dark(world, action.agent):
        found.append(verbs.look(action.agent, salience=0.4, arriving=True))
    return found


def _turning(r: Request) -> list[Action]:
    """ "turn the dial to 7", "turn the lamp to royal", "set dial to seven": 1 to 12, or a style's name; out of
    range, the dial springs back to 1."""
    if r.obj not in (LAMP, "@dial"):
        return standard("turn to").build(r)
    setting, said = read_setting(r.word or "")
    if setting is None:
        refused = verbs.gesture("turn", r.actor, "@dial", "[agent/s] [turn/v] [direct/o]", touching=True)
        reason = "there [be/2/v] only the numbers 1 to 12 on the dial, each with the name of a style"
        return [replace(refused, checks=(*refused.checks, _refusing(reason)))]
    told = f"[agent/s] [turn/v] [@dial/o] to {said}"
    if said != str(setting):
        told += f"; it [spring/v] back to {setting}"
    told += f", and the lamp's little window [show/v] the word {STYLE_NAMES[setting].upper()}"
    word = STYLE_NAMES[setting].upper()
    turn = Modify(
        verb="turn to",
        agent=r.actor,
        direct="@dial",
        feature="setting",
        value=setting,
        template=told,
        checks=(verbs.REACHES,),
        entails=lambda action, world: [_quiet(r.actor, "@dial", "word", word)],
    )
    return [turn]


def _refusing(template: str):  # type: ignore[no-untyped-def]
    def check(action: Action, world: WorldState, sight: object) -> Reason | None:
        return Reason("refused", template, alone=True)

    return check


def clock(actor: str, world: WorldState, tick: int, rng: random.Random) -> Action | None:
    """The cave's own turn, after everyone else's: it stamps a change to the lamp's controls with the tick (so
    the telling changes from the next turn on), and keeps the closing of the cave."""
    change = style_change(world, tick)
    if change is not None:
        agent = world.get(LAMP, "worked_by") or _lamp_holder(world) or ADVENTURER
        royal = controls_of(world)
        plural = bool(royal[0] and royal[1] == DIAL_WORDS["royal"])
        return Modify(
            verb="note",
            agent=agent,
            direct=LAMP,
            feature="style_change",
            value=[*change, agent],
            salience=0.0,
            entails=lambda action, now: (
                [_quiet(agent, agent, "plural_person", plural)] if now.get(agent, "plural_person") != plural else []
            ),
        )
    return _closing(world, tick)


DWARF = "@dwarf"
DWARF_HAUNTS = frozenset({"@east_end_of_long_hall", "@west_end_of_long_hall", "@crossover", "@dead_end_7"})
"""Where the dwarf wanders when no one plays him: the long hall and the crossover beyond it."""


def dwarf(actor: str, world: WorldState, tick: int, rng: random.Random) -> Action | None:
    """Every third tick the dwarf shuffles off along a passage of the long hall, lantern swinging."""
    room = world.items.get(world.room_of(actor) or "")
    if tick % 3 or not isinstance(room, Room):
        return None
    ways = sorted((way, to) for way, to in room.exits.items() if to in DWARF_HAUNTS)
    if not ways:
        return None
    way, to = rng.choice(ways)
    return verbs.go(actor, to, direction=way, salience=0.4)


def _lamp_holder(world: WorldState) -> str | None:
    for ancestor in world.ancestors(LAMP):
        if world.items[ancestor].kind == "actor":
            return ancestor
    return None


def _closing(world: WorldState, tick: int) -> Action | None:
    warned = world.get(CLOCK, "warned_at")
    if warned is None:
        if all(home(world, t) for t in TREASURES):
            return Behave(
                verb="boom",
                agent=ADVENTURER,
                template=(
                    "a deep voice [boom/v] through the whole cave: every treasure [be/v] home, and the cave "
                    "[will/v] close soon"
                ),
                salience=0.9,
                entails=lambda action, now: [_quiet(CLOCK, CLOCK, "warned_at", tick)],
            )
        return None
    if world.get(CLOCK, "closed") or tick < warned + CLOSING_TICKS:
        return None
    return Configure(
        verb="close",
        agent=ADVENTURER,
        direct=ADVENTURER,
        to="in @northeast_end",
        template=(
            "the cave [close/v] around [agent/o] with a roar; when the dust [settle/v], [agent/s] [stand/v] "
            "somewhere else entirely"
        ),
        salience=0.9,
        entails=lambda action, now: [
            _quiet(CLOCK, CLOCK, "closed", True),
            verbs.look(ADVENTURER, arriving=True),
        ],
    )


def home(world: WorldState, treasure: str) -> bool:
    """A treasure is home when it lies in the building (on the floor, on the pillow), not carried about."""
    if world.room_of(treasure) != "@building":
        return False
    return not any(world.items[holder].kind == "actor" for holder in world.ancestors(treasure))


def score(world: WorldState) -> tuple[int, int]:
    """Five points a treasure in the building, ten for the cave's closing, fifteen for the blast."""
    points = POINTS_A_TREASURE * sum(1 for t in TREASURES if home(world, t))
    if world.get(CLOCK, "closed"):
        points += POINTS_FOR_CLOSING
    if world.get(CLOCK, "won"):
        points += POINTS_FOR_VICTORY
    return points, MOST_POINTS


# -- the cave's own commands ---------------------------------------------------------------------------------


def _way(name: str) -> CommandKind:
    """Typing a way's name goes that way, where there is one; elsewhere a magic word does nothing, and a word
    that is also a command ("jump", "exit") is that command."""
    fallback = next((kind for kind in _standard_kinds() if (name,) in kind.tokens), None)

    def build(r: Request) -> list[Action]:
        room = r.world.items.get(r.world.room_of(r.actor) or "")
        if isinstance(room, Room) and name in room.exits:
            return [verbs.go_direction(r.actor, name, r.world)]
        if fallback is not None:
            return fallback.build(r)
        if name in MAGIC_WORDS:
            return [_event(r.actor, f"[agent/s] [say/v] {name.upper()} aloud, and nothing [happen/v]", salience=0.5)]
        return [
            replace(
                verbs.gesture("go", r.actor, None, f"[agent/s] [go/v] {name}"),
                checks=(_refusing(_no_way(name)),),
            )
        ]

    patterns: tuple[str, ...] = (
        name,
        f"go {name}",
        f"walk {name}",
        f"run {name}",
        f"go to {name}",
        f"go to the {name}",
    )
    if name in MAGIC_WORDS:
        patterns += (f"say {name}", f"shout {name}")
    return CommandKind(f"way {name}", patterns, build)


CROSSED = {"@fissure": ("over",), "@rickety_bridge": ("cross",)}
"""What crossing something that is no door means: the way over it."""


def _crossing(r: Request) -> list[Action]:
    """ "cross the bridge", "go through the grate", "go over the fissure": the way here that leads through it."""
    room = r.world.items.get(r.world.room_of(r.actor) or "")
    exits = room.exits if isinstance(room, Room) else {}
    ways = [way for way, to in exits.items() if to == r.obj] or [w for w in CROSSED.get(r.obj, ()) if w in exits]
    if not ways:
        refused = verbs.gesture("cross", r.actor, r.obj, "[agent/s] [cross/v] [direct/o]")
        return [replace(refused, checks=(_refusing("[direct/s] [lead/not/v] anywhere from [here]"),))]
    return [verbs.go_direction(r.actor, ways[0], r.world)]


DOINGS = {"climb": "climb", "jump": "jump", "crawl": "crawl", "enter": "enter", "cross": "cross", "over": "cross",
          "across": "cross"}  # fmt: skip
"""Named ways that are things one does: where there is no such way, there is nothing here to do it to."""
PLACES = frozenset({
    "barren", "bed", "bedquilt", "building", "canyon", "cavern", "cobble", "crack", "debris", "depression",
    "entrance", "floor", "forest", "fork", "giant", "gully", "hall", "hill", "hole", "house", "oriental", "pit",
    "reservoir", "rock", "room", "shell", "slab", "slit", "stair", "stream", "tunnel", "valley", "view", "wall",
})  # fmt: skip
"""Named ways that are places nearby: where none leads there, the adventurer sees no way to it."""


def _no_way(name: str) -> str:
    if name in DOINGS:
        return f"there [be/v] nothing to {DOINGS[name]} [here]"
    if name in PLACES:
        place = name if name == "bedquilt" else f"the {name}"
        return f"[agent/s] [see/v] no way to {place} from [here]"
    return f"[agent/s] [can/not/v] go {name} from [here]"


def _standard_kinds() -> tuple[CommandKind, ...]:
    return GRAMMAR


def _pouring(substance: str) -> CommandKind:
    """ "water the plant", "oil the door": pour what the bottle holds over it."""

    def build(r: Request) -> list[Action]:
        held = [t for t in r.world.descendants(r.actor) if substances.is_vessel(r.world, t)]
        holding = [t for t in held if substances.substance_in(r.world, t) == substance]
        if not holding:
            name = r.world.items[substance].called
            return [
                replace(
                    verbs.gesture("pour", r.actor, r.obj, "[agent/s] [pour/v] [direct/o]"),
                    checks=(_refusing(f"[agent/s] [have/v] no {name} to pour"),),
                )
            ]
        return [substances.pour(r.actor, holding[0], r.obj, r.world)]

    word = substance.lstrip("@")
    return CommandKind(word, (f"{word} OBJ", f"{word} the OBJ"), build, scope="reachable")


def _killing(r: Request) -> list[Action]:
    return standard("strike").build(r)


def _catching(r: Request) -> list[Action]:
    return [verbs.put(r.actor, item, "in", "@cage") for item in r.objects]


def _unchaining(r: Request) -> list[Action]:
    if r.obj != "@bear" or not _leashed(r.world):
        refused = verbs.gesture("unchain", r.actor, r.obj, "[agent/s] [unchain/v] [direct/o]")
        return [replace(refused, checks=(_refusing("[direct/s] [be/not/v] on a chain [agent/s] [hold/v]"),))]
    return [_unleash(r.actor)]


def _freeing(r: Request) -> list[Action]:
    if r.objects and r.obj == "@bear":
        return _unchaining(r)
    return standard("free").build(r)


COMMANDS: tuple[CommandKind, ...] = (
    like("turn to", _turning),
    _pouring("@water"),
    _pouring("@oil"),
    CommandKind("kill", ("kill OBJ", "slay OBJ", "kill OBJ with OBJ2", "slay OBJ with OBJ2"), _killing),
    CommandKind("catch", ("catch OBJ", "cage OBJ", "capture OBJ"), _catching, scope="reachable"),
    CommandKind("unchain", ("unchain OBJ", "unleash OBJ"), _unchaining, scope="reachable"),
    like("free", _freeing),
    CommandKind(
        "cross",
        ("cross OBJ", "go over OBJ", "go across OBJ", "go through OBJ", "walk across OBJ", "walk over OBJ"),
        _crossing,
    ),
    *(_way(name) for name in NAMED_WAYS),
)


# -- refusals ------------------------------------------------------------------------------------------------


def _holding_rod(action: Action, world: WorldState) -> bool:
    return _holds(world, action.agent, "@rusty_rod")


def _not_into_cage(action: Action, world: WorldState) -> bool:
    return action.verb == "take" or (action.verb == "put" and action.indirect != "@cage")


def _bear_angry(action: Action, world: WorldState) -> bool:
    return not world.get("@bear", "calm")


def _dragon_on_rug(action: Action, world: WorldState) -> bool:
    return bool(world.get("@dragon", "alive"))


def _pillow_taken(action: Action, world: WorldState) -> bool:
    return action.indirect == "@pillow" and bool(world.children.get("@pillow"))


def _no_trident(action: Action, world: WorldState) -> bool:
    return not _holds(world, action.agent, "@trident")


def _not_treasure(action: Action, world: WorldState) -> bool:
    return action.indirect == "@troll" and action.direct not in TREASURES


def _not_food(action: Action, world: WorldState) -> bool:
    return action.indirect == "@bear" and action.direct != "@food"


def _bottle_shut(action: Action, world: WorldState) -> bool:
    return world.get("@bottle", "open") is False and (action.direct == "@bottle")


FIXED = ("@hook", "@button", "@plant", "@fissure", "@shards", "@bridge", "@grate", "@rusty_door", "@rickety_bridge")

REFUSALS: tuple[Refusal, ...] = (
    Refusal(verb="take", direct="@bird", reason="the little bird [flit/v] out of [agent's] reach"),
    Refusal(verb="remove", direct="@bird", reason="the little bird [flit/v] out of [agent's] reach"),
    Refusal(verb="close", direct="@bridge", reason="[direct/s] [be/v] a bridge, not a door"),
    Refusal(verb="open", direct="@bridge", reason="[direct/s] [be/v] a bridge, not a door"),
    Refusal(
        verb="put",
        direct="@bird",
        when=_holding_rod,
        reason="the bird, frightened of the black rod, [dart/v] away from the cage",
    ),
    Refusal(verb="put", direct="@bird", when=_not_into_cage, reason="the little bird [flit/v] out of [agent's] reach"),
    Refusal(verb="take", direct="@snake", reason="[agent/s] [be/v] not about to pick up a huge snake"),
    Refusal(verb="strike", direct="@snake", reason="the snake [hiss/v] and [strike/v] back, far too fast for anyone"),
    Refusal(verb="take", direct="@dragon", reason="the dragon [be/v] far too heavy to move"),
    Refusal(verb="take", direct="@troll", reason="the troll [laugh/v] at the idea"),
    Refusal(verb="take", direct="@bear", reason="the bear [be/v] far too big to carry"),
    Refusal(verb="take", direct="@rug", when=_dragon_on_rug, reason="the dragon [lie/v] on the rug"),
    Refusal(verb="take", direct="@chain", when=_bear_angry, reason="the bear [growl/v], and [agent/s] [draw/v] back"),
    Refusal(verb="remove", direct="@chain", when=_bear_angry, reason="the bear [growl/v], and [agent/s] [draw/v] back"),
    Refusal(verb="give", when=_not_treasure, reason="the troll [want/v] treasure, nothing less"),
    Refusal(verb="feed", when=_not_treasure, reason="the troll [want/v] treasure, nothing less"),
    Refusal(verb="give", when=_not_food, reason="the bear [sniff/v] at [direct/o] and [snarl/v]"),
    Refusal(verb="put", when=_pillow_taken, reason="the pillow [have/v] room for only one thing"),
    Refusal(
        verb="open", direct="@clam", when=_no_trident, reason="the clam [be/v] shut tight; it [need/v] prying open"
    ),
    Refusal(
        verb="unlock", direct="@clam", when=_no_trident, reason="the clam [be/v] shut tight; it [need/v] prying open"
    ),
    Refusal(
        verb="unlock",
        direct="@rusty_door",
        reason="[direct/s] [have/v] no keyhole; its hinges [be/2/v] rusted fast",
    ),
    Refusal(
        verb="open",
        direct="@rusty_door",
        when=lambda a, w: bool(w.get("@rusty_door", "rusted")),
        reason="[direct/s] [be/v] rusted shut and [budge/not/v]",
    ),
    Refusal(verb="pour", when=_bottle_shut, reason="the bottle [be/v] stoppered"),
    Refusal(verb="fill", when=_bottle_shut, reason="the bottle [be/v] stoppered"),
    Refusal(verb="drink", when=_bottle_shut, reason="the bottle [be/v] stoppered"),
    leave_be(FIXED, "[direct/s] [stay/v] where [direct/s] [be/v]"),
)


# -- the things ----------------------------------------------------------------------------------------------


def _source(tag: str, called: str, room: str, sight: str, substance: str = "@water") -> Thing:
    return Thing(
        tag=tag,
        called=called,
        where=f"part_of {room}",
        mention=False,
        sight=sight,
        referring="water" if substance == "@water" else "oil pool",
        features={"source_of": substance},
    )


def _treasure(tag: str, called: str, where: str, sight: str, **more: object) -> Thing:
    return Thing(tag=tag, called=called, where=where, qualities=("treasure",), sight=sight, **more)  # type: ignore[arg-type]


THINGS: tuple[Item, ...] = (
    Room(tag=LIMBO, called="nowhere", sight="nothing at all"),
    SharedThing(tag="@sky", called="sky", article="the", mention=False, sight="the sky [be/v] clear and blue"),
    SharedThing(tag="@sun", called="sun", article="the", mention=False, sight="the sun [shine/v] down warmly"),
    Substance(tag="@water", called="water", referring="liquid", qualities=("drink",)),
    Substance(tag="@oil", called="oil", referring="liquid"),
    Actor(
        tag=ADVENTURER,
        called="intrepid adventurer",
        subsequent="adventurer",
        where="in @end_of_road",
        gender="unknown",
        referring="me self",
    ),
    Actor(tag=CLOCK, called="cave", article="the", where=f"in {LIMBO}", features={"warned_at": None}),
    Actor(
        tag=DWARF,
        called="bearded dwarf",
        subsequent="dwarf",
        gender="male",
        where="in @west_end_of_long_hall",
        referring="little man beard",
        sight="[@dwarf/s] [be/v] short and broad, with a beard to his belt and a lantern in his fist",
    ),
    Thing(
        tag="@lantern",
        called="little oil lantern",
        subsequent="lantern",
        where=f"of {DWARF}",
        referring="oil",
        qualities=("light",),
        on=True,
        glow=0.8,
        sight="[@lantern/s] [burn/v] with a small yellow flame",
    ),
    _source("@stream_by_road", "small stream", "@end_of_road", "a small stream [run/v] clear and cold"),
    _source("@stream_in_valley", "tumbling stream", "@valley", "the stream [tumble/v] over the rocks"),
    _source("@spring", "small stream", "@slit", "the stream [slip/v] away into the rock"),
    _source("@building_spring", "spring", "@building", "clear water [bubble/v] up from the spring"),
    _source("@stream_in_pit", "little stream", "@bottom_of_pit", "a little stream [trickle/v] over the floor"),
    _source("@waterfall", "sparkling waterfall", "@cavern_with_waterfall", "the waterfall [sparkle/v] as it falls"),
    _source("@lake", "underground lake", "@reservoir", "the dark water [lie/v] perfectly still"),
    _source("@pool_of_oil", "small pool of oil", "@east_pit", "a pool of thick dark oil", substance="@oil"),
    Thing(
        tag="@keys",
        called="glinting keys",
        subsequent="keys",
        article="some",
        plural=True,
        where="in @building",
        referring="key ring set bunch",
        qualities=("device",),
        sight="[@keys/s] [be/2/v] a bunch of keys on a ring",
    ),
    Thing(
        tag="@food",
        called="food",
        article="some",
        where="in @building",
        qualities=("food",),
        referring="tasty",
        sight="[@food/s] [be/v] plain and filling: bread, cheese and an apple",
    ),
    Thing(
        tag="@bottle",
        called="clear glass bottle",
        subsequent="bottle",
        where="in @building",
        qualities=("vessel",),
        open=False,
        transparent=True,
        features={"contents": "@water"},
        sight="[@bottle/s] [be/v] clear glass with a stopper, and [@bottle/open/a]",
    ),
    Thing(
        tag=LAMP,
        called="shiny brass carbide lamp",
        subsequent="lamp",
        where="in @building",
        referring="lantern light brass carbide",
        qualities=("device", "light"),
        on=False,
        glow=1.0,
        features={"style_change": None},
        sight=(
            "[@lamp/s] [be/v] brass, the kind miners [carry/2/v], and [@lamp/on/a]; it [have/v] a dial numbered "
            "1 to 12, "
            "a little window that [show/1/v] the word [@dial/word/a], and three switches marked HESITANT, SURPRISE "
            "and VALLEY GIRL"
        ),
    ),
    Thing(
        tag="@dial",
        called="dial",
        where=f"part_of {LAMP}",
        mention=False,
        referring="knob",
        features={"setting": 2, "word": "MEMOIR"},
        sight="[@dial/s] [be/v] set to [@dial/setting/a]; beside each number [be/v] the name of a way of telling",
    ),
    *(
        Thing(
            tag=tag,
            called=f"{label} switch",
            where=f"part_of {LAMP}",
            mention=False,
            on=False,
            referring="switch",
            sight=f"the {label} switch [be/v] [{tag}/on/a]",
        )
        for tag, label in (("@hesitant", "HESITANT"), ("@surprise", "SURPRISE"), ("@valley_girl", "VALLEY GIRL"))
    ),
    Door(
        tag="@grate",
        called="strong steel grate",
        subsequent="grate",
        connects=("@outside_grate", "@below_grate"),
        open=False,
        locked=True,
        key="@keys",
        transparent=True,
        mention=False,
        referring="steel bars",
        sight="[@grate/s] [be/v] set firmly into the rock, and [@grate/open/a]",
    ),
    Thing(
        tag="@cage",
        called="wicker cage",
        where="in @cobble_crawl",
        holds=("in",),
        open=True,
        transparent=True,
        sight="[@cage/s] [be/v] small and woven of wicker, with a little door",
    ),
    Thing(
        tag="@rusty_rod",
        called="black rod",
        where="in @debris_room",
        referring="rusty star iron",
        sight="[@rusty_rod/s] [be/v] three feet long, with a rusty star on one end",
    ),
    Thing(
        tag="@bird",
        called="little bird",
        where="in @bird_chamber",
        prominence=0.7,
        referring="songbird",
        sight="[@bird/s] [be/v] a cheerful little songbird",
    ),
    SharedThing(
        tag="@fissure",
        called="fissure",
        article="the",
        mention=False,
        accessible=True,
        referring="chasm crack",
        sight="the fissure [be/v] deep, and mist [rise/v] out of it",
    ),
    SharedThing(
        tag="@rickety_bridge",
        called="rickety bridge",
        article="the",
        mention=False,
        accessible=True,
        referring="bridge chasm",
        sight="[@rickety_bridge/s] [sway/v] over the chasm on fraying ropes",
    ),
    Door(
        tag="@bridge",
        called="crystal bridge",
        where=f"in {LIMBO}",
        connects=("@fissure_east", "@fissure_west"),
        open=True,
        referring="crystal",
        sight="[@bridge/s] [glitter/v] across the fissure, thin as glass",
    ),
    _treasure("@nugget", "large gold nugget", "in @nugget_room", "[@nugget/s] [be/v] heavy gold", referring="gold"),
    Thing(
        tag="@snake",
        called="huge green snake",
        where="in @hall_of_mountain_king",
        prominence=0.9,
        referring="serpent",
        prevent=snake_bars,
        sight="[@snake/s] [coil/v] across the floor, hissing",
    ),
    Thing(
        tag="@plant",
        called="plant",
        where="part_of @west_pit",
        referring="beanstalk bean stalk tiny",
        features={"stage": 0, "looks": PLANT_LOOKS[0]},
        sight="[@plant/s] [be/v] [@plant/looks/a]",
    ),
    _treasure(
        "@diamonds",
        "diamonds",
        "in @fissure_west",
        "[@diamonds/s] [sparkle/2/v]",
        plural=True,
        article="some",
        referring="diamond several",
    ),
    _treasure(
        "@bars",
        "bars of silver",
        "in @low_passage",
        "[@bars/s] [be/2/v] solid silver",
        plural=True,
        article="some",
        referring="silver bar",
    ),
    _treasure(
        "@jewelry",
        "precious jewelry",
        "in @south_side_chamber",
        "[@jewelry/s] [glitter/v]",
        article="some",
        referring="jewels jewel",
    ),
    _treasure(
        "@coins",
        "rare coins",
        "in @west_side_chamber",
        "[@coins/s] [be/2/v] old and rare",
        plural=True,
        article="some",
        referring="coin",
    ),
    _treasure(
        "@eggs",
        "golden eggs",
        "in @giant_room",
        "[@eggs/s] [be/2/v] solid gold",
        plural=True,
        article="some",
        referring="egg nest",
    ),
    Door(
        tag="@rusty_door",
        called="massive rusty iron door",
        subsequent="rusty door",
        connects=("@end_of_immense_passage", "@cavern_with_waterfall"),
        open=False,
        mention=False,
        features={"rusted": True},
        referring="door hinges iron",
        sight="[@rusty_door/s] [be/v] [@rusty_door/open/a], and its hinges [be/2/v] thick with rust",
    ),
    _treasure(
        "@trident",
        "jewel-encrusted trident",
        "in @cavern_with_waterfall",
        "[@trident/s] [be/v] heavy",
        referring="jeweled",
    ),
    Thing(
        tag="@pillow",
        called="small velvet pillow",
        subsequent="pillow",
        where="in @soft_room",
        holds=("on",),
        referring="velvet cushion",
        sight="[@pillow/s] [be/v] soft and plump",
    ),
    _treasure(
        "@vase",
        "delicate Ming vase",
        "in @oriental_room",
        "[@vase/s] [be/v] fine porcelain, and fragile",
        referring="ming porcelain",
    ),
    Thing(
        tag="@shards",
        called="shards of pottery",
        article="some",
        plural=True,
        where=f"in {LIMBO}",
        referring="pottery pieces",
        sight="all that [be/v] left of a fine vase",
    ),
    _treasure(
        "@emerald",
        "emerald the size of a plover's egg",
        "in @plover_room",
        "[@emerald/s] [glow/v] green",
        referring="egg-sized",
    ),
    _treasure(
        "@pyramid",
        "platinum pyramid",
        "in @dark_room",
        "[@pyramid/s] [be/v] eight inches on a side",
        referring="platinum",
    ),
    Thing(
        tag="@clam",
        called="enormous clam",
        subsequent="clam",
        where="in @shell_room",
        holds=("in",),
        open=False,
        locked=True,
        key="@trident",
        referring="shell",
        sight="[@clam/s] [be/v] as big as a washtub, its ridged shell clamped tight",
    ),
    Thing(
        tag="@oyster",
        called="enormous oyster",
        subsequent="oyster",
        where=f"in {LIMBO}",
        holds=("in",),
        open=True,
        referring="shell clam",
        sight="[@oyster/s] [gape/v] open, and empty",
    ),
    _treasure("@pearl", "glistening pearl", "in @clam", "[@pearl/s] [glisten/v]"),
    Thing(
        tag="@magazines",
        called="magazines",
        article="some",
        plural=True,
        where="in @anteroom",
        referring="magazine spelunker",
        sight="[@magazines/s] [be/2/v] old issues of a caving monthly",
    ),
    _treasure(
        "@chest", "pirate's treasure chest", "in @dead_end_14", "[@chest/s] [be/v] heavy with gold", referring="pirate"
    ),
    Thing(
        tag="@black_rod",
        called="small black rod",
        where="in @southwest_end",
        referring="rod black small marked dynamite",
        sight="[@black_rod/s] [be/v] marked with a warning in red",
    ),
    scenery("@button", "button", "@southwest_end", "[@button/s] [be/v] large and red"),
    Actor(
        tag="@troll",
        called="burly troll",
        subsequent="troll",
        where="in @southwest_side_of_chasm",
        gender="male",
        features={"scared": False, "paid": False},
        sight="[@troll/s] [be/v] big and warty, and [watch/v] the bridge",
    ),
    _treasure(
        "@rug",
        "Persian rug",
        "in @secret_canyon",
        "[@rug/s] [be/v] finely woven",
        holds=("on",),
        referring="persian carpet",
    ),
    Thing(
        tag="@dragon",
        called="huge dragon",
        subsequent="dragon",
        where="on @rug",
        prominence=0.9,
        features={"alive": True},
        sight="[@dragon/s] [be/v] huge and green",
    ),
    _treasure(
        "@spices",
        "rare spices",
        "in @chamber_of_boulders",
        "[@spices/s] [smell/2/v] exotic",
        plural=True,
        article="some",
        referring="spice",
    ),
    Actor(
        tag="@bear",
        called="ferocious cave bear",
        subsequent="bear",
        where="in @barren_room",
        gender="neuter",
        features={"calm": False, "leashed": False},
        sight="[@bear/s] [be/v] enormous, and chained to the wall",
    ),
    Thing(
        tag="@hook",
        called="small hook",
        where="part_of @barren_room",
        holds=("on",),
        mention=False,
        sight="[@hook/s] [be/v] set firmly in the wall",
    ),
    _treasure("@chain", "golden chain", "on @hook", "[@chain/s] [be/v] heavy gold", referring="gold"),
)

ITEMS: tuple[Item, ...] = (*(_room(name) for name in ROOMS), *THINGS)

OPENINGS = {
    DWARF: "[agent/s] [have/v] lived in the cave's passages longer than memory, and [know/v] every stone of the "
    "long hall",
}
"""The dwarf's own first moment, told only to whoever plays him (the adventurer's is the prologue)."""

WORLD = WorldDefinition(
    name="adventure",
    title="Adventure in Style",
    summary=(
        "Two Great Tastes that Taste Great Together: Crowther and Woods' cave, and a brass lamp whose dial tells it "
        "twelve ways, after Queneau's Exercises in Style."
    ),
    author="based on Adventure by Will Crowther and Don Woods, and Exercises in Style by Raymond Queneau",
    interactive=True,
    items=ITEMS,
    player=ADVENTURER,
    spin={"narratee": ADVENTURER},
    prologue=(
        "Welcome! Somewhere beneath this forest lies a great cave, full of treasure; from the end of the road, its "
        "entrance is south, south, south. Bring the treasures back to the building, and mind the brass lamp: its "
        "dial changes more than the light."
    ),
    playable=(ADVENTURER, DWARF),
    timeline=tuple(
        (1, Behave(verb="begin", agent=actor, template=opening, witnessed="agent", salience=0.6))
        for actor, opening in OPENINGS.items()
    ),
    scripts={CLOCK: clock, DWARF: dwarf},
    reactions=(creatures, puzzles, lamplight),
    refusals=REFUSALS,
    commands=COMMANDS,
    dynamic_spin=lamp_spin,
    score=score,
)
