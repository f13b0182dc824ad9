"""The engine's exceptions: each names what was wrong so every edge can report it in one line."""

from protocol.spin import SpinError as _SpinError


class EngineError(Exception):
    """Something an author, a player or a tool asked for cannot be done; the message says why."""


SpinError = _SpinError
"""A spin file or spin value is invalid: the contract's error (spins are read by clients too), so it is not an
EngineError; every edge that reports EngineErrors reports it alongside them."""


class WorldError(EngineError):
    """A world definition is invalid; the message names the world and the item or action at fault."""


class UnknownName(EngineError):
    """An unknown world, spin, actor or item was named."""


class TemplateError(EngineError):
    """A string with slots cannot be parsed or refers to something that does not exist."""


class PathRefused(EngineError):
    """A file was named by its path where only shipped names are allowed (a caller who is not an author)."""


class Forbidden(EngineError):
    """The player lacks a permission: an author-only directive, undo with others present, another's concept."""


class StoryEnded(EngineError):
    """The story has reached an ending: commands are refused (telling, undo and restart still work)."""


class SnapshotError(EngineError):
    """A snapshot that cannot be used: another format, another world, or damaged."""
