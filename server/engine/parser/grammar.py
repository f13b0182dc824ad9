"""The command grammar: each kind of command, the word orders that express it, and the actions it makes.

What a pattern, a slot and a scope are is in `kinds`; the substance commands are in `substances`. Patterns are
tried most literal words first, so "look at X" is read before "look X".
"""

from __future__ import annotations

from collections.abc import Callable

from server.engine.actions import verbs
from server.engine.actions.action import Action, Configure, Modify, Reason
from server.engine.copying import replace
from server.engine.english.words import direction_name
from server.engine.parser import substances
from server.engine.parser.kinds import (
    ABBREVIATIONS,
    SLOTS,
    Builder,
    CommandKind,
    Request,
    Scope,
    refusal,
    verb_of,
)
from server.engine.world.items import Door, Room, Sense
from server.engine.world.state import WorldState

__all__ = ["ABBREVIATIONS", "GRAMMAR", "SLOTS", "Builder", "CommandKind", "Request", "Scope", "verb_of"]
"""What a world's own commands are made of is defined in `kinds` (and offered by `authoring`); it is named here
too, for world files that import it from the grammar."""


def _each(make: Callable[[str, str], Action]) -> Builder:
    return lambda r: [make(r.actor, item) for item in r.objects]


TOUCHING = frozenset({"press", "push", "shake", "kick", "strike", "free"})
"""Gestures done with hands or feet: their object must be within reach."""


def _gesture(
    verb: str, template: str, *, alone: str | None = None, salience: float = 0.5, held: bool = False
) -> Builder:
    """A gesture, at each object named or (with none) by itself; a `held` one is done with its object in hand."""
    touching = verb in TOUCHING

    def build(r: Request) -> list[Action]:
        if not r.objects:
            return [verbs.gesture(verb, r.actor, None, alone or f"[agent/s] [{verb}/v]", salience=salience)]
        return [
            verbs.gesture(verb, r.actor, item, template, salience=salience, touching=touching, held=held)
            for item in r.objects
        ]

    return build


def _with_second(verb: str, template: str, second: str = "", *, held: bool = False) -> Builder:
    """A gesture at something, told with `second` added when a second thing is named ("with [indirect/o]"): a
    second thing done "with" is in hand; a `held` gesture's own object is ("wave the lamp at the mime")."""

    def build(r: Request) -> list[Action]:
        actions: list[Action] = []
        for item in r.objects:
            touching = verb in TOUCHING
            if r.second is None:
                actions.append(verbs.gesture(verb, r.actor, item, template, touching=touching, held=held))
            else:
                told = f"{template} {second}" if second else template
                gesture = verbs.gesture(verb, r.actor, item, told, touching=touching, held=held)
                using = (verbs.HELD_SECOND,) if second.startswith("with") else ()
                actions.append(replace(gesture, indirect=r.second, checks=(*gesture.checks, *using)))
        return actions

    return build


def _fits(action: Action, world: WorldState, sight: object) -> Reason | None:
    key = world.items[action.direct].key if action.direct is not None else None
    if action.indirect is not None and action.indirect != key:
        return Reason("wrong key", "[indirect/s] [do/not/v] fit [direct/o]")
    return None


def _keyed(make: Callable[[str, str], Modify]) -> Builder:
    """Lock or unlock, and, with a key named, only with that key: the verb itself wants the key only held."""

    def build(r: Request) -> list[Action]:
        actions: list[Action] = []
        for item in r.objects:
            action = make(r.actor, item)
            if r.second is not None:
                action = replace(
                    action,
                    indirect=r.second,
                    template=f"{action.template} with [indirect/o]",
                    checks=(*action.checks, _fits),
                )
            actions.append(action)
        return actions

    return build


def _is_device(world: WorldState, item: str) -> bool:
    """Switched on and off rather than lit: "light the lamp" means switching on a carbide lamp."""
    return world.get(item, "on") is not None and world.get(item, "lit") is None


