"""The `curveship` command: read the command line, run one of its commands, and turn failures into exit statuses."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from clients.cli.arguments import parser
from clients.cli.lines import Unreadable
from clients.connection import CallError, ConnectionLost
from protocol.errors import Code
from protocol.spin import SpinError

USAGE_ERROR = 2
FAILURE = 1
USAGE_CODES = (Code.UNKNOWN, Code.INVALID_PARAMS)
"""Errors that mean the command line asked for what is not there (a world, a spin, an actor, a setting)."""


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["load"]:  # every word after it is the load generator's, options and all
        from clients.bots.load import main as run_load

        return run_load(words[1:], prog="curveship load")
    made = parser()
    # Options may come among the spins (`curveship tell robbery hesitant --seed 3 time=after`): argparse stops
    # taking spins at the option, so the words after it come back as extras and are spins too.
    args, extras = made.parse_known_args(words)
    unknown = [word for word in extras if word.startswith("-")]
    if unknown or (extras and not hasattr(args, "spin")):
        made.error(f"unrecognized arguments: {' '.join(unknown or extras)}")
    if hasattr(args, "spin"):
        args.spin = [*args.spin, *extras]
        if args.world is None and args.instance is None and getattr(args, "resume", None) is None:
            made.error("a world is needed (or --instance ID, or --resume TOKEN)")
    try:
        return int(_runner(args)(args))
    except CallError as error:
        return _fail(error.message, USAGE_ERROR if error.code in USAGE_CODES else FAILURE)
    except (ToolError, SpinError, Unreadable) as error:
        return _fail(str(error), USAGE_ERROR)
    except ConnectionLost as error:
        return _fail(str(error), FAILURE)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`curveship tell robbery | head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


class ToolError(Exception):
    """A server tool (serve, export, tell --trace) could not do what the command line asked; says why."""


def _runner(args: argparse.Namespace) -> Callable[[argparse.Namespace], int]:
    """The command's module, imported only now: attaching to a --server never loads the server's own code."""
    if args.command == "serve":
        return _server_tool("serve", "run_serve")
    if args.command == "export":
        return _server_tool("export", "run_export")
    if args.command == "play":
        from clients.cli.play import run_play

        return run_play
    if args.trace:
        return _server_tool("trace", "run_trace")
    from clients.cli.tell import run_tell

    return run_tell


def _server_tool(module: str, function: str) -> Callable[[argparse.Namespace], int]:
    """A tool that lives with the server (it reads the server's store or runs its engine here), loaded when
    it runs; what the engine refuses is a usage error like any other."""

    def run(args: argparse.Namespace) -> int:
        from server.engine.errors import EngineError

        tool: Callable[[argparse.Namespace], int] = getattr(importlib.import_module(f"server.tools.{module}"), function)
        try:
            return tool(args)
        except EngineError as error:
            raise ToolError(str(error)) from None

    return run


def _fail(message: str, status: int) -> int:
    print(f"curveship: {' '.join(message.split())}", file=sys.stderr)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
