"""`curveship tell --trace`: the narrator's stages are not on the wire, so this telling runs the engine here."""

from __future__ import annotations

import argparse
import sys

from server.catalog import load_world, spin_from_words
from server.engine.errors import UnknownName
from server.engine.narrator import Draft
from server.engine.story import Story


def run_trace(args: argparse.Namespace) -> int:
    if args.server or args.instance:
        raise UnknownName("--trace tells in this process; it cannot be used with --server or --instance")
    definition = load_world(args.world)
    story = Story(definition, seed=args.seed)
    story.spin = spin_from_words(story.spin, args.spin)
    story.check_spin(story.spin)
    if not definition.interactive:
        story.run_to_end()
    print(story.tell(trace=_print_stage).text)
    return 0


def _print_stage(name: str, draft: Draft) -> None:
    print(f"--- after {name}", file=sys.stderr)
    for item in draft.told:
        detail = " | ".join(item.sentences) or (item.form and str(item.form)) or ""
        print(f"  [{item.event.id}] {item.event.action.verb} {detail}", file=sys.stderr)
    for block in draft.blocks:
        print(f"  {block.kind}: {block.text}", file=sys.stderr)
