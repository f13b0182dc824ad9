"""A real server on a loopback port for each test, reached by the tests' one wire client (`tests/wire.py`)."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from aiohttp import web

from server.app import Config, create_app
from tests.wire import Client, Http, Socket

AUTHOR = "the-author-token-of-these-tests"
"""The server's author token in every test (Config.author_token), so a test may act as an author."""

WORLDS = Path(__file__).resolve().parent / "worlds"
WAIT = 5.0
"""How long a test waits for something the server should send at once."""


def world_path(name: str) -> str:
    """A test world's file, as a path the server loads (the contract allows a world name of 64 characters)."""
    path = str(WORLDS / f"{name}.py")
    return path if len(path) <= 64 else os.path.relpath(path)


class Server:
    """One running server: its address, its app (for what only the server can tell), and ways to reach it."""

    def __init__(self, url: str, app: web.Application, http: aiohttp.ClientSession) -> None:
        self.url = url
        self.app = app
        self.http = http

    async def post(self, body: Any, token: str | None = None) -> tuple[int, Any]:
        """POST /rpc: a JSON value, or raw text or bytes as they are. The status and the decoded answer."""
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        data = body if isinstance(body, str | bytes) else json.dumps(body)
        async with self.http.post(self.url + "/rpc", data=data, headers=headers) as response:
            text = await response.text()
            return response.status, (json.loads(text) if text else None)

    async def socket(self, token: str | None = None) -> Socket:
        return await Socket.open(self, token)

    async def create(self, world: str, **params: Any) -> str:
        """A new instance, created as an author (who alone may name a world by its path)."""
        return str((await Http(self, AUTHOR).ok("create", world=world, **params))["instance"])

    async def client(self, transport: str) -> Client:
        return Http(self) if transport == "http" else await self.socket()


Start = Callable[..., Awaitable[Server]]


@pytest_asyncio.fixture
async def start(aiohttp_server: Any) -> AsyncIterator[Start]:
    """Start a server with these Config settings (the tests' author token unless given) on a loopback port."""
    sessions: list[aiohttp.ClientSession] = []

    async def go(**settings: Any) -> Server:
        settings.setdefault("author_token", AUTHOR)
        app = create_app(Config(**settings))
        running = await aiohttp_server(app)
        http = aiohttp.ClientSession()
        sessions.append(http)
        return Server(str(running.make_url("")).rstrip("/"), app, http)

    yield go
    for http in sessions:
        await http.close()


@pytest_asyncio.fixture
async def server(start: Start) -> Server:
    return await start()


@pytest.fixture(params=["http", "ws"])
def transport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest_asyncio.fixture
async def client(server: Server, transport: str) -> Client:
    """A client of the server over one transport; the tests that take it run over both."""
    return await server.client(transport)
