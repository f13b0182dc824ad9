"""A running story: one world instance, its simulation, and tellings of it under spins.

A story, in order:
1. Made from a world definition and a seed: the world is set up and every actor takes in what it sees.
2. Run: a non-interactive world runs its whole timeline as one turn; an interactive one advances a tick
   a command.
3. Told: the narrator tells what a focalizer perceived, under the story's spin or any other.
"""

from __future__ import annotations

from server.engine.actions.action import Event
from server.engine.errors import UnknownName
from server.engine.narrator import Discourse, Telling, Trace, tell
from server.engine.simulate import Simulation
from server.engine.spin import Spin
from server.engine.trees import Node, concept_tree, world_tree
from server.engine.world.definition import WorldDefinition


class Story:
    """One instance of a world, with its spin."""

    def __init__(self, definition: WorldDefinition, *, seed: int = 0, spin: Spin | None = None) -> None:
        self.definition = definition
        self.seed = seed
        self.simulation = Simulation(definition, seed)
        self.spin = spin or definition.default_spin()

    @property
    def turn(self) -> int:
        return self.simulation.turn

    @property
    def ended(self) -> bool:
        return self.simulation.ended

    def run_to_end(self) -> list[Event]:
        """Run a world by itself, timeline and scripts, as one turn, until it ends or its time is up."""
        simulation = self.simulation
        last = self.definition.ticks or simulation.last_tick
        produced: list[Event] = []
        first = True
        while simulation.tick < last and not simulation.ended:
            produced.extend(simulation.advance(new_turn=first))
            first = False
        return produced

    def focalizer(self, spin: Spin | None = None) -> str:
        """Whose concept a spin tells: its focalizer, else the commanded actor, else the world's player."""
        spin = spin or self.spin
        actor = spin.focalizer or spin.commanded or self.definition.player
        self.check_actor(actor)
        return actor

    def check_spin(self, spin: Spin) -> None:
        """The actors a spin names must be in this world: focalizer and commanded actors, narrator and
        narratee any item (a story may be told to the lamp)."""
        for role in ("focalizer", "commanded"):
            actor = getattr(spin, role)
            if actor is not None:
                self.check_actor(actor)
        for role in ("narrator", "narratee"):
            tag = getattr(spin, role)
            if tag is not None and tag not in self.simulation.items:
                raise UnknownName(f"{role} {tag} is not in {self.definition.name}")

    def check_actor(self, tag: str) -> None:
        if tag not in self.simulation.concepts:
            actors = ", ".join(self.simulation.concepts)
            raise UnknownName(f"{tag} is not an actor in {self.definition.name}; actors: {actors}")

    def tell(
        self,
        spin: Spin | None = None,
        *,
        discourse: Discourse | None = None,
        trace: Trace | None = None,
    ) -> Telling:
        """Tell the story so far (as much as the spin's window takes) through the spin's focalizer."""
        spin = spin or self.spin
        self.check_spin(spin)
        return tell(
            self.simulation,
            spin,
            focalizer=self.focalizer(spin),
            seed=self.seed,
            turn=self.turn,
            discourse=discourse,
            trace=trace,
        )

    def world_tree(self) -> Node:
        return world_tree(self.simulation.world)

    def concept_tree(self, actor: str) -> Node:
        self.check_actor(actor)
        return concept_tree(self.simulation.concepts[actor], self.simulation.items)
