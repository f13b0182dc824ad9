"""JSON-RPC over a WebSocket (`GET /ws`): one text frame a message, both ways; notifications come too. The
socket names the instance it plays in, when known (`/ws?instance=ID`), for the server to place it by."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import ClassVar
from urllib.parse import quote

import aiohttp
import msgspec

from clients.transports.base import ConnectionLost, Owner, Transport

log = logging.getLogger(__name__)


class WebSocketTransport(Transport):
    """A socket and the task reading it. Whatever arrives goes to the owner; a socket that closes without
    being asked to is reported as dropped, and the owner may `open` again (a new socket, to resume on)."""

    streams: ClassVar[bool] = True

    def __init__(self, url: str, owner: Owner) -> None:
        super().__init__(url, owner)
        self.http: aiohttp.ClientSession | None = None
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.reader: asyncio.Task[None] | None = None
        self.sending = asyncio.Lock()

    @property
    def address(self) -> str:
        scheme, rest = self.url.split("://", 1) if "://" in self.url else ("http", self.url)
        instance = self.owner.playing()
        placed = f"?instance={quote(instance, safe='')}" if instance else ""
        return f"{'wss' if scheme in ('https', 'wss') else 'ws'}://{rest}/ws{placed}"

    async def open(self) -> None:
        await self._stop_reading()
        if self.http is None:
            self.http = aiohttp.ClientSession()
        headers = {}
        if (token := self.owner.bearer()) is not None:
            headers["Authorization"] = f"Bearer {token}"
        try:
            self.socket = await self.http.ws_connect(self.address, headers=headers, heartbeat=20.0)
        except (aiohttp.ClientError, OSError) as error:
            raise ConnectionLost(f"cannot reach {self.url}: {error}") from None
        self.reader = asyncio.create_task(self._read(self.socket))

    async def send(self, data: bytes) -> None:
        socket = self.socket
        if socket is None or socket.closed:
            raise ConnectionLost("the WebSocket is not open")
        try:
            async with self.sending:
                await socket.send_str(data.decode())  # the server takes text frames only
        except (aiohttp.ClientError, ConnectionError, RuntimeError) as error:
            raise ConnectionLost(f"the WebSocket closed while sending: {error}") from None
        return None

    async def close(self) -> None:
        await self._stop_reading()
        if self.socket is not None:
            with contextlib.suppress(Exception):
                await self.socket.close()
            self.socket = None
        if self.http is not None:
            await self.http.close()
            self.http = None

    async def _stop_reading(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.reader
            self.reader = None

    async def _read(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        async for frame in socket:
            if frame.type != aiohttp.WSMsgType.TEXT:
                continue
            try:
                message = msgspec.json.decode(frame.data)
            except msgspec.DecodeError:
                log.warning("the server sent a frame that is not JSON; ignored")
                continue
            self.owner.receive(message)
        self.owner.dropped()
