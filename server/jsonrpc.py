"""jsonrpcserver as the server uses it: imported without jsonschema, its request check a plain one (request_shape).

jsonrpcserver builds a jsonschema validator of JSON-RPC's request schema when it is imported, a third of a local
game's start-up (about 30 ms); the server never runs it, as msgspec has decoded every message already and
`request_shape` checks the same things in about 1 µs. So while jsonrpcserver is imported, `jsonschema.validators`
is a stand-in whose validator is `request_shape`, and afterwards it is taken away again, so that whatever imports
jsonschema itself later gets the real one.
"""

from __future__ import annotations

import sys
import types
from typing import Any

_REQUEST_KEYS = frozenset({"jsonrpc", "method", "id", "params"})


def request_shape(request: Any) -> None:
    """Check one request against JSON-RPC's request schema, the one jsonrpcserver would check with jsonschema
    (its request-schema.json): "jsonrpc" "2.0", a string "method", an "id" that is a string, a number or null,
    "params" an array or an object, and nothing else. msgspec has decoded the message already, and jsonschema
    cost more than the rest of a request's dispatch (about 130 µs a request); a plain check costs about 1 µs.
    Raises ValueError when it is no request, which jsonrpcserver answers with -32600."""
    if not (
        isinstance(request, dict)
        and _REQUEST_KEYS.issuperset(request)
        and request.get("jsonrpc") == "2.0"
        and type(request.get("method")) is str
        and ("id" not in request or type(request["id"]) in (str, int, float, type(None)))
        and ("params" not in request or type(request["params"]) in (list, dict))
    ):
        raise ValueError("not a JSON-RPC request")


class _RequestShape:
    """What jsonrpcserver takes for the validator class of its schema: one whose check is `request_shape`."""

    def __init__(self, schema: Any) -> None:
        self.validate = request_shape

    @staticmethod
    def check_schema(schema: Any) -> None:
        """The schema is jsonrpcserver's own, checked by its tests; nothing to check here."""


def _validator_for(schema: Any) -> type[_RequestShape]:
    return _RequestShape


def _import_without_jsonschema() -> None:
    if "jsonschema" in sys.modules or "jsonrpcserver" in sys.modules:
        return  # loaded already (by a test, or a tool): nothing left to save
    package, validators = types.ModuleType("jsonschema"), types.ModuleType("jsonschema.validators")
    validators.validator_for = _validator_for  # type: ignore[attr-defined]
    package.validators = validators  # type: ignore[attr-defined]
    sys.modules.update({"jsonschema": package, "jsonschema.validators": validators})
    try:
        import jsonrpcserver  # noqa: F401
    finally:
        del sys.modules["jsonschema"], sys.modules["jsonschema.validators"]


_import_without_jsonschema()

# The names the server uses, from jsonrpcserver (now imported). Some are jsonrpcserver 5's internal steps, not its
# public API (server/rpc.py runs them one by one): pyproject.toml pins it below 6, as a major release may move or
# change them.
from jsonrpcserver import Error, Result, Success, async_dispatch_to_serializable  # noqa: E402
from jsonrpcserver.async_dispatcher import call as call_method  # noqa: E402
from jsonrpcserver.dispatcher import create_request, get_method, not_notification, to_response  # noqa: E402
from jsonrpcserver.response import to_serializable_one  # noqa: E402

__all__ = [
    "Error",
    "Result",
    "Success",
    "async_dispatch_to_serializable",
    "call_method",
    "create_request",
    "get_method",
    "not_notification",
    "request_shape",
    "to_response",
    "to_serializable_one",
]
