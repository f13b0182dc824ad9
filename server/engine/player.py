"""A player's place in a story: the actor it plays, its own spin, and what it has been told so far."""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from server.engine import spin as spins
from server.engine.directives import Directives, Forbidden, standard
from server.engine.errors import UnknownName
from server.engine.narrator import Discourse, Telling
from server.engine.narrator.draft import Block
from server.engine.spin import Spin, SpinFile
from server.engine.story import Story
from server.engine.trees import listing

SpinLibrary = Callable[[str], SpinFile]


def no_named_spins(name: str) -> SpinFile:
    raise UnknownName(f"unknown spin {name!r}")


class Player:
    """One reader or player of a story. Tellings continue from what this player was already told, so
    "a mask" becomes "the mask" across replies; its spin is its own and changes only through it."""

    def __init__(
        self,
        story: Story,
        actor: str | None = None,
        *,
        spin: Spin | None = None,
        author: bool = True,
        directives: Directives | None = None,
        named_spins: SpinLibrary = no_named_spins,
    ) -> None:
        self.story = story
        self.actor = actor or story.definition.player
        story.check_actor(self.actor)
        base = spin or story.spin
        if actor is not None:
            base = replace(base, focalizer=actor, commanded=actor)
        self.spin = base
        self.author = author
        self.directives = directives or standard()
        self.discourse = Discourse()
        self.named_spins = named_spins
        """Finds a named spin; given by the edge that reads spins/, since the engine reads no files."""

    # -- telling ------------------------------------------------------------------------------------

    def told(self, spin: Spin | None = None) -> Telling:
        """Tell what the spin's window takes, continuing this player's discourse."""
        self.check_focalizer(spin or self.spin)
        telling = self.story.tell(spin or self.spin, discourse=self.discourse)
        self.discourse = telling.discourse
        return telling

    def recount(self, spin: Spin | None = None) -> Telling:
        """Retell the whole story so far from the beginning, as to a new listener."""
        whole = replace(spin or self.spin, window="all")
        self.check_focalizer(whole)
        return self.story.tell(whole)

    def check_focalizer(self, spin: Spin) -> None:
        """In an interactive world a player tells only through its own actor (authors excepted)."""
        focalizer = self.story.focalizer(spin)
        if focalizer != self.actor and self.story.definition.interactive and not self.author:
            raise Forbidden(f"you play {self.actor}; the story cannot be told through {focalizer}")

    def change_spin(self, words: list[str]) -> None:
        """`time after`, `narrator @guard`, `filters hesitant,surprise`, or the name of a spin."""
        if len(words) == 1 and "=" not in words[0]:
            found = self.named_spins(words[0])
            changed = spins.apply(self.spin, dict(found.overrides), source=f"spin {found.name}")
        else:
            text = " ".join(words)
            key, _, value = text.partition("=") if "=" in text else text.partition(" ")
            key = key.strip()
            changed = spins.apply(self.spin, {key: spins.parse_value(key, value)}, source="spin")
        self.story.check_spin(changed)
        self.check_focalizer(changed)
        self.spin = changed

    # -- directives ---------------------------------------------------------------------------------

    def directive(self, line: str) -> Telling | None:
        """Answer `line` if it is a directive; None if it is not one."""
        found = self.directives.match(line)
        if found is None:
            return None
        directive, match = found
        if directive.author_only and not self.author:
            raise Forbidden(f"'{directive.name}' is for authors only")
        result = directive.handler(self, match)
        if isinstance(result, Telling):
            return result
        return Telling((Block("paragraph", result),), result, self.discourse)

    def world_listing(self) -> str:
        return listing(self.story.world_tree())

    def concept_listing(self, actor: str) -> str:
        if actor != self.actor and self.story.definition.interactive and not self.author:
            raise Forbidden(f"you play {self.actor}; {actor}'s concept is not yours to read")
        return listing(self.story.concept_tree(actor))

