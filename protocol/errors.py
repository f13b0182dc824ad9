"""The protocol's error codes, and the exception that carries one from where it arises to the wire."""

from __future__ import annotations

from enum import IntEnum
from typing import Any


class Code(IntEnum):
    """JSON-RPC's standard codes, then the application's own."""

    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603
    UNKNOWN = -32001
    """unknown world, instance, spin or actor"""
    NO_SESSION = -32002
    """missing, unknown or expired token, or a socket not joined"""
    FORBIDDEN = -32003
    """e.g. another actor's concept in an interactive world, `world` without author permission"""
    UNAVAILABLE = -32004
    """actor already played by someone else, or not playable"""
    ENDED = -32005
    """the story has ended: commands refused (narrate, concept, restart still work)"""
    RATE_LIMITED = -32006
    TOO_LARGE = -32007
    NODE_UNREACHABLE = -32008
    """the part of the server holding this instance (another worker or node) cannot be reached right now: try
    again shortly; `data.sent` says whether the call reached it before the link broke (false: nothing was done)"""


MESSAGES = {
    Code.PARSE_ERROR: "Parse error",
    Code.INVALID_REQUEST: "Invalid request",
    Code.METHOD_NOT_FOUND: "Method not found",
    Code.INVALID_PARAMS: "Invalid params",
    Code.INTERNAL_ERROR: "Internal error",
    Code.UNKNOWN: "Unknown name",
    Code.NO_SESSION: "No session",
    Code.FORBIDDEN: "Forbidden",
    Code.UNAVAILABLE: "Actor unavailable",
    Code.ENDED: "Story ended",
    Code.RATE_LIMITED: "Rate limited",
    Code.TOO_LARGE: "Message too large",
    Code.NODE_UNREACHABLE: "Node unreachable",
}


class RpcError(Exception):
    """An error to send as a JSON-RPC error object: a code, a message a person can read, optional data."""

    def __init__(self, code: Code, message: str | None = None, data: Any = None) -> None:
        super().__init__(message or MESSAGES[code])
        self.code = code
        self.message = message or MESSAGES[code]
        self.data = data

    def to_wire(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": int(self.code), "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error
