"""Finds and loads worlds and spins, by name (from worlds/ and spins/) or by path to any file.

A name is turned into a file here and nowhere else, so the rule for strangers lives here too: a spin or a
world named by its path is read only where paths are allowed (`allow_paths`, an author's call); everyone else
may name only what ships, and is refused before anything is looked up on disk, so the refusal says nothing
about the files of the server's machine. A spin file named by path must be a regular file of at most
MAX_SPIN_FILE bytes: a FIFO, a device or a huge file is refused without being read.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import stat
import sys
import traceback
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import spins as spin_package
import worlds as world_package
from protocol.spin import Spin, spin_argument
from server.engine.errors import EngineError, PathRefused, SpinError, UnknownName, WorldError
from server.engine.spin import SpinFile, SpinLibrary, parse_spin_file, spun
from server.engine.world.definition import WorldDefinition
from spins import names as spin_names
from worlds import names as world_names

MAX_SPIN_FILE = 64 * 1024
"""The largest spin file read by path, in bytes: the shipped ones are under 2 KiB."""


def is_path(name: str, suffix: str) -> bool:
    """Whether a world or spin argument names a file rather than something shipped."""
    return name.endswith(suffix) or "/" in name or "\\" in name or name.startswith(("~", "."))


def load_world(name_or_path: str, *, allow_paths: bool = True) -> WorldDefinition:
    """A world by name ("robbery") or by path to a Python file that defines WORLD (only if `allow_paths`: the
    file is Python, run in this process). Any mistake in the file (a syntax error, a failed import, a world
    that does not hold together) is a WorldError of one line naming the file, and the line where Python
    found it."""
    if is_path(name_or_path, ".py"):
        if not allow_paths:
            raise PathRefused("only an author may name a world by its path; the others name a shipped world")
        path = Path(name_or_path)
        module_name = f"curveship_world_{path.stem}"
    elif name_or_path in world_names():
        path = Path(world_package.__path__[0]) / f"{name_or_path}.py"
        module_name = f"worlds.{name_or_path}"
    else:
        raise UnknownName(f"unknown world {name_or_path!r}; worlds: {', '.join(world_names())}")
    try:
        module = (
            _module_from_path(path) if module_name.startswith("curveship_") else importlib.import_module(module_name)
        )
    except UnknownName:
        raise
    except Exception as error:
        sys.modules.pop(module_name, None)  # half made: the next load tries afresh
        raise world_file_error(path, error) from None
    definition = getattr(module, "WORLD", None)
    if not isinstance(definition, WorldDefinition):
        raise WorldError(f"{name_or_path}: defines no WORLD = WorldDefinition(...)")
    return definition


def world_source(name_or_path: str) -> bytes:
    """The source of a world's file: what a stored instance checks it was made from."""
    if is_path(name_or_path, ".py"):
        path = Path(name_or_path)
    else:
        module = importlib.import_module(f"worlds.{name_or_path}")
        path = Path(module.__file__ or "")
    try:
        return path.read_bytes()
    except OSError as error:
        raise UnknownName(f"unknown world {name_or_path!r}: {error.strerror}") from None


def _module_from_path(path: Path) -> object:
    if not path.is_file():
        raise UnknownName(f"unknown world {str(path)!r}: no such file")
    name = f"curveship_world_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise WorldError(f"{path}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_spin(name_or_path: str, *, allow_paths: bool = True) -> SpinFile:
    """A spin by name ("prophecy") or, if `allow_paths`, by path to a TOML spin file (a regular file of at
    most MAX_SPIN_FILE bytes). A path where none is allowed is refused (PathRefused) without touching the
    disk; an unknown name lists the shipped spins."""
    if is_path(name_or_path, ".toml"):
        if not allow_paths:
            raise PathRefused(f"only an author may name a spin by its path; the spins are: {', '.join(spin_names())}")
        return read_spin_file(Path(name_or_path).expanduser())
    if name_or_path not in spin_names():
        raise UnknownName(f"unknown spin {name_or_path!r}; spins: {', '.join(spin_names())}")
    return _shipped_spin(name_or_path)


