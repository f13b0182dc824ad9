"""The house rules: every module imports alone, and the engine does no I/O and knows nothing of the server."""

import ast
import importlib
import importlib.util
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import clients
import protocol
import server
import spins
import worlds

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (server, protocol, clients, worlds, spins)
FORBIDDEN_IN_ENGINE = ("aiohttp", "asyncio", "sqlite3", "socket", "jsonrpcserver", "prompt_toolkit", "subprocess")


def _modules():
    for package in PACKAGES:
        yield package.__name__
        for info in pkgutil.walk_packages(package.__path__, prefix=package.__name__ + "."):
            yield info.name


@pytest.mark.parametrize("name", sorted(_modules()))
def test_every_module_imports_alone(name):
    importlib.import_module(name)


def _engine_files():
    return sorted((ROOT / "server" / "engine").rglob("*.py"))


@pytest.mark.parametrize("path", _engine_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_does_no_io_and_stays_inside(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            assert top not in FORBIDDEN_IN_ENGINE, f"{path.name} imports {name}"
            if top == "server":
                assert name.startswith("server.engine"), f"{path.name} imports {name} from outside the engine"

    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    for call in calls:
        name = getattr(call.func, "id", None) or getattr(call.func, "attr", "")
        assert name not in ("open", "read_text", "read_bytes", "write_text", "print", "input"), (
            f"{path.name} calls {name}(): I/O belongs at the edges"
        )


@pytest.mark.parametrize("name", sorted(_modules()))
def test_every_module_says_its_one_job(name):
    # Read from the source: a module compiled by mypyc (server/compiled.py) keeps no docstring.
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None
    source = Path(spec.origin)
    if source.suffix != ".py":
        source = ROOT / (name.replace(".", "/") + ".py")
    doc = (ast.get_docstring(ast.parse(source.read_text())) or "").strip()
    assert doc, f"{name} has no docstring"


@pytest.mark.parametrize("path", sorted((ROOT / "protocol").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_protocol_knows_nothing_of_the_server(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            assert node.module.split(".")[0] not in ("server", "clients", "aiohttp"), f"{path.name}: {node.module}"


def _client_modules():
    yield clients.__name__
    for info in pkgutil.walk_packages(clients.__path__, prefix=clients.__name__ + "."):
        yield info.name


@pytest.mark.parametrize("name", sorted(_client_modules()))
def test_a_client_module_loads_nothing_of_the_server(name):
    """A client speaks the protocol: importing any client module, in a fresh interpreter, loads no module of
    `server` (the server's code runs in a client's process only when it starts one, and is imported then)."""
    probe = f"import sys, {name}; print(sorted(m for m in sys.modules if m == 'server' or m.startswith('server.')))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", f"{name} loads {done.stdout.strip()}"


def test_jsonrpcserver_is_pinned_to_the_major_version_whose_internals_rpc_dispatches_through():
    """server/rpc.py calls jsonrpcserver's internal steps, not only its public API: pyproject.toml keeps it
    within one major version, and the version installed is inside that pin."""
    from importlib.metadata import version

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    (pinned,) = [Requirement(d) for d in project["dependencies"] if Requirement(d).name == "jsonrpcserver"]
    assert pinned.specifier.contains("5.0.0") and pinned.specifier.contains("5.99")
    assert not pinned.specifier.contains("6.0.0"), "a new major version may move the internals rpc.py uses"
    assert pinned.specifier.contains(version("jsonrpcserver")), "the jsonrpcserver installed is outside the pin"