def _lighting(fire: Callable[[str, str], Modify], switch: Callable[[str, str], Modify]) -> Builder:
    def build(r: Request) -> list[Action]:
        actions: list[Action] = []
        for item in r.objects:
            action = (switch if _is_device(r.world, item) else fire)(r.actor, item)
            if r.second is not None:
                template = f"{action.template} with [indirect/o]"
                action = replace(
                    action, indirect=r.second, template=template, checks=(*action.checks, verbs.HELD_SECOND)
                )
            actions.append(action)
        return actions

    return build


def _put(link: str) -> Builder:
    """Put each thing in or on the second; putting oneself there is getting in (or on), as "enter" is."""

    def build(r: Request) -> list[Action]:
        place = r.second or ""
        return [
            verbs.enter(r.actor, place, r.world, link) if item == r.actor else verbs.put(r.actor, item, link, place)
            for item in r.objects
        ]

    return build


def _open_with(r: Request) -> list[Action]:
    actions: list[Action] = []
    for item in r.objects:
        if r.world.get(item, "locked"):
            actions.extend(_keyed(verbs.unlock)(replace(r, objects=(item,))))
        actions.append(verbs.open_(r.actor, item))
    return actions


def _give(r: Request) -> list[Action]:
    assert r.second is not None
    return [verbs.give(r.actor, item, r.second) for item in r.objects]


def _go(r: Request) -> list[Action]:
    return [verbs.go_direction(r.actor, r.direction or "", r.world)]


def _wander(r: Request) -> list[Action]:
    room = r.world.room_of(r.actor)
    item = r.world.items[room] if room else None
    exits = [d for d, way in getattr(item, "exits", {}).items() if way.startswith("@")]
    if not exits:
        return [verbs.gesture("wander", r.actor, None, "[agent/s] [wander/v] about")]
    choice = r.rng.choice(exits)
    return [verbs.go_direction(r.actor, choice, r.world)]


def _leave(r: Request) -> list[Action]:
    return [verbs.get_out(r.actor, r.world)]


def _extricate(r: Request) -> list[Action]:
    """ "extricate" (oneself) gets out of what one is in; "extricate the bird from the cage" frees it."""
    if not r.objects or r.obj == r.actor:
        return _leave(r)
    return _with_second("free", "[agent/s] [free/v] [direct/o]", "from [indirect/o]")(r)


def _go_to(r: Request) -> list[Action]:
    """ "go to the fountain": the way to the room next to this one where something seen over there is."""
    return [_going_to(r, r.world.room_of(r.obj) or r.obj)]


def _go_to_place(r: Request) -> list[Action]:
    """ "go to center": the way to the room next to this one that the words name (a room seen across the way
    is not in reach to be named as a thing is)."""
    words = [w for w in (r.text or "").lower().split() if w not in ("a", "an", "the")]
    room = r.world.room_of(r.actor)
    named = [
        tag
        for tag in (room, *_next_rooms(r.world, room))
        if tag is not None and words and set(words) <= r.world.items[tag].words()
    ]
    return [_going_to(r, named[0] if named else None)]


def _next_rooms(world: WorldState, room: str | None) -> list[str]:
    """The rooms one way out of `room` leads to, through a door or not."""
    found: list[str] = []
    for way in getattr(world.items[room], "exits", {}).values() if room else ():
        item = world.items.get(way)
        if isinstance(item, Door):
            found.extend(other for other in item.connects if other != room)
        elif isinstance(item, Room):
            found.append(way)
    return found


