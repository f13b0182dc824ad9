"""The ways a client reaches a server, one module each behind one base: HTTP and WebSocket."""

from clients.transports.base import ConnectionLost, NotSent, Owner, Transport
from clients.transports.http import HttpTransport
from clients.transports.websocket import WebSocketTransport

__all__ = ["ConnectionLost", "HttpTransport", "NotSent", "Owner", "Transport", "WebSocketTransport"]
