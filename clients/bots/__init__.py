"""Bots over the protocol: a typed client (async and sync), a Gymnasium environment, search by fork, load.

Importing this package registers one Gymnasium id per interactive world that ships, `curveship/<world>`
(`gymnasium.make("curveship/cloak")`); keyword arguments to `make` go to `clients.bots.env.CurveshipEnv`.
"""

from __future__ import annotations

import importlib.util
import pkgutil

from clients.bots.client import AsyncBot, Bot, CallError, ConnectionLost, NotSent, Status

__all__ = ["AsyncBot", "Bot", "CallError", "ConnectionLost", "NotSent", "Status", "register", "shipped_worlds"]

NOT_INTERACTIVE = frozenset({"robbery"})
"""Worlds that ship but are told, not played: no environment for them."""


def shipped_worlds() -> list[str]:
    """The interactive worlds in the `worlds` package, found by their module names (none is imported: a
    client never loads the server's code)."""
    found = importlib.util.find_spec("worlds")
    where = list(found.submodule_search_locations or []) if found is not None else []
    names = (info.name for info in pkgutil.iter_modules(where))
    return sorted(name for name in names if not name.startswith("_") and name not in NOT_INTERACTIVE)


def register() -> list[str]:
    """Register `curveship/<world>` for each shipped interactive world (again: a no-op); the ids."""
    import gymnasium

    ids = []
    for world in shipped_worlds():
        env_id = f"curveship/{world}"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="clients.bots.env:CurveshipEnv", kwargs={"world": world})
        ids.append(env_id)
    return ids


register()
