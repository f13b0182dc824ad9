"""The author's front door: everything a world file needs from the engine, under one import.

Worlds, the tutorial and the authoring guide import from here alone, so an author learns one module and the
engine may rearrange its inside without breaking a world. Grouped as a world is written: its items, its
definition and state, the actions its scripts and commands make, the grammar its own commands extend, and
the words and perception its texts and checks use."""

from __future__ import annotations

from server.engine.actions import verbs
from server.engine.actions.action import Action, Behave, Configure, Modify, Reason, SenseAction
from server.engine.actions.preconditions import Refusal
from server.engine.actions.verbs import go
from server.engine.english.words import direction_name
from server.engine.parser import substances
from server.engine.parser.grammar import GRAMMAR
from server.engine.parser.kinds import Builder, CommandKind, Request, Scope
from server.engine.parser.words import DIRECTIONS
from server.engine.world.definition import SpinChange, WorldDefinition
from server.engine.world.items import Actor, Article, Door, Item, Room, SharedThing, Substance, Thing
from server.engine.world.perception import VISIBLE_AT, Perception
from server.engine.world.state import WorldState

__all__ = [
    "DIRECTIONS",
    "GRAMMAR",
    "VISIBLE_AT",
    "Action",
    "Actor",
    "Article",
    "Behave",
    "Builder",
    "CommandKind",
    "Configure",
    "Door",
    "Item",
    "Modify",
    "Perception",
    "Reason",
    "Refusal",
    "Request",
    "Room",
    "Scope",
    "SenseAction",
    "SharedThing",
    "SpinChange",
    "Substance",
    "Thing",
    "WorldDefinition",
    "WorldState",
    "direction_name",
    "go",
    "substances",
    "verbs",
]
