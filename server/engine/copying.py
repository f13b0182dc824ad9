"""A dataclass copied with some fields changed, as `dataclasses.replace` does, for about two-thirds of its cost."""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


@dataclasses.dataclass(frozen=True, slots=True)
class _Layout:
    """How one class is copied: its __init__'s fields in order, read all at once, and where each one goes."""

    read: Callable[[Any], tuple[Any, ...]]
    place: dict[str, int]
    names: tuple[str, ...] | None
    """The fields by name, when __init__ takes them by keyword only."""


_LAYOUTS: dict[type, _Layout | None] = {}
"""Per class, its layout; None for a class `dataclasses.replace` itself must copy (init-only variables or class
variables among its fields, or a single field)."""


def _layout(cls: type) -> _Layout | None:
    if cls in _LAYOUTS:
        return _LAYOUTS[cls]
    every = dataclasses.fields(cls)  # type: ignore[arg-type]
    names = [f.name for f in every if f.init]
    simple = len(every) == len(cls.__dataclass_fields__) and len(names) > 1  # type: ignore[attr-defined]
    by_keyword = tuple(names) if any(f.init and f.kw_only for f in every) else None
    place = {name: i for i, name in enumerate(names)}
    found = _Layout(operator.attrgetter(*names), place, by_keyword) if simple else None
    _LAYOUTS[cls] = found
    return found


def replace(obj: T, /, **changes: Any) -> T:
    """`dataclasses.replace(obj, **changes)`: the same object, made the same way (through the class's __init__,
    so any __post_init__ runs), without working out the class's fields on every call, which is most of what
    `dataclasses.replace` costs (the narrator copies its drafts some eighty times a command). A name that is no
    field __init__ takes is left to `dataclasses.replace`, for its own error."""
    layout = _layout(type(obj))
    if layout is None:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    values = list(layout.read(obj))
    place = layout.place
    for name, value in changes.items():
        where = place.get(name)
        if where is None:
            return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
        values[where] = value
    if layout.names is not None:
        return type(obj)(**dict(zip(layout.names, values, strict=True)))
    return type(obj)(*values)