def _going_to(r: Request, there: str | None) -> Action:
    """Going the way that leads to `there` from here; refused, plainly, when that is here or no way leads there."""
    room = r.world.room_of(r.actor)
    going = verbs.gesture("go", r.actor, None, "[agent/s] [go/v] there")
    if there is not None and there == room:
        return replace(going, checks=(refusal("[agent/s] [be/v] already there"),))
    for direction, way in (getattr(r.world.items[room], "exits", {}) if room else {}).items():
        door = r.world.items.get(way)
        if there is not None and (way == there or (isinstance(door, Door) and there in door.connects)):
            return verbs.go_direction(r.actor, direction, r.world)
    return replace(going, checks=(refusal("[agent/s] [know/not/v] a way straight there from [here]"),))


def _say(r: Request) -> list[Action]:
    said = verbs.say(r.actor, r.text or "")
    if not r.objects:
        return [said]
    return [replace(said, indirect=r.obj, template=f"{said.template} to [indirect/o]")]


def _about(verb: str) -> Builder:
    """Asking or telling someone about something: a thing named, told by its name ("about your cloak"), or
    free words, told as typed; the action is saying, for worlds that listen."""

    def build(r: Request) -> list[Action]:
        if r.second is None:
            return _speech(f"[agent/s] [{verb}/v] [indirect/o] about TEXT")(r)
        said = verbs.say(r.actor, r.world.items[r.second].called)
        return [replace(said, indirect=r.obj, template=f"[agent/s] [{verb}/v] [indirect/o] about [{r.second}/o]")]

    return build


def _speech(how: str) -> Builder:
    """Speaking to someone in other words than "say": `how` is told with the words said in place of TEXT
    ("[agent/s] [ask/v] [indirect/o] about TEXT"); the action is still saying, for worlds that listen."""

    def build(r: Request) -> list[Action]:
        said = verbs.say(r.actor, r.text or "")
        return [replace(said, indirect=r.obj, template=how.replace("TEXT", said.utterance or ""))]

    return build


def _throw(r: Request) -> list[Action]:
    return [verbs.throw(r.actor, item, r.world, r.second) for item in r.objects]


def _feed(r: Request) -> list[Action]:
    assert r.second is not None
    return [verbs.feed(r.actor, item, r.second) for item in r.objects]


_NOT_PUSHABLE = "[direct/s] [can/not/v] be pushed from place to place"


def _push_to(r: Request) -> list[Action]:
    """ "push the cart north": what a world gives the feature `pushable` goes along as its pusher goes that way;
    anything else is refused, plainly."""
    item, direction = r.obj, r.direction or ""
    if not r.world.get(item, "pushable"):
        refused = verbs.gesture("push", r.actor, item, "[agent/s] [push/v] [direct/o]", touching=True)
        return [replace(refused, checks=(*refused.checks, refusal(_NOT_PUSHABLE)))]
    going = verbs.go_direction(r.actor, direction, r.world)
    if not isinstance(going, Configure):
        return [going]  # no way that way: the going is refused, and the thing stays
    # The thing goes first (it must be within reach, here), and its pusher follows it.
    pushed = Configure(
        verb="push",
        agent=r.actor,
        direct=item,
        to=going.to,
        direction=direction,
        template=f"[agent/s] [push/v] [direct/o] {direction_name(direction)}",
        checks=going.checks,
        entails=lambda action, world: [going],
    )
    return [pushed]


def _turn_to(r: Request) -> list[Action]:
    return [verbs.turn_to(r.actor, r.obj, r.word or "")]


def _remove(r: Request) -> list[Action]:
    assert r.second is not None
    if r.substance is not None:
        return substances.in_hand(r)
    return [verbs.remove(r.actor, item, r.second) for item in r.objects]


def _take(r: Request) -> list[Action]:
    if r.substance is not None:
        return substances.in_hand(r)
    actions: list[Action] = []
    for item in r.objects:
        holder = r.world.parent(item)
        contained = r.world.link(item) in ("in", "on")
        if contained and holder is not None and holder != r.actor and r.world.items[holder].kind == "thing":
            actions.append(verbs.remove(r.actor, item, holder))
        else:
            actions.append(verbs.take(r.actor, item))
    return actions


