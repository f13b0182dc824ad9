"""Directives: commands to the system rather than to an actor (world tree, concept tree, spin, recount…).

Each directive is a small declarative unit: the first words that call it, the form it takes, whether it needs
author permission, what it says when called in a form it does not take, and a function whose docstring is its
help. A registry is made per story, so worlds could add their own.

A directive is called by its first word wherever it stands in a line ("look; undo"). Called with words its
form does not take ("save a b", "undo undo"), it says how it is used rather than letting the parser guess —
unless that first word also begins a command of the world's ("light the lamp" is not "light level").
Every message a directive gives is a sentence: a capital, and a full stop.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from protocol.spin import SPIN_FIELDS, describe

if TYPE_CHECKING:
    from server.engine.narrator import Telling
    from server.engine.player import Player

Handler = Callable[["Player", re.Match[str]], "str | Telling"]

AGAIN = frozenset({"again", "g"})
"""Words that give the last command again (the player answers them: they are that command, not a directive)."""
AGAIN_HELP = "again (or g) — give the last command again."
AGAIN_USAGE = 'Again takes no more words: just "again", or "g".'


@dataclass(frozen=True, slots=True)
class Directive:
    """One directive: its pattern (matched against the whole normalized line), the first words that call it,
    what it says when called in a form the pattern does not take, its help, and its handler."""

    name: str
    pattern: re.Pattern[str]
    handler: Handler
    author_only: bool
    heads: frozenset[str]
    usage: str

    @property
    def help(self) -> str:
        """Its docstring as one line."""
        return " ".join((self.handler.__doc__ or self.name).split())


class Directives:
    """The directives a story understands; checked as they are added."""

    def __init__(self) -> None:
        self._all: dict[str, Directive] = {}
        self._any: re.Pattern[str] | None = None
        """Every form of every directive in one pattern: most lines are none, and are told so in one match."""

    def add(
        self,
        name: str,
        pattern: str,
        *,
        heads: tuple[str, ...] = (),
        usage: str = "",
        author_only: bool = False,
    ) -> Callable[[Handler], Handler]:
        """Register a directive. `heads`: its first words (default: its name's first word); `usage`: what a
        wrong form is told (default: that it takes no more words)."""

        def register(handler: Handler) -> Handler:
            if name in self._all:
                raise ValueError(f"directive {name!r} is registered twice")
            if not (handler.__doc__ or "").strip():
                raise ValueError(f"directive {name!r} needs a docstring: it is the directive's help")
            called = frozenset(heads or (name.split()[0],))
            said = usage or no_more_words(name)
            self._all[name] = Directive(name, re.compile(pattern + r"\Z"), handler, author_only, called, said)
            self._any = None
            return handler

        return register

    def match(self, line: str) -> tuple[Directive, re.Match[str]] | None:
        """The directive `line` is, in a form it takes, and the match of that form; None if it is none."""
        text = normalize(line)
        if self._any is None:
            self._any = re.compile("|".join(f"(?:{d.pattern.pattern})" for d in self._all.values()) or r"(?!)")
        if self._any.match(text) is None:
            return None
        for directive in self._all.values():
            found = directive.pattern.match(text)
            if found:
                return directive, found
        return None

    def called(self, line: str) -> Directive | None:
        """The directive `line` begins with, whatever follows its first word (to be told how it is used)."""
        words = normalize(line).lower().split()
        if not words:
            return None
        return next((directive for directive in self._all.values() if words[0] in directive.heads), None)

    def __iter__(self) -> Iterator[Directive]:
        return iter(self._all.values())


def normalize(line: str) -> str:
    return " ".join(line.strip().split())


def no_more_words(name: str) -> str:
    """The usage of a directive that takes nothing after its name."""
    return f'{name[0].upper()}{name[1:]} takes no more words: just "{name}".'


def counted(number: int, noun: str) -> str:
    """ "1 turn", "2 turns": a number and its noun, agreeing."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def standard() -> Directives:
    """The directives every story has."""
    registry = Directives()

    @registry.add("world tree", r"(?i:world(?: tree)?)", author_only=True)
    def world_tree(player: Player, match: re.Match[str]) -> str | Telling:
        """world tree — the true world, one item a line from @cosmos down (author only)."""
        return player.world_listing()

    @registry.add(
        "concept tree",
        r"(?i:concept)(?: (@\w+))?(?i: tree)?",
        usage='Concept tree takes at most an actor: "concept tree", or "concept @guard tree".',
    )
    def concept_tree(player: Player, match: re.Match[str]) -> str | Telling:
        """concept [@actor] tree — an actor's picture of the world (default: your own actor)."""
        return player.concept_listing(match.group(1) or player.actor)

    @registry.add("spin", r"(?i:spin)(?: (.+))?")
    def spin(player: Player, match: re.Match[str]) -> str | Telling:
        """spin — show the spin; `spin time after`, `spin narrator @guard`, `spin prophecy` change it;
        `spin window 3` makes recount retell the last 3 turns (each turn's reply is that turn alone)."""
        words = (match.group(1) or "").split()
        if len(words) == 1 and words[0].lower() in SPIN_FIELDS:
            return player.spin_setting(words[0].lower())
        if words:
            player.change_spin(words)
        return describe(player.spin)

    @registry.add("recount", r"(?i:recount)")
    def recount(player: Player, match: re.Match[str]) -> Telling:
        """recount — retell the story so far under the current spin: all of it, or as much as its window takes
        (`spin window 3`: the last 3 turns; `spin window turn`: the last turn)."""
        return player.recount()

    @registry.add("undo", r"(?i:undo)")
    def undo(player: Player, match: re.Match[str]) -> str | Telling:
        """undo — take back the last turn (again for the one before)."""
        if not player.undo():
            return "There is nothing to undo."
        return f"The last turn is taken back. {player.situation()}".strip()

    @registry.add("restart", r"(?i:restart)")
    def restart(player: Player, match: re.Match[str]) -> str | Telling:
        """restart — begin the story again (saves are kept)."""
        return player.restart()

    @registry.add("save", r"(?i:save)(?: ([\w.-]+))?", usage="Save takes one name, like: save kitchen.")
    def save(player: Player, match: re.Match[str]) -> str | Telling:
        """save NAME — remember the story as it is now, under NAME."""
        return player.save(match.group(1) or "default")

    @registry.add("restore", r"(?i:restore)(?: ([\w.-]+))?", usage="Restore takes one name, like: restore kitchen.")
    def restore(player: Player, match: re.Match[str]) -> str | Telling:
        """restore NAME — go back to the story as it was saved under NAME."""
        return player.restore(match.group(1) or "default")

    @registry.add("exits", r"(?i:exits)")
    def exits(player: Player, match: re.Match[str]) -> str | Telling:
        """exits — the ways out of where you are, as far as you know them."""
        return player.exits()

    @registry.add("inputs", r"(?i:inputs)")
    def inputs(player: Player, match: re.Match[str]) -> str | Telling:
        """inputs — the commands you gave so far, in order (an author: everyone's)."""
        # Another player's commands are theirs: what of them this player's actor perceived it was told.
        given = [
            logged.text
            for logged in player.story.log
            if logged.entry == "command" and (player.author or logged.actor == player.actor)
        ]
        lines = [f"{index}. {text}" for index, text in enumerate(given, 1)]
        return "\n".join(lines) or "No commands yet."

    @registry.add("ticks", r"(?i:ticks)")
    def ticks(player: Player, match: re.Match[str]) -> str | Telling:
        """ticks — how much time has passed: ticks of the clock and turns."""
        simulation = player.story.simulation
        return f"{counted(simulation.tick, 'tick')}, {counted(simulation.turn, 'turn')}."

    @registry.add("light level", r"(?i:light(?: level)?)", heads=("light",))
    def light_level(player: Player, match: re.Match[str]) -> str | Telling:
        """light level — how much light there is where you are (0 dark to 1 full light)."""
        sight = player.story.simulation.sight
        compartment = sight.compartment(player.actor)
        return f"The light level here is {sight.light(compartment):.2f}."

    @registry.add("score", r"(?i:score)")
    def score(player: Player, match: re.Match[str]) -> str | Telling:
        """score — how well you are doing, where the world keeps a score."""
        keeper = player.story.definition.score
        if keeper is None:
            return "This story keeps no score."
        points, most = keeper(player.story.simulation.world)
        return f"You have scored {points} out of a possible {most}."

    @registry.add("title", r"(?i:title|about|credits)", heads=("title", "about", "credits"))
    def title(player: Player, match: re.Match[str]) -> str | Telling:
        """title — the story's title, author and summary."""
        definition = player.story.definition
        by = f"\n{definition.author}" if definition.author else ""
        return f"{definition.title}{by}\n{definition.summary}".strip()

    @registry.add("quit", r"(?i:quit|q)", heads=("quit", "q"))
    def quit_(player: Player, match: re.Match[str]) -> str:
        """quit — leave the story (your client does it; the story itself goes on)."""
        return (
            "Leaving is up to your client: quit there (over the protocol, call leave). The story goes on without you."
        )

    @registry.add("help", r"(?i:help|directives)", heads=("help", "directives"))
    def help_(player: Player, match: re.Match[str]) -> str | Telling:
        """help — list the directives."""
        # (the player's own directives, not `registry`: a handler that held its registry would make a cycle of
        # every player's, which only the cyclic collector could free)
        shown = [d.help for d in player.directives if player.author or not d.author_only]
        return "\n".join([*shown, AGAIN_HELP])

    return registry
