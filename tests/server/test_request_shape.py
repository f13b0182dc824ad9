"""The server checks a request's shape itself, in place of jsonrpcserver's jsonschema check: the same requests
must be refused (-32600) and the same accepted, or clients would see the contract change."""

from __future__ import annotations

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
