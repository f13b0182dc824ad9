"""Connections: one address cannot hold all of them, idle or slow ones are closed, and the open-file limit is
raised at start (or the operator told). The attacks come from 127.0.0.1, the innocent from 127.0.0.2."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from aiohttp import web

from server.app import GUARD, Config, create_app, listen
from tests.server.conftest import AUTHOR
from tests.server.latency import Bystander, unhurt

pytestmark = pytest.mark.asyncio

ROOT = Path(__file__).resolve().parents[2]
Listen = Callable[..., Awaitable[tuple[str, web.Application]]]


@pytest_asyncio.fixture
async def listening() -> AsyncIterator[Listen]:
    """Start a server as `curveship serve` does (through its connection guard) with these Config settings."""
    async with contextlib.AsyncExitStack() as stack:

        async def go(**settings: Any) -> tuple[str, web.Application]:
            settings.setdefault("author_token", AUTHOR)
            app = create_app(Config(**settings))
            url = await stack.enter_async_context(listen(app, "127.0.0.1", 0))
            return url, app

        yield go


def innocent(url: str) -> Callable[[], Awaitable[None]]:
    """A bystander's call from another address: a world list, on a connection of its own."""

    async def call() -> None:
        connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
        async with aiohttp.ClientSession(connector=connector) as http:
            body = {"jsonrpc": "2.0", "id": 1, "method": "worlds", "params": {}}
            async with http.post(url + "/rpc", json=body) as response:
                assert "result" in await response.json()

    return call


async def opened(url: str, count: int, first: bytes = b"") -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    port = int(url.rsplit(":", 1)[1])
    links = []
    for _ in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        if first:
            writer.write(first)
            await writer.drain()
        links.append((reader, writer))
    return links


async def closed_by_server(reader: asyncio.StreamReader, within: float) -> bool:
    try:
        async with asyncio.timeout(within):
            while await reader.read(1024):
                pass
        return True
    except (TimeoutError, ConnectionError):
        return False


async def test_slow_headers_are_cut_off_and_others_served(listening: Listen) -> None:
    url, app = await listening(header_timeout=3.0)
    bystander = Bystander(innocent(url))
    await bystander.measure_normal()
    slow = await opened(url, 50, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    await bystander.through()  # while the slow ones hold their connections
    bystander.assert_unhurt()
    closed = await asyncio.gather(*(closed_by_server(reader, 10.0) for reader, _ in slow))
    assert all(closed), f"{closed.count(False)} slow connections still open"
    assert app[GUARD].timed_out >= 50 and app[GUARD].open <= 1
    for _, writer in slow:
        writer.close()


async def test_one_address_cannot_take_every_connection(listening: Listen) -> None:
    url, app = await listening(connections_per_address=10)
    links = await opened(url, 10)

    async def flood(stop: asyncio.Event) -> int:
        """Connections opened again and again from the address that holds its ten: each closed at once."""
        refused = 0
        while not stop.is_set():
            ((reader, writer),) = await opened(url, 1)
            assert await closed_by_server(reader, 1.0), "a connection over the cap was closed at once"
            writer.close()
            refused += 1
        return refused

    assert await unhurt(innocent(url), flood) > 0
    assert app[GUARD].by_address.get("127.0.0.1") == 10
    for _, writer in links:
        writer.close()


async def test_idle_kept_alive_connections_are_closed(listening: Listen) -> None:
    url, _ = await listening(idle_timeout=0.3)
    (reader, writer), *_ = await opened(url, 1, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert b"200" in await reader.readline()
    assert await closed_by_server(reader, 5.0), "the kept-alive connection was closed once idle"
    writer.close()


async def test_websockets_are_capped_per_address(listening: Listen) -> None:
    url, _ = await listening(sockets_per_address=5)
    async with aiohttp.ClientSession() as http:
        sockets = [await http.ws_connect(url + "/ws") for _ in range(5)]

        async def flood(stop: asyncio.Event) -> None:
            while not stop.is_set():
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await http.ws_connect(url + "/ws")
                assert refused.value.status == 429

        await unhurt(innocent(url), flood)
        connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
        async with aiohttp.ClientSession(connector=connector) as other:
            socket = await other.ws_connect(url + "/ws")
            await socket.send_json({"jsonrpc": "2.0", "id": 1, "method": "worlds", "params": {}})
            assert "result" in await socket.receive_json()
            await socket.close()
        for socket in sockets:
            await socket.close()


async def test_a_websocket_bound_to_no_session_is_closed_when_idle(listening: Listen) -> None:
    url, _ = await listening(socket_idle=0.3)
    async with aiohttp.ClientSession() as http:
        idle = await http.ws_connect(url + "/ws")
        playing = await http.ws_connect(url + "/ws")
        create = {"jsonrpc": "2.0", "id": 1, "method": "create", "params": {"world": "cloak"}}
        await playing.send_json(create)
        instance = (await playing.receive_json())["result"]["instance"]
        await playing.send_json({"jsonrpc": "2.0", "id": 2, "method": "join", "params": {"instance": instance}})
        assert "result" in await playing.receive_json()
        frame = await idle.receive(timeout=5.0)
        assert frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED) and idle.close_code == 1008
        await playing.send_json({"jsonrpc": "2.0", "id": 3, "method": "state", "params": {}})
        assert "result" in await playing.receive_json(), "a socket with a session stays however quiet"
        await playing.close()


async def test_the_open_file_limit_is_raised_at_start(listening: Listen) -> None:
    await listening()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert soft >= min(65536, hard if hard != resource.RLIM_INFINITY else 65536)


async def test_a_low_open_file_limit_is_told(tmp_path: Path) -> None:
    def low() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    serving = subprocess.Popen(
        [sys.executable, "-m", "clients.cli.main", "serve", "--port", "0"],
        cwd=ROOT,
        env={**os.environ, "CURVESHIP_AUTHOR_TOKEN": AUTHOR},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=low,
    )
    try:
        assert serving.stdout is not None and serving.stderr is not None
        assert "listening on" in serving.stdout.readline()
        told = serving.stderr.readline()
        assert "open-file limit (256)" in told and "192 connections" in told, told
    finally:
        serving.terminate()
        serving.wait(timeout=10)
