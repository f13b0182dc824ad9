"""The `curveship` command line's words: tell, play, serve, load and export, their arguments and options."""

from __future__ import annotations

import argparse
import os

from spins import names as spin_names
from worlds import names as world_names

SERVE_LIMITS: tuple[tuple[str, type, str], ...] = (
    ("rate", float, "requests a second one session may make on average (default 20); each command of a line counts"),
    ("burst", float, "requests one session may make at once before the rate applies (default 60)"),
    ("max_commands", int, "the most commands one command line may hold (default 16)"),
    ("max_message", int, "the largest JSON-RPC message taken, in bytes (default 65536)"),
    ("max_batch", int, "the most requests one batch may hold (default 100)"),
    ("max_answer", int, "bytes of answers one message may get (default 1048576)"),
    ("max_connections", int, "WebSockets open at once (default 1000)"),
    ("sockets_per_address", int, "WebSockets open at once from one address (default 100)"),
    ("socket_idle", float, "seconds a WebSocket bound to no session may stay silent (default 300)"),
    ("connections_per_address", int, "TCP connections open at once from one address (default 128)"),
    ("max_tcp", int, "TCP connections open at once in all (default 4096)"),
    ("header_timeout", float, "seconds a new connection has to send its request head (default 10)"),
    ("idle_timeout", float, "seconds a kept-alive connection may wait between requests (default 60)"),
    ("outbox", int, "messages queued for one socket before a client that lags is disconnected (default 256)"),
    ("max_instances", int, "the most instances the server holds (default 1000)"),
    ("instances_per_address", int, "the most live instances one address may have made (default 20)"),
    ("instance_idle", float, "seconds an instance nobody plays may go unchanged before it is retired (default 604800)"),
    ("unload_after", float, "seconds a loaded instance may go unused before it leaves memory (default 600)"),
    ("max_saves", int, "the most saves one instance keeps (default 20)"),
    ("detach_after", float, "seconds a session may go with no connection before it is detached (default 120)"),
    ("resume_buffer", int, "messages kept for each session, sent again when it resumes after a drop (default 100)"),
    ("session_idle", float, "seconds a session with no socket may go unasked before it expires (default 86400)"),
    ("token_failures", int, "wrong tokens one address may show before it is locked out (default 20)"),
    ("token_failure_every", float, "seconds after which one more wrong token is forgiven (default 6)"),
)
"""`serve`'s limits, each a setting of the server's (server/app.py Config) by the same name; docs/deploying.md."""


