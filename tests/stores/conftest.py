"""The two stores under test: SQLite in a temporary data directory, and PostgreSQL on 127.0.0.1:5432 in a
database made for this test run and dropped after it. Where PostgreSQL cannot be reached its tests skip and
say why, except in CI ($CI set), where they fail."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest
import pytest_asyncio

from server.stores import Store
from server.stores.postgres import PostgresStore
from server.stores.sqlite import SqliteStore

SERVER = os.environ.get("CURVESHIP_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
"""A PostgreSQL server to make the test databases on (its `postgres` database is only used to make them)."""

Opener = Callable[..., Awaitable[Store]]


def on_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


async def _admin(sql: str) -> None:
    connection = await asyncpg.connect(SERVER, timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def _blocking(sql: str) -> None:
    """`sql` on the server, from any thread, whether or not an event loop runs in this one."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, _admin(sql)).result()


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """The URL of a database of this run's own (one per test worker), dropped at the end."""
    name = f"curveship_test_{secrets.token_hex(6)}"
    try:
        _blocking(f'CREATE DATABASE "{name}"')
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as error:
        reason = f"PostgreSQL is not reachable at {SERVER} ({type(error).__name__}: {error})"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; in CI the cluster's tests must run", pytrace=False)
        pytest.skip(f"{reason}; start it (or point $CURVESHIP_TEST_POSTGRES at one) to run these tests")
    try:
        yield on_database(SERVER, name)
    finally:
        _blocking(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def emptied(url: str) -> str:
    """The run's database, emptied of what an earlier test stored (the schema, once made, stays)."""
    connection = await asyncpg.connect(url)
    try:
        if await connection.fetchval("SELECT to_regclass('instances') IS NOT NULL"):
            await connection.execute("TRUNCATE instances CASCADE")
    finally:
        await connection.close()
    return url


@pytest_asyncio.fixture
async def postgres_url(postgres_database: str) -> str:
    return await emptied(postgres_database)


@pytest.fixture(params=["sqlite", "postgresql"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest_asyncio.fixture
async def opener(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Opener]:
    """open(**options): a store of the kind under test, on the same data each time (a second one opened
    after closing the first is a restart); every one still open is closed at the end."""
    url = await emptied(request.getfixturevalue("postgres_database")) if kind == "postgresql" else ""
    opened: list[Store] = []

    async def open_(**options: Any) -> Store:
        store: Store
        if kind == "sqlite":
            store = SqliteStore(tmp_path / "data", **options)
        else:
            store = await PostgresStore.connect(url, **options)
        opened.append(store)
        return store

    yield open_
    for store in opened:
        with contextlib.suppress(RuntimeError):  # closed by the test already
            await store.close()


NATS = os.environ.get("CURVESHIP_TEST_NATS", "nats://127.0.0.1:4222")
"""The NATS server a cluster's nodes are tested over."""


@pytest_asyncio.fixture
async def nats_url() -> str:
    """The NATS server's URL, once it answers; where it does not, the cluster's tests skip and say why, except
    in CI, where they fail."""
    import nats

    try:
        connection = await nats.connect(NATS, connect_timeout=3, max_reconnect_attempts=0, allow_reconnect=False)
    except Exception as error:  # nats-py's own kinds, and OSError
        reason = f"NATS is not reachable at {NATS} ({type(error).__name__}: {error})"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; in CI the cluster's tests must run", pytrace=False)
        pytest.skip(f"{reason}; start it (or point $CURVESHIP_TEST_NATS at one) to run these tests")
    await connection.close()
    return NATS
