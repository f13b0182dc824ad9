"""The server checks a request's shape itself, in place of jsonrpcserver's jsonschema check: the same requests
must be refused (-32600) and the same accepted, or clients would see the contract change."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from jsonrpcserver.main import default_validator

from server.rpc import request_shape

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
        default_validator(request)
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