def shipped_spin(name: str) -> SpinFile:
    """A shipped spin by name; a path is refused: the spin library of a caller who is not an author."""
    return load_spin(name, allow_paths=False)


def spin_library(author: bool) -> SpinLibrary:
    """How a caller's spin names are found: an author's may be paths, anyone else's only shipped names."""
    return load_spin if author else shipped_spin


@functools.cache
def _shipped_spin(name: str) -> SpinFile:
    """Read once: the files in spins/ do not change while a server runs, and a long list of names (each a
    lookup) then costs no disk at all."""
    with resources.as_file(resources.files(spin_package) / f"{name}.toml") as path:
        return read_spin_file(path)


def read_spin_file(path: Path) -> SpinFile:
    """Read one spin file from disk; errors name the file. Only a regular file no larger than MAX_SPIN_FILE is
    read: it is opened without blocking (a FIFO with no writer would hold the caller forever) and checked
    before a byte is read."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except FileNotFoundError:
        raise UnknownName(f"unknown spin {str(path)!r}: no such file") from None
    except OSError as error:
        raise SpinError(f"{path}: cannot read spin file: {error.strerror or error}") from None
    try:
        found = os.fstat(descriptor)
        if not stat.S_ISREG(found.st_mode):
            raise SpinError(f"{path}: not a regular file; a spin file is a TOML file")
        if found.st_size > MAX_SPIN_FILE:
            raise SpinError(f"{path}: {found.st_size} bytes; a spin file may be at most {MAX_SPIN_FILE}")
        with os.fdopen(descriptor, "rb", closefd=False) as file:
            data = file.read(MAX_SPIN_FILE + 1)
    except OSError as error:
        raise SpinError(f"{path}: cannot read spin file: {error.strerror or error}") from None
    finally:
        os.close(descriptor)
    if len(data) > MAX_SPIN_FILE:
        raise SpinError(f"{path}: larger than a spin file may be ({MAX_SPIN_FILE} bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SpinError(f"{path}: cannot read spin file: {error}") from None
    return parse_spin_file(text, path.stem, str(path))


def spin_from_words(base: Spin, words: Sequence[str]) -> Spin:
    """`base` with spin words applied as typed at a command line (`hesitant surprise time=after`): the
    contract's one reading, the named spins found here."""
    return spun(base, spin_argument(words), load_spin)


def walked_worlds() -> list[str]:
    """The shipped worlds that have a walkthrough in worlds/walks/ (each test and benchmark that plays "every
    world" plays these, so a new world with a walkthrough is played without editing a list)."""
    walks = resources.files(world_package) / "walks"
    return [name for name in world_names() if (walks / f"{name}.txt").is_file()]


def walkthrough(name: str) -> list[str]:
    """A shipped world's walkthrough: its lines, without blank lines and `#` comments."""
    text = (resources.files(world_package) / "walks" / f"{name}.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def world_file_error(path: str | Path, error: BaseException) -> EngineError:
    """A mistake in a world file (a syntax error, a failed import, a world that does not hold together) as one
    line naming the file, and the line in it where Python found the mistake: "lamp.py:12: @lamp: placed in @x,
    which is not an item of this world"."""
    name = Path(path).name
    line: int | None = None
    if isinstance(error, SyntaxError):
        line = error.lineno
        problem = f"{error.msg}" + (f": {error.text.strip()}" if error.text and error.text.strip() else "")
    else:
        for frame in traceback.extract_tb(error.__traceback__):
            if Path(frame.filename).name == name and Path(frame.filename).resolve() == Path(path).resolve():
                line = frame.lineno
        problem = str(error) if isinstance(error, EngineError) else f"{type(error).__name__}: {error}"
    if line is None and problem.startswith(str(path)):
        return WorldError(problem)  # already names the file
    where = f"{path}:{line}" if line else str(path)
    return WorldError(f"{where}: {' '.join(problem.split())}")
