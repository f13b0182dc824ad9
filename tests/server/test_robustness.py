"""A running server under misuse: clients that vanish mid-command, garbage frames, oversize messages, crowds,
clients too slow to read, and shutdown. Through all of it the server keeps serving everyone else."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import socket
import struct
import time
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest
from aiohttp import WSMsgType, web

from server.app import SOCKETS, Config, create_app
from tests.helpers import until
from tests.server.conftest import Server, world_path
from tests.wire import Http, error_of, result_of

pytestmark = pytest.mark.asyncio


async def serving(server: Server) -> None:
    """The server answers, over both transports, at once."""
    async with asyncio.timeout(2):
        async with server.http.get(server.url + "/health") as response:
            assert response.status == 200
        assert (await Http(server).ok("worlds"))["worlds"]
        socket = await server.socket()
        assert (await socket.ok("spins"))["spins"]
        await socket.ws.close()


class RawSocket:
    """A WebSocket client written by hand, to send what a proper client never would and to read only when told."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, url: str, receive_buffer: int | None = None) -> RawSocket:
        parts = urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        plain = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer is not None:
            plain.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        plain.setblocking(False)
        await asyncio.get_running_loop().sock_connect(plain, (host, port))
        reader, writer = await asyncio.open_connection(sock=plain)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        return cls(reader, writer)

    async def send(self, payload: bytes, opcode: int = 0x1) -> None:
        """One masked frame, as a client must send it."""
        mask = os.urandom(4)
        size = len(payload)
        if size < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
        elif size < 1 << 16:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
        self.writer.write(head + mask + masked)
        await self.writer.drain()

    async def frame(self) -> tuple[int, bytes]:
        """The next frame from the server: its opcode and payload."""
        first, second = await self.reader.readexactly(2)
        size = second & 0x7F
        if size == 126:
            (size,) = struct.unpack("!H", await self.reader.readexactly(2))
        elif size == 127:
            (size,) = struct.unpack("!Q", await self.reader.readexactly(8))
        return first & 0x0F, await self.reader.readexactly(size)

    async def closed(self) -> int | None:
        """Read until the server closes: the close code it gave, or None if it just dropped the connection."""
        try:
            while True:
                opcode, payload = await self.frame()
                if opcode == 0x8:
                    return int(struct.unpack("!H", payload[:2])[0]) if len(payload) >= 2 else None
        except (asyncio.IncompleteReadError, ConnectionError):
            return None

    def close(self) -> None:
        self.writer.close()


# -- clients that vanish ----------------------------------------------------------------------------------------


async def test_a_client_that_disconnects_mid_command(server: Server) -> None:
    instance = await server.create(world_path("duo"))
    watcher = Http(server)
    await watcher.ok("join", instance=instance, actor="@bob")
    ann = (await Http(server).ok("join", instance=instance, actor="@ann"))["token"]
    for _ in range(3):
        leaving = await server.socket()
        await leaving.ok("resume", token=ann)
        await leaving.send({"jsonrpc": "2.0", "id": 1, "method": "command", "params": {"text": "jump"}})
        await leaving.ws.close()
    # Each socket's messages are answered before its handler ends: once none is open, none is still applied.
    await until(lambda: not server.app[SOCKETS], "the dropped sockets gone")
    assert (await watcher.ok("state"))["turn"] == 3, "each command applied exactly once"
    back = await server.socket()
    assert (await back.ok("resume", token=ann))["turn"] == 3
    assert (await back.ok("command", text="jump"))["turn"] == 4
    await serving(server)


async def test_a_raw_client_that_vanishes_mid_frame(server: Server) -> None:
    raw = await RawSocket.open(server.url)
    raw.writer.write(b"\x81\xfe\x10\x00" + os.urandom(100))
    await raw.writer.drain()
    raw.close()
    await serving(server)


# -- garbage -------------------------------------------------------------------------------------------------------


