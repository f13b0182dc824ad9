"""The tests' one JSON-RPC client of a real server: over HTTP (`Http`) or one WebSocket (`Socket`), with the same
calls (`call`, `ok`, `fail`, `play`, `close`); a server gone before it answers raises `Lost`."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp
from aiohttp import WSMsgType

WAIT = 20.0
"""How long a call waits for its answer (or a notification for its arrival) before the test fails."""


class Reachable(Protocol):
    """A server as a client reaches it: its base URL, through one aiohttp session."""

    @property
    def http(self) -> aiohttp.ClientSession: ...

    @property
    def url(self) -> str: ...


@dataclass(frozen=True)
class Address:
    """A server's base URL and the aiohttp session that reaches it (for a server that is not itself one)."""

    http: aiohttp.ClientSession
    url: str


class Lost(Exception):
    """The server went away before answering (killed): the request is in flight, neither known done nor not."""


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


def _bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class Client:
    """What every client does, whatever its transport: call a method by name and get the whole response. The
    session's token is kept once `join` or `resume` gave it."""

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

    async def close(self) -> None:
        pass

    def _took(self, method: str, params: dict[str, Any], answer: dict[str, Any]) -> None:
        if "result" not in answer:
            return
        if method == "join":
            self.token = answer["result"]["token"]
        elif method == "resume":
            self.token = params["token"]


class Http(Client):
    """JSON-RPC over POST /rpc: the session's token goes as a Bearer header."""

    def __init__(self, server: Reachable, token: str | None = None) -> None:
        self.server = server
        self.token = token
        self.ids = itertools.count(1)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        message = {"jsonrpc": "2.0", "id": next(self.ids), "method": method, "params": params}
        headers = {"Content-Type": "application/json", **_bearer(self.token)}
        try:
            async with self.server.http.post(
                self.server.url + "/rpc", data=json.dumps(message), headers=headers
            ) as response:
                status, answer = response.status, dict(json.loads(await response.text()))
        except (aiohttp.ClientError, ConnectionError, json.JSONDecodeError) as error:
            raise Lost(str(error)) from None
        assert status == 200, status
        self._took(method, params, answer)
        return answer


class Socket(Client):
    """JSON-RPC over one WebSocket: answers are matched to requests by id; notifications are kept, in order,
    for the test to take."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.notifications: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, server: Reachable, token: str | None = None) -> Socket:
        return cls(await server.http.ws_connect(server.url + "/ws", headers=_bearer(token), max_msg_size=0))

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
        try:
            await self.send({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})
            answer = await self.answer(id_)
        except (aiohttp.ClientError, ConnectionError) as error:
            raise Lost(str(error)) from None
        assert isinstance(answer, dict)
        self._took(method, params, answer)
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
        """The response with this id; notifications arriving before it are kept. The socket closing first
        raises Lost."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.receive()
                if isinstance(message, aiohttp.WSMessage):
                    raise Lost(f"socket closed awaiting {id_}: {message}")
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

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
