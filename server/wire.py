"""Between the engine and the wire: engine values as the protocol's messages, spin arguments as spins, and
engine errors as protocol errors."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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


@contextmanager
def engine_errors(field: str | None = None) -> Iterator[None]:
    """Engine work in this block has its errors turned into the protocol's (the message says what was wrong;
    `field` names the parameter at fault), and its time added to the call's WORK, to be charged to the caller."""
    data = {"field": field} if field else None
    started = time.thread_time()  # this thread's own time: a machine busy elsewhere is not charged
    try:
        yield
    except PathRefused as error:
        raise RpcError(Code.FORBIDDEN, str(error), data) from None
    except UnknownName as error:
        raise RpcError(Code.UNKNOWN, str(error), data) from None
    except Forbidden as error:
        raise RpcError(Code.FORBIDDEN, str(error), data) from None
    except StoryEnded as error:
        raise RpcError(Code.ENDED, str(error)) from None
    except (SpinError, TemplateError) as error:
        raise RpcError(Code.INVALID_PARAMS, str(error), {"field": field or "spin", "reason": str(error)}) from None
    except EngineError as error:
        raise RpcError(Code.INVALID_PARAMS, str(error), data) from None
    finally:
        spent = WORK.get()
        if spent is not None:
            spent[0] += time.thread_time() - started
