"""JSON-RPC over HTTP: each message is one `POST /rpc`, answered in its response; no notifications."""

from __future__ import annotations

from typing import Any, ClassVar

import aiohttp
import msgspec

from clients.transports.base import ConnectionLost, Owner, Transport


class HttpTransport(Transport):
    """Stateless: the session travels as `Authorization: Bearer <token>` on every request."""

    streams: ClassVar[bool] = False

    def __init__(self, url: str, owner: Owner) -> None:
        super().__init__(url, owner)
        self.http: aiohttp.ClientSession | None = None

    async def open(self) -> None:
        """Nothing to open but the pool: each request finds its own way (aiohttp pools the connections)."""
        if self.http is None:
            self.http = aiohttp.ClientSession()

    async def send(self, data: bytes) -> Any | None:
        headers = {"Content-Type": "application/json"}
        if (token := self.owner.bearer()) is not None:
            headers["Authorization"] = f"Bearer {token}"
        if self.http is None:
            raise ConnectionLost("the connection is not open")
        try:
            async with self.http.post(f"{self.url}/rpc", data=data, headers=headers) as response:
                body = await response.read()
                status = response.status
        except (aiohttp.ClientError, OSError) as error:
            raise ConnectionLost(f"cannot reach {self.url}: {error}") from None
        if status == 204:
            return None
        try:
            return msgspec.json.decode(body)
        except msgspec.DecodeError:
            raise ConnectionLost(f"{self.url}/rpc answered HTTP {status}, not JSON-RPC") from None

    async def close(self) -> None:
        if self.http is not None:
            await self.http.close()
            self.http = None
