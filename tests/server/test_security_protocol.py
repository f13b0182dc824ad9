"""Protocol conformance: odd params, a body that is not what its encoding says, and unmasked client frames are
each answered as their specification says, and the server goes on serving."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import struct

import pytest

from tests.server.conftest import Server
from tests.server.test_security_files import innocent
from tests.wire import Http

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("name", ["caller", "context", "self", "positional"])
async def test_a_param_named_like_the_servers_own_is_an_unknown_field(server: Server, name: str) -> None:
    status, answer = await server.post({"jsonrpc": "2.0", "id": 1, "method": "worlds", "params": {name: 1}})
    assert status == 200
    error = answer["error"]
    assert error["code"] == -32602 and error["data"]["field"] == name and isinstance(error["data"]["reason"], str)


async def test_a_gzip_body_that_is_not_gzip(server: Server) -> None:
    headers = {"Content-Type": "application/json", "Content-Encoding": "gzip"}
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "worlds", "params": {}})
    async with server.http.post(server.url + "/rpc", data=body, headers=headers) as response:
        assert response.status == 400
        answer = await response.json()
    assert answer["error"]["code"] == -32700 and "gzip" in answer["error"]["message"]
    await innocent(server)


async def _raw_websocket(server: Server) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    host, port = server.url.removeprefix("http://").rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port))
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    assert b" 101 " in head.split(b"\r\n", 1)[0]
    return reader, writer


async def test_an_unmasked_client_frame_closes_the_socket(server: Server) -> None:
    reader, writer = await _raw_websocket(server)
    payload = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "worlds", "params": {}}).encode()
    writer.write(struct.pack("!BB", 0x81, len(payload)) + payload)  # FIN + text, no mask bit
    await writer.drain()
    async with asyncio.timeout(5):
        first = await reader.read(2)
    assert first[0] == 0x88, f"a close frame, not {first!r}"  # FIN + close
    length = first[1] & 0x7F
    body = await reader.readexactly(length)
    assert struct.unpack("!H", body[:2])[0] == 1002, body
    writer.close()
    assert await Http(server).ok("worlds")
