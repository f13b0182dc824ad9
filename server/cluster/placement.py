"""Which worker or node holds an instance: by a hash of its id (the workers of one machine), or by its lease.

1. `Hashed`, for `serve --workers N` on one data directory: a stable rule on the id, so every worker can tell
   with nothing to look up which one holds any instance, and a restart with as many workers gives each the
   same share. New instances are dealt out in turn, and their ids drawn from the share of the one making them.
2. `Leased`, for nodes on PostgreSQL and NATS: the instance is held by the node holding its lease
   (server/stores/leases.py). A node asked about an instance whose lease is free, expired or its own claims it
   there and then, so of two nodes asked at once one holds it and the other is told which; a node killed
   outright has its leases run out, and the first node asked after that takes the instance up from its log.
   A session's token is found in the store (its instance, then that instance's holder), so a client may come
   back to any node. New instances are made where they are asked for.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import Protocol

from server.host import Host
from server.stores import Fenced, StoreError
from server.stores.postgres import PostgresStore

log = logging.getLogger(__name__)


def owner_of(instance_id: str, workers: int) -> int:
    """The worker (0 … workers-1) that holds an instance: a hash of its id, the same in every process."""
    digest = hashlib.blake2b(instance_id.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % workers


class Placement(Protocol):
    """Where instances are held, as one worker or node sees it (`me`)."""

    me: str

    def owns(self, instance_id: str) -> bool:
        """Whether this one may hold the instance at all (its share, or any: the lease decides)."""

    async def holder(self, instance_id: str) -> str:
        """The one that holds the instance now (this one's name when it is, or may be, held here)."""

    def deal(self) -> str:
        """Where a new instance is made."""

    async def settled(self) -> None:
        """Until the instances this one is taking up are taken up (a call forwarded here for one waits)."""


class Hashed:
    """The workers of one machine: `index` of `size`, holding the instances whose ids hash to it."""

    def __init__(self, index: int, size: int) -> None:
        self.me = str(index)
        self.index = index
        self.size = size
        self._dealt = index - 1
        """The worker the last `create` went to."""

    def owns(self, instance_id: str) -> bool:
        return owner_of(instance_id, self.size) == self.index

    async def holder(self, instance_id: str) -> str:
        return str(owner_of(instance_id, self.size))

    def deal(self) -> str:
        # Dealt out in turn, so the workers share new instances whoever makes them (a load generator makes
        # them all over one connection, which one worker took).
        self._dealt = (self._dealt + 1) % self.size
        return str(self._dealt)

    async def settled(self) -> None:
        pass


class Leased:
    """A node of a cluster on PostgreSQL: it holds the instances whose leases it holds."""

    me = ""

    def __init__(self) -> None:
        self._taking: dict[str, asyncio.Future[str]] = {}
        """Instances being claimed and read here, with who turned out to hold each."""

    def attach(self, host: Host) -> None:
        """Place by the leases of `host`'s store, once it is open: this node is named as its leases are."""
        store = getattr(host.keeper, "store", None)
        if not isinstance(store, PostgresStore):
            raise StoreError(
                "a cluster's nodes (--bus) keep their instances in PostgreSQL: give --store postgresql://…"
            )
        self.host, self.store, self.me = host, store, store.node

    def owns(self, instance_id: str) -> bool:
        return True  # any node may hold any instance; the lease says which one does

    async def holder(self, instance_id: str) -> str:
        taking = self._taking.get(instance_id)
        if taking is not None:  # asked again while it is being taken up here: the same answer
            return await asyncio.shield(taking)
        if self.store.holds(instance_id):
            return self.me
        taking = self._taking[instance_id] = asyncio.ensure_future(self._take_up(instance_id))
        taking.add_done_callback(lambda _: self._taking.pop(instance_id, None))
        return await asyncio.shield(taking)  # one caller going away does not cut the taking up short

    async def _take_up(self, instance_id: str) -> str:
        try:
            await self.store.claim(instance_id)
        except Fenced as taken:
            if taken.owner is not None:
                return taken.owner
            raise
        except StoreError:  # not stored (an id nobody made): answered here, as an unknown instance
            return self.me
        await self.host.adopt(instance_id)
        return self.me

    async def settled(self) -> None:
        # A node that claimed an instance a moment ago is named its holder at once, so another node may
        # forward a call for it before it has read the instance's sessions: that call waits for them.
        if self._taking:
            await asyncio.gather(*(asyncio.shield(t) for t in list(self._taking.values())), return_exceptions=True)

    def deal(self) -> str:
        return self.me

    async def holder_of_session(self, token: str) -> str | None:
        """The node holding the session of `token` (None: there is no session of that token)."""
        instance_id = self.host.instance_of(token) or await self.store.instance_of(token)
        return None if instance_id is None else await self.holder(instance_id)
