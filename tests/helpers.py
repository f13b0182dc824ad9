"""Do-this-expect-that helpers that run the whole pipeline, so tests read as one line each."""

from __future__ import annotations

from typing import Any

from protocol.spin import apply
from server.catalog import load_world, spin_from_words
from server.engine.story import Story
from server.engine.world.definition import WorldDefinition


def story(world: str | WorldDefinition, *, seed: int = 0) -> Story:
    """A story of `world` (a name or a definition), run to its end if it runs by itself."""
    definition = load_world(world) if isinstance(world, str) else world
    made = Story(definition, seed=seed)
    if not definition.interactive:
        made.run_to_end()
    return made


def tell(world: str | WorldDefinition, *spins: str, seed: int = 0, **settings: Any) -> str:
    """The whole story of `world` told under the named spins, then `settings` (spin fields)."""
    made = story(world, seed=seed)
    spin = spin_from_words(made.spin, list(spins))
    if settings:
        spin = apply(spin, settings)
    return made.tell(spin).text


def sentences(text: str) -> list[str]:
    """Split a telling into sentences (good enough for the worlds' own sentences)."""
    import re

    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]
