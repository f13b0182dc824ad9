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
    frozen: bool
    """Whether its instances never change: then a copy with nothing changed may be the original itself."""


_LAYOUTS: dict[type, _Layout | None] = {}
"""Per class, its layout; None for a class `dataclasses.replace` itself must copy (init-only variables or class
variables among its fields, or a single field)."""


def _layout(cls: type) -> _Layout | None:
    every = dataclasses.fields(cls)  # type: ignore[arg-type]
    names = [f.name for f in every if f.init]
    simple = len(every) == len(cls.__dataclass_fields__) and len(names) > 1  # type: ignore[attr-defined]
    by_keyword = tuple(names) if any(f.init and f.kw_only for f in every) else None
    place = {name: i for i, name in enumerate(names)}
    frozen = bool(cls.__dataclass_params__.frozen)  # type: ignore[attr-defined]
    found = _Layout(operator.attrgetter(*names), place, by_keyword, frozen) if simple else None
    _LAYOUTS[cls] = found
    return found


def replace(obj: T, /, **changes: Any) -> T:
    """`dataclasses.replace(obj, **changes)`: the same object, made the same way (through the class's __init__,
    so any __post_init__ runs), without working out the class's fields on every call, which is most of what
    `dataclasses.replace` costs (the parser copies its actions, the narrator its tokens and verb forms). A frozen object
    whose every change is the value it already holds is given back as it is (a quarter of the narrator's
    copies: a flag set to what it was). A name that is no field __init__ takes is left to
    `dataclasses.replace`, for its own error."""
    cls = type(obj)
    layout = _LAYOUTS.get(cls)
    if layout is None:
        layout = _layout(cls) if cls not in _LAYOUTS else None
        if layout is None:
            return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    values: list[Any] | None = None
    place = layout.place
    for name, value in changes.items():
        where = place.get(name)
        if where is None:
            return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
        if values is None:
            if layout.frozen and getattr(obj, name) is value:
                continue  # (no change so far: nothing read yet)
            values = list(layout.read(obj))
        values[where] = value
    if values is None:
        if layout.frozen:
            return obj
        values = list(layout.read(obj))
    if layout.names is not None:
        return cls(**dict(zip(layout.names, values, strict=True)))
    return cls(*values)
