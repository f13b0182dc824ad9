"""Real servers on real loopback sockets for the bots' tests: the clients' tests' server in this test's loop
(for the async bot), one without a rate limit to speak of (for searches, which make many calls a second), and
the bots' own in-process servers (the sync bot and the environment run their own)."""

from collections.abc import AsyncIterator

import pytest_asyncio

from server.app import Config, create_app
from tests.clients.conftest import AUTHOR, WAIT, Running, keeping, running

__all__ = ["WAIT", "Running", "keeping", "roomy", "running"]

UNLIMITED = 1e6
"""Requests a second, and at once, for a server a search runs on (as the in-process server allows)."""


@pytest_asyncio.fixture
async def roomy() -> AsyncIterator[Running]:
    """A server on a loopback port with no rate limit to speak of, as `curveship play`'s own server has."""
    server = Running()
    server.config = Config(author_token=AUTHOR, rate=UNLIMITED, burst=UNLIMITED)
    server.app = create_app(server.config)
    await server.listen()
    yield server
    await server.close()
