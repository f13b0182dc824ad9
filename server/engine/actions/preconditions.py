"""Whether an action can happen: refusals, the preconditions of each kind, and prevention by items present."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from server.engine.actions.action import Action, Configure, Modify, Reason, SenseAction
from server.engine.english.words import feature_word
from server.engine.world.items import ROOT, Link, Room
from server.engine.world.perception import Perception
from server.engine.world.state import WorldState

LINK_WORDS = {"in": "in", "on": "on", "of": "held by", "part_of": "part of", "through": "in"}

UNSEEN = {
    "dark": Reason("too dark", "it [be/v] too dark to see"),
    "view": Reason("no view", "[agent/s] [have/not/v] a good enough view of [direct/o]"),
    "prominence": Reason("unnoticed", "[direct/s] [be/v] too hard to make out"),
    "enclosed": Reason("enclosed", "[direct/s] [be/v] shut inside something"),
    "elsewhere": Reason("not here", "[direct/s] [be/not/v] here"),
}


@dataclass(frozen=True, kw_only=True)
class Refusal:
    """An actor's own unwillingness: when an action matches, the actor will not do it, and says why.

    Match on `verb`, `agent`, `direct` and `direction` (None matches anything); `when` may add a condition
    on the world. `reason` is a template told in place of the action ("[agent/s] [have/v] only just arrived").
    """

    reason: str
    verb: str | None = None
    agent: str | None = None
    direct: str | None = None
    direction: str | None = None
    when: Callable[[Action, WorldState], bool] | None = None

    def applies(self, action: Action, world: WorldState) -> bool:
        for name in ("verb", "agent", "direct", "direction"):
            wanted = getattr(self, name)
            if wanted is not None and getattr(action, name) != wanted:
                return False
        return self.when is None or self.when(action, world)


def refusal(action: Action, world: WorldState, refusals: tuple[Refusal, ...]) -> Reason | None:
    """The first refusal that applies, as a reason."""
    for rule in refusals:
        if rule.applies(action, world):
            return Reason("refused", rule.reason, alone=True)
    return None


def failure(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    """The first precondition the action fails, or None when it can happen. The verb's own checks come
    before its kind's, being the more telling ("the bottle is empty" rather than "it is already so")."""
    for reason in (_alive(action, world), _unknown(action, world)):
        if reason is not None:
            return reason
    for extra in action.checks:
        reason = extra(action, world, sight)
        if reason is not None:
            return reason
    for check in _checks(action, world, sight):
        if check is not None:
            return check
    return None


def _unknown(action: Action, world: WorldState) -> Reason | None:
    for role in ("direct", "indirect"):
        tag = getattr(action, role)
        if tag is not None and tag not in world.items:
            return Reason("unknown item", f"{tag} [be/v] not in this world")
    return None


def _checks(action: Action, world: WorldState, sight: Perception) -> Iterator[Reason | None]:
    # A generator, so later checks (which may assume earlier ones passed) run only when needed.
    if isinstance(action, Configure):
        yield from _configure(action, world, sight)
    elif isinstance(action, Modify):
        yield from _modify(action, world, sight)
    elif isinstance(action, SenseAction):
        yield _sense(action, world, sight)


def _alive(action: Action, world: WorldState) -> Reason | None:
    if world.get(action.agent, "alive", True) is False:
        return Reason("dead", "[agent/s] [be/v] dead")
    return None


