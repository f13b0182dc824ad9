"""Pronouns: what "it", "them", "him" and "her" mean, and how each command and each telling changes that."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from server.engine.actions.action import Event
from server.engine.parser.failures import Ambiguous, Rank, Unresolved
from server.engine.parser.lexicon import Lexicon
from server.engine.parser.words import ALL_WORDS, CONJUNCTIONS
from server.engine.world.items import Room
from server.engine.world.state import WorldState


@dataclass(frozen=True, slots=True)
class Memory:
    """What pronouns refer to: the things last named by the player."""

    it: str | None = None
    them: tuple[str, ...] = ()
    him: str | None = None
    her: str | None = None


def pronoun(
    world: WorldState, word: str, memory: Memory, present: tuple[str, ...], actor: str, slot: str, index: int
) -> list[str]:
    """What a pronoun means: what was last named as it would be ("it" after a list of things asks which of
    them; "it" with nothing named yet, the one thing here it could mean; "him", the one man here)."""
    meant: list[str]
    if word in ("them", "they"):
        meant = [t for t in memory.them if t in present] or list(memory.them)
    elif word == "it" and memory.it is None and len(memory.them) > 1:
        listed = tuple(t for t in memory.them if t in present and not world.items[t].plural)
        if len(listed) > 1 and slot:
            raise Ambiguous(slot, index, listed)
        meant = list(listed[:1])
    elif word == "it" and memory.it is None:
        things = [t for t in present if _could_be_it(world, t, actor)]
        meant = things if len(things) == 1 else []
    else:
        last = {"it": memory.it, "him": memory.him, "her": memory.her}[word]
        meant = [last] if last else []
        if not meant and word != "it":
            # No one named yet, but only one person here it could mean.
            gender = "male" if word == "him" else "female"
            people = [t for t in present if t != actor and world.items[t].gender == gender]
            meant = people[:1] if len(people) == 1 and world.items[people[0]].kind == "actor" else []
    if not meant:
        raise Unresolved(f'I\'m not sure what "{word}" refers to.', Rank.NAMES_NOTHING)
    absent = [t for t in meant if t not in present]
    if absent:
        called = world.items[absent[0]].called
        raise Unresolved(f'"{word.capitalize()}" would be the {called}, which you cannot see now.', Rank.NAMES_NOTHING)
    return meant


def _could_be_it(world: WorldState, tag: str, actor: str) -> bool:
    """A thing "it" could mean when nothing has been named: one that is told of, not a fixture or a room."""
    item = world.items[tag]
    return (
        item.kind in ("thing", "door")
        and not item.plural
        and world.get(tag, "mention", True)
        and world.link(tag) != "part_of"
        and tag != actor
    )


def names_several(lexicon: Lexicon, words: tuple[str, ...]) -> bool:
    """Whether a phrase is a list, "all…" or a plural: "them" then means what it named."""
    return any(w in CONJUNCTIONS or w in ALL_WORDS for w in words) or any(lexicon.is_plural(w) for w in words)


def mentioned(world: WorldState, memory: Memory, actor: str, events: Sequence[Event]) -> Memory:
    """What pronouns mean once `actor` is told `events`: the things the telling mentions, the last of each
    kind ("You see a box here. You frown at it." makes "it" the box; "The mime waves." makes "him" the
    mime). What the actor's own command named is already remembered, as the command said it (a list stays
    "them"), so what its commanded actions name is passed over; what it saw looking around is mentioned, in
    the order it is told."""
    said: list[str] = []
    for event in events:
        action = event.action
        if actor not in event.perceivers:
            continue
        if action.agent == actor and action.direct is None and event.observed:
            said.extend(t for t in event.observed if world.get(t, "mention", True))
        if not (event.cause == "command" and action.agent == actor):
            said.extend(t for t in (action.agent, action.direct, action.indirect) if t is not None)
    told = [t for t in said if t != actor and t in world.items and not isinstance(world.items[t], Room)]
    return _noted(world, memory, actor, told)


def _noted(world: WorldState, memory: Memory, actor: str, tags: Sequence[str]) -> Memory:
    """Memory with each of `tags` taken as the latest thing its pronoun means, in order."""
    it, them, him, her = memory.it, memory.them, memory.him, memory.her
    for tag in tags:
        if tag == actor:
            continue
        item = world.items[tag]
        if item.kind == "actor" and item.gender == "male":
            him = tag
        elif item.kind == "actor" and item.gender == "female":
            her = tag
        elif item.plural or (item.kind == "actor" and item.gender in ("nonbinary", "unknown")):
            them = (tag,)
        else:
            it = tag
    return Memory(it, them, him, her)


def remembered(
    world: WorldState, memory: Memory, actor: str, objects: tuple[str, ...], second: str | None, several: bool
) -> Memory:
    """What pronouns mean after a command that named `objects` (and `second`)."""
    # The first thing acted on is the likeliest "it" next ("put the coin in the box. take it"), so it
    # is remembered last.
    noted = _noted(world, memory, actor, (*((second,) if second else ()), *reversed(objects)))
    it, them, him, her = noted.it, noted.them, noted.him, noted.her
    if several or len(objects) > 1:
        them = tuple(t for t in objects if t != actor)
        if len(them) > 1:
            it = None  # "it", after a list, is asked about: which of them?
    return Memory(it, them, him, her)
