"""The ways a client reaches a server, one module each behind one base: HTTP, WebSocket, and in this process.

Only the base is loaded here: each transport's module (and aiohttp, for the first two) is imported when used.
"""

from clients.transports.base import ConnectionLost, NotSent, Owner, Transport

__all__ = ["ConnectionLost", "NotSent", "Owner", "Transport"]
