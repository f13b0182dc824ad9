"""The engine's side of the spin: spin files read and checked, and a spin argument resolved over a spin.

The Spin itself — its fields, values, defaults and the reading of spin words — is the contract's
(`protocol/spin.py`); this module only adds what needs the engine's knowledge of named spins."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from protocol.spin import SPIN_FIELDS, Adding, Spin, SpinError, SpinPart, apply
from server.engine.english.text import capitalize_first
from server.engine.errors import UnknownName


class SpinFile(msgspec.Struct, frozen=True, kw_only=True):
    """A named spin as shipped in spins/ (or any spin file): a summary, the overrides it applies (its `filters`
    as `Adding`, so they add to those in force) and where it was read from, for messages."""

    name: str
    summary: str
    overrides: dict[str, Any]
    source: str = ""


SpinLibrary = Callable[[str], SpinFile]
"""Finds a named spin (or, where allowed, a spin file) by the word that names it; UnknownName if none."""

SpinCheck = Callable[[Spin, str], None]
"""Checks a spin against what it will tell (the actors it names must be in the world), naming the source."""


def person(tag: str | None, focalizer: str) -> str | None:
    """The actor a narrator or narratee setting names, its role (`focalizer`) resolved: ("focalizer", "@guard")
    -> "@guard"."""
    return focalizer if tag == "focalizer" else tag


def parse_spin_file(text: str, name: str, source: str) -> SpinFile:
    """Read and validate a spin file's text; a bad file raises SpinError naming `source` and the field."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SpinError(f"{source}: not valid TOML: {error}") from None
    summary = data.pop("summary", "")
    if not isinstance(summary, str):
        raise SpinError(f"{source}: 'summary' must be text")
    if isinstance(data.get("filters"), list):
        data["filters"] = Adding(data["filters"])  # a named spin's filters add to those in force
    apply(Spin(), data, source=source)  # validate now, so a bad file fails when read, not when used
    return SpinFile(name=name, summary=summary, overrides=data, source=source)


def _unchecked(spin: Spin, source: str) -> None:
    """No check beyond the spin's own validation (a spin that is not yet told in a world)."""


def spun(
    base: Spin, argument: str | dict[str, Any] | Sequence[SpinPart], named: SpinLibrary, check: SpinCheck = _unchecked
) -> Spin:
    """`base` with a spin argument applied — one named spin, settings, or a list of both in order, as
    `protocol.spin.spin_argument` reads typed words. The one place every path (tell, play, the `spin`
    directive and method, narrate, join, create) turns an argument into a spin, so they cannot drift: later
    parts win, and named spins' filters add up. Each part is checked as it is applied, so an error names the
    spin file or the settings at fault."""
    parts: Sequence[SpinPart] = [argument] if isinstance(argument, str | dict) else argument
    spin = base
    for part in parts:
        if isinstance(part, dict):
            spin = apply(spin, dict(part), source="")
            check(spin, "")
        else:
            try:
                found = named(part)
            except UnknownName as error:
                settings = ", ".join(SPIN_FIELDS)
                raise UnknownName(
                    f"{_sentence(str(error))} Nor is {part!r} a spin setting: they are {settings}."
                ) from None
            spin = apply(spin, dict(found.overrides), source=f"spin {found.name}")
            check(spin, found.source or f"spin {found.name}")
    return spin


def _sentence(message: str) -> str:
    return capitalize_first(message if message.endswith(".") else f"{message}.")
