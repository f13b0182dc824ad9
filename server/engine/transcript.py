"""A story's transcript: rebuilt from its log, each command given and what its actor was told of it.

The log holds what changed the story (commands that reached the parser, idle ticks, actors taken up and let
go), not what players were told, so the tellings are made again: the same world, seed and log give the same
story, and each command's reply is told, as in play, through the actor that gave it, under the story's spin
fitted to that actor, continuing what that actor was already told, with the world's dynamic spin followed
turn by turn. Undone turns are not in the log, so they are not in the transcript: it is the story as it
stands. Directives and session spins are not logged; a transcript is told the way a new player would be.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from protocol.spin import Spin
from server.engine.errors import StoryEnded
from server.engine.narrator import Block, Telling
from server.engine.player import Player
from server.engine.story import Logged, Story
from server.engine.world.definition import WorldDefinition


@dataclass(frozen=True, slots=True)
class Page:
    """One step of a transcript: the opening an actor is told (command ''), or a command and its reply."""

    turn: int
    actor: str
    command: str
    telling: Telling


def transcript(definition: WorldDefinition, seed: int, spin: Spin, log: Iterable[Logged]) -> Iterator[Page]:
    """The pages of the story the log makes, in order: each commanding actor's opening, then every command."""
    entries = tuple(log)
    story = Story(definition, seed=seed, spin=spin)
    if not definition.interactive:
        story.run_to_end()
    players: dict[str, Player] = {}
    # Everyone who gives a command is told the opening first, as each player was when joining at turn 0.
    for actor in dict.fromkeys([definition.player, *(e.actor for e in entries if e.entry == "command")]):
        players[actor] = Player(story, actor if actor != definition.player else None)
        yield Page(story.turn, actor, "", players[actor].opening())
    for entry in entries:
        if entry.entry != "command":
            story.apply((entry,))
            continue
        player = players[entry.actor]
        before = player.discourse
        try:
            turn = story.command(entry.actor, entry.text)
        except StoryEnded as ended:
            yield Page(story.turn, entry.actor, entry.text, _said(str(ended), player))
            continue
        if not turn.advanced:
            yield Page(story.turn, entry.actor, entry.text, _said(turn.message, player))
            continue
        yield Page(story.turn, entry.actor, entry.text, player.tell_turn(before))


def _said(text: str, player: Player) -> Telling:
    return Telling((Block("paragraph", text),), text, player.discourse)