def parser() -> argparse.ArgumentParser:
    """The parser; each command's `command` default names it (main imports only the one that runs)."""
    made = argparse.ArgumentParser(
        prog="curveship",
        description="Interactive fiction whose stories can be told in many ways.",
        epilog=f"worlds: {', '.join(world_names())}; spins: {', '.join(spin_names())}",
    )
    commands = made.add_subparsers(required=True, metavar="COMMAND")

    tell = commands.add_parser("tell", help="tell a world's story under spins")
    _story_arguments(tell)
    tell.add_argument(
        "--trace", action="store_true", help="show the telling after each narrator stage (runs the engine here)"
    )
    tell.set_defaults(command="tell")

    play = commands.add_parser("play", help="play (or read) a world at a prompt")
    _story_arguments(play)
    play.add_argument("--auto", metavar="FILE", help="play the file's lines first, echoing each as '> line'")
    play.add_argument(
        "--retry",
        metavar="FIRST,LONGEST",
        type=_backoff,
        default=BACKOFF,
        help="with --server, when it stops answering: seconds before the first try to reach it again, doubling "
        "after each try up to LONGEST; it is tried for as long as play goes on (default %(default)s)",
    )
    play.add_argument(
        "--resume",
        metavar="TOKEN",
        help="with --server: take back the session this token names (play prints it at the start, :state shows "
        "it), its instance and actor its own",
    )
    looks = play.add_argument_group(
        "at a terminal", "how the prompt looks and behaves when input and output are a terminal (else: plain lines)"
    )
    looks.add_argument("--vi", action="store_true", help="Vi key bindings (default Emacs; F4 or :keys toggles)")
    looks.add_argument(
        "--plain",
        action="store_true",
        help="for screen readers: no styling, no toolbar, no indentation, each paragraph one line, a plain prompt",
    )
    looks.add_argument("--no-color", action="store_true", help="no colours (also when $NO_COLOR is set)")
    looks.add_argument(
        "--history",
        metavar="FILE",
        default=os.environ.get("CURVESHIP_HISTORY"),
        help="where the prompt's history is kept (default: $CURVESHIP_HISTORY, else "
        "$XDG_DATA_HOME/curveship/history, else ~/.local/share/curveship/history)",
    )
    play.set_defaults(command="play")

    serve = commands.add_parser(
        "serve",
        help="serve worlds over JSON-RPC (HTTP and WebSocket)",
        description="Serve worlds to any number of clients: POST /rpc, a WebSocket at /ws, /openrpc.json, /health. "
        "Prints where it listens and the author token; Ctrl-C stops it.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: loopback only)")
    serve.add_argument("--port", type=int, default=8765, help="the port (default 8765; 0: any free port)")
    serve.add_argument(
        "--data",
        metavar="DIR",
        help="keep instances, sessions and saves in this directory (created if missing), so they survive a "
        "restart (default: in memory only)",
    )
    serve.add_argument(
        "--store",
        metavar="URL",
        help="keep them in this PostgreSQL database instead (postgresql://user@host:port/db), shared by every "
        "server given it: one writes each instance at a time (docs/deploying.md); --data then keeps only the "
        "author token",
    )
    serve.add_argument(
        "--bus",
        metavar="URL",
        help="be one node of a cluster over this NATS server (nats://host:4222), with the other servers on the "
        "same --store: any node takes any player, and a node's instances are taken up by the others if it "
        "dies (docs/deploying.md)",
    )
    serve.add_argument(
        "--author", action="store_true", help="connections from this machine act as authors (no token needed)"
    )
    serve.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name this server answers to besides its addresses and localhost (repeatable; * for any): "
        "requests naming another are refused, so a page elsewhere cannot reach it through DNS",
    )
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a web page origin (https://host:port) that may call this server besides its own (repeatable)",
    )
    serve.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy's address whose X-Forwarded-For/-Proto/-Host are believed (repeatable; off by "
        "default): limits then count the forwarded address; see docs/security.md",
    )
    serve.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="processes serving at once on the port, each holding a share of the instances; a call for one held "
        "by another is forwarded to it (default: one per core; 1: a single process); see docs/deploying.md",
    )
    limits = serve.add_argument_group(
        "limits", "what the server allows; with several workers, caps on the whole are shared out among them"
    )
    for flag, kind, text in SERVE_LIMITS:
        limits.add_argument(f"--{flag.replace('_', '-')}", dest=flag, type=kind, metavar="N", help=text)
    serve.set_defaults(command="serve")

    load = commands.add_parser(
        "load",
        help="simulated players against a server, for a while: throughput and latency as JSON (--help for more)",
        add_help=False,  # listed here; main hands it every word after it (clients/bots/load.py reads them)
    )
    load.set_defaults(command="load")

    export = commands.add_parser(
        "export",
        help="write a kept instance's transcript (commands and tellings) as text or JSON",
        description="Read an instance from a server's store, its data directory or its PostgreSQL database (a "
        "server may be running on it: nothing is written, no lease is claimed) and write the story as it stands: "
        "each player's opening, then every command given, with its reply told through the actor that gave it. "
        "Undone turns are not part of it.",
    )
    export.add_argument("instance", metavar="INSTANCE", help="the instance's id (as `create` and `instances` give it)")
    kept = export.add_mutually_exclusive_group(required=True)
    kept.add_argument("--data", metavar="DIR", help="the data directory the server keeps (its SQLite file)")
    kept.add_argument(
        "--store", metavar="URL", help="the PostgreSQL database the servers keep (postgresql://user@host:port/db)"
    )
    export.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or JSON")
    export.add_argument("--output", "-o", metavar="FILE", help="write to FILE (default: standard output)")
    export.set_defaults(command="export")
    return made


class Backoff(tuple[float, float]):
    """Two waits in seconds, the first and the longest, shown as the command line takes them."""

    def __str__(self) -> str:
        return f"{self[0]:g},{self[1]:g}"


BACKOFF = Backoff((0.05, 2.0))


def _backoff(text: str) -> Backoff:
    try:
        first, longest = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"give two numbers of seconds, like 0.05,2, not {text!r}") from None
    if not 0 < first <= longest:
        raise argparse.ArgumentTypeError(f"the first wait must be above 0 and at most the longest, not {text!r}")
    return Backoff((first, longest))


def _story_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "world",
        nargs="?",
        help="a world name or the path to a world file (optional with --instance); the server reads world files on "
        "its own machine, so with --server a file here is named by its absolute path, which must be there too",
    )
    command.add_argument(
        "spin",
        nargs="*",
        metavar="SPIN or key=value",
        help="named spins (or spin files), applied in order; then key=value settings, e.g. time=after",
    )
    command.add_argument("--seed", type=int, default=0, help="the story's random seed (default 0)")
    command.add_argument("--actor", help="the actor to play or read as, like @guard (default: the world's player)")
    command.add_argument("--name", help="the name others in the story see (default: the actor's)")
    command.add_argument(
        "--player", action="store_true", help="join as a player, not an author: no author-only directives (world tree…)"
    )
    command.add_argument(
        "--server",
        metavar="URL",
        help="attach to a running server, like http://127.0.0.1:8765 (default: start one inside this process)",
    )
    command.add_argument("--instance", metavar="ID", help="join this instance on the server instead of creating one")
    command.add_argument(
        "--author-token",
        metavar="TOKEN",
        default=os.environ.get("CURVESHIP_AUTHOR_TOKEN"),
        help="with --server: the server's author token (default: $CURVESHIP_AUTHOR_TOKEN)",
    )
