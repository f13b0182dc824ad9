"""The engine's hot modules compiled to C with mypyc, and used in place of their source only while it is unchanged.

`main` (`make compiled`, run by `make play`, `make test` and `make bench`) compiles the modules in HOT into
build/engine/ beside the project, with a manifest of each source's SHA-256; it does nothing when the manifest
already matches. At start-up `server/__init__.py` calls `use_compiled`: when every source still matches (and
the interpreter is the one it was built for), a finder placed first on `sys.meta_path` loads those modules
from build/engine/, and otherwise nothing changes and the source is imported as ever. It is all or nothing:
compiled modules call one another directly in C, so one edited module left to its source beside the others
compiled would not be heard by them. The compiled engine tells every story byte for byte as the source does
(tests/engine/test_output_unchanged.py runs on whichever is in use; CI's is compiled), at about 1.4 times the
speed.

What stays source: the package `__init__` modules, whatever authors build on or subclass (the items, actions
and world definitions: a compiled class cannot be subclassed or given attributes by a world), and the modules
whose records snapshots are decoded into (msgspec reads a class's annotations, which mypyc replaces with
plain types: parser/pronouns.py, world/place.py, concepts.py, story.py).

A dataclass keeps the `__init__` the dataclass decorator writes at import, and that one runs interpreted even
in a compiled module: 1.4 us for a frozen record of seven fields (VerbForm) against 0.1 us compiled. The records the
narrator makes dozens of times a telling (Draft, Told, VerbForm…) therefore write theirs out, setting each
field with `object.__setattr__`, which mypyc compiles to a store in place (tests/test_compiled.py checks each
matches its fields): a Lost One command took a quarter fewer instructions.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
BUILT = ROOT / "build" / "engine"
MANIFEST = BUILT / "manifest.json"
GROUP = "curveship_engine"
"""The name of the library the compiled modules share (mypyc's runtime and their code)."""

HOT = (
    "server/engine/copying.py",
    "server/engine/player.py",
    "server/engine/simulate.py",
    "server/engine/world/perception.py",
    "server/engine/world/state.py",
    "server/engine/english/*.py",
    "server/engine/narrator/*.py",
    "server/engine/narrator/*/*.py",
    "server/engine/parser/*.py",
)
"""What is compiled, as globs under the project (package `__init__` modules and NOT_COMPILED left out)."""
NOT_COMPILED = ("server/engine/parser/pronouns.py",)
"""Hot, but holding a record snapshots are decoded into (`Memory`)."""


def sources(root: Path = ROOT) -> list[str]:
    """The compiled modules' sources, relative to the project, in order."""
    found = {
        path.relative_to(root).as_posix()
        for pattern in HOT
        for path in root.glob(pattern)
        if path.name != "__init__.py"
    }
    return sorted(found - set(NOT_COMPILED))


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _interpreter() -> str:
    """What a compiled module is bound to: the interpreter's version and ABI."""
    return f"{sys.implementation.cache_tag} {sysconfig.get_config_var('EXT_SUFFIX')}"


def built(manifest: Path = MANIFEST, root: Path = ROOT) -> dict[str, Path] | None:
    """The compiled modules by name, if the manifest matches this interpreter and every source as it is now;
    None otherwise (nothing built, a source edited since, a module made hot or cold since, another Python)."""
    try:
        made = json.loads(manifest.read_text())
        if made["interpreter"] != _interpreter() or sorted(made["sources"]) != sources(root):
            return None
        for source, digest in made["sources"].items():
            if _digest(root / source) != digest:
                return None
        libraries = {name: manifest.parent / where for name, where in made["libraries"].items()}
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return libraries if all(path.is_file() for path in libraries.values()) else None


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (and the library they share) among those built; leaves every other name to
    the finders after it."""

    def __init__(self, libraries: dict[str, Path]) -> None:
        self.libraries = libraries

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        where = self.libraries.get(fullname)
        if where is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(where))
        return importlib.util.spec_from_file_location(fullname, where, loader=loader)


def use_compiled() -> bool:
    """Load the compiled modules in place of their source from now on, if they are built and current."""
    if any(isinstance(finder, _Finder) for finder in sys.meta_path):
        return True
    libraries = built()
    if libraries is None:
        return False
    sys.meta_path.insert(0, _Finder(libraries))
    return True


def build() -> bool:
    """Compile HOT into BUILT and write its manifest, unless what is there is current; whether it compiled."""
    if built() is not None:
        return False
    # mypyc and setuptools come with the development install (mypy's own compiler, the standard builder of
    # C extensions); a server installed without them runs its engine from source.
    from mypyc.build import mypycify
    from setuptools import Distribution

    names = sources()
    digests = {source: _digest(ROOT / source) for source in names}
    temporary = BUILT / "c"
    previous = Path.cwd()
    os.chdir(ROOT)  # mypyc names each module by its path from the current directory
    try:
        extensions = mypycify(names, target_dir=str(temporary), group_name=GROUP, debug_level="0")
        distribution = Distribution({"name": GROUP, "ext_modules": extensions})
        command = distribution.get_command_obj("build_ext")
        command.build_lib = str(BUILT)  # type: ignore[attr-defined]
        command.build_temp = str(temporary)  # type: ignore[attr-defined]
        command.parallel = os.cpu_count() or 1  # type: ignore[attr-defined]
        distribution.run_command("build_ext")
    finally:
        os.chdir(previous)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    libraries = {extension.name: f"{extension.name.replace('.', '/')}{suffix}" for extension in extensions}
    MANIFEST.write_text(
        json.dumps({"interpreter": _interpreter(), "sources": digests, "libraries": libraries}, indent=1) + "\n"
    )
    return True


def main() -> None:
    """Build, or say why the engine will run from its source: no compiler must not stop `make play`."""
    try:
        made = build()
    except Exception as error:  # mypyc, the compiler or the headers missing or failing: the source still runs
        print(
            f"the engine was not compiled ({type(error).__name__}: {error}); it runs from its source", file=sys.stderr
        )
        return
    print("compiled the engine's hot modules" if made else "the compiled engine is current")


if __name__ == "__main__":
    main()
