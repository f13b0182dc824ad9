"""The worlds that ship with Curveship, one module each, and their walkthroughs in walks/."""

import pkgutil


def names() -> list[str]:
    """The worlds that ship here, by module name (found without importing any: a client lists them too)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
