"""Writes: changes arriving together are committed together, each answered only once committed, and one that
fails takes back only itself."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from protocol import messages as m
from protocol.errors import Code, RpcError
from server.host import Host
from server.persist import Keeper
from server.stores import StoredInstance, StoreError
from server.stores.sqlite import SqliteStore
from tests.helpers import disk_space
from tests.persistence.conftest import read_rows

pytestmark = pytest.mark.asyncio


async def test_many_players_at_once_are_all_kept(tmp_path: Path) -> None:
    data = tmp_path / "data"
    keeper = Keeper(SqliteStore(data))
    host = Host(keeper=keeper)
    sessions = []
    for seed in range(12):
        instance = (await host.create(m.CreateParams(world="cloak_plus", seed=seed), author=True)).instance
        sessions.append((await host.join(m.JoinParams(instance=instance), author=False))[0])

    async def play(index: int) -> None:
        for text in ("i", "w", "e", "look")[: 1 + index % 4]:
            await host.command(sessions[index], text)
            # Answered only once committed: what the store has is already where the story is.
            instance = sessions[index].instance
            stored = read_rows(data, "SELECT turn FROM instances WHERE id = ?", instance.id)
            assert stored == [(instance.story.turn,)]

    await asyncio.gather(*(play(index) for index in range(len(sessions))))
    await keeper.flushed()
    await keeper.close()
    for session in sessions:
        log = read_rows(data, "SELECT count(*) FROM log WHERE instance = ?", session.instance.id)
        assert log == [(len(session.instance.story.log),)]


async def test_a_change_that_fails_takes_back_only_itself(tmp_path: Path) -> None:
    keeper = Keeper(SqliteStore(tmp_path / "data"))

    def instance(name: str) -> StoredInstance:
        return StoredInstance(name, "cloak", "f" * 32, 1, {}, 0, False)

    # The same id twice: the second insert fails, in whatever batch it lands, and the others are kept.
    results = await asyncio.gather(
        *(keeper.store.add_instance(instance(name)) for name in "abcadef"), return_exceptions=True
    )
    failed = [result for result in results if isinstance(result, BaseException)]
    assert len(failed) == 1 and isinstance(failed[0], sqlite3.IntegrityError)
    assert sorted(stored.id for stored in await keeper.store.instances()) == list("abcdef")
    await keeper.close()


async def test_a_change_the_store_cannot_take_is_not_made_and_its_instance_comes_back_as_stored(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    keeper = Keeper(SqliteStore(data))
    host = Host(keeper=keeper)
    instance = (await host.create(m.CreateParams(world="cloak_plus", seed=4), author=True)).instance
    session, joined = await host.join(m.JoinParams(instance=instance), author=False)
    await host.command(session, "w")
    stored = await host.state(session)

    disk_space(keeper.store, 0)  # the disk goes away under the server: every write fails from now on
    with pytest.raises(RpcError) as failed:
        await host.command(session, "take lamp")
    assert failed.value.code == Code.INTERNAL_ERROR
    assert failed.value.message.startswith("The change could not be stored, so it is not made")
    # Nobody sees the change that was not kept: the instance and its sessions are out of service.
    with pytest.raises(RpcError) as gone:
        host.session(joined.token)
    assert gone.value.code == Code.NO_SESSION and "could not be stored" in gone.value.message
    with pytest.raises(RpcError) as unknown:
        await host.join(m.JoinParams(instance=instance), author=False)
    assert unknown.value.code == Code.UNKNOWN and "out of service" in unknown.value.message
    await keeper.close()

    # After a restart it is back as it was last stored, the lamp still where it was; the token works again.
    keeper = Keeper(SqliteStore(data))
    host = Host(keeper=keeper)
    await host.reload()
    again, _ = await host.resume(joined.token)
    assert await host.state(again) == stored
    assert host.instances[instance].story.simulation.world.parent("@lamp") != "@operagoer"
    await keeper.close()


async def test_a_writer_process_that_dies_is_started_again_and_what_it_had_committed_comes_back(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    keeper = Keeper(SqliteStore(data))
    store = keeper.store
    assert isinstance(store, SqliteStore)
    host = Host(keeper=keeper)
    instance = (await host.create(m.CreateParams(world="cloak_plus", seed=4), author=True)).instance
    session, joined = await host.join(m.JoinParams(instance=instance), author=False)
    await host.command(session, "w")
    stored = await host.state(session)
    first = store.writer_pid
    assert first is not None

    os.kill(first, signal.SIGKILL)  # out of memory, say: the server lives on
    with pytest.raises(RpcError) as failed:
        await host.command(session, "take lamp")
    assert failed.value.message.startswith("The change could not be stored, so it is not made")

    assert await host.revive() == [instance], "the next write starts another writer"
    assert store.writer_pid not in (None, first)
    again, _ = await host.resume(joined.token)
    assert await host.state(again) == stored, "back as last committed, the lamp not taken"
    await host.command(again, "n")
    await keeper.close()

    keeper = Keeper(SqliteStore(data))
    host = Host(keeper=keeper)
    await host.reload()
    resumed, _ = await host.resume(joined.token)
    assert (await host.state(resumed)).turn == stored.turn + 1, "what the new writer committed is kept"
    await keeper.close()


async def test_a_server_started_beside_another_server_package_writes_with_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "server" / "stores").mkdir(parents=True)
    (tmp_path / "server" / "__init__.py").write_text("raise SystemExit('the wrong server package was imported')\n")
    monkeypatch.chdir(tmp_path)  # where the writer process starts: nothing there is imported
    store = SqliteStore(tmp_path / "data")
    await store.add_instance(StoredInstance("i1", "cloak", "f", 1, {}, 0, False))
    assert [stored.id for stored in await store.instances()] == ["i1"]
    await store.close()


async def test_a_change_larger_than_the_pipe_to_the_writer_arrives_whole_and_in_order(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "data")
    await store.add_instance(StoredInstance("i1", "cloak", "f", 1, {}, 0, False))
    blob = os.urandom(5 << 20)  # five times what the pipe holds: sent a piece at a time as the writer reads
    stored = store.put_snapshot("i1", 1, blob)
    after = store.record("i1", cut=0, entries=[("command", "@you", "look")], turn=1, ended=False)
    await asyncio.gather(stored, after)
    assert await store.snapshot("i1") == (1, blob)
    assert await store.log("i1") == [("command", "@you", "look")]
    later = os.urandom(3 << 20)
    last = store.put_snapshot("i1", 1, later)
    await store.close()  # with most of it still to be sent: closing sends it, and waits for its commit
    assert last.done() and last.exception() is None
    store = SqliteStore(tmp_path / "data")
    assert await store.snapshot("i1") == (1, later)
    await store.close()


async def test_a_write_asked_for_while_the_store_closes_is_refused_not_left_to_a_new_writer(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "data")
    await store.add_instance(StoredInstance("i1", "cloak", "f", 1, {}, 0, False))
    closing = asyncio.ensure_future(store.close())
    await asyncio.sleep(0)  # close has begun, and waits on the writer
    with pytest.raises(StoreError, match="closed"):
        store.touch("i1")
    await closing
    again = SqliteStore(tmp_path / "data")  # the directory's lock was let go of: nothing else holds it
    assert [stored.id for stored in await again.instances()] == ["i1"]
    await again.close()


async def test_a_writer_that_cannot_be_started_is_a_clear_error_and_keeps_no_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patched:
        patched.setattr(sys, "executable", str(tmp_path / "gone" / "python3"))  # the interpreter upgraded away
        with pytest.raises(StoreError, match="the store's writer could not be started"):
            SqliteStore(tmp_path / "data")
    store = SqliteStore(tmp_path / "data")  # the directory's lock was let go of
    await store.add_instance(StoredInstance("i1", "cloak", "f", 1, {}, 0, False))
    assert [stored.id for stored in await store.instances()] == ["i1"]
    await store.close()
