"""Running the server's app on a real socket, for `curveship serve`, and for bots and tests that want one here."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from server.app import Config, create_app, listen
from server.local import in_process_config

__all__ = ["SHUTDOWN_WAIT", "hosted", "in_process_config"]

SHUTDOWN_WAIT = 3.0
"""Seconds a stopping server waits for requests under way (aiohttp's default, a minute, is long for Ctrl-C)."""


@asynccontextmanager
async def hosted(config: Config, host: str, port: int) -> AsyncIterator[str]:
    """Serve the app on host:port (port 0: any free port) until the block ends; yields the server's URL."""
    async with listen(create_app(config), host, port, shutdown_timeout=SHUTDOWN_WAIT) as url:
        yield url
