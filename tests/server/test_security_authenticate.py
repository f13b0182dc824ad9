"""An author in band: `authenticate {token}` makes a connection an author's (a browser's WebSocket cannot send an
`Authorization` header), only with the author token, and guessing it locks the guesser out as a wrong bearer
token does."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from tests.helpers import StepClock
from tests.server.conftest import AUTHOR, Server, Start, world_path
from tests.wire import Http, Socket

pytestmark = pytest.mark.asyncio


async def test_a_socket_that_shows_the_author_token_acts_as_an_author(server: Server) -> None:
    socket = await server.socket()
    await socket.fail(-32003, "create", world=world_path("duo"))
    assert (await socket.ok("authenticate", token=AUTHOR)) == {"author": True}
    instance = (await socket.ok("create", world=world_path("duo")))["instance"]
    await socket.ok("join", instance=instance, actor="@ann")
    assert (await socket.ok("state"))["author"] is True
    assert (await socket.ok("world"))["tree"], "the true world is shown to an author"
    other = await server.socket()  # another connection is not an author for it
    await other.fail(-32003, "create", world=world_path("duo"))


async def test_a_session_joined_before_stays_a_players(server: Server) -> None:
    socket = await server.socket()
    await socket.ok("join", instance=await server.create("cloak"))
    await socket.ok("authenticate", token=AUTHOR)
    await socket.fail(-32003, "world")
    again = await server.socket()
    await again.ok("resume", token=socket.token)
    await again.fail(-32003, "world")


async def test_a_wrong_token_is_refused_and_says_nothing_more(server: Server) -> None:
    socket = await server.socket()
    error = await socket.fail(-32003, "authenticate", token="x" * len(AUTHOR))
    assert error["data"] == {"field": "token"} and AUTHOR not in json.dumps(error)
    await socket.fail(-32003, "create", world=world_path("duo"))
    await socket.fail(-32602, "authenticate", token="short")


async def test_over_http_it_holds_for_the_rest_of_the_batch(server: Server) -> None:
    def request(id_: int, method: str, **params: Any) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": id_, "method": method, "params": params}

    status, answers = await server.post(
        [request(1, "authenticate", token=AUTHOR), request(2, "create", world=world_path("duo"))]
    )
    assert status == 200 and all("result" in answer for answer in answers), answers
    await Http(server).fail(-32003, "create", world=world_path("duo"))


async def test_guessing_it_locks_out_the_guesser_only(start: Start) -> None:
    clock = StepClock()
    server = await start(clock=clock, token_failures=5, token_failure_every=10.0, trusted_proxies=("127.0.0.1",))

    async def socket_from(address: str) -> Socket:
        return Socket(await server.http.ws_connect(server.url + "/ws", headers={"X-Forwarded-For": address}))

    guesser = await socket_from("198.51.100.7")
    for guess in range(5):
        await guesser.fail(-32003, "authenticate", token=f"guess{guess:012d}")
    error = await guesser.fail(-32006, "authenticate", token=AUTHOR)
    assert error["data"]["retry_after"] > 0, "locked out: not even the right token is tried"
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await server.http.ws_connect(
            server.url + "/ws", headers={"X-Forwarded-For": "198.51.100.7", "Authorization": f"Bearer {AUTHOR}"}
        )
    assert refused.value.status == 429, "nor by a bearer header: the lockout is one"
    other = await socket_from("198.51.100.8")
    assert (await other.ok("authenticate", token=AUTHOR))["author"], "another address is served as before"
    clock.now += 10.0
    assert (await guesser.ok("authenticate", token=AUTHOR))["author"], "in time one more try is forgiven"


async def test_the_discovery_document_describes_it(server: Server) -> None:
    async with server.http.get(server.url + "/openrpc.json") as response:
        document = await response.json()
    (method,) = [entry for entry in document["methods"] if entry["name"] == "authenticate"]
    assert [param["name"] for param in method["params"]] == ["token"]
    assert {-32003, -32006} <= {error["code"] for error in method["errors"]}
    assert method["result"]["name"] == "AuthenticateResult"
    assert "author" in document["components"]["schemas"]["AuthenticateResult"]["properties"]