def _take_off_or_out(r: Request) -> list[Action]:
    """ "remove X": off if worn, else out of whatever holds it."""
    actions: list[Action] = []
    for item in r.objects:
        if r.world.parent(item) == r.actor:
            actions.append(verbs.take_off(r.actor, item))
        else:
            actions.extend(_take(Request(r.actor, r.world, (item,))))
    return actions


def _look_in(r: Request) -> list[Action]:
    return [verbs.look(r.actor, r.obj)]


def _examine(r: Request) -> list[Action]:
    # Examining the room one is in is looking around it.
    return [verbs.look(r.actor, None if isinstance(r.world.items[item], Room) else item) for item in r.objects]


def _sense(modality: Sense) -> Builder:
    def build(r: Request) -> list[Action]:
        if not r.objects:
            return [verbs.sense(r.actor, modality)]
        return [verbs.sense(r.actor, modality, item) for item in r.objects]

    return build


def _enter(r: Request) -> list[Action]:
    return [verbs.enter(r.actor, r.obj, r.world)]


def _toggle(r: Request) -> list[Action]:
    return [verbs.toggle(r.actor, item, r.world) for item in r.objects]


def _drop(r: Request) -> list[Action]:
    actions: list[Action] = []
    for item in r.objects:
        if r.world.parent(item) == r.actor and r.world.link(item) == "on":
            actions.append(verbs.take_off(r.actor, item))  # first taking it off, as anyone would
        actions.append(verbs.drop(r.actor, item, r.world))
    return actions


