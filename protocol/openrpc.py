"""The OpenRPC document describing every method, generated from the contract's types (never written by hand)."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from protocol import messages as m
from protocol.errors import MESSAGES, Code
from protocol.methods import DISCOVER_ERRORS, METHODS, Method

VERSION = "1"
REF = "#/components/schemas/{name}"


@cache
def document() -> dict[str, Any]:
    """The OpenRPC 1.2 document: `rpc.discover` answers it, `GET /openrpc.json` serves it."""
    types: list[Any] = []
    for method in METHODS:
        types += [method.params, method.result]
    types += list(m.NOTIFICATIONS.values())
    (_refs, schemas) = msgspec.json.schema_components(types, ref_template=REF)
    return {
        "openrpc": "1.2.6",
        "info": {
            "title": "Curveship",
            "version": VERSION,
            "description": "Interactive fiction whose stories can be told in many ways: world instances over "
            "JSON-RPC 2.0 (POST /rpc, or a WebSocket at /ws). Session methods take the token from join as "
            "`Authorization: Bearer <token>`, or act for the session a WebSocket joined or resumed.",
        },
        "methods": [_method(method, schemas) for method in METHODS] + [_discover()],
        "components": {
            "schemas": schemas,
            "errors": {code.name.lower(): {"code": int(code), "message": MESSAGES[code]} for code in Code},
        },
        "x-notifications": [
            {"name": name, "params": {"$ref": REF.format(name=kind.__name__)}} for name, kind in m.NOTIFICATIONS.items()
        ],
    }


def _method(method: Method, schemas: dict[str, Any]) -> dict[str, Any]:
    params_schema = schemas[method.params.__name__]
    required = set(params_schema.get("required", ()))
    params = [
        {"name": name, "required": name in required, "schema": schema}
        for name, schema in params_schema.get("properties", {}).items()
    ]
    described: dict[str, Any] = {
        "name": method.name,
        "summary": method.summary,
        "paramStructure": "by-name",
        "params": params,
        "result": {"name": method.result.__name__, "schema": {"$ref": REF.format(name=method.result.__name__)}},
        "errors": _errors(method.codes),
    }
    if method.session:
        described["x-session"] = True
    return described


def _discover() -> dict[str, Any]:
    return {
        "name": "rpc.discover",
        "summary": "This document.",
        "paramStructure": "by-name",
        "params": [],
        "result": {"name": "OpenRPC", "schema": {"type": "object"}},
        "errors": _errors(DISCOVER_ERRORS),
    }


def _errors(codes: tuple[Code, ...]) -> list[dict[str, Any]]:
    """Error objects of the codes a method may answer with (any may also be -32603, never listed)."""
    return [{"code": int(code), "message": MESSAGES[code]} for code in codes]
