"""The bank robbery, played: the robber, the teller and the guard can each be taken up by a player.

The places, people and things are the robbery's (`worlds/robbery.py`). Whoever nobody plays follows a script
that reads the world as it stands and carries the story on from there, so the same story unfolds when no one
interferes, and a sensible one when someone does:

- the robber works up his nerve, puts on the mask, steadies himself, walks into the lobby, waits for the
  teller's attention and brandishes the gun-shaped object at her; he turns to a guard who comes out, puts up
  his hands if the guard points the pistol at him, takes a bag pushed across to him and makes off with it;
- the teller reads and counts the deposit slips, types and plays solitaire; she waves to whoever comes into
  the lobby, laughs at a brandished toy, puts the fake money in the black bag when threatened, pushes the bag
  across the counter only to a demand she takes seriously (words, not a toy) while no guard is about, and
  calls out for the guard when a masked man puts up his hands;
- the guard snoozes until a noise wakes him (a laugh, a cry, a shot, someone calling out), sees a masked man
  through the one-way mirror, comes out into the lobby and shoots an armed robber twice, or pins down one who
  has let go of his gun.

Each tick the commanded actions run first; then each script is asked for its action against the world as it
now is, and that action runs before the next script is asked. So a script answers a player in the same tick,
and what it does always fits the moment: no script plans ahead, and none needs to check again.

What no one chooses is the world's: a noise wakes a sleeping guard, two shots bring the robber down and kill
him, and the teller, seeing it, breaks down in tears. Endings: the robber dies in the lobby and the teller
cries; the robber gets away down the street with the bag (of fake money, though he never learns it); or the
guard pins down a robber who has let go of his gun or given himself up.

The bank's own commands (`COMMANDS`, tried before the standard grammar): "brandish gun (at teller)", "point"
or "aim gun at teller", "threaten teller with gun" (and "wave gun (at teller)", "show gun to teller": waving
or showing a gun is brandishing it); "shoot robber (with pistol)", "shoot at robber", "fire at robber", "fire
pistol at robber" (and "attack robber with pistol"); "attack robber", "tackle", "arrest", "handcuff" or "pin
down robber" (the guard's arrest); "turn to guard", "face guard"; "wake up", "wake guard"; "count slips";
"type"; "play solitaire", "play computer"; "surrender", "give up", "hands up", "put up hands", "raise hands";
"push bag" (or "slide", "throw" it) across the counter. "say give me the money" is a demand.
"""

from __future__ import annotations

import random
from dataclasses import replace

from server.engine.authoring import (
    GRAMMAR,
    Action,
    Actor,
    Behave,
    Builder,
    CommandKind,
    Configure,
    Item,
    Modify,
    Perception,
    Reason,
    Refusal,
    Request,
    Room,
    Scope,
    SenseAction,
    Thing,
    WorldDefinition,
    WorldState,
    verbs,
)

ROBBER, TELLER, GUARD = "@robber", "@teller", "@guard"
STREET, LOBBY, VESTIBULE, GUARD_POST = "@street", "@lobby", "@vestibule", "@guard_post"
MASK, TOY_GUN, PISTOL, BAG, FAKE_MONEY, SLIPS = "@mask", "@toy_gun", "@pistol", "@bag", "@fake_money", "@slips"
COMPUTER = "@computer"

PEOPLE = (ROBBER, GUARD, TELLER)
GUNS = frozenset({TOY_GUN, PISTOL})
"""What is brandished when it is waved, shown or pointed at someone."""

NERVE_NEEDED = 2
"""Moments the robber spends working up his nerve on the street: one before he puts on the mask, the rest
after it, before he goes in."""

PATIENCE = 2
"""Ticks the robber waits in the lobby for the teller to notice him before he brandishes the gun anyway."""

URGE_AT, SHOUT_AT, VAULT_AT = 3, 5, 7
"""Ticks the robber, having made his threat, waits for the money before he repeats it, before he shouts for it
(which wakes a sleeping guard), and before he vaults the counter to help himself to the bag: however little
anyone else does, the story goes on to one of its endings."""

NOISES = frozenset({"laugh", "cry", "shoot", "sing", "say", "call", "shout"})
"""What wakes a sleeping guard when it happens in the lobby or the vestibule (the robber's muttering apart)."""

QUIET = ""
"""The template of a reason told as nothing: a command told by what it turns into (a sleeping guard who is
told to do something wakes up first)."""


# -- what the world knows of the story so far ------------------------------------------------------------


def _notes(world: WorldState, tag: str, **values: object) -> list[Action]:
    """Silent bookkeeping (never told) on `tag`, only for what actually changes."""
    return [
        Modify(verb="note", agent=tag, feature=feature, value=value, salience=0.0)
        for feature, value in values.items()
        if world.get(tag, feature) != value
    ]


def _alive(world: WorldState, actor: str) -> bool:
    return world.get(actor, "alive") is not False


def _armed(world: WorldState) -> bool:
    return world.parent(TOY_GUN) == ROBBER


