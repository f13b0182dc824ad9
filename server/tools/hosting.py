"""Running the server's app on a real socket, for `curveship serve` and for the in-process server of tell/play."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from server.app import Config, create_app, listen

SHUTDOWN_WAIT = 3.0
"""Seconds a stopping server waits for requests under way (aiohttp's default, a minute, is long for Ctrl-C)."""

IN_PROCESS_RATE = 1e6
"""The in-process server serves one reader, who may pipe in a long walkthrough: no rate limit to speak of."""


def in_process_config(author_token: str) -> Config:
    """The server tell and play start by default: loopback only, authors only by token, no rate limit."""
    return Config(author_token=author_token, rate=IN_PROCESS_RATE, burst=IN_PROCESS_RATE)


@asynccontextmanager
async def hosted(config: Config, host: str, port: int) -> AsyncIterator[str]:
    """Serve the app on host:port (port 0: any free port) until the block ends; yields the server's URL."""
    async with listen(create_app(config), host, port, shutdown_timeout=SHUTDOWN_WAIT) as url:
        yield url
