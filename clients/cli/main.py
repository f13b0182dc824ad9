"""The `curveship` command line: `tell` a world's story under spins, `play` it at a prompt."""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TextIO

from server.catalog import load_spin, load_world, spin_names, spun, world_names
from server.engine.errors import EngineError, UnknownName
from server.engine.narrator import Draft
from server.engine.player import Player
from server.engine.story import Story

USAGE_ERROR = 2
ENDED = "*** The story has ended. You may undo, restart, recount, or quit. ***"


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    # Options may come among the spins (`curveship tell robbery hesitant --seed 3 time=after`): argparse stops
    # taking spins at the option, so the words after it come back as extras and are spins too.
    args, extras = parser.parse_known_args(argv)
    unknown = [word for word in extras if word.startswith("-")]
    if unknown or not hasattr(args, "spin"):
        parser.error(f"unrecognized arguments: {' '.join(unknown or extras)}")
    args.spin = [*args.spin, *extras]
    try:
        return int(args.run(args))
    except EngineError as error:
        print(f"curveship: {error}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`curveship tell robbery | head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="curveship",
        description="Interactive fiction whose stories can be told in many ways.",
        epilog=f"worlds: {', '.join(world_names())}; spins: {', '.join(spin_names())}",
    )
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    tell = commands.add_parser("tell", help="tell a world's story under spins")
    _story_arguments(tell)
    tell.add_argument("--trace", action="store_true", help="show the telling after each narrator stage")
    tell.set_defaults(run=run_tell)

    play = commands.add_parser("play", help="play (or read) a world at a prompt")
    _story_arguments(play)
    play.add_argument("--actor", help="the actor to play, like @guard (default: the world's player)")
    play.add_argument("--auto", metavar="FILE", help="play the file's lines first, echoing each as '> line'")
    play.add_argument("--player", action="store_true", help="switch off author-only directives (world tree…)")
    play.set_defaults(run=run_play)
    return parser


def _story_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("world", help="a world name or the path to a world file")
    parser.add_argument(
        "spin",
        nargs="*",
        metavar="SPIN or key=value",
        help="named spins (or spin files), applied in order; then key=value settings, e.g. time=after",
    )
    parser.add_argument("--seed", type=int, default=0, help="the story's random seed (default 0)")


def _start(args: argparse.Namespace) -> Story:
    definition = load_world(args.world)
    names = [word for word in args.spin if "=" not in word]
    settings = [word for word in args.spin if "=" in word]
    story = Story(definition, seed=args.seed)
    story.spin = spun(story.spin, names, settings)
    story.check_spin(story.spin)
    if not definition.interactive:
        story.run_to_end()
    return story


def run_tell(args: argparse.Namespace) -> int:
    story = _start(args)
    trace = _print_stage if args.trace else None
    print(story.tell(trace=trace).text)
    return 0


def _print_stage(name: str, draft: Draft) -> None:
    print(f"--- after {name}", file=sys.stderr)
    for item in draft.told:
        detail = " | ".join(item.sentences) or (item.form and str(item.form)) or ""
        print(f"  [{item.event.id}] {item.event.action.verb} {detail}", file=sys.stderr)
    for block in draft.blocks:
        print(f"  {block.kind}: {block.text}", file=sys.stderr)


def run_play(args: argparse.Namespace) -> int:
    story = _start(args)
    player = Player(story, args.actor, named_spins=load_spin, author=not args.player)
    out = sys.stdout
    print(player.opening().text, file=out)
    lines: Iterable[str] = _prompted(out) if sys.stdin.isatty() else _plain(sys.stdin)
    if args.auto:
        lines = itertools.chain(_echoed(Path(args.auto), out), lines)
    for line in lines:
        if line.strip().lower() in ("quit", "q", "exit game"):
            break
        if not line.strip():
            continue
        was_over = story.ended
        try:
            reply_text = player.command(line).text
        except EngineError as error:
            reply_text = str(error)
        print(reply_text, file=out)
        if story.ended and not was_over:
            print(f"\n{ENDED}", file=out)
        if not sys.stdin.isatty():
            print(file=out)
    return 0


def _echoed(path: Path, out: TextIO) -> Iterable[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise UnknownName(f"cannot read {path}: {error.strerror}") from None
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            print(f"\n> {line}", file=out)
            yield line


def _prompted(out: TextIO) -> Iterable[str]:
    while True:
        try:
            yield input("\n> ")
        except EOFError:
            print(file=out)
            return


def _plain(stream: TextIO) -> Iterable[str]:
    for line in stream:
        yield line.rstrip("\n")


if __name__ == "__main__":
    raise SystemExit(main())