def _masked(world: WorldState) -> bool:
    return world.parent(MASK) == ROBBER and world.link(MASK) == "on"


def _threatening(world: WorldState) -> bool:
    return bool(world.get(ROBBER, "brandished") or world.get(ROBBER, "demanded"))


def _suspicious(world: WorldState) -> bool:
    return _masked(world) or _threatening(world)


def _given_up(world: WorldState) -> bool:
    """The robber has put up his hands in the lobby and not taken up the gun again."""
    return bool(world.get(ROBBER, "surrendered")) and not _armed(world)


def _guilty(world: WorldState) -> bool:
    """The robber has threatened the teller, or given himself up in a mask."""
    return _threatening(world) or (_given_up(world) and _masked(world))


def _arrestable(world: WorldState) -> bool:
    """A robber the guard pins down rather than shoots: alive, unarmed and guilty."""
    return _alive(world, ROBBER) and not _armed(world) and _guilty(world)


def _guard_about(world: WorldState) -> bool:
    """The guard is out in the lobby, awake."""
    return world.room_of(GUARD) == LOBBY and bool(world.get(GUARD, "awake")) and _alive(world, GUARD)


def _in_hand(world: WorldState, actor: str) -> list[str]:
    """What `actor` carries (not what it wears)."""
    return [tag for tag in world.children[actor] if world.link(tag) == "of"]


# -- checks ---------------------------------------------------------------------------------------------


