"""Between the engine and the wire: engine values as the protocol's messages, spin arguments as spins, and
engine errors as protocol errors."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from functools import cache
from typing import Any

import msgspec

from protocol import messages as m
from protocol.commands import SEPARATORS
from protocol.errors import Code, RpcError
from protocol.spin import Spin
from server.catalog import is_path, load_spin, shipped_spin, spin_library
from server.engine.errors import (
    EngineError,
    Forbidden,
    PathRefused,
    SpinError,
    StoryEnded,
    TemplateError,
    UnknownName,
)
from server.engine.narrator import Telling
from server.engine.spin import SpinFile, SpinLibrary, spun
from server.engine.story import Story
from server.engine.trees import Node
from server.engine.vocabulary import Words, standard_words
from server.engine.world.items import Item, Room
from server.limits import WORK
from server.work import work_clock


@cache
def _standard_words() -> Words:
    """Read off the grammar once: it is the same for every world and session."""
    return standard_words()


def vocabulary_result(names: list[str]) -> m.VocabularyResult:
    """The `vocabulary` answer: every story's words, and `names`, those of what one actor knows."""
    words = _standard_words()
    return m.VocabularyResult(
        verbs=words.verbs,
        particles=words.particles,
        directed=words.directed,
        looking=words.looking,
        directions=words.directions,
        directives=words.directives,
        names=names,
        separators=SEPARATORS,
    )


MAX_SPINS = 16
"""The most parts (names and settings) one spin argument may hold: each is a lookup and a merge, and each is
charged to the caller as a request."""


def spin_parts(argument: m.SpinArgument | None) -> list[str | dict[str, Any]]:
    """A spin argument as its parts, in order; more than MAX_SPINS is refused (-32602) before any is read."""
    if argument is None:
        return []
    parts: list[Any] = argument if isinstance(argument, list) else [argument]
    if len(parts) > MAX_SPINS:
        reason = f"a spin may be given in at most {MAX_SPINS} parts; this one has {len(parts)}"
        raise RpcError(Code.INVALID_PARAMS, reason, {"field": "spin", "reason": reason})
    return parts


async def reading_spins(argument: m.SpinArgument | None, author: bool) -> SpinLibrary:
    """The spin library a call's spin argument is looked up in. An author's spin files named by path are read
    now, in a thread, so a slow disk (or a file that never ends) holds up no one else; everyone else's names
    are shipped spins, kept in memory, and a path among them is refused when it is looked up."""
    library = spin_library(author)
    paths = [part for part in spin_parts(argument) if isinstance(part, str) and is_path(part, ".toml")]
    if not author or not paths:
        return library

    def read_all() -> dict[str, Callable[[], SpinFile]]:
        found: dict[str, Callable[[], SpinFile]] = {}
        for path in paths:
            try:
                spin_file = load_spin(path)
                found[path] = lambda spin_file=spin_file: spin_file  # type: ignore[misc]
            except (EngineError, SpinError) as error:  # raised again when looked up, inside engine_errors
                found[path] = functools.partial(_reraise, error)
        return found

    read = await asyncio.to_thread(read_all)
    return lambda name: read[name]() if name in read else library(name)


def _reraise(error: EngineError | SpinError) -> SpinFile:
    raise error


def spun_argument(spin: Spin, argument: m.SpinArgument, story: Story, library: SpinLibrary = shipped_spin) -> Spin:
    """A spin argument over `spin`, by the engine's one rule, its names looked up in `library` (a caller's:
    see `reading_spins`); at most MAX_SPINS parts; the actors each part names must be in `story`."""
    spin_parts(argument)
    return spun(spin, argument, library, story.check_spin)


def spin_settings(spin: Spin) -> dict[str, Any]:
    """A spin as plain settings for the wire."""
    return msgspec.to_builtins(spin)  # type: ignore[no-any-return]


def blocks(telling: Telling) -> list[m.Block]:
    """A telling's paragraphs (and other blocks) as the wire's."""
    return [m.Block(kind=block.kind, text=block.text) for block in telling.blocks]


def node(tree: Node) -> m.Node:
    """An engine tree (a concept, the world) as the wire's."""
    children = [node(child) for child in tree.children]
    return m.Node(tag=tree.tag, name=tree.name, link=tree.link, children=children, kind=tree.kind)


def title(room: Item | None) -> str:
    """The title of a room, as a place is named on the wire; nothing for anything else."""
    return room.title if isinstance(room, Room) else ""


class engine_errors:  # lower-case: it reads as the block it wraps, `with engine_errors("text"):`
    """Engine work in this block has its errors turned into the protocol's (the message says what was wrong;
    `field` names the parameter at fault), and its time added to the call's WORK, to be charged to the caller.
    A class, not a generator's context manager: it wraps every turn (1.2 against 2.1 us here, most of what is
    left the two readings of the clock)."""

    __slots__ = ("field", "started")

    def __init__(self, field: str | None = None) -> None:
        self.field = field
        self.started = 0.0

    def __enter__(self) -> None:
        # This thread's own time, collections aside: a machine busy elsewhere is not charged.
        self.started = work_clock()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: object) -> None:
        spent = WORK.get()
        if spent is not None:
            spent[0] += work_clock() - self.started
        if error is not None:
            wire = _wire_error(error, self.field)
            if wire is not None:
                raise wire from None


def _wire_error(error: BaseException, field: str | None) -> RpcError | None:
    """The protocol's error for an engine error (None for anything else, which goes on as it is)."""
    data = {"field": field} if field else None
    if isinstance(error, PathRefused):
        return RpcError(Code.FORBIDDEN, str(error), data)
    if isinstance(error, UnknownName):
        return RpcError(Code.UNKNOWN, str(error), data)
    if isinstance(error, Forbidden):
        return RpcError(Code.FORBIDDEN, str(error), data)
    if isinstance(error, StoryEnded):
        return RpcError(Code.ENDED, str(error))
    if isinstance(error, (SpinError, TemplateError)):
        return RpcError(Code.INVALID_PARAMS, str(error), {"field": field or "spin", "reason": str(error)})
    if isinstance(error, EngineError):
        return RpcError(Code.INVALID_PARAMS, str(error), data)
    return None