async def test_a_binary_frame_is_answered_and_the_socket_lives(server: Server) -> None:
    client = await server.socket()
    await client.ws.send_bytes(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "worlds"}).encode())
    answer = await client.receive()
    error_of(answer, -32700)
    assert answer["id"] is None
    assert (await client.ok("worlds"))["worlds"]


async def test_random_text_is_a_parse_error(server: Server) -> None:
    client = await server.socket()
    rng = random.Random(7)
    for _ in range(20):
        garbage = "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(1, 300)))
        await client.send(garbage)
        answer = await client.receive()
        assert isinstance(answer, dict) and answer["error"]["code"] in (-32700, -32600), (garbage, answer)
    assert (await client.ok("worlds"))["worlds"]


async def test_random_bytes_over_http(server: Server) -> None:
    rng = random.Random(8)
    for _ in range(10):
        status, answer = await server.post(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 500))))
        assert status == 200
        error_of(answer, -32700)
    await serving(server)


async def test_invalid_utf8_in_a_text_frame(server: Server) -> None:
    raw = await RawSocket.open(server.url)
    await raw.send(b'{"jsonrpc": "2.0", "id": 1, "method": "worlds", "x": "\xff\xfe"}')
    code = await asyncio.wait_for(raw.closed(), 5)
    assert code in (1007, None), "invalid UTF-8 in a text frame may close the socket (RFC 6455: 1007)"
    raw.close()
    await serving(server)


async def test_invalid_frames_close_only_their_own_socket(server: Server) -> None:
    bystander = await server.socket()
    await bystander.play("cloak")
    for junk in (os.urandom(64), b"\x8f\x80\x00\x00\x00\x00", b"\x03\x80abcd", b"GET / HTTP/1.1\r\n\r\n"):
        raw = await RawSocket.open(server.url)
        raw.writer.write(junk)
        await raw.writer.drain()
        assert await asyncio.wait_for(raw.closed(), 5) in (1002, 1007, 1009, None)
        raw.close()
    assert (await bystander.ok("command", text="w"))["turn"] == 1
    await serving(server)


@pytest.mark.parametrize("transport", ["http", "ws"])
@pytest.mark.parametrize(
    "text",
    [
        "[" * 20_000 + "]" * 20_000,
        '{"jsonrpc": "2.0", "id": 1, "method": "worlds", "params": {"a": ' + "[" * 5000 + "]" * 5000 + "}}",
        '{"jsonrpc": "2.0", "id": 1, "method": "create", "params": {"world": "cloak", "spin": '
        + '{"a": ' * 900
        + "1"
        + "}" * 900
        + "}}",
        '{"jsonrpc": "2.0", "id": 1, "method": "worlds", "params": ' + "[" * 950 + "]" * 950 + "}",
    ],
    ids=["arrays", "in-params", "objects", "positional"],
)
async def test_huge_nesting(server: Server, transport: str, text: str) -> None:
    if transport == "http":
        status, answer = await server.post(text)
        assert status == 200
    else:
        client = await server.socket()
        await client.send(text)
        answer = await client.receive()
    assert isinstance(answer, dict), answer
    assert answer["error"]["code"] in (-32700, -32600, -32602), answer
    assert "Traceback" not in json.dumps(answer) and "recursion" not in json.dumps(answer).lower()
    if transport == "ws":
        assert (await client.ok("worlds"))["worlds"]
    await serving(server)


# -- oversize -------------------------------------------------------------------------------------------------------


async def test_oversize_everywhere(start: Any) -> None:
    server = await start(max_message=2048)
    client = await server.socket()
    await client.play("cloak")
    for size in (2049, 10_000, 2048 * 15):
        await client.send({"jsonrpc": "2.0", "id": size, "method": "realize", "params": {"template": "x" * size}})
        error_of(await client.receive(), -32007)
    batch = [{"jsonrpc": "2.0", "id": n, "method": "state"} for n in range(100)]
    await client.send(batch)
    error_of(await client.receive(), -32007)
    assert (await client.ok("command", text="w"))["turn"] == 1
    status, answer = await server.post("x" * 3_000_000)
    assert status == 200
    error_of(answer, -32007)
    await serving(server)


