"""What the editor's sweeps share: every world from the catalog played through, every template a world's
module writes, and one template realized through any actor under any tense and aspect."""

from __future__ import annotations

import ast
import importlib
import itertools
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from server.catalog import load_world, spun, world_names
from server.engine.actions.action import Event
from server.engine.english import VerbForm
from server.engine.narrator import realize
from server.engine.narrator.draft import Draft
from server.engine.narrator.reference import NAME_SPACE
from server.engine.narrator.templates import ROLES, parse
from server.engine.spin import Spin, apply
from server.engine.story import Story

ROOT = Path(__file__).resolve().parents[2]
WORLDS = world_names()
TIMES = ("during", "after", "before")
FORMS = tuple(
    VerbForm(tense=tense, perfect=perfect, progressive=progressive)
    for tense, perfect, progressive in itertools.product(("present", "past", "future"), (False, True), (False, True))
)
_SLOTTED = re.compile(r"\[[^\[\]]+/[a-z']+\]|\[(?:this|here|now|these)\]")


def turns(name: str) -> Iterator[tuple[Story, list[Event]]]:
    """Each turn of the world's story, with its events, as the story stands just after it: the walkthrough,
    then forty commands drawn (seeded) from those that would work. A fresh story each call (never cached: a
    generator walked once is empty the next time)."""
    definition = load_world(name)
    story = Story(definition, seed=15)
    if not definition.interactive:
        yield story, story.run_to_end()
        return
    walk = (ROOT / "worlds" / "walks" / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    lines = [line for line in walk if line.strip() and not line.startswith("#")]
    rng = random.Random(15)
    for index in range(len(lines) + 40):
        if story.ended:
            return
        if index < len(lines):
            line = lines[index]
        else:
            possible = story.possible_commands(definition.player)
            if not possible:
                return
            line = rng.choice(possible)
        yield story, list(story.command(definition.player, line).events)


@cache
def played(name: str) -> Story:
    """The world's story: run to its end, or played through its walkthrough (once: every caller only reads it)."""
    definition = load_world(name)
    story = Story(definition, seed=0)
    if not definition.interactive:
        story.run_to_end()
        return story
    for line in (ROOT / "worlds" / "walks" / f"{name}.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#") and not story.ended:
            story.command(definition.player, line)
    return story


def told(name: str, *spins: str, **settings: object) -> str:
    story = played(name)
    spin = spun(story.spin, list(spins), [])
    return story.tell(apply(spin, dict(settings)) if settings else spin).text


def world_templates(name: str) -> Iterator[str]:
    """Every string in the world's module (and in the scenery it shares) that is a template."""
    module = importlib.import_module(f"worlds.{name}")
    yield from _templates(Path(module.__file__ or ""))
    yield from _templates(ROOT / "worlds" / "_scenery.py")


def engine_templates() -> Iterator[str]:
    """The standard verbs' and preconditions' templates, which every world tells."""
    for path in ("server/engine/actions/verbs.py", "server/engine/actions/preconditions.py"):
        yield from _templates(ROOT / path)


def _templates(path: Path) -> Iterator[str]:
    """The strings of a module that are templates: a slot, parsed, and not a docstring or comment-like text."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    documents = {
        id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or id(node) in documents or not isinstance(node.value, str):
            continue
        if _SLOTTED.search(node.value):
            try:
                parse(node.value)
            except Exception:  # a format string or a pattern that only looks like a template
                continue
            yield node.value


def realized(name: str, template: str, form: VerbForm, *, described: bool = False) -> str:
    """`template` told in `name`'s story at its last moment, every role its player (roles no story fills the
    same way are the player too: only the verbs are under test), in `form`; `described` tells it as a state."""
    story = played(name)
    player = story.definition.player
    spin = Spin(focalizer=player, commanded=player, narratee=player)
    draft = Draft(record=story.simulation, spin=spin, focalizer=player, seed=0)
    roles = dict.fromkeys(ROLES, player)
    moment = len(story.simulation.events) - 1
    state = VerbForm(tense=form.tense, progressive=form.progressive, descriptive=True)
    scene = realize.Scene(
        roles=roles,
        moment=moment,
        form=state if described else form,
        present=form.tense == "present",
        state_form=state,
    )
    return realize.realize(parse(template), scene, realize.reference_for(draft)).replace(NAME_SPACE, " ")
