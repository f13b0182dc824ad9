"""The compiled engine (server/compiled.py): in use once built, and set aside as soon as any of its sources changes."""

from __future__ import annotations

import ast
import importlib
import json
import os
import shutil
from pathlib import Path

import pytest

from server import compiled


def test_the_hot_engine_runs_compiled_once_set_up() -> None:
    # `make test` compiles first (`make compiled`), as `make play` does: what is tested is what runs.
    # A machine with no C compiler runs the source (and says so when compiling); CI has one, so there it fails.
    if compiled.built() is None and not os.environ.get("CI"):
        pytest.skip("the engine is not compiled here (`make compiled` says why); it runs from its source")
    names = compiled.sources()
    assert "server/engine/narrator/realize.py" in names and "server/engine/parser/pronouns.py" not in names
    for source in names:
        module = importlib.import_module(source.removesuffix(".py").replace("/", "."))
        assert Path(module.__file__ or "").is_relative_to(compiled.BUILT), (
            f"{source} runs from its source: it changed since the engine was compiled (`make compiled`)"
        )


@pytest.fixture
def built_copy(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the project's sources and its build's manifest and libraries, to edit freely."""
    if compiled.built() is None:
        if not os.environ.get("CI"):
            pytest.skip("the engine is not compiled here (`make compiled` says why)")
        pytest.fail("the engine is not compiled, or its sources changed since: `make compiled`")
    root, build = tmp_path / "project", tmp_path / "project" / "build" / "engine"
    made = json.loads(compiled.MANIFEST.read_text())
    for source in made["sources"]:
        (root / source).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(compiled.ROOT / source, root / source)
    for where in made["libraries"].values():
        (build / where).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(compiled.BUILT / where, build / where)
    shutil.copy(compiled.MANIFEST, build / "manifest.json")
    return root, build / "manifest.json"


def test_a_build_is_used_only_while_every_source_is_as_it_was_compiled(built_copy: tuple[Path, Path]) -> None:
    root, manifest = built_copy
    libraries = compiled.built(manifest, root)
    assert libraries is not None and "server.engine.narrator.realize" in libraries
    assert f"{compiled.GROUP}__mypyc" in libraries, "the library the compiled modules share"

    edited = root / "server/engine/english/text.py"
    edited.write_text(edited.read_text() + "\n# an edit\n")
    assert compiled.built(manifest, root) is None, "one source edited: none of the compiled modules is used"
    edited.write_text(edited.read_text().removesuffix("\n# an edit\n"))
    assert compiled.built(manifest, root) == libraries, "as it was compiled again"

    added = root / "server/engine/english/added.py"
    added.write_text('"""A hot module made since the build."""\n')
    assert compiled.built(manifest, root) is None, "a module made since: it is not in the build"
    added.unlink()

    library = next(iter(libraries.values()))
    library.unlink()
    assert compiled.built(manifest, root) is None, "a library missing"


def test_a_build_for_another_interpreter_is_not_used(built_copy: tuple[Path, Path]) -> None:
    root, manifest = built_copy
    made = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**made, "interpreter": "cpython-399 .cpython-399-x86_64-linux-gnu.so"}))
    assert compiled.built(manifest, root) is None
    manifest.write_text("{not json")
    assert compiled.built(manifest, root) is None, "a damaged manifest is no build"


def _written_out_inits() -> list[tuple[str, ast.ClassDef, ast.FunctionDef]]:
    """Each dataclass of a compiled module that writes its own __init__: (source, class, __init__)."""
    found = []
    for source in compiled.sources():
        for node in ast.walk(ast.parse((compiled.ROOT / source).read_text())):
            if isinstance(node, ast.ClassDef) and any("dataclass" in ast.unparse(d) for d in node.decorator_list):
                found += [
                    (source, node, member)
                    for member in node.body
                    if isinstance(member, ast.FunctionDef) and member.name == "__init__"
                ]
    return found


def test_a_record_written_out_for_the_compiler_is_made_as_its_dataclass_would_make_it() -> None:
    # The dataclass decorator's own __init__ runs interpreted even in a compiled module (server/compiled.py), so
    # the records the narrator makes most write theirs out; each must take its fields in order, with their
    # defaults, and set each one as given (replace() and positional calls rely on it).
    written = _written_out_inits()
    assert {node.name for _, node, _ in written} >= {"Draft", "Told", "VerbForm", "Scene", "Ref", "Sight"}
    for source, node, init in written:
        fields = [
            (member.target.id, None if member.value is None else ast.unparse(member.value))
            for member in node.body
            if isinstance(member, ast.AnnAssign) and isinstance(member.target, ast.Name)
        ]
        arguments = init.args.args[1:]
        defaults = [None] * (len(arguments) - len(init.args.defaults)) + [ast.unparse(d) for d in init.args.defaults]
        taken = [(argument.arg, default) for argument, default in zip(arguments, defaults, strict=True)]
        assert taken == fields, f"{source}: {node.name}.__init__ takes {taken}, its fields are {fields}"
        methods = {member.name for member in node.body if isinstance(member, ast.FunctionDef)}
        assert not init.args.kwonlyargs and "__post_init__" not in methods, f"{source}: {node.name}"
        body = [ast.unparse(statement) for statement in init.body]
        assert body == [f"object.__setattr__(self, {name!r}, {name})" for name, _ in fields], (
            f"{source}: {node.name}.__init__ must set each field as given, in order"
        )


def test_verb_forms_are_equal_and_hash_alike_exactly_when_every_field_is_equal() -> None:
    # VerbForm writes out its __eq__ and __hash__ as well (the verb caches key on it): two forms are one key
    # exactly when the dataclass's own comparison, field by field, would say so.
    import dataclasses
    import itertools

    from server.engine.english.verbs import VerbForm

    forms = [
        VerbForm(tense, *flags)
        for tense in ("past", "present", "future")
        for flags in itertools.product((False, True), repeat=6)
    ]
    for one, other in itertools.product(forms[::7], forms):
        same = dataclasses.astuple(one) == dataclasses.astuple(other)
        assert (one == other) is same and (one != other) is not same, (one, other)
        if same:
            assert hash(one) == hash(other)
    assert len(set(forms)) == len(forms) == 192
    assert VerbForm() != ("present", False, False, False, False, False, False)
