"""A world as an author writes it — items, timeline, scripts, refusals, hooks — checked when it is made."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from protocol.spin import Spin, apply
from server.engine.errors import SpinError, TemplateError, WorldError
from server.engine.narrator.templates import FeatureWord, Ref, parse
from server.engine.world.items import ROOT, SENSES, TAG, Actor, Item, Room
from server.engine.world.state import WorldState

if TYPE_CHECKING:
    from server.engine.actions.action import Action
    from server.engine.actions.preconditions import Refusal
    from server.engine.parser.kinds import CommandKind
    from server.engine.world.state import WorldState

Script = Callable[[str, "WorldState", int, random.Random], "Action | None"]
"""An actor's own behaviour: given the actor, the world, the tick and the story's random generator,
the action it takes this tick (or None to do nothing)."""

WorldReaction = Callable[["Action", "WorldState"], "list[Action]"]
"""A rule of the world that answers an action with new actions, told in the same turn."""


@dataclass(frozen=True, slots=True)
class SpinChange:
    """What a dynamic-spin hook is given: the world after a turn and the spin in force."""

    world: WorldState
    spin: Spin
    turn: int


DynamicSpin = Callable[[SpinChange], "Mapping[str, Any] | None"]


@dataclass(frozen=True, kw_only=True)
class Cosmos(Item):
    """The root of every world's tree."""

    kind = "cosmos"


@dataclass(frozen=True, kw_only=True)
class WorldDefinition:
    """Everything an author declares about a world. Instances of the world are made from it."""

    name: str
    title: str
    summary: str = ""
    author: str = ""
    interactive: bool = True
    items: tuple[Item, ...]
    player: str
    """The actor a player commands, and whose concept is told, unless a spin says otherwise."""
    playable: tuple[str, ...] = ()
    """The actors players may take on (default: just `player`)."""
    spin: Mapping[str, Any] = field(default_factory=dict)
    timeline: tuple[tuple[int, Action], ...] = ()
    """Actions that happen at given ticks whatever the player does (the robbery is all timeline)."""
    scripts: Mapping[str, Script] = field(default_factory=dict)
    refusals: tuple[Refusal, ...] = ()
    reactions: tuple[WorldReaction, ...] = ()
    commands: tuple[CommandKind, ...] = ()
    """Command kinds of this world's own, beside the standard grammar ("brandish OBJ at OBJ2")."""
    dynamic_spin: DynamicSpin | None = None
    prologue: str = ""
    score: Callable[[WorldState], tuple[int, int]] | None = None
    """Points so far and points possible, for worlds that keep a score."""
    ticks: int | None = None
    """How many ticks a non-interactive story runs; default: until its timeline is done."""

    def __post_init__(self) -> None:
        tags: dict[str, Item] = {}
        for item in self.items:
            if item.tag in tags:
                raise WorldError(f"{self.name}: two items are tagged {item.tag}")
            if item.tag == ROOT:
                raise WorldError(f"{self.name}: {ROOT} is the root every world has; do not declare it")
            tags[item.tag] = item
        player = tags.get(self.player)
        if not isinstance(player, Actor):
            raise WorldError(f"{self.name}: player {self.player} is not an actor of this world")
        for item in self.items:
            if isinstance(item, Room):
                self._check_room(item, tags)
        for tick, action in self.timeline:
            if tick < 1:
                raise WorldError(f"{self.name}: timeline ticks start at 1 (action {action.verb!r} at {tick})")
            for role in ("agent", "direct", "indirect"):
                tag = getattr(action, role)
                if tag is not None and tag not in tags:
                    raise WorldError(f"{self.name}: timeline action {action.verb!r} names unknown item {tag}")
        for actor in self.playable:
            if not isinstance(tags.get(actor), Actor):
                raise WorldError(f"{self.name}: playable {actor} is not an actor of this world")
        for actor in self.scripts:
            if not isinstance(tags.get(actor), Actor):
                raise WorldError(f"{self.name}: script for {actor}, which is not an actor of this world")
        try:
            self.default_spin()
        except SpinError as error:
            raise WorldError(f"{self.name}: {error}") from None
        try:
            WorldState(self.all_items())  # every item placed, in a known place, none inside itself
        except WorldError as error:
            raise WorldError(f"{self.name}: {error}") from None
        self._check_templates(tags)

    def _check_templates(self, tags: Mapping[str, Item]) -> None:
        """Every template the world declares parses, and names only items it has: a mistake is found when the
        world is made, not when (or if) the template is first told."""
        texts: list[tuple[str, str]] = []
        for item in self.items:
            texts += [(f"{item.tag} {sense}", item.sense_text(sense)) for sense in SENSES]
            texts.append((f"{item.tag} writing", item.writing))
        texts += [
            (f"timeline action {action.verb!r} at tick {tick}", action.template) for tick, action in self.timeline
        ]
        texts += [(f"refusal of {rule.verb or 'any verb'!r}", rule.reason) for rule in self.refusals]
        for where, template in texts:
            if not template:
                continue
            try:
                tokens = parse(template)
            except TemplateError as error:
                raise WorldError(f"{self.name}: {where}: {error}") from None
            for token in tokens:
                tag = token.role if isinstance(token, Ref | FeatureWord) else ""
                if tag.startswith("@") and tag != ROOT and tag not in tags:
                    raise WorldError(
                        f"{self.name}: {where}: template {template!r} names {tag}, not an item of this world"
                    )

    def _check_room(self, room: Room, tags: Mapping[str, Item]) -> None:
        for direction, way in room.exits.items():
            if TAG.match(way) and way not in tags:
                raise WorldError(f"{self.name}: {room.tag} exit {direction} leads to unknown {way}")
        for seen in room.views:
            if not isinstance(tags.get(seen), Room):
                raise WorldError(f"{self.name}: {room.tag} has a view onto {seen}, which is not a room")

    def all_items(self) -> dict[str, Item]:
        """Every item by tag, with the root first."""
        found: dict[str, Item] = {ROOT: Cosmos(tag=ROOT, called="cosmos", article="the")}
        found.update((item.tag, item) for item in self.items)
        return found

    def default_spin(self) -> Spin:
        """The world's own spin: the player commanded and focalized, then the world's overrides."""
        base = Spin(focalizer=self.player, commanded=self.player)
        return apply(base, dict(self.spin), source=f"world {self.name} spin")

    def players(self) -> tuple[str, ...]:
        """The actors players may take on."""
        return self.playable or (self.player,)

    def actors(self) -> list[Actor]:
        return [item for item in self.items if isinstance(item, Actor)]
