"""The browser client's files as the server serves them: at / and /web/, from any directory, with a policy that
lets nothing in from elsewhere, caching that never serves a stale client, and nothing outside its folder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from server.app import create_app
from server.web import WEB_CLIENT, add_browser_client


async def _client(app: web.Application) -> TestClient:
    client = TestClient(TestServer(app))
    await client.start_server()
    return client


@pytest_asyncio.fixture
async def client() -> AsyncIterator[TestClient]:
    served = await _client(create_app())
    yield served
    await served.close()


@pytest.mark.asyncio
async def test_the_root_is_the_browser_client_with_a_policy_allowing_nothing_from_elsewhere(client: TestClient) -> None:
    answer = await client.get("/")
    assert answer.status == 200 and answer.content_type == "text/html"
    assert '<script type="module" src="/web/js/app.js">' in await answer.text()
    policy = dict(part.strip().split(" ", 1) for part in answer.headers["Content-Security-Policy"].split(";"))
    assert policy["default-src"] == "'none'"
    for source in ("script-src", "style-src", "connect-src", "img-src"):
        assert policy[source] == "'self'", "no other origin, no inline code"
    assert policy["frame-ancestors"] == "'none'"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.asyncio
async def test_files_are_revalidated_each_time_and_unchanged_ones_cost_no_body(client: TestClient) -> None:
    first = await client.get("/web/js/rpc.js")
    assert first.status == 200 and first.headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert first.headers["Cache-Control"] == "no-cache"
    assert "export class Connection" in await first.text()
    again = await client.get("/web/js/rpc.js", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status == 304 and await again.read() == b""
    style = await client.get("/web/style.css")
    assert style.content_type == "text/css" and "prefers-color-scheme: dark" in await style.text()


@pytest.mark.asyncio
@pytest.mark.parametrize("path", ["/web/../server/app.py", "/web/%2e%2e/server/app.py", "/web/nosuch.js", "/web/js"])
async def test_nothing_outside_the_clients_folder_is_served(client: TestClient, path: str) -> None:
    answer = await client.get(path)
    assert answer.status == 404
    assert "import" not in await answer.text()


@pytest.mark.asyncio
async def test_a_server_without_the_client_says_where_to_go_instead(tmp_path: Path) -> None:
    app = web.Application()
    add_browser_client(app, tmp_path)
    client = await _client(app)
    try:
        answer = await client.get("/")
        assert answer.status == 404 and "POST /rpc" in await answer.text()
    finally:
        await client.close()


def test_the_client_is_found_from_the_package_not_the_working_directory() -> None:
    assert WEB_CLIENT.is_absolute() and (WEB_CLIENT / "index.html").is_file()