def _same_room(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    if action.direct is not None and world.room_of(action.direct) != world.room_of(action.agent):
        return Reason("out of reach", "[direct/s] [be/not/v] close enough")
    return None


def _clear_shot(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    """Through the one-way mirror or across the counter, no one shoots."""
    if action.direct is not None and world.room_of(action.direct) != world.room_of(action.agent):
        return Reason("no clear shot", "[agent/s] [have/not/v] a clear shot at [direct/o] from [here]", alone=True)
    return None


def _holding(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    if action.indirect is not None and world.parent(action.indirect) != action.agent:
        return Reason("not held", "[agent/s] [have/not/v] [indirect/o]")
    return None


def _gun_in_hand(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    if action.indirect is None:
        return Reason("nothing held", "[agent/s] [have/not/v] anything to shoot with", alone=True)
    if world.parent(action.indirect) != action.agent:
        return Reason("not held", "[agent/s] [have/not/v] [indirect/o]", alone=True)
    if action.indirect != PISTOL:
        return Reason(
            "not a gun",
            "[agent/s] [can/not/v] shoot anyone with [indirect/o]: [indirect/s] [be/v] only shaped like a gun",
            alone=True,
        )
    return None


def _at_a_person(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    if action.direct is None or action.direct == action.agent or world.items[action.direct].kind != "actor":
        return Reason("no reason", "[agent/s] [have/v] no reason to do that", alone=True)
    return None


def _direct_alive(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    if action.direct is not None and not _alive(world, action.direct):
        return Reason("already dead", "[direct/s] [be/v] already dead")
    return None


def _seen_by_direct(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    """A threat must be seen by the one threatened: no one sees into the guard post."""
    whom = action.direct
    if whom is None or whom == action.agent or world.items[whom].kind != "actor":
        return None
    if not sight.sees(whom, action.agent):
        return Reason("unseen", "[direct/s] [can/not/v] see [agent/o]", alone=True)
    return None


def _a_thing(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    if action.direct is not None and world.items[action.direct].kind == "actor":
        return Reason("a person", "[direct/s] [be/not/v] something to push across the counter", alone=True)
    return None


def _handcuffs(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    if action.agent != GUARD:
        return Reason("no handcuffs", "[agent/s] [have/not/v] any handcuffs", alone=True)
    return None


def _has_it_coming(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    if action.direct == ROBBER and _guilty(world):
        return None
    return Reason("innocent", "[direct/s] [have/v] done nothing to be arrested for", alone=True)


def _within_reach(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    if action.direct is not None and not sight.can_reach(action.agent, action.direct):
        return Reason("unreachable", "[agent/s] [can/not/v] reach [direct/o]")
    return None


def _at_the_computer(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    if not sight.can_reach(action.agent, COMPUTER):
        return Reason("no computer", "there [be/v] no computer within [agent's] reach", alone=True)
    return None


# -- the actions of the story ---------------------------------------------------------------------------


def brandish(agent: str, weapon: str, at: str | None) -> Behave:
    """Held up for someone to see (the gun-shaped object at the teller), or just held up when no one is near."""
    return Behave(
        verb="brandish",
        agent=agent,
        direct=at,
        indirect=weapon,
        template="[agent/s] [brandish/v] [indirect/o]" + (" at [direct/o]" if at is not None else ""),
        salience=0.8,
        checks=(_holding, _seen_by_direct),
    )


def shot(agent: str, target: str, weapon: str | None = PISTOL, *, volley: int = 1) -> Behave:
    """One shot from the pistol; a volley of two is fired by a guard who means it."""
    return Behave(
        verb="shoot",
        agent=agent,
        direct=target,
        indirect=weapon,
        template="[agent/s] [shoot/v] [direct/o] in the chest",
        salience=0.9,
        checks=(_gun_in_hand, _at_a_person, _direct_alive, _clear_shot),
        data={"volley": volley},
    )


def seize(agent: str, robber: str) -> Behave:
    """The guard's arrest of a man who has let go of his gun: an ending."""
    return Behave(
        verb="seize",
        agent=agent,
        direct=robber,
        template="[agent/s] [pin/v] [direct/o] to the marble floor and [handcuff/v] [direct/pro/o]",
        salience=0.9,
        final=True,
        checks=(_handcuffs, _direct_alive, _same_room, _has_it_coming),
    )


def surrender(agent: str) -> Behave:
    """Hands up, letting fall whatever is in them."""

    def let_fall(action: Action, world: WorldState) -> list[Action]:
        return [
            replace(verbs.drop(agent, item, world), template="[agent/s] [let/v] [direct/o] fall")
            for item in _in_hand(world, agent)
        ]

    return Behave(
        verb="surrender",
        agent=agent,
        template="[agent/s] [put/v] up [agent's] hands",
        salience=0.7,
        entails=let_fall,
    )


def turn_to(agent: str, whom: str) -> Behave:
    return Behave(verb="turn", agent=agent, direct=whom, template="[agent/s] [turn/v] to [direct/o]", salience=0.6)


def push_across(agent: str, item: str) -> Configure:
    return Configure(
        verb="push",
        agent=agent,
        direct=item,
        to=f"in {LOBBY}",
        template="[agent/s] [push/v] [direct/o] across the counter",
        salience=0.7,
        checks=(_a_thing, _within_reach),
    )


def snooze(agent: str) -> Behave:
    return Behave(verb="snooze", agent=agent, progressive=True, salience=0.3)


def _asleep(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    role = "direct" if action.direct is not None else "agent"
    if world.get(action.direct or action.agent, "awake") is not False:
        return Reason("awake", f"[{role}/s] [be/v] already awake", alone=True)
    return None


def wake(agent: str, whom: str | None = None) -> Modify:
    """Waking up, or waking someone else."""
    if whom is None or whom == agent:
        return Modify(
            verb="wake",
            agent=agent,
            feature="awake",
            value=True,
            template="[agent/s] [wake/v] up",
            salience=0.6,
            checks=(_asleep,),
        )
    return Modify(
        verb="wake",
        agent=agent,
        direct=whom,
        feature="awake",
        value=True,
        template="[agent/s] [wake/v] [direct/o]",
        salience=0.6,
        checks=(_asleep,),
    )


def count(agent: str, item: str) -> Behave:
    return Behave(verb="count", agent=agent, direct=item, salience=0.4, checks=(_within_reach,))


def type_(agent: str) -> Behave:
    return Behave(verb="type", agent=agent, salience=0.3, checks=(_at_the_computer,))


def solitaire(agent: str) -> Behave:
    return Behave(
        verb="play",
        agent=agent,
        template="[agent/s] [play/v] solitaire on [agent's] computer",
        salience=0.3,
        checks=(_at_the_computer,),
    )


# -- the scripts: each reads the world as it is and carries the story on ----------------------------------


FIDGETS = (
    "[agent/s] [glance/v] up and down the street",
    "[agent/s] [wipe/v] [agent's] palms on [agent's] trousers",
)


def robber(actor: str, world: WorldState, tick: int, rng: random.Random) -> Action | None:
    here = world.room_of(actor)
    if here == STREET:
        if world.parent(BAG) == actor:
            return None  # away with it
        nerve = world.get(actor, "nerve", 0)
        if nerve >= 1 and not _masked(world) and world.parent(MASK) == actor:
            return verbs.wear(actor, MASK)
        if nerve < NERVE_NEEDED:
            return Behave(verb="fidget", agent=actor, template=FIDGETS[nerve % len(FIDGETS)], salience=0.3)
        return verbs.go(actor, LOBBY, direction="in")
    if here == GUARD_POST:
        return verbs.go(actor, LOBBY, direction="out")
    if here == VESTIBULE:
        # Over the counter: the bag, if it is there for the taking, and back over with it (or without).
        if world.parent(BAG) == VESTIBULE:
            return verbs.take(actor, BAG)
        return vault(actor, LOBBY)
    if here != LOBBY or world.get(actor, "surrendered"):
        return None
    if world.get(actor, "covered") and _guard_about(world):
        return surrender(actor)  # a real gun is pointed at him
    if world.parent(BAG) == LOBBY:
        return verbs.take(actor, BAG)
    if world.parent(BAG) == actor:
        return verbs.go(actor, STREET, direction="out")
    if _guard_about(world) and not world.get(actor, "turned"):
        return turn_to(actor, GUARD)
    if _threatening(world):
        return _impatient(actor, world)  # waiting for the money, less and less patiently
    if not _armed(world):
        return None
    waited = world.get(actor, "waited", 0)
    if world.get(TELLER, "greeted") or waited >= PATIENCE:
        return brandish(actor, TOY_GUN, TELLER)
    return Modify(verb="linger", agent=actor, feature="waited", value=waited + 1, salience=0.0)


def _impatient(actor: str, world: WorldState) -> Action:
    """A threat made and no money coming: he waits, says it again, shouts for it, and at last helps himself."""
    impatience = world.get(actor, "impatience", 0) + 1
    if impatience == URGE_AT and _armed(world):
        return Behave(
            verb="urge",
            agent=actor,
            direct=TELLER,
            indirect=TOY_GUN,
            template="[agent/s] [jab/v] [indirect/o] at [direct/o] again, demanding the money",
            salience=0.6,
        )
    if impatience == SHOUT_AT:
        return Behave(
            verb="shout",
            agent=actor,
            template="[agent/s] [shout/v] through the mask for the money",
            salience=0.7,
        )
    if impatience >= VAULT_AT and world.parent(BAG) == VESTIBULE:
        return vault(actor, VESTIBULE)
    return Behave(verb="fume", agent=actor, salience=0.0)


def vault(agent: str, to: str) -> Configure:
    """Over the counter, into the teller's area or back out to the lobby."""
    return Configure(
        verb="vault",
        agent=agent,
        direct=agent,
        to=f"in {to}",
        template="[agent/s] [vault/v] " + ("back " if to == LOBBY else "") + "over the counter",
        salience=0.8,
    )


CHORES = ("read", "count", "type", "play")


def _chore(actor: str, done: int) -> Action:
    """Reading and counting the slips, then typing and solitaire by turns."""
    chore = CHORES[done] if done < len(CHORES) else CHORES[2 + done % 2]
    if chore == "read":
        return Behave(verb="read", agent=actor, direct=SLIPS, salience=0.4)
    if chore == "count":
        return count(actor, SLIPS)
    return type_(actor) if chore == "type" else solitaire(actor)


def teller(actor: str, world: WorldState, tick: int, rng: random.Random) -> Action | None:
    if world.room_of(actor) != VESTIBULE or world.room_of(ROBBER) == VESTIBULE:
        return None  # (a masked man over the counter: she shrinks back and lets him)
    if world.room_of(ROBBER) != LOBBY or not _alive(world, ROBBER):
        # Routine, until someone comes to the counter.
        return _chore(actor, world.get(actor, "chores", 0))
    if _given_up(world):
        if _suspicious(world) and not world.get(GUARD, "awake"):
            return Behave(verb="call", agent=actor, template="[agent/s] [call/v] out for the guard", salience=0.6)
        return None  # a man with his hands up: she waits for the guard
    laughed = world.get(actor, "laughed")
    if world.get(ROBBER, "brandished") and not laughed:
        return Behave(verb="laugh", agent=actor, salience=0.6)
    if _threatening(world) and world.parent(FAKE_MONEY) == VESTIBULE and world.parent(BAG) == VESTIBULE:
        return Configure(
            verb="put",
            agent=actor,
            direct=FAKE_MONEY,
            indirect=BAG,
            to=f"in {BAG}",
            template="[agent/s] [put/v] [direct/o] in [indirect/o]",
            salience=0.6,
        )
    taken_seriously = world.get(ROBBER, "demanded") and not laughed
    if taken_seriously and world.parent(FAKE_MONEY) == BAG and world.parent(BAG) == VESTIBULE:
        if _guard_about(world):
            return None  # help is at hand: she need hand over nothing
        if world.get(BAG, "open"):
            return Modify(
                verb="zip",
                agent=actor,
                direct=BAG,
                feature="open",
                value=False,
                template="[agent/s] [zip/v] [direct/o] shut",
                salience=0.4,
            )
        return push_across(actor, BAG)
    if not world.get(actor, "greeted") and not _threatening(world):
        return Behave(verb="wave", agent=actor, direct=ROBBER, template="[agent/s] [wave/v] to [direct/o]")
    return None  # attending to the man at the counter


def guard(actor: str, world: WorldState, tick: int, rng: random.Random) -> Action | None:
    if not world.get(actor, "awake"):
        return None if world.get(actor, "snoozed") else snooze(actor)
    if not _alive(world, ROBBER):
        return None
    here, there = world.room_of(actor), world.room_of(ROBBER)
    if here == GUARD_POST:
        if there != LOBBY or not _suspicious(world):
            return None
        if not world.get(actor, "spotted"):
            return SenseAction(verb="see", agent=actor, direct=ROBBER, salience=0.6)
        return verbs.go(actor, LOBBY, direction="out", salience=0.6)
    if here != there:
        return None
    if _armed(world) and _suspicious(world):
        return shot(actor, ROBBER, volley=2)
    if _arrestable(world):
        return seize(actor, ROBBER)
    return None


def score(world: WorldState) -> tuple[int, int]:
    """The robber's story, scored: a point for the threat (the gun brandished, or the money demanded), one for
    the bag in hand, one for getting away with it: three."""
    points = (_threatening(world), world.get(ROBBER, "bagged"), world.get(ROBBER, "away"))
    return sum(1 for point in points if point), 3


# -- the world's own rules -------------------------------------------------------------------------------


def keep_track(action: Action, world: WorldState) -> list[Action]:
    """Remember the beats the scripts read: silent notes, told to no one."""
    agent, verb = action.agent, action.verb
    in_the_lobby = world.room_of(agent) == LOBBY
    if agent == ROBBER:
        if verb == "fidget":
            return _notes(world, ROBBER, nerve=world.get(ROBBER, "nerve", 0) + 1)
        if verb == "brandish" and action.indirect == TOY_GUN and action.direct in (TELLER, GUARD) and in_the_lobby:
            return _notes(world, ROBBER, brandished=True)
        if verb == "say" and in_the_lobby and _masked(world):
            return _notes(world, ROBBER, demanded=True)
        if verb == "turn" and action.direct == GUARD:
            return _notes(world, ROBBER, turned=True)
        if isinstance(action, Configure) and action.direct == BAG and action.destination() == ("of", ROBBER):
            return _notes(world, ROBBER, bagged=True)
        if verb == "surrender" and in_the_lobby:
            return _notes(world, ROBBER, surrendered=True)
        if verb in ("fume", "urge", "shout", "vault"):
            return _notes(world, ROBBER, impatience=world.get(ROBBER, "impatience", 0) + 1)
    if agent == TELLER:
        if verb in CHORES:
            return _notes(world, TELLER, chores=world.get(TELLER, "chores", 0) + 1)
        if verb == "wave" and action.direct == ROBBER:
            return _notes(world, TELLER, greeted=True)
        if verb == "laugh":
            return _notes(world, TELLER, laughed=True)
    if agent == GUARD:
        if verb == "snooze":
            return _notes(world, GUARD, snoozed=True)
        if verb in ("see", "notice") and action.direct == ROBBER:
            return _notes(world, GUARD, spotted=True)
        if verb == "brandish" and action.indirect == PISTOL and action.direct == ROBBER:
            return _notes(world, ROBBER, covered=True)
    return []


def noise_wakes_the_guard(action: Action, world: WorldState) -> list[Action]:
    """A laugh, a cry, a shot or a voice raised in the lobby or the vestibule wakes the sleeping guard. The
    robber mutters through his mask: his words do not carry."""
    if action.verb not in NOISES or (action.verb == "say" and action.agent == ROBBER):
        return []
    if world.room_of(action.agent) not in (LOBBY, VESTIBULE):
        return []
    if world.get(GUARD, "awake") or not _alive(world, GUARD):
        return []
    return [wake(GUARD)]


WATCHING = {
    VESTIBULE: "[agent/s] [look/v] up and [see/v] [direct/o] out in the lobby",
    GUARD_POST: "through the one-way mirror, [agent/s] [watch/v] [direct/o] come in",
}


def newcomer_noticed(action: Action, world: WorldState) -> list[Action]:
    """Whoever comes into the lobby is noticed by the teller from the vestibule and by a guard awake at his
    mirror, each in their own way (and told only to them: they are watching, not doing)."""
    if action.verb != "enter" or world.room_of(action.agent) != LOBBY:
        return []
    noticed: list[Action] = []
    for watcher in (TELLER, GUARD):
        where = world.room_of(watcher)
        if watcher == action.agent or where not in WATCHING:
            continue
        if not world.get(watcher, "awake", True) or not _alive(world, watcher):
            continue
        noticed.append(
            SenseAction(
                verb="notice",
                agent=watcher,
                direct=action.agent,
                template=WATCHING[where],
                witnessed="agent",
                salience=0.5,
            )
        )
    return noticed


def shots(action: Action, world: WorldState) -> list[Action]:
    """A shot wounds; the second brings the one shot down, dead. The guard's volley is two shots."""
    if action.verb != "shoot" or action.direct is None:
        return []
    target = action.direct
    wounds = world.get(target, "wounds", 0) + 1
    follow = _notes(world, target, wounds=wounds)
    volley = action.data.get("volley", 1)
    if wounds >= 2:
        # Shot dead in the lobby, he is seen by the teller, whose tears end the story; anywhere else, this does.
        unseen = world.room_of(target) != LOBBY
        follow += [
            Modify(verb="fall", agent=target, feature="standing", value=False, salience=0.8),
            Modify(verb="die", agent=target, feature="alive", value=False, salience=0.9, final=unseen),
        ]
    elif volley > 1:
        follow.append(shot(action.agent, target, action.indirect, volley=volley - 1))
    else:
        follow.append(Behave(verb="stagger", agent=target, salience=0.7))
    return follow


def tears(action: Action, world: WorldState) -> list[Action]:
    """The teller, who has seen a man shot dead in the lobby, cries: the story's ending."""
    if action.verb != "die" or world.room_of(action.agent) != LOBBY or not _alive(world, TELLER):
        return []
    return [Behave(verb="cry", agent=TELLER, salience=0.9, final=True)]


def getaway(action: Action, world: WorldState) -> list[Action]:
    """The robber out on the street with the bag is away: the other ending."""
    if action.verb != "leave" or action.agent != ROBBER or not isinstance(action, Configure):
        return []
    if action.destination()[1] != STREET or world.parent(BAG) != ROBBER:
        return []
    return [
        *_notes(world, ROBBER, away=True),  # before the ending, after which nothing happens
        Behave(
            verb="escape",
            agent=ROBBER,
            direct=BAG,
            template="[agent/s] [hurry/v] off down the street with [direct/o] under [agent's] arm",
            salience=0.9,
            final=True,
        ),
    ]


def _sleeping_guard(action: Action, world: WorldState) -> Reason | None:
    """A sleeping guard who is told to do anything wakes up first (to wait is to snooze on)."""
    if action.agent != GUARD or world.get(GUARD, "awake"):
        return None
    if action.verb in ("snooze", "wake", "note") or action.witnessed == "agent":
        return None  # sleeping, waking, and taking in the scene as the story opens
    if action.verb in ("wait", "sleep", "freeze"):
        return Reason("asleep", QUIET, alone=True, instead=(snooze(GUARD),))
    return Reason("asleep", QUIET, alone=True, instead=(wake(GUARD), action))


def _across_the_counter(action: Action, world: WorldState) -> bool:
    return action.indirect is not None and world.room_of(action.indirect) != world.room_of(action.agent)


REFUSALS = (
    Refusal(
        verb="give",
        when=_across_the_counter,
        reason="[indirect/s] [be/v] out of reach; [agent/s] [can/v] only push [direct/o] across the counter",
    ),
)


# -- the bank's own commands ------------------------------------------------------------------------------


def _standard(name: str) -> Builder:
    """The standard grammar's way with a kind of command, for what the bank does not mean its own way."""
    return next(kind.build for kind in GRAMMAR if kind.name == name)


def _hands_on(name: str) -> Builder:
    """The standard grammar's way with a blow or a push, done only within reach: not through the one-way
    mirror, nor across the counter."""

    def build(r: Request) -> list[Action]:
        return [replace(action, checks=(*action.checks, _within_reach)) for action in _standard(name)(r)]

    return build


def _awake_first(build: Builder) -> Builder:
    """A sleeping actor told to do something wakes up first (before its action is tried at all, so a shot
    with no clear line wakes the guard too)."""

    def run(r: Request) -> list[Action]:
        actions = build(r)
        return [wake(r.actor), *actions] if actions and r.world.get(r.actor, "awake") is False else actions

    return run


def _facing(world: WorldState, agent: str) -> str | None:
    """Whom one threatens when no one is named: someone in the same room, else the teller across the counter."""
    here = world.room_of(agent)
    near = [p for p in PEOPLE if p != agent and _alive(world, p) and world.room_of(p) == here]
    if near:
        return near[0]
    across = {LOBBY: VESTIBULE, VESTIBULE: LOBBY}.get(here or "")
    return next((p for p in PEOPLE if p != agent and _alive(world, p) and world.room_of(p) == across), None)


def _brandishing(r: Request) -> list[Action]:
    at = r.second if r.second is not None else _facing(r.world, r.actor)
    return [brandish(r.actor, item, at) for item in r.objects]


def _gun_or(name: str) -> Builder:
    """Waving, showing or pointing a gun (or the gun-shaped object) is brandishing it; anything else is done
    as the standard grammar does it."""

    def build(r: Request) -> list[Action]:
        if r.obj in GUNS:
            return _brandishing(r)
        return _standard(name)(r)

    return build


def _at_someone(verb: str) -> Builder:
    """Waving or pointing a gun at someone is brandishing it at them; anything else is only a gesture."""

    def build(r: Request) -> list[Action]:
        if r.obj in GUNS:
            return _brandishing(r)
        template = f"[agent/s] [{verb}/v] [direct/o] at [indirect/o]"
        return [replace(verbs.gesture(verb, r.actor, r.obj, template), indirect=r.second)]

    return build


def _held_gun(world: WorldState, actor: str) -> str | None:
    """The gun one would fire: the pistol if one has it, else the gun-shaped object (which will not fire)."""
    return next((gun for gun in (PISTOL, TOY_GUN) if world.parent(gun) == actor), None)


def _shooting(r: Request) -> list[Action]:
    gun = r.second if r.second is not None else _held_gun(r.world, r.actor)
    return [shot(r.actor, target, gun) for target in r.objects]


def _attacking_with(r: Request) -> list[Action]:
    if r.second in GUNS:
        return _shooting(r)
    return _hands_on("strike")(r)


def _attacking(r: Request) -> list[Action]:
    """The guard's attack on someone is an arrest (which says why not, when it cannot be one)."""
    if r.actor == GUARD and r.world.items[r.obj].kind == "actor":
        return [seize(r.actor, r.obj)]
    return _hands_on("strike")(r)


def _arresting(r: Request) -> list[Action]:
    return [seize(r.actor, target) for target in r.objects]


def _turning(r: Request) -> list[Action]:
    return [turn_to(r.actor, r.obj)]


def _waking(r: Request) -> list[Action]:
    """Waking up, or waking someone (and first oneself, if asleep)."""
    others: list[Action] = [wake(r.actor, whom) for whom in r.objects if whom != r.actor]
    if not others or r.world.get(r.actor, "awake") is False:
        return [wake(r.actor), *others]
    return others


def _counting(r: Request) -> list[Action]:
    return [count(r.actor, item) for item in r.objects]


def _typing(r: Request) -> list[Action]:
    return [type_(r.actor)]


def _playing(r: Request) -> list[Action]:
    if not r.objects or r.obj == COMPUTER:
        return [solitaire(r.actor)]
    return [verbs.gesture("play", r.actor, r.obj, "[agent/s] [play/v] with [direct/o]")]


def _surrendering(r: Request) -> list[Action]:
    return [surrender(r.actor)]


def _pushing(r: Request) -> list[Action]:
    """Behind the counter, pushing a thing (or sliding or throwing it) sends it across to the lobby."""
    if r.world.room_of(r.actor) != VESTIBULE:
        return _hands_on("push")(r)
    return [push_across(r.actor, item) for item in r.objects]


def _throwing(r: Request) -> list[Action]:
    if r.world.room_of(r.actor) == VESTIBULE and r.second is None:
        return _pushing(r)
    return _standard("throw")(r)


def _kind(
    name: str,
    patterns: tuple[str, ...],
    build: Builder,
    *,
    scope: Scope = "visible",
    scope2: Scope = "visible",
    many: bool = False,
    help: str = "",
) -> CommandKind:
    """One of the bank's command kinds; whoever is told to do it while asleep wakes up first."""
    return CommandKind(name, patterns, _awake_first(build), scope=scope, scope2=scope2, many=many, help=help)


COMMANDS: tuple[CommandKind, ...] = (
    _kind(
        "brandish",
        (
            "brandish OBJ",
            "brandish OBJ at OBJ2",
            "aim OBJ at OBJ2",
            "threaten OBJ2 with OBJ",
        ),
        _brandishing,
        scope="held",
        scope2="actor",
        help="brandish the gun-shaped object (at the teller)",
    ),
    _kind("wave", ("wave OBJ",), _gun_or("wave"), scope="held"),
    _kind("wave at", ("wave OBJ at OBJ2",), _at_someone("wave"), scope="held", scope2="actor"),
    _kind("point at", ("point OBJ at OBJ2",), _at_someone("point"), scope="held", scope2="actor"),
    _kind("show", ("show OBJ to OBJ2", "show OBJ2 OBJ"), _gun_or("show"), scope="held", scope2="actor"),
    _kind(
        "shoot",
        (
            "shoot OBJ",
            "shoot at OBJ",
            "fire at OBJ",
            "shoot OBJ with OBJ2",
            "shoot at OBJ with OBJ2",
            "fire OBJ2 at OBJ",
            "shoot OBJ2 at OBJ",
        ),
        _shooting,
        scope="actor",
        scope2="held",
        help="shoot someone (with the pistol)",
    ),
    _kind("attack with", ("attack OBJ with OBJ2",), _attacking_with, scope="reachable", scope2="held"),
    _kind(
        "attack",
        ("attack OBJ", "tackle OBJ", "hit OBJ", "strike OBJ", "punch OBJ"),
        _attacking,
        scope="reachable",
    ),
    _kind(
        "arrest",
        ("arrest OBJ", "handcuff OBJ", "cuff OBJ", "pin down OBJ", "pin OBJ down", "pin OBJ", "restrain OBJ"),
        _arresting,
        scope="actor",
        help="pin someone down and handcuff them (the guard)",
    ),
    _kind("turn to", ("turn to OBJ", "turn toward OBJ", "turn towards OBJ", "face OBJ"), _turning, scope="actor"),
    CommandKind(
        "wake",
        ("wake up", "wake", "awake", "awaken", "wake OBJ", "wake up OBJ", "wake OBJ up", "rouse OBJ"),
        _waking,
        scope="actor",
        help="wake up, or wake someone",
    ),
    _kind("count", ("count OBJ",), _counting, scope="reachable", many=True),
    _kind("type", ("type", "type on OBJ"), _typing, scope="reachable"),
    _kind(
        "play",
        ("play solitaire", "play solitaire on OBJ", "play OBJ", "play on OBJ", "play with OBJ"),
        _playing,
        scope="reachable",
    ),
    _kind(
        "surrender",
        (
            "surrender",
            "give up",
            "hands up",
            "put up hands",
            "put hands up",
            "put up my hands",
            "put my hands up",
            "put up your hands",
            "put your hands up",
            "raise hands",
            "raise my hands",
            "raise your hands",
            "put up arms",
            "raise arms",
        ),
        _surrendering,
        help="put up your hands",
    ),
    _kind(
        "push across",
        (
            "push OBJ",
            "shove OBJ",
            "slide OBJ",
            "push OBJ across counter",
            "push OBJ across the counter",
            "slide OBJ across counter",
            "slide OBJ across the counter",
        ),
        _pushing,
        scope="reachable",
    ),
    _kind("throw", ("throw OBJ", "toss OBJ"), _throwing, scope="held"),
)


# -- the world -------------------------------------------------------------------------------------------

ITEMS: tuple[Item, ...] = (
    Room(
        tag=STREET,
        called="street",
        sight="cars [pass/2/v] along [this] ordinary street outside the bank",
        exits={"in": LOBBY},
    ),
    Room(
        tag=LOBBY,
        called="lobby",
        referring="bank",
        sight="[this] [be/v] the bank's lobby, marble-floored and hushed",
        exits={"out": STREET, "in": GUARD_POST},
        views={VESTIBULE: (0.6, "inside the vestibule")},
    ),
    Room(
        tag=VESTIBULE,
        called="vestibule",
        referring="teller's area counter",
        sight="[this] [be/v] the teller's area, behind a counter",
        exits={"out": "the counter stays between [agent/o] and the lobby"},
        views={LOBBY: (0.8, "out in the lobby")},
    ),
    Room(
        tag=GUARD_POST,
        called="guard post",
        sight="[this] [be/v] a cramped room with a stool and a one-way mirror",
        exits={"out": LOBBY},
        views={LOBBY: (0.8, "through the one-way mirror")},
    ),
    Thing(
        tag="@mirror",
        called="one-way mirror",
        where=f"part_of {GUARD_POST}",
        referring="glass window",
        mention=False,
        sight="through [@mirror/o] the whole lobby [be/v] in view, though no one out there [can/v] see in",
    ),
    Actor(
        tag=TELLER,
        called="bank teller",
        article="the",
        gender="female",
        where=f"in {VESTIBULE}",
        referring="woman",
        sight="[@teller/s] [sit/v] behind the counter, unhurried",
    ),
    Actor(
        tag=ROBBER,
        called="twitchy man",
        gender="male",
        where=f"in {STREET}",
        referring="robber",
        sight="[@robber/s] [shift/v] from foot to foot",
        features={"standing": True},
    ),
    Actor(
        tag=GUARD,
        called="burly guard",
        gender="male",
        where=f"in {GUARD_POST}",
        awake=False,
        sight="[@guard/s] [fill/v] [@guard's] uniform to bursting",
        features={"standing": True},
        prevent=_sleeping_guard,
    ),
    Thing(
        tag=SLIPS,
        called="deposit slips",
        article="some",
        plural=True,
        where=f"in {VESTIBULE}",
        referring="slip",
        sight="[@slips/s] [be/v] made out in a dozen different hands",
    ),
    Thing(
        tag=COMPUTER,
        called="computer",
        where=f"part_of {VESTIBULE}",
        referring="screen keyboard",
        mention=False,
        sight="[@computer/s] [show/v] a game of solitaire, half played",
    ),
    Thing(
        tag=BAG,
        called="black bag",
        where=f"in {VESTIBULE}",
        holds=("in",),
        open=True,
        sight="[@bag/s] [be/v] a plain black bag with a zip",
    ),
    Thing(
        tag=FAKE_MONEY,
        called="fake money",
        article="some",
        where=f"in {VESTIBULE}",
        prominence=0.3,
        referring="bills cash",
        sight="[@fake_money/s] [look/v] like money, at a glance",
    ),
    Thing(
        tag=MASK,
        called="Dora the Explorer mask",
        where=f"of {ROBBER}",
        qualities=("clothing",),
        sight="[@mask/s] [grin/v], wide-eyed, under a brown bob",
    ),
    Thing(
        tag=TOY_GUN,
        called="gun-shaped object",
        where=f"of {ROBBER}",
        referring="gun toy",
        sight="[@toy_gun/s] [be/v] shaped like a gun, more or less",
    ),
    Thing(
        tag=PISTOL,
        called="pistol",
        where=f"of {GUARD}",
        referring="sidearm gun",
        sight="[@pistol/s] [be/v] heavy, black and loaded",
    ),
)

WORLD = WorldDefinition(
    name="bank",
    title="The Bank Robbery",
    summary="The simulated bank robbery, played: be the robber, the teller or the guard; the others keep to the "
    "story unless someone plays them.",
    author="after Nick Montfort's Curveship demonstration",
    interactive=True,
    items=ITEMS,
    player=ROBBER,
    playable=(ROBBER, TELLER, GUARD),
    spin={"narratee": ROBBER, "room_headings": True},
    prologue="An ordinary afternoon at the bank, for a few moments more.",
    # Asked in this order each tick, after whatever was commanded: the teller's beat before the robber's (she
    # types as he steadies himself), and he turns to the guard before the guard fires.
    scripts={TELLER: teller, ROBBER: robber, GUARD: guard},
    reactions=(keep_track, noise_wakes_the_guard, newcomer_noticed, shots, tears, getaway),
    refusals=REFUSALS,
    commands=COMMANDS,
    score=score,
)
