"""Ownership in a cluster: two nodes (two stores on one PostgreSQL database) and one instance. Whoever holds its
lease writes it; a node that lost it — or never had it — is refused (Fenced), and nothing of its write is kept."""

from __future__ import annotations

import asyncio

import pytest

from server.stores import Fenced, StoredInstance
from server.stores.postgres import PostgresStore

pytestmark = pytest.mark.asyncio

LONG = 60.0
"""A lease that cannot run out while a test runs."""


def made(id: str) -> StoredInstance:
    return StoredInstance(id, "cloak", "f" * 32, 1, {}, 0, False)


def said(node: str, n: int) -> tuple[str, str, str]:
    return ("command", "@visitor", f"say {node} {n}")


async def appended(store: PostgresStore, instance: str, at: int, entry: tuple[str, str, str]) -> None:
    await store.record(instance, cut=at, entries=[entry], turn=at + 1, ended=False)


async def nodes(url: str, *names_and_seconds: tuple[str, float]) -> list[PostgresStore]:
    return [await PostgresStore.connect(url, node=name, lease_seconds=s) for name, s in names_and_seconds]


async def test_two_nodes_racing_for_one_instance_one_wins_and_only_it_writes(postgres_url: str) -> None:
    maker, a, b = await nodes(postgres_url, ("maker", LONG), ("a", LONG), ("b", LONG))
    try:
        await maker.add_instance(made("i1"))
        await maker.release("i1")
        outcomes = await asyncio.gather(a.claim("i1"), b.claim("i1"), return_exceptions=True)
        won = [store for store, outcome in zip((a, b), outcomes, strict=True) if not isinstance(outcome, Exception)]
        lost = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
        assert len(won) == 1 and len(lost) == 1, outcomes
        (winner,) = won
        loser = b if winner is a else a
        assert isinstance(lost[0], Fenced) and lost[0].owner == winner.node
        # Both write as if they owned it; the loser's write is refused, the winner's kept.
        results = await asyncio.gather(
            appended(winner, "i1", 0, said(winner.node, 0)),
            appended(loser, "i1", 0, said(loser.node, 0)),
            return_exceptions=True,
        )
        assert results[0] is None and isinstance(results[1], Fenced)
        assert await maker.log("i1") == [said(winner.node, 0)]
        held = await maker.lease("i1")
        assert held is not None and held.owner == winner.node
    finally:
        for store in (maker, a, b):
            await store.close()


async def test_a_node_whose_lease_ran_out_and_was_taken_over_cannot_write(postgres_url: str) -> None:
    # Node a's lease is over as soon as it is given (0 s): as if a had been paused past it.
    a, b = await nodes(postgres_url, ("a", 0.0), ("b", LONG))
    try:
        first = await a.add_instance(made("i1"))
        await appended(a, "i1", 0, said("a", 0))  # expired, but nobody took it over: still a's to write
        taken = await b.claim("i1")
        assert taken.token > first.token
        with pytest.raises(Fenced, match="node b took it over") as refused:
            await appended(a, "i1", 1, said("a", 1))
        assert refused.value.owner == "b"
        assert await a.renew() == []  # a lets go of what it no longer holds (it was dropped when refused)
        await appended(b, "i1", 1, said("b", 1))
        assert await b.log("i1") == [said("a", 0), said("b", 1)]
        with pytest.raises(Fenced):  # and a cannot take it back while b's lease is live
            await a.claim("i1")
    finally:
        await a.close()
        await b.close()


async def test_renewing_tells_a_node_which_instances_it_lost(postgres_url: str) -> None:
    a, b = await nodes(postgres_url, ("a", 0.0), ("b", LONG))
    try:
        await a.add_instance(made("i1"))
        await a.add_instance(made("i2"))
        await b.claim("i2")
        assert await a.renew() == ["i2"]
        await appended(a, "i1", 0, said("a", 0))  # the one it kept is still its own
        with pytest.raises(Fenced, match="holds no lease"):
            await appended(a, "i2", 0, said("a", 0))
    finally:
        await a.close()
        await b.close()


async def test_a_takeover_in_the_middle_of_a_stream_of_writes_loses_none_it_accepted(postgres_url: str) -> None:
    """Node a writes as fast as it can; node b takes the instance over meanwhile. Every write of a's that was
    accepted is in the log b reads after its claim, and every one after the claim was refused: the row lock on
    the lease puts each write wholly before or wholly after the takeover."""
    a, b = await nodes(postgres_url, ("a", 0.0), ("b", LONG))
    try:
        await a.add_instance(made("i1"))
        accepted: list[tuple[str, str, str]] = []
        started = asyncio.Event()

        async def stream() -> Fenced:
            n = 0
            while True:
                try:
                    await appended(a, "i1", n, said("a", n))
                except Fenced as refused:
                    return refused
                accepted.append(said("a", n))
                n += 1
                if n == 3:
                    started.set()

        writer = asyncio.create_task(stream())
        await started.wait()
        await b.claim("i1")
        seen = await b.log("i1")
        refusal = await asyncio.wait_for(writer, 20)
        assert refusal.owner == "b"
        assert seen == accepted and len(accepted) >= 3
        await appended(b, "i1", len(seen), said("b", 0))
        assert await b.log("i1") == [*accepted, said("b", 0)]
    finally:
        await a.close()
        await b.close()


async def test_a_released_instance_is_claimed_at_once_with_a_greater_token(postgres_url: str) -> None:
    a, b = await nodes(postgres_url, ("a", LONG), ("b", LONG))
    try:
        first = await a.add_instance(made("i1"))
        with pytest.raises(Fenced, match="owned by node a"):
            await b.claim("i1")
        assert await a.renew() == []
        await a.release("i1")
        second = await b.claim("i1")
        assert second.token > first.token
        with pytest.raises(Fenced):
            await appended(a, "i1", 0, said("a", 0))
    finally:
        await a.close()
        await b.close()


async def test_an_instance_made_again_under_the_same_id_never_reuses_a_token(postgres_url: str) -> None:
    (a,) = await nodes(postgres_url, ("a", LONG))
    try:
        first = await a.add_instance(made("i1"))
        await a.delete_instance("i1")
        second = await a.add_instance(made("i1"))
        assert second.token > first.token
    finally:
        await a.close()