GRAMMAR: tuple[CommandKind, ...] = (
    # "look north" looks around: what lies that way is seen from here, if anything is.
    CommandKind(
        "look", ("look", "l", "look around", "look DIR", "l DIR"), lambda r: [verbs.look(r.actor)], help="look around"
    ),
    CommandKind(
        "examine",
        ("examine OBJ", "x OBJ", "look at OBJ", "l at OBJ", "inspect OBJ", "describe OBJ", "check OBJ", "look OBJ"),
        _examine,
        many=True,
    ),
    CommandKind("look in", ("look in OBJ", "look inside OBJ", "search OBJ", "look on OBJ"), _look_in),
    CommandKind("listen", ("listen", "listen to OBJ", "hear OBJ"), _sense("hearing")),
    CommandKind("smell", ("smell", "sniff", "smell OBJ", "sniff OBJ"), _sense("smell")),
    CommandKind("taste", ("taste OBJ", "lick OBJ"), _sense("taste"), scope="reachable"),
    CommandKind(
        "touch",
        ("touch OBJ", "feel OBJ", "rub OBJ", "pat OBJ", "touch OBJ with OBJ2", "feel OBJ with OBJ2"),
        _sense("touch"),
        scope="reachable",
        scope2="held",
    ),
    CommandKind("read", ("read OBJ",), _each(verbs.read)),
    CommandKind(
        "take",
        ("take OBJ", "get OBJ", "pick up OBJ", "pick OBJ up", "grab OBJ", "carry OBJ", "hold OBJ", "steal OBJ"),
        _take,
        scope="takeable",
        many=True,
    ),
    CommandKind(
        "remove from",
        (
            "take OBJ from OBJ2",
            "get OBJ from OBJ2",
            "remove OBJ from OBJ2",
            "take OBJ out of OBJ2",
            "get OBJ out of OBJ2",
            "take OBJ off OBJ2",
            "get OBJ off OBJ2",
            "pick OBJ up from OBJ2",
            "pick up OBJ from OBJ2",
        ),
        _remove,
        scope="takeable",
        scope2="holder",
        many=True,
    ),
    CommandKind("drop", ("drop OBJ", "put down OBJ", "put OBJ down", "discard OBJ"), _drop, scope="held", many=True),
    CommandKind(
        "put in",
        (
            "put OBJ in OBJ2",
            "put OBJ into OBJ2",
            "put OBJ inside OBJ2",
            "place OBJ in OBJ2",
            "insert OBJ in OBJ2",
            "insert OBJ into OBJ2",
            "drop OBJ in OBJ2",
            "drop OBJ into OBJ2",
        ),
        _put("in"),
        scope="held",
        scope2="container",
        many=True,
    ),
    CommandKind(
        "put on",
        (
            "put OBJ on OBJ2",
            "put OBJ onto OBJ2",
            "place OBJ on OBJ2",
            "hang OBJ on OBJ2",
            "hang up OBJ on OBJ2",
            "hang OBJ up on OBJ2",
            "set OBJ on OBJ2",
            "drop OBJ on OBJ2",
            "hang OBJ",
            "hang up OBJ",
            "hang OBJ up",
        ),
        _put("on"),
        scope="held",
        scope2="supporter",
        many=True,
        implied=True,
    ),
    CommandKind(
        "wear", ("wear OBJ", "put on OBJ", "put OBJ on", "don OBJ"), _each(verbs.wear), scope="held", many=True
    ),
    CommandKind(
        "take off",
        ("take off OBJ", "take OBJ off", "doff OBJ", "remove OBJ"),
        _take_off_or_out,
        scope="worn",
        many=True,
    ),
    CommandKind("open", ("open OBJ",), _each(verbs.open_), scope="reachable"),
    CommandKind("open with", ("open OBJ with OBJ2",), _open_with, scope="reachable", scope2="held"),
    CommandKind("close", ("close OBJ", "shut OBJ"), _each(verbs.close), scope="reachable"),
    CommandKind("lock", ("lock OBJ", "lock OBJ with OBJ2"), _keyed(verbs.lock), scope="reachable", scope2="held"),
    CommandKind(
        "unlock", ("unlock OBJ", "unlock OBJ with OBJ2"), _keyed(verbs.unlock), scope="reachable", scope2="held"
    ),
    CommandKind(
        "light",
        ("light OBJ", "burn OBJ", "ignite OBJ", "light OBJ with OBJ2", "burn OBJ with OBJ2"),
        _lighting(verbs.light, verbs.switch_on),
        scope="reachable",
        scope2="held",
    ),
    CommandKind(
        "extinguish",
        (
            "extinguish OBJ",
            "put out OBJ",
            "put OBJ out",
            "blow out OBJ",
            "blow OBJ out",
            "douse OBJ",
            "snuff OBJ",
            "snuff out OBJ",
            "snuff OBJ out",
        ),
        _lighting(verbs.extinguish, verbs.switch_off),
        scope="reachable",
    ),
    CommandKind(
        "turn on",
        ("turn on OBJ", "turn OBJ on", "switch on OBJ", "switch OBJ on", "activate OBJ"),
        _each(verbs.switch_on),
        scope="reachable",
    ),
    CommandKind(
        "turn off",
        ("turn off OBJ", "turn OBJ off", "switch off OBJ", "switch OBJ off", "deactivate OBJ"),
        _each(verbs.switch_off),
        scope="reachable",
    ),
    CommandKind("turn to", ("turn OBJ to WORD", "set OBJ to WORD", "dial OBJ to WORD"), _turn_to, scope="reachable"),
    CommandKind("toggle", ("toggle OBJ", "switch OBJ", "flip OBJ", "flick OBJ"), _toggle, scope="reachable"),
    CommandKind("press", ("press OBJ", "depress OBJ"), _gesture("press", "[agent/s] [press/v] [direct/o]")),
    CommandKind("push", ("push OBJ", "shove OBJ"), _gesture("push", "[agent/s] [push/v] [direct/o]")),
    CommandKind("push to", ("push OBJ DIR", "shove OBJ DIR", "push OBJ to the DIR"), _push_to, scope="reachable"),
    CommandKind("eat", ("eat OBJ", "devour OBJ", "consume OBJ"), _each(verbs.eat), scope="reachable"),
    *substances.COMMANDS,  # drink, fill, pour, pour from
    CommandKind(
        "give",
        ("give OBJ to OBJ2", "hand OBJ to OBJ2", "offer OBJ to OBJ2", "give OBJ2 OBJ"),
        _give,
        scope="held",
        scope2="actor",
        many=True,
    ),
    CommandKind(
        "throw",
        ("throw OBJ", "toss OBJ", "throw OBJ at OBJ2", "hurl OBJ at OBJ2", "toss OBJ at OBJ2"),
        _throw,
        scope="held",
    ),
    CommandKind(
        "feed", ("feed OBJ to OBJ2", "feed OBJ2 OBJ", "feed OBJ2 with OBJ"), _feed, scope="held", scope2="actor"
    ),
    CommandKind(
        "show",
        ("show OBJ to OBJ2", "show OBJ2 OBJ"),
        _with_second("show", "[agent/s] [show/v] [direct/o] to [indirect/o]"),
        scope="held",
        scope2="actor",
    ),
    CommandKind("shake", ("shake OBJ",), _gesture("shake", "[agent/s] [shake/v] [direct/o]"), scope="reachable"),
    CommandKind(
        "wave", ("wave", "wave OBJ", "brandish OBJ"), _gesture("wave", "[agent/s] [wave/v] [direct/o]", held=True)
    ),
    CommandKind("wave at", ("wave at OBJ", "wave to OBJ"), _gesture("wave", "[agent/s] [wave/v] at [direct/o]")),
    CommandKind(
        "wave with",
        ("wave OBJ at OBJ2", "wave OBJ to OBJ2", "brandish OBJ at OBJ2"),
        _with_second("wave", "[agent/s] [wave/v] [direct/o]", "at [indirect/o]", held=True),
    ),
    CommandKind(
        "strike",
        (
            "strike OBJ",
            "hit OBJ",
            "attack OBJ",
            "punch OBJ",
            "smash OBJ",
            "break OBJ",
            "strike OBJ with OBJ2",
            "hit OBJ with OBJ2",
            "attack OBJ with OBJ2",
            "smash OBJ with OBJ2",
        ),
        _with_second("strike", "[agent/s] [strike/v] [direct/o]", "with [indirect/o]"),
        scope="reachable",
        scope2="held",
    ),
    CommandKind("kick", ("kick OBJ",), _gesture("kick", "[agent/s] [kick/v] [direct/o]"), scope="reachable"),
    CommandKind(
        "free",
        ("free OBJ", "release OBJ", "untie OBJ", "free OBJ from OBJ2", "release OBJ from OBJ2"),
        _with_second("free", "[agent/s] [free/v] [direct/o]", "from [indirect/o]"),
        scope="reachable",
    ),
    CommandKind(
        "enter",
        (
            "enter OBJ",
            "get in OBJ",
            "get into OBJ",
            "go in OBJ",
            "go into OBJ",
            "climb in OBJ",
            "climb into OBJ",
            "sit in OBJ",
            "hide in OBJ",
        ),
        _enter,
        scope="enterable",
    ),
    CommandKind(
        "leave",
        ("leave", "exit", "get out", "climb out", "get out of OBJ", "climb out of OBJ", "exit OBJ", "leave OBJ"),
        _leave,
    ),
    CommandKind(
        "extricate",
        ("extricate", "extricate OBJ", "extricate OBJ from OBJ2", "wriggle out", "wriggle free"),
        _extricate,
        scope="reachable",
    ),
    CommandKind(
        "go",
        (
            "go DIR",
            "walk DIR",
            "run DIR",
            "head DIR",
            "move DIR",
            "climb DIR",
            "go to the DIR",
            "walk to the DIR",
            "DIR",
        ),
        _go,
    ),
    CommandKind(
        "go to",
        ("go to OBJ", "walk to OBJ", "head to OBJ", "run to OBJ", "go back to OBJ", "return to OBJ", "approach OBJ"),
        _go_to,
    ),
    CommandKind(
        "go to place",
        ("go to TEXT", "walk to TEXT", "head to TEXT", "run to TEXT", "go back to TEXT", "return to TEXT"),
        _go_to_place,
    ),
    CommandKind("wander", ("wander", "roam", "stroll", "walk around", "wander around"), _wander),
    CommandKind(
        "wait",
        ("wait", "z", "stay", "wait around", "stand", "wait for TEXT", "wait until TEXT", "wait here"),
        _gesture("wait", "", alone="[agent/s] [wait/v]", salience=0.3),
    ),
    CommandKind(
        "freeze", ("freeze", "stand still", "hold still"), _gesture("freeze", "", alone="[agent/s] [freeze/v]")
    ),
    CommandKind("inventory", ("inventory", "i", "inv"), lambda r: [verbs.inventory(r.actor)]),
    CommandKind(
        "say",
        (
            "say TEXT",
            "shout TEXT",
            "yell TEXT",
            "tell OBJ TEXT",
            "say TEXT to OBJ",
            "shout TEXT to OBJ",
            "yell TEXT to OBJ",
            "say to OBJ TEXT",
            "shout to OBJ TEXT",
            "yell to OBJ TEXT",
        ),
        _say,
        scope="actor",
    ),
    CommandKind(
        "tell to",
        ("tell OBJ to TEXT", "order OBJ to TEXT"),
        _speech("[agent/s] [tell/v] [indirect/o] to TEXT"),
        scope="actor",
    ),
    CommandKind("ask to", ("ask OBJ to TEXT",), _speech("[agent/s] [ask/v] [indirect/o] to TEXT"), scope="actor"),
    CommandKind(
        "ask about",
        ("ask OBJ about OBJ2", "ask OBJ about TEXT", "question OBJ about OBJ2", "question OBJ about TEXT"),
        _about("ask"),
        scope="actor",
    ),
    CommandKind("tell about", ("tell OBJ about OBJ2", "tell OBJ about TEXT"), _about("tell"), scope="actor"),
    CommandKind(
        "talk to",
        ("talk to OBJ", "talk with OBJ", "speak to OBJ", "speak with OBJ", "chat with OBJ", "greet OBJ"),
        _gesture("talk", "[agent/s] [exchange/v] a few words with [direct/o]"),
        scope="actor",
    ),
    CommandKind(
        "look under",
        ("look under OBJ", "look beneath OBJ", "search under OBJ"),
        _gesture("look under", "[agent/s] [look/v] under [direct/o] and [find/v] nothing"),
    ),
    CommandKind(
        "sit",
        ("sit", "sit down", "sit on OBJ", "sit down on OBJ"),
        _gesture("sit", "[agent/s] [sit/v] on [direct/o] for a moment", alone="[agent/s] [sit/v] down for a moment"),
    ),
    CommandKind("laugh", ("laugh", "giggle", "chuckle"), _gesture("laugh", "", alone="[agent/s] [laugh/v]")),
    CommandKind("cry", ("cry", "sob", "weep"), _gesture("cry", "", alone="[agent/s] [cry/v]")),
    CommandKind("smile", ("smile", "grin", "smile at OBJ"), _gesture("smile", "[agent/s] [smile/v] at [direct/o]")),
    CommandKind("jump", ("jump", "hop", "leap"), _gesture("jump", "", alone="[agent/s] [jump/v]")),
    CommandKind("sing", ("sing", "hum"), _gesture("sing", "", alone="[agent/s] [sing/v]")),
    CommandKind("dance", ("dance",), _gesture("dance", "", alone="[agent/s] [dance/v]")),
    CommandKind("sleep", ("sleep", "nap", "doze"), _gesture("sleep", "", alone="[agent/s] [doze/v] for a moment")),
)
