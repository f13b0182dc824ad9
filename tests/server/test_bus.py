"""The workers' bus on its own: a worker that stops with links open to it ends them quietly."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from server.cluster.bus import UnixBus


class _Owner:
    """Answers whether it knows a token, the one call the test makes."""

    async def call(self, peer: Any, call: Any) -> Any:
        raise AssertionError("no call is made")

    def release(self, peer: Any, socket: int) -> None: ...

    def gone(self, peer: Any) -> None: ...

    def knows(self, token: str) -> bool:
        return token == "known"

    def page(self, after: str | None, limit: int) -> Any:
        raise AssertionError("no page is asked for")

    def lost(self, node: str) -> None: ...


def test_a_worker_stopping_with_a_link_open_to_it_logs_no_traceback(tmp_path: Path) -> None:
    troubles: list[dict[str, Any]] = []

    async def work() -> bool:
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: troubles.append(context))
        first, second = UnixBus(tmp_path, 0, 2), UnixBus(tmp_path, 1, 2)
        await first.start(_Owner(), lambda socket, body: None)
        await second.start(_Owner(), lambda socket, body: None)
        known = await second.knows("0", "known")
        await first.close()  # as on Ctrl-C: the link from `second` is still open, its handler still reading
        return known

    assert asyncio.run(work()) is True
    assert troubles == []