async def test_a_frame_beyond_all_reason_closes_only_that_socket(start: Any) -> None:
    server = await start(max_message=1024)
    bystander = await server.socket()
    await bystander.play("cloak")
    doomed = await server.socket()
    await doomed.send("x" * 1024 * 64)
    told = error_of(await doomed.receive(), -32007)  # why, before the socket closes
    assert "1024" in told["message"]
    closing = await doomed.receive()
    assert isinstance(closing, aiohttp.WSMessage) and closing.type in (WSMsgType.CLOSE, WSMsgType.CLOSED)
    assert doomed.ws.close_code == 1009
    assert (await bystander.ok("command", text="w"))["turn"] == 1
    await serving(server)


# -- crowds and slow readers ----------------------------------------------------------------------------------------


async def test_many_connections_at_once(server: Server) -> None:
    instance = (await Http(server).ok("create", world="lost_one"))["instance"]
    sockets = await asyncio.gather(*(server.socket() for _ in range(60)))
    answers = await asyncio.gather(*(s.call("instances") for s in sockets))
    assert all(instance in [i["instance"] for i in result_of(a)["instances"]] for a in answers)
    https = [Http(server) for _ in range(40)]
    answers = await asyncio.gather(*(h.call("spins") for h in https))
    assert all(result_of(a)["spins"] for a in answers)
    await asyncio.gather(*(s.ws.close() for s in sockets))
    await serving(server)


async def test_connections_beyond_the_limit_are_refused(start: Any) -> None:
    server = await start(max_connections=3)
    sockets = [await server.socket() for _ in range(3)]
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await server.socket()
    assert refused.value.status == 503
    assert (await Http(server).ok("worlds"))["worlds"]
    await sockets[0].ws.close()
    await until(lambda: len(server.app[SOCKETS]) < 3, "the closed socket let go")
    late = await server.socket()
    assert (await late.ok("spins"))["spins"]


async def test_a_client_that_never_reads_is_cut_off_and_slows_nobody(start: Any) -> None:
    server = await start(outbox=8)
    bystander = await server.socket()
    await bystander.play("cloak")
    slow = await RawSocket.open(server.url, receive_buffer=4096)
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "rpc.discover"}).encode()
    latencies = []
    for _ in range(40):  # 400 answers of 19 KB each: far more than the socket's buffers and its outbox hold
        for _ in range(10):
            await slow.send(request)
        began = time.monotonic()
        await bystander.ok("state")
        latencies.append(time.monotonic() - began)
    assert max(latencies) < 0.5, f"a slow reader held others up: {max(latencies):.2f}s"
    # Cut off by the server, without reading a byte.
    await until(lambda: len(server.app[SOCKETS]) <= 1, "the slow reader cut off")
    code = await asyncio.wait_for(slow.closed(), 10)
    assert code in (1008, None), code
    slow.close()
    assert (await bystander.ok("command", text="w"))["turn"] == 1
    await serving(server)


# -- shutdown -----------------------------------------------------------------------------------------------------


async def test_shutdown_closes_sockets_with_going_away() -> None:
    runner = web.AppRunner(create_app(Config()))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    async with aiohttp.ClientSession() as http:
        sockets = [await http.ws_connect(f"http://127.0.0.1:{port}/ws") for _ in range(3)]
        await sockets[0].send_json({"jsonrpc": "2.0", "id": 1, "method": "worlds"})
        assert (await sockets[0].receive_json())["id"] == 1
        began = time.monotonic()
        stopping = asyncio.create_task(runner.cleanup())
        for ws in sockets:
            message = await ws.receive(timeout=5)
            assert message.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING), message
            assert ws.close_code == 1001
        await asyncio.wait_for(stopping, 10)
        assert time.monotonic() - began < 5, "shutdown waited on open sockets"
