"""The store's contract, the same tests on both stores: SQLite in a data directory and PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from server.stores import Store, StoredInstance, StoredSession, StoreError, open_store
from server.stores.postgres import PostgresStore
from server.stores.sqlite import SqliteStore
from tests.processes import free_port
from tests.stores.conftest import Opener

pytestmark = pytest.mark.asyncio

SPIN = {"narrator": "@visitor", "tense": "past"}


def made(id: str, world: str = "cloak", seed: int = 7) -> StoredInstance:
    return StoredInstance(id, world, "f" * 32, seed, SPIN, 0, False, creator="127.0.0.1", kept=True)


def seated(token: str, instance: str, name: str = "ann", seen: float = 1000.0) -> StoredSession:
    return StoredSession(token, instance, "@visitor", name, False, {"person": "second"}, ["@lamp"], seen=seen)


def commands(*texts: str) -> list[tuple[str, str, str]]:
    return [("command", "@visitor", text) for text in texts]


async def played(store: Store, instance: str, *texts: str, at: int = 0, **change: Any) -> None:
    """The commands `texts` logged from position `at`, the turn after them being `at + len(texts)`."""
    await store.record(instance, cut=at, entries=commands(*texts), turn=at + len(texts), ended=False, **change)


async def test_what_is_stored_comes_back_after_a_restart(opener: Opener) -> None:
    store = await opener()
    await store.add_instance(made("i1"))
    session = seated("t1", "i1")
    await played(store, "i1", "look", "n", "take lamp", digest="abc", sessions=[session])
    await store.put_snapshot("i1", 3, b"\x00snapshot\xff")
    await store.record("i1", cut=3, entries=[], turn=3, ended=False, digest="abc", saves={"before": commands("look")})
    await store.close()

    again = await opener()
    (stored,) = await again.instances()
    assert (stored.id, stored.world, stored.seed, stored.spin, stored.turn, stored.digest) == (
        "i1", "cloak", 7, SPIN, 3, "abc",
    )  # fmt: skip
    assert (stored.creator, stored.kept, stored.ended) == ("127.0.0.1", True, False)
    assert stored.active > 0
    assert await again.instance("i1") == stored
    assert await again.instance("nowhere") is None
    assert await again.log("i1") == commands("look", "n", "take lamp")
    assert await again.log("i1", start=2) == commands("take lamp")
    assert await again.snapshot("i1") == (3, b"\x00snapshot\xff")
    assert await again.saves("i1") == {"before": commands("look")}
    assert await again.sessions() == [session]
    assert await again.sessions("i1") == [session]
    assert await again.sessions("elsewhere") == []


async def test_an_undo_cuts_the_log_short_and_drops_the_snapshot_of_the_longer_one(opener: Opener) -> None:
    store = await opener()
    await store.add_instance(made("i1"))
    await played(store, "i1", "look", "n", "take lamp", "s")
    await store.put_snapshot("i1", 4, b"four")
    await played(store, "i1", "e", at=1, drop_snapshot=True)  # undone back to after "look", then "e"
    assert await store.log("i1") == commands("look", "e")
    assert await store.snapshot("i1") is None
    assert (await store.instances())[0].turn == 2


async def test_sessions_are_written_changed_and_let_go(opener: Opener) -> None:
    store = await opener()
    await store.add_instance(made("i1"))
    ann, bob = seated("ta", "i1", "ann"), seated("tb", "i1", "bob")
    await played(store, "i1", "look", sessions=[ann, bob])
    away = StoredSession(**{**_fields(ann), "detached": True, "mentioned": ["@lamp", "@mime"]})
    await played(store, "i1", "n", at=1, sessions=[away], gone=["tb"])
    assert await store.sessions() == [away]


async def test_a_session_unchanged_since_it_was_written_is_not_written_again(opener: Opener, kind: str) -> None:
    store = await opener()
    await store.add_instance(made("i1"))
    ann = seated("ta", "i1", "ann", seen=1000.0)
    await played(store, "i1", "look", sessions=[ann])
    await _rename_behind_its_back(store, "ta", "someone else")
    # Seen again half a second later, nothing else new: the row is left as it is (the rename stays).
    await played(store, "i1", "n", at=1, sessions=[seated("ta", "i1", "ann", seen=1000.5)])
    assert [s.name for s in await store.sessions()] == ["someone else"]
    # A change, and a later sighting, are written.
    await played(store, "i1", "s", at=2, sessions=[seated("ta", "i1", "ann", seen=1002.0)])
    assert [(s.name, s.seen) for s in await store.sessions()] == [("ann", 1002.0)]


async def test_retiring_an_instance_takes_all_of_it_and_nothing_else(opener: Opener) -> None:
    store = await opener()
    for id in ("i1", "i2"):
        await store.add_instance(made(id))
        await played(store, id, "look", sessions=[seated(f"t-{id}", id)], saves={"s": commands("look")})
        await store.put_snapshot(id, 1, b"one")
    await store.delete_instance("i1")
    assert [stored.id for stored in await store.instances()] == ["i2"]
    assert await store.log("i1") == []
    assert await store.snapshot("i1") is None
    assert await store.saves("i1") == {}
    assert [s.token for s in await store.sessions()] == ["t-i2"]
    assert await store.log("i2") == commands("look")


async def test_one_instances_writes_are_applied_in_the_order_they_were_asked_for(opener: Opener) -> None:
    store = await opener()
    await store.add_instance(made("i1"))
    texts = [f"say {n}" for n in range(40)]
    # Asked for all at once, none awaited before the next is asked: each appends at the position after the last.
    await asyncio.gather(*(played(store, "i1", text, at=n) for n, text in enumerate(texts)))
    assert await store.log("i1") == commands(*texts)


async def test_a_change_that_fails_takes_nothing_else_with_it(opener: Opener) -> None:
    store = await opener()
    await store.add_instance(made("i1"))
    await store.add_instance(made("i2"))
    outcomes = await asyncio.gather(
        played(store, "i1", "look"),
        played(store, "never-made", "look"),
        played(store, "i2", "n"),
        return_exceptions=True,
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], Exception)
    assert (await store.log("i1"), await store.log("i2")) == (commands("look"), commands("n"))
    assert await store.instance("never-made") is None


async def test_one_position_of_one_log_is_one_row(opener: Opener) -> None:
    store = await opener()
    await store.add_instance(made("i1"))
    await played(store, "i1", "look")
    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
        await _insert_log_row(store, "i1", 0, "command", "@visitor", "a second first command")
    assert await store.log("i1") == commands("look")


async def test_the_store_that_made_an_instance_holds_its_lease(opener: Opener) -> None:
    store = await opener()
    lease = await store.add_instance(made("i1"))
    assert (lease.instance, lease.owner) == ("i1", store.node)
    held = await store.lease("i1")
    assert held is not None and (held.owner, held.token) == (store.node, lease.token)
    again = await store.claim("i1")
    assert again.owner == store.node and again.token >= lease.token
    await played(store, "i1", "look")
    assert await store.log("i1") == commands("look")


async def test_the_url_names_the_store(tmp_path: Path) -> None:
    store = await open_store(None, tmp_path / "data")
    assert isinstance(store, SqliteStore)
    await store.close()
    with pytest.raises(StoreError, match="postgresql:// URL is expected"):
        await open_store("mysql://somewhere/db", tmp_path / "data")
    with pytest.raises(StoreError, match="no store"):
        await open_store(None, None)
    port = free_port()  # nothing listens there
    with pytest.raises(StoreError, match="cannot connect to PostgreSQL") as refused:
        await open_store(f"postgresql://curveship:secret@127.0.0.1:{port}/curveship", None)
    assert "secret" not in str(refused.value)


def _fields(session: StoredSession) -> dict[str, Any]:
    return {name: getattr(session, name) for name in StoredSession.__slots__}


async def _rename_behind_its_back(store: Store, token: str, name: str) -> None:
    """Change a session's row in the database directly, as no server would: to see whether it is written again."""
    if isinstance(store, SqliteStore):
        db = sqlite3.connect(store.path)
        with db:
            db.execute("UPDATE sessions SET name = ? WHERE token = ?", (name, token))
        db.close()
    else:
        assert isinstance(store, PostgresStore)
        await store.pool.execute("UPDATE sessions SET name = $1 WHERE token = $2", name, token)


async def _insert_log_row(store: Store, instance: str, seq: int, *entry: str) -> None:
    if isinstance(store, SqliteStore):
        db = sqlite3.connect(store.path)
        try:
            with db:
                db.execute("INSERT INTO log (instance, seq, entry, actor, text) VALUES (?, ?, ?, ?, ?)",
                           (instance, seq, *entry))  # fmt: skip
        finally:
            db.close()
    else:
        assert isinstance(store, PostgresStore)
        await store.pool.execute(
            "INSERT INTO log (instance, seq, entry, actor, text) VALUES ($1, $2, $3, $4, $5)", instance, seq, *entry
        )


async def test_changes_from_many_instances_arriving_together_share_one_commit(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "data")
    try:
        for n in range(20):
            await store.add_instance(made(f"i{n}"))
        before = store.commits
        await asyncio.gather(*(played(store, f"i{n}", "look") for n in range(20)))
        # The first change finds the writer idle and is committed alone; the 19 queued behind it, together.
        assert store.commits - before <= 2
        assert all([await store.log(f"i{n}") == commands("look") for n in range(20)])
    finally:
        await store.close()
