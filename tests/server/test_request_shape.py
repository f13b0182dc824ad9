"""The server checks a request's shape itself, in place of jsonrpcserver's jsonschema check: the same requests
must be refused (-32600) and the same accepted, or clients would see the contract change."""

from __future__ import annotations

import asyncio
import importlib.resources
import json
import sys
from typing import Any

import pytest
from jsonschema.validators import validator_for

from server.jsonrpc import request_shape

# The schema jsonrpcserver ships, checked by the real jsonschema (the server imports jsonrpcserver without it).
_SCHEMA = json.loads(importlib.resources.files("jsonrpcserver").joinpath("request-schema.json").read_text())
schema_validator = validator_for(_SCHEMA)(_SCHEMA).validate

REQUESTS: list[Any] = [
    {"jsonrpc": "2.0", "method": "worlds"},
    {"jsonrpc": "2.0", "method": "worlds", "id": 1},
    {"jsonrpc": "2.0", "method": "worlds", "id": 1.5},
    {"jsonrpc": "2.0", "method": "worlds", "id": "abc"},
    {"jsonrpc": "2.0", "method": "worlds", "id": None},
    {"jsonrpc": "2.0", "method": "worlds", "id": True},
    {"jsonrpc": "2.0", "method": "worlds", "id": [1]},
    {"jsonrpc": "2.0", "method": "worlds", "id": {"n": 1}},
    {"jsonrpc": "2.0", "method": "command", "params": {"text": "look"}, "id": 2},
    {"jsonrpc": "2.0", "method": "command", "params": ["look"], "id": 2},
    {"jsonrpc": "2.0", "method": "command", "params": None, "id": 2},
    {"jsonrpc": "2.0", "method": "command", "params": "look", "id": 2},
    {"jsonrpc": "2.0", "method": "command", "params": 3, "id": 2},
    {"jsonrpc": "2.0", "method": "worlds", "id": 1, "extra": True},
    {"jsonrpc": "2.0", "id": 1},
    {"method": "worlds", "id": 1},
    {"jsonrpc": "1.0", "method": "worlds", "id": 1},
    {"jsonrpc": 2.0, "method": "worlds", "id": 1},
    {"jsonrpc": 2, "method": "worlds", "id": 1},
    {"jsonrpc": None, "method": "worlds"},
    {"jsonrpc": "2.0", "method": 7, "id": 1},
    {"jsonrpc": "2.0", "method": None},
    {"jsonrpc": "2.0", "method": ["worlds"]},
    {},
]


def _schema_accepts(request: Any) -> bool:
    try:
        schema_validator(request)
    except Exception:
        return False
    return True


def _shape_accepts(request: Any) -> bool:
    try:
        request_shape(request)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("request_", REQUESTS, ids=repr)
def test_a_request_is_refused_exactly_when_the_schema_refuses_it(request_: Any) -> None:
    assert _shape_accepts(request_) == _schema_accepts(request_)


def test_both_kinds_are_among_the_cases() -> None:
    accepted = [r for r in REQUESTS if _schema_accepts(r)]
    assert 0 < len(accepted) < len(REQUESTS)


ANSWERED: list[Any] = [
    *REQUESTS,
    {"jsonrpc": "2.0", "method": "nothing", "id": 3},
    {"jsonrpc": "2.0", "method": "nothing"},
    {"jsonrpc": "2.0", "method": "instances", "params": {"world": 7}, "id": 4},
    {"jsonrpc": "2.0", "method": "instances", "params": [], "id": 5},
    {"jsonrpc": "2.0", "method": "join", "params": {"instance": "i-none", "actor": "@x"}, "id": 6},
]


@pytest.mark.parametrize("request_", ANSWERED, ids=repr)
def test_each_request_is_answered_as_jsonrpcservers_whole_pipeline_answers_it(request_: Any) -> None:
    """Dispatching a well-formed request through jsonrpcserver's steps, less its signature binding, answers
    exactly what its `async_dispatch_to_serializable` answers: the same result, error, code, data and id."""
    from jsonrpcserver import async_dispatch_to_serializable

    from server.host import Host, Limits
    from server.rpc import Caller, _one, methods

    table = methods()

    def caller() -> Caller:
        return Caller(Host(limits=Limits(rate=1e9, burst=1e9)), remote="t")

    ours = asyncio.run(_one(request_, caller(), table))
    whole = async_dispatch_to_serializable(
        "", table, context=caller(), deserializer=lambda _: request_, validator=request_shape
    )
    assert ours == asyncio.run(whole)


def test_the_server_imports_jsonrpcserver_without_jsonschema_and_its_default_check_still_refuses() -> None:
    """A fresh process that loads the server's RPC has not imported jsonschema (a third of a local game's
    start-up), jsonrpcserver's own default check refuses what is no request, and jsonschema, imported later,
    is the real one."""
    import subprocess

    probe = """
import json, sys
import server.rpc
from jsonrpcserver import dispatch, method, Success
assert "jsonschema" not in sys.modules, "jsonschema was imported"
@method
def ping(): return Success("pong")
print(dispatch('{"jsonrpc": "2.0", "method": "ping", "id": 1}'))
print(dispatch('{"jsonrpc": "2.0", "method": "ping", "id": 1, "extra": 1}'))
import jsonschema.validators
print(hasattr(jsonschema.validators, "Draft7Validator"))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    served, refused, real = done.stdout.splitlines()
    assert json.loads(served)["result"] == "pong"
    assert json.loads(refused)["error"]["code"] == -32600
    assert real == "True"
