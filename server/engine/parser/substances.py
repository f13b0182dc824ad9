"""Substances, one feature in one place: water in a bottle and a basin that never runs dry, the verbs that fill,
pour and drink, the word orders that say them, and how a command names a substance by what holds it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from server.engine.actions.action import Action, Behave, Modify, Reason
from server.engine.actions.verbs import HELD, REACHES, precondition
from server.engine.parser.kinds import CommandKind, Request, refused
from server.engine.parser.lexicon import Lexicon
from server.engine.parser.words import ALL_WORDS, ARTICLES, CONJUNCTIONS, OWNER_WORDS, PRONOUNS, unquoted
from server.engine.world.perception import Perception
from server.engine.world.state import WorldState

# -- the verbs -----------------------------------------------------------------------------------------
#
# A vessel's `contents` feature names the substance in it (None when empty); a source's `source_of` names the
# substance it gives, and never runs dry. Pouring out a vessel empties it: what is poured into another vessel
# fills it, and whatever is poured anywhere else is gone.


def substance_in(world: WorldState, tag: str) -> str | None:
    """The substance in a vessel, or that a source gives; None if there is none."""
    found = world.get(tag, "contents") or world.get(tag, "source_of")
    return found if isinstance(found, str) and found in world.items else None


def is_vessel(world: WorldState, tag: str) -> bool:
    return "vessel" in world.items[tag].qualities


def is_source(world: WorldState, tag: str) -> bool:
    return bool(world.get(tag, "source_of"))


def _reaches_indirect(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    if action.indirect is None or sight.can_reach(action.agent, action.indirect):
        return None
    return Reason("unreachable", "[agent/s] [can/not/v] reach [indirect/o]")


A_VESSEL = precondition(
    lambda a, w: a.direct is not None and is_vessel(w, a.direct),
    "not a vessel",
    "[direct/s] [can/not/v] hold anything poured in",
    alone=True,
)
NOT_FULL = precondition(
    lambda a, w: a.direct is None or not w.get(a.direct, "contents"),
    "full",
    "[direct/s] [be/v] already full",
    alone=True,
)
NOT_EMPTY = precondition(
    lambda a, w: a.direct is not None and substance_in(w, a.direct) is not None,
    "empty",
    "[direct/s] [be/v] empty",
    alone=True,
)
A_SOURCE = precondition(
    lambda a, w: a.indirect is not None and is_source(w, a.indirect),
    "no source",
    "there [be/v] nothing here to fill [direct/o] from",
    alone=True,
)


def fill(agent: str, vessel: str, source: str | None, world: WorldState) -> Modify:
    """Fill a vessel from a source (the basin): it then holds what the source gives."""
    return Modify(
        verb="fill",
        agent=agent,
        direct=vessel,
        indirect=source,
        feature="contents",
        value=substance_in(world, source) if source is not None else None,
        template="[agent/s] [fill/v] [direct/o]" + (" from [indirect/o]" if source else ""),
        checks=(A_VESSEL, A_SOURCE, _reaches_indirect, NOT_FULL),
    )


def _poured_from_a_vessel(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    """One pours out what one holds in a vessel; a source (the basin) stays where it is, and so does its water."""
    item = action.direct
    if item is not None and is_vessel(world, item):
        return None
    return Reason("not a vessel", "[agent/s] [can/not/v] pour anything out of [direct/o]", alone=True)


def _not_into_itself(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    if action.indirect is None or action.indirect != action.direct:
        return None
    return Reason("into itself", "[agent/s] [can/not/v] pour [direct/o] into itself", alone=True)


def _room_for_it(action: Action, world: WorldState, sight: Perception) -> Reason | None:
    into = action.indirect
    if into is None or not is_vessel(world, into) or not world.get(into, "contents"):
        return None
    return Reason("full", "[indirect/s] [be/v] already full", alone=True)


def _receives(world: WorldState, tag: str) -> bool:
    """Whether what is poured goes into `tag` (a vessel, a source, a container) rather than over it."""
    item = world.items[tag]
    return is_vessel(world, tag) or is_source(world, tag) or "in" in item.holds


def pour(agent: str, vessel: str, onto: str | None, world: WorldState) -> Modify:
    """Pour out what a vessel one holds has in it: into another vessel, which it fills; into a source or a
    container, or over anyone or anything, where it is gone; or with nowhere named, out onto the ground."""
    substance = substance_in(world, vessel)
    stuff = f"[{substance}/o]" if substance else "[direct/o]"
    if onto is None:
        template = f"[agent/s] [pour/v] {stuff} out of [direct/o]" if substance else "[agent/s] [pour/v] out [direct/o]"
    elif _receives(world, onto):
        template = f"[agent/s] [pour/v] {stuff} into [indirect/o]"
    else:
        template = f"[agent/s] [pour/v] {stuff} over [indirect/o]"

    def fills(action: Action, now: WorldState) -> list[Action]:
        if onto is None or not is_vessel(now, onto) or substance is None:
            return []
        return [
            Modify(
                verb="fill",
                agent=agent,
                direct=onto,
                feature="contents",
                value=substance,
                template="[direct/s] [fill/v] up",
                salience=0.3,
            )
        ]

    return Modify(
        verb="pour",
        agent=agent,
        direct=vessel,
        indirect=onto,
        feature="contents",
        value=None,
        template=template,
        checks=(_poured_from_a_vessel, HELD, NOT_EMPTY, _not_into_itself, _reaches_indirect, _room_for_it),
        entails=fills,
    )


def drink(agent: str, item: str, world: WorldState) -> Action:
    """Drink from a vessel, which is then empty, or from a source, which never runs dry (so nothing changes)."""
    substance = substance_in(world, item)
    stuff = f"[{substance}/o] " if substance else ""
    told = f"[agent/s] [drink/v] {stuff}from [direct/o]"
    if is_source(world, item):
        return Behave(verb="drink", agent=agent, direct=item, template=told, checks=(REACHES,))
    drinkable = precondition(
        lambda a, w: is_vessel(w, item) or is_source(w, item),
        "nothing to drink",
        "there [be/v] nothing to drink in [direct/o]",
        alone=True,
    )
    return Modify(
        verb="drink",
        agent=agent,
        direct=item,
        feature="contents",
        value=None,
        template=told,
        checks=(drinkable, NOT_EMPTY),
    )


# -- the commands --------------------------------------------------------------------------------------


def _fill(r: Request) -> list[Action]:
    """ "fill the bottle": from the source here, if one is named or there is one."""
    return [fill(r.actor, r.obj, r.second or _source_nearby(r), r.world)]


def _source_nearby(r: Request) -> str | None:
    room = r.world.room_of(r.actor)
    for tag in r.world.descendants(room) if room else ():
        if is_source(r.world, tag):
            return tag
    return None


def _pour(r: Request) -> list[Action]:
    if r.substance is not None and is_source(r.world, r.obj):
        # "pour water", holding none: the basin's water is not the player's to pour.
        return [refused("pour", r, f"[agent/s] [have/v] no {r.world.items[r.substance].called} to pour")]
    return [pour(r.actor, r.obj, r.second, r.world)]


ALL_OF_IT = frozenset({"it", "all", "everything", "contents", "them"})
"""What "pour WORD from the bottle" may name besides the substance itself: whatever the bottle holds."""


def _pour_from(r: Request) -> list[Action]:
    """ "pour the water from the bottle (into the basin)": pouring out the vessel, if that is what it holds."""
    word = (r.word or "").lower()
    substance = substance_in(r.world, r.obj)
    if substance is not None and word not in ALL_OF_IT and word not in r.world.items[substance].words():
        return [refused("pour", r, f"there [be/v] no {word} in [direct/o]")]
    return [pour(r.actor, r.obj, r.second, r.world)]


def _drink(r: Request) -> list[Action]:
    return [drink(r.actor, item, r.world) for item in r.objects]


def in_hand(r: Request) -> list[Action]:
    """ "take the water": a substance is carried only in a vessel, and the refusal says which one would do."""
    assert r.substance is not None
    water = f"[{r.substance}/the/o]"
    vessels = [t for t in r.world.descendants(r.actor) if is_vessel(r.world, t)]
    empty = [t for t in vessels if substance_in(r.world, t) is None]
    holding = [t for t in vessels if substance_in(r.world, t) == r.substance]
    if empty:
        hint = f", but [agent/s] [can/v] fill [{empty[0]}/o] with it"
    elif holding:
        hint = f"; [{holding[0]}/s] [hold/v] some already"
    else:
        hint = "; [agent/s] [need/v] something to carry it in"
    return [refused("take", r, f"[agent/s] [can/not/v] carry {water} in [agent's] bare hands{hint}")]


COMMANDS: tuple[CommandKind, ...] = (
    CommandKind("drink", ("drink OBJ", "drink from OBJ", "sip OBJ", "sip from OBJ", "quaff OBJ"), _drink),
    CommandKind(
        "fill",
        ("fill OBJ", "fill OBJ with OBJ2", "fill OBJ from OBJ2", "fill OBJ at OBJ2", "fill OBJ in OBJ2"),
        _fill,
        scope="held",
        scope2="source",
    ),
    CommandKind(
        "pour",
        (
            "pour OBJ",
            "pour out OBJ",
            "pour OBJ out",
            "empty OBJ",
            "pour OBJ in OBJ2",
            "pour OBJ into OBJ2",
            "pour OBJ on OBJ2",
            "pour OBJ onto OBJ2",
            "empty OBJ into OBJ2",
            "pour from OBJ",
        ),
        _pour,
        scope="held",
    ),
    # "pour the water from the bottle": WORD is what the vessel holds, or "it", "everything".
    CommandKind(
        "pour from",
        (
            "pour WORD from OBJ",
            "pour WORD out of OBJ",
            "pour the WORD from OBJ",
            "pour the WORD out of OBJ",
            "pour some WORD from OBJ",
            "pour out WORD from OBJ",
            "pour out the WORD from OBJ",
            *(
                f"pour {article}WORD from OBJ {into} OBJ2"
                for article in ("", "the ", "some ")
                for into in ("into", "in", "on", "onto", "over")
            ),
        ),
        _pour_from,
        scope="held",
    ),
)
"""The substance commands, in the place the grammar gives them (after eating, before giving)."""


# -- naming a substance --------------------------------------------------------------------------------


def named(world: WorldState, lexicon: Lexicon, words: Sequence[str]) -> set[str]:
    """The substances a phrase names ("water", "the liquid")."""
    return {t for t, item in world.items.items() if item.kind == "substance" and lexicon.fits(words, t)}


def holding(
    world: WorldState,
    lexicon: Lexicon,
    words: Sequence[str],
    present: tuple[str, ...],
    actor: str,
    sight: Perception,
    in_scope: Callable[[str], bool],
) -> list[str]:
    """ "drink the water", "fill the bottle with water": a substance is named by what holds it here. Of those,
    what is in the slot's scope ("from the water" is from a source), then what the actor holds ("pour the
    water" is the water in the bottle it carries, not the basin's), then what it can reach; several left
    are asked about."""
    substances = named(world, lexicon, words)
    if not substances:
        return []
    holders = [t for t in present if substance_in(world, t) in substances]
    fitting = [t for t in holders if in_scope(t)] or holders
    held = [t for t in fitting if world.is_descendant(t, actor)]
    reached = [t for t in fitting if sight.can_reach(actor, t)]
    return held or reached or fitting


def substance_named(world: WorldState, lexicon: Lexicon, words: Sequence[str], present: tuple[str, ...]) -> str | None:
    """The substance a slot's words name, when they name it rather than anything here ("take the water");
    None for anything else."""
    phrase = [w for token in words for w in unquoted(token) if w not in ARTICLES and w not in OWNER_WORDS]
    if not phrase or any(w in CONJUNCTIONS or w in ALL_WORDS or w in PRONOUNS for w in phrase):
        return None
    if any(lexicon.fits(phrase, t) for t in present):
        return None
    substances = named(world, lexicon, phrase)
    return next(iter(substances)) if len(substances) == 1 else None
