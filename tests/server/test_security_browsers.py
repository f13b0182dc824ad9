"""Authors and browsers: a page on another site cannot call the server (Origin, Host, content type), is never an
author by the machine's address, a proxy's forwarded address is believed only when trusted, and guessing
tokens locks the guesser out, and only the guesser."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from server.app import Config
from tests.helpers import StepClock
from tests.server.conftest import AUTHOR, Server, Start, world_path
from tests.wire import Http

pytestmark = pytest.mark.asyncio

EVIL = "http://evil.example"
ROOT = Path(__file__).resolve().parents[2]
WORLDS = {"jsonrpc": "2.0", "id": 1, "method": "worlds", "params": {}}
STATE = {"jsonrpc": "2.0", "id": 1, "method": "state", "params": {}}


def create(world: str = "cloak") -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": "create", "params": {"world": world, "seed": 1}}


async def post(server: Server, body: Any, **headers: str) -> tuple[int, Any]:
    headers.setdefault("Content-Type", "application/json")
    async with server.http.post(server.url + "/rpc", data=json.dumps(body), headers=headers) as response:
        text = await response.text()
        try:
            return response.status, json.loads(text)
        except ValueError:
            return response.status, text


async def instances(server: Server) -> int:
    return len((await Http(server).ok("instances"))["instances"])


async def test_a_simple_cross_site_post_is_refused(server: Server) -> None:
    status, answer = await post(server, create(), **{"Content-Type": "text/plain"})
    assert status == 415 and answer["error"]["code"] == -32600
    status, _ = await post(server, create(), **{"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415
    assert await instances(server) == 0, "nothing was created"
    status, answer = await post(server, create())
    assert status == 200 and "result" in answer


async def test_a_page_of_another_origin_is_refused_on_both_doors(server: Server) -> None:
    status, _ = await post(server, create(), Origin=EVIL)
    assert status == 403
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await server.http.ws_connect(server.url + "/ws", origin=EVIL)
    assert refused.value.status == 403
    status, _ = await post(server, create(), Origin="null")
    assert status == 403
    assert await instances(server) == 0


async def test_the_servers_own_page_and_programs_are_let_in(server: Server) -> None:
    own = server.url  # http://127.0.0.1:PORT, the origin of the browser client this server serves at /
    status, answer = await post(server, create(), Origin=own)
    assert status == 200 and "result" in answer
    socket = await server.http.ws_connect(server.url + "/ws", origin=own)
    await socket.send_json({"jsonrpc": "2.0", "id": 1, "method": "worlds", "params": {}})
    assert "result" in await socket.receive_json()
    await socket.close()
    status, answer = await post(server, create())  # no Origin: not a browser
    assert status == 200 and "result" in answer


async def test_a_name_that_only_resolves_here_is_refused(start: Start) -> None:
    """DNS rebinding: a page at evil.example whose name now points at 127.0.0.1 is same-origin to itself."""
    server = await start()
    rebound = {"Host": "evil.example:80", "Origin": "http://evil.example"}
    status, _ = await post(server, create(), **rebound)
    assert status == 403
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await server.http.ws_connect(server.url + "/ws", headers=rebound)
    named = await start(allowed_hosts=("play.example",))
    status, answer = await post(named, create(), Host="play.example", Origin="http://play.example")
    assert status == 200 and "result" in answer


async def test_with_author_on_loopback_only_this_servers_own_page_and_programs_are_authors(start: Start) -> None:
    allowed = "http://helper.example"
    server = await start(author_on_loopback=True, allowed_origins=(allowed,))
    _, answer = await post(server, create(world_path("duo")))
    assert "result" in answer, "a program on this machine is an author"
    _, answer = await post(server, create(world_path("duo")), Origin=server.url)
    assert "result" in answer, "the browser client this server serves is an author on this machine"
    for headers in ({"Origin": allowed}, {"X-Forwarded-For": "203.0.113.9"}, {"Forwarded": "for=203.0.113.9"}):
        status, answer = await post(server, create(world_path("duo")), **headers)
        assert status == 200 and answer["error"]["code"] == -32003, headers
    status, _ = await post(server, create(world_path("duo")), Origin=EVIL)
    assert status == 403, "a page elsewhere is not let in at all"
    _, answer = await post(server, create(world_path("duo")), Origin=allowed, Authorization=f"Bearer {AUTHOR}")
    assert "result" in answer, "another page may still be an author by the token"


async def test_forwarded_addresses_count_only_behind_a_trusted_proxy(start: Start) -> None:
    slow = {"rate": 0.001, "burst": 1.0}  # ten requests an address without a session
    for trusted, shared in (((), True), (("127.0.0.1",), False)):
        server = await start(trusted_proxies=trusted, **slow)
        for _ in range(10):
            _, answer = await post(server, WORLDS, **{"X-Forwarded-For": "198.51.100.1"})
            assert "result" in answer
        _status, answer = await post(server, WORLDS, **{"X-Forwarded-For": "198.51.100.2"})
        limited = "error" in answer and answer["error"]["code"] == -32006
        assert limited == shared, f"trusted {trusted}: another forwarded address limited: {limited}"


async def test_guessing_tokens_locks_out_the_guesser_only(start: Start) -> None:
    clock = StepClock()
    server = await start(clock=clock, token_failures=5, token_failure_every=10.0, trusted_proxies=("127.0.0.1",))
    guesser = {"X-Forwarded-For": "198.51.100.7"}
    for guess in range(5):
        _, answer = await post(server, STATE, Authorization=f"Bearer guess{guess:012d}", **guesser)
        assert answer["error"]["code"] == -32002
    _, answer = await post(server, create(world_path("duo")), Authorization=f"Bearer {AUTHOR}", **guesser)
    assert answer["error"]["code"] == -32006 and answer["error"]["data"]["retry_after"] > 0
    resume = {"jsonrpc": "2.0", "id": 2, "method": "resume", "params": {"token": "x" * 20}}
    _, answer = await post(server, resume, **guesser)
    assert answer["error"]["code"] == -32006, "resume is no way around it"
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await server.http.ws_connect(server.url + "/ws", headers={"Authorization": f"Bearer {AUTHOR}", **guesser})
    assert refused.value.status == 429
    other = {"X-Forwarded-For": "198.51.100.8"}
    _, answer = await post(server, create(world_path("duo")), Authorization=f"Bearer {AUTHOR}", **other)
    assert "result" in answer, "another address is served as before"
    clock.step(10.0)
    _status, answer = await post(server, create(world_path("duo")), Authorization=f"Bearer {AUTHOR}", **guesser)
    assert "result" in answer, "in time one more try is forgiven"


async def test_a_short_author_token_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 16"):
        Config(author_token="hunter2")
    assert Config(author_token="a" * 16).author_token


async def test_serve_will_not_start_with_a_short_token() -> None:
    environment = {**os.environ, "CURVESHIP_AUTHOR_TOKEN": "hunter2"}
    ran = subprocess.run(
        [sys.executable, "-m", "clients.cli.main", "serve", "--port", "0"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=30,
        cwd=ROOT,
    )
    assert ran.returncode == 1 and "at least 16" in ran.stderr, ran.stderr
