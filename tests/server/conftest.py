"""A real server on a loopback port for each test, and clients that speak JSON-RPC to it over HTTP and WebSocket."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from aiohttp import WSMsgType, web

from server.app import Config, create_app

AUTHOR = "the-author-token-of-these-tests"
"""The server's author token in every test (Config.author_token), so a test may act as an author."""

WORLDS = Path(__file__).resolve().parent / "worlds"
WAIT = 5.0
"""How long a test waits for something the server should send at once."""


def world_path(name: str) -> str:
    """A test world's file, as a path the server loads (the contract allows a world name of 64 characters)."""
    path = str(WORLDS / f"{name}.py")
    return path if len(path) <= 64 else os.path.relpath(path)


class Failed(AssertionError):
    """A call answered with an error where a result was expected."""


def result_of(response: Any) -> Any:
    assert isinstance(response, dict), response
    if "error" in response:
        raise Failed(f"expected a result, got {response['error']}")
    assert response["jsonrpc"] == "2.0"
    return response["result"]


def error_of(response: Any, code: int) -> dict[str, Any]:
    assert isinstance(response, dict), response
    assert "result" not in response, f"expected error {code}, got a result: {response['result']}"
    assert response["jsonrpc"] == "2.0"
    error = response["error"]
    assert error["code"] == code, f"expected error {code}, got {error}"
    assert isinstance(error["message"], str) and error["message"]
    return dict(error)


class Client:
    """What every client does, whatever its transport: call a method by name and get the whole response."""

    token: str | None = None

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        raise NotImplementedError

    async def ok(self, method: str, **params: Any) -> Any:
        """The result of a call that must succeed."""
        return result_of(await self.call(method, **params))

    async def fail(self, code: int, method: str, **params: Any) -> dict[str, Any]:
        """The error object of a call that must fail with `code`."""
        return error_of(await self.call(method, **params), code)

    async def play(self, world: str, *, seed: int = 1, **join: Any) -> dict[str, Any]:
        """Create an instance of `world` and join it: the join's result."""
        instance = (await self.ok("create", world=world, seed=seed))["instance"]
        return dict(await self.ok("join", instance=instance, **join))


class Http(Client):
    """JSON-RPC over POST /rpc: the session's token goes as a Bearer header once join or resume gave it."""

    def __init__(self, server: Server, token: str | None = None) -> None:
        self.server = server
        self.token = token
        self.ids = itertools.count(1)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        message = {"jsonrpc": "2.0", "id": next(self.ids), "method": method, "params": params}
        status, answer = await self.server.post(message, token=self.token)
        assert status == 200, status
        if method == "join" and "result" in answer:
            self.token = answer["result"]["token"]
        if method == "resume" and "result" in answer:
            self.token = params["token"]
        return dict(answer)


class Socket(Client):
    """JSON-RPC over one WebSocket: answers are matched to requests by id; notifications are kept, in order,
    for the test to take."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.notifications: list[dict[str, Any]] = []

    async def send(self, message: Any) -> None:
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def receive(self, timeout: float = WAIT) -> Any:
        """The next message the server sends (decoded), or the closing frame when the socket closes."""
        frame = await self.ws.receive(timeout=timeout)
        if frame.type == WSMsgType.TEXT:
            return json.loads(frame.data)
        return frame

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        id_ = next(self.ids)
        await self.send({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})
        answer = await self.answer(id_)
        assert isinstance(answer, dict)
        if method == "join" and "result" in answer:
            self.token = answer["result"]["token"]
        return answer

    async def batch(self, members: list[Any], timeout: float = WAIT) -> list[Any]:
        """Send a batch; its answer (an array), notifications arriving before it kept."""
        await self.send(members)
        async with asyncio.timeout(timeout):
            while True:
                message = await self.receive()
                if isinstance(message, list):
                    return message
                assert isinstance(message, dict) and "id" not in message, f"awaiting a batch, got {message}"
                self.notifications.append(message)

    async def answer(self, id_: Any, timeout: float = WAIT) -> Any:
        """The response with this id; notifications arriving before it are kept."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.receive()
                assert not isinstance(message, aiohttp.WSMessage), f"socket closed awaiting {id_}: {message}"
                if isinstance(message, dict) and "id" not in message:
                    self.notifications.append(message)
                elif isinstance(message, dict) and message["id"] == id_:
                    return message
                else:
                    raise AssertionError(f"awaiting {id_}, got {message}")

    async def notification(self, method: str, timeout: float = WAIT) -> dict[str, Any]:
        """The params of the next notification of `method` (kept or yet to come); others are kept."""
        for index, kept in enumerate(self.notifications):
            if kept["method"] == method:
                return dict(self.notifications.pop(index)["params"])
        async with asyncio.timeout(timeout):
            while True:
                message = await self.receive()
                assert isinstance(message, dict) and "id" not in message, f"awaiting {method}, got {message}"
                assert message["jsonrpc"] == "2.0"
                if message["method"] == method:
                    return dict(message["params"])
                self.notifications.append(message)

    async def drain(self, seconds: float = 0.3) -> list[Any]:
        """Every message that arrives within `seconds` (for checking that nothing does)."""
        found: list[Any] = []
        try:
            async with asyncio.timeout(seconds):
                while True:
                    found.append(await self.receive())
        except TimeoutError:
            pass
        return found


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
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return Socket(await self.http.ws_connect(self.url + "/ws", headers=headers, max_msg_size=0))

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
