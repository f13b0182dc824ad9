"""Leases on instances in PostgreSQL: one writer per instance at a time, fenced by a token that only grows.

A lease is a row of `leases`: the instance, its owner (a node's name), a fencing token and an expiry by the
database's clock (`now()`), so the nodes' own clocks need not agree. It is PostgreSQL's own machinery
throughout, used as its documentation describes; nothing here votes or elects:

1. Claiming is one `INSERT … ON CONFLICT (instance) DO UPDATE … WHERE` statement: the row is made, or taken
   over when it has expired (or was released, or is the claimer's own), with a new token from a sequence.
   PostgreSQL guarantees that statement an atomic insert-or-update outcome even when many run at once (the
   later one waits on the row lock, then judges the condition on the row as the first left it): of two
   nodes racing, exactly one gets a row back; the other is told who holds it.
2. Every write to an instance runs in a transaction that first reads its lease row `FOR UPDATE` and goes on
   only if the token is still the one this node was given. The row lock orders the write and any takeover:
   either the write commits first (and the new owner, claiming after it, reads it back from the log), or the
   takeover commits first (and the write sees the new token and is refused, Fenced, with nothing of it kept).
   So a node that was paused past its lease, and still believes it owns the instance, cannot write it.
3. Renewing pushes the expiry on, only where the token is still ours (`UPDATE … FROM unnest(…)`); releasing
   sets the expiry to '-infinity', keeping the row (and so the token's history) for the next claim.

Tokens come from one sequence for all instances, so they never repeat, not even for an instance retired and
made again under the same id.
"""

from __future__ import annotations

from typing import Any

from server.stores.records import Fenced, Lease

TABLES = """
CREATE SEQUENCE IF NOT EXISTS lease_tokens;
CREATE TABLE IF NOT EXISTS leases (
    instance TEXT PRIMARY KEY REFERENCES instances(id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    token BIGINT NOT NULL,
    expires TIMESTAMPTZ NOT NULL
);
"""

_CLAIM = """
INSERT INTO leases AS held (instance, owner, token, expires)
VALUES ($1, $2, nextval('lease_tokens'), now() + make_interval(secs => $3))
ON CONFLICT (instance) DO UPDATE
    SET owner = excluded.owner, token = excluded.token, expires = excluded.expires
    WHERE held.expires <= now() OR held.owner = excluded.owner
RETURNING owner, token, extract(epoch FROM expires)::float8 AS expires
"""

_HELD = "SELECT owner, token, extract(epoch FROM expires)::float8 AS expires FROM leases WHERE instance = $1"

_RENEW = """
UPDATE leases SET expires = now() + make_interval(secs => $3)
FROM unnest($1::text[], $2::bigint[]) AS mine(instance, token)
WHERE leases.instance = mine.instance AND leases.token = mine.token
RETURNING leases.instance
"""


def _lease(instance: str, row: Any) -> Lease:
    return Lease(instance, row["owner"], int(row["token"]), float(row["expires"]))


async def claim(connection: Any, instance: str, node: str, seconds: float) -> Lease:
    """The instance's lease for `node`, for `seconds`; Fenced (naming the holder) while another's is live."""
    row = await connection.fetchrow(_CLAIM, instance, node, seconds)
    if row is not None:
        return _lease(instance, row)
    holder = await current(connection, instance)
    owner = holder.owner if holder else None
    raise Fenced(instance, f"owned by node {owner} (lease token {holder.token if holder else '?'})", owner)


async def current(connection: Any, instance: str) -> Lease | None:
    row = await connection.fetchrow(_HELD, instance)
    return None if row is None else _lease(instance, row)


async def check(connection: Any, held: Lease | None, instance: str, node: str) -> None:
    """In a write's transaction, before anything is written: the lease row locked, and the token still ours."""
    if held is None:
        raise Fenced(instance, f"this node ({node}) holds no lease on it; its write was refused")
    row = await connection.fetchrow("SELECT owner, token FROM leases WHERE instance = $1 FOR UPDATE", instance)
    if row is None or int(row["token"]) != held.token:
        owner = None if row is None else str(row["owner"])
        taken = "its lease is gone" if row is None else f"node {owner} took it over (token {row['token']})"
        raise Fenced(instance, f"{taken}; this node's write under token {held.token} was refused", owner)


async def renew(connection: Any, held: list[Lease], seconds: float) -> set[str]:
    """Push on the expiry of each lease whose token is still ours; the instances of those renewed."""
    if not held:
        return set()
    rows = await connection.fetch(_RENEW, [lease.instance for lease in held], [lease.token for lease in held], seconds)
    return {row["instance"] for row in rows}


async def release(connection: Any, held: Lease) -> None:
    """Expired at once, for any node to claim; the row stays, so the next token is still a greater one."""
    await connection.execute(
        "UPDATE leases SET expires = '-infinity' WHERE instance = $1 AND token = $2", held.instance, held.token
    )
