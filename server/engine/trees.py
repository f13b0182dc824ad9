"""Item trees — the true world or one actor's concept — as nested nodes and as indented `@tag: name [link]` text."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from server.engine.concepts import Concept, concept_children
from server.engine.world.items import ROOT, Item
from server.engine.world.state import WorldState

INDENT = "    "


@dataclass(frozen=True, slots=True)
class Node:
    """One item in a tree: its tag, name, link to its parent (None for the root), children, and kind (room,
    actor, thing, door…: what a client needs to know of it without asking again)."""

    tag: str
    name: str
    link: str | None
    children: tuple[Node, ...]
    kind: str


def _name(item: Item) -> str:
    return item.proper.initial() if item.proper else item.called


def world_tree(world: WorldState) -> Node:
    """The true world, from @cosmos down."""

    def build(tag: str) -> Node:
        item = world.items[tag]
        return Node(tag, _name(item), world.link(tag), tuple(build(c) for c in world.children[tag]), item.kind)

    return build(ROOT)


def concept_tree(concept: Concept, items: Mapping[str, Item], moment: int | None = None) -> Node:
    """An actor's concept: the items it knows, where it last knew them to be."""
    children = concept_children(concept, moment)
    order = {tag: index for index, tag in enumerate(items)}

    def build(tag: str) -> Node:
        view = concept.view(tag, moment)
        kids = sorted(children.get(tag, ()), key=order.__getitem__)
        return Node(tag, _name(items[tag]), view.link if view else None, tuple(build(k) for k in kids), items[tag].kind)

    return build(ROOT)


def listing(node: Node, depth: int = 0) -> str:
    """`@tag: name [link]`, one item a line, four spaces a level."""
    link = f" [{node.link}]" if node.link else ""
    lines = [f"{INDENT * depth}{node.tag}: {node.name}{link}"]
    lines.extend(listing(child, depth + 1) for child in node.children)
    return "\n".join(lines)