def _configure(action: Configure, world: WorldState, sight: Perception) -> Iterator[Reason | None]:
    item = action.direct
    assert item is not None
    link, target = action.destination()
    if target not in world.items:
        yield Reason("unknown item", f"{target} [be/v] not in this world")
        return
    if isinstance(world.items[item], Room):
        yield Reason("rooms cannot move", "[direct/s] [be/v] a place and cannot be moved")
    if item != action.agent and world.items[item].kind == "actor":
        # Whoever moves goes by themselves: no one is carried, put away or handed over, whatever the verb.
        yield Reason("a person", "[direct/s] [be/not/v] something to carry about")
    if target == item:
        yield Reason("into itself", f"[direct/s] [can/not/v] go {LINK_WORDS[link]} [direct/o]", alone=True)
    if world.is_descendant(target, item):
        if item == action.agent:
            yield Reason("own descendant", "[agent/s] [be/v] holding [target/o]")
        yield Reason("own descendant", f"[target/s] [be/v] {LINK_WORDS[_link_below(world, target, item)]} [direct/o]")
    place = world.place(item)
    if place is not None and place.link == link and place.parent == target:
        if link == "of":
            yield Reason("already there", "[target/s] already [have/v] [direct/o]", alone=True)
        yield Reason("already there", f"[direct/s] [be/v] already {LINK_WORDS[link]} [target/o]", alone=True)
    if item != action.agent:
        if not sight.can_reach(action.agent, item):
            yield Reason("unreachable", "[agent/s] [can/not/v] reach [direct/o]")
        if place is not None and place.link == "part_of":
            yield Reason("fixed", "[direct/s] [be/v] fixed to [parent/o]")
        owner = place.parent if place else None
        if owner is not None and owner != action.agent and world.items[owner].kind == "actor" and target != owner:
            yield Reason("held by another", "[parent/s] [have/v] [direct/o]")
    if target == ROOT:
        return  # out of the world: used up (eaten, burned away), nowhere that must be reached or hold it
    if (
        target != action.agent
        and not isinstance(world.items[target], Room)
        and not sight.can_reach(action.agent, target)
    ):
        yield Reason("unreachable", "[agent/s] [can/not/v] reach [target/o]")
    if link not in world.items[target].holds and not isinstance(world.items[target], Room):
        yield _does_not_fit(link, world.items[target].holds)
    if link == "in" and world.get(target, "open") is False:
        yield Reason("not open", "[target/s] [be/v] closed")


def _link_below(world: WorldState, tag: str, ancestor: str) -> Link:
    """How the item just below `ancestor`, on the way down to `tag`, is attached to it (in, on, part of…)."""
    current = tag
    while (place := world.place(current)) is not None and place.parent != ancestor:
        current = place.parent
    return place.link if place is not None else "in"


def _does_not_fit(link: Link, holds: tuple[Link, ...]) -> Reason:
    """Why nothing goes `link` the target: it holds things only some other way ("only on the hook"), or not at all."""
    if link == "of":
        return Reason("does not fit", "[target/s] [can/not/v] take [direct/o]", alone=True)
    other = [LINK_WORDS[way] for way in holds if way in ("in", "on")]
    if other:
        return Reason("does not fit", f"[agent/s] [can/v] only put things {' or '.join(other)} [target/o]", alone=True)
    return Reason("does not fit", f"[agent/s] [can/not/v] put things {LINK_WORDS[link]} [target/o]", alone=True)


def _modify(action: Modify, world: WorldState, sight: Perception) -> Iterator[Reason | None]:
    item = action.target_item
    if item != action.agent and not sight.can_reach(action.agent, item):
        yield Reason("unreachable", "[agent/s] [can/not/v] reach [direct/o]")
    if world.get(item, action.feature) == action.value:
        role = "direct" if action.direct else "agent"
        plain = action.value is None or (isinstance(action.value, str) and action.value.startswith("@"))
        word = "so" if plain else feature_word(action.feature, action.value)
        yield Reason("already so", f"[{role}/s] [be/v] already {word}", alone=True)
    if action.feature == "open" and action.value is True and world.get(item, "locked") is True:
        yield Reason("locked", "[direct/s] [be/v] locked")
    if action.feature == "locked" and world.get(item, "open") is True:
        yield Reason("not closed", "[direct/s] [be/v] open")
    if action.feature == "locked":
        key = world.items[item].key
        if key is None or world.parent(key) != action.agent:
            yield Reason("no key", "[agent/s] [lack/v] the key to [direct/o]")


def _sense(action: SenseAction, world: WorldState, sight: Perception) -> Reason | None:
    item = action.direct
    if item is None or item == action.agent:
        return None
    if action.modality == "sight":
        seen = sight.sight(action.agent, item)
        if seen.seen or seen.limit is None:
            return None
        return UNSEEN[seen.limit]
    if action.modality in ("touch", "taste"):
        if not sight.can_reach(action.agent, item):
            return Reason("unreachable", "[agent/s] [can/not/v] reach [direct/o]")
        return None
    if world.room_of(item) != world.room_of(action.agent):
        return UNSEEN["elsewhere"]
    return None


def prevention(action: Action, world: WorldState, hooked: list[str]) -> Reason | None:
    """Whether an item where the action happens prevents it (each `prevent` hook among `hooked` items)."""
    room = world.room_of(action.agent)
    for tag in hooked:
        hook = world.items[tag].prevent
        if hook is not None and (tag == room or world.room_of(tag) == room):
            found = hook(action, world)
            if isinstance(found, Reason):
                return found
            if found:
                return Reason("prevented", found)
    return None
