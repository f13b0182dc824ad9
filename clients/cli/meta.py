"""Meta commands: lines with a leading colon, answered by the client through the protocol's own methods and
never sent to the world (`:spin time after`, `:narrate prophecy`, `:concept`, `:state`, `:who`, `:quit`…).

Each is a small declarative unit: a name, and a coroutine whose docstring is its help (`:usage — what it
does`). The registry is made per game by `standard()` and checks what is added to it: no name twice, a
docstring, a coroutine. A name may be shortened while it stays unambiguous (`:q`, `:sp`).
"""

from __future__ import annotations

import enum
import inspect
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from clients.connection import Connection
from protocol import messages as m
from protocol.spin import SPIN_FIELDS, SpinError, SpinPart, describe, spin_argument

if TYPE_CHECKING:
    from clients.cli.scene import Scene
    from clients.cli.screen import Screen

LEADER = ":"
WINDOWS = ("turn", "all")


class Quit(enum.Enum):
    QUIT = "quit"


QUIT = Quit.QUIT

Answer = str | list[str] | m.Reply | Quit | None
"""What a meta command gives to be shown: lines laid out (str), items to list (list), narration (Reply), the
end of play (QUIT), or nothing."""


class MetaError(Exception):
    """A meta command that cannot be done as typed: an unknown name, a word that is no spin or setting."""


@dataclass(frozen=True, slots=True)
class Desk:
    """What a meta command works with: the connection, what the client knows of the session, the screen."""

    conn: Connection
    scene: Scene
    screen: Screen


Handler = Callable[[Desk, list[str]], Awaitable[Answer]]


@dataclass(frozen=True, slots=True)
class Meta:
    name: str
    handler: Handler
    keyed: bool = False
    """About the keys: only where there are any (at a terminal), so only there in :help."""

    @property
    def help(self) -> str:
        return " ".join((self.handler.__doc__ or "").split())


class MetaCommands:
    """The meta commands one game understands, checked as they are added."""

    def __init__(self) -> None:
        self._all: dict[str, Meta] = {}

    def add(self, name: str, *, keyed: bool = False) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            if name in self._all:
                raise ValueError(f"meta command {name!r} is registered twice")
            if not inspect.iscoroutinefunction(handler):
                raise ValueError(f"meta command {name!r} must be a coroutine function")
            if not (handler.__doc__ or "").strip().startswith(LEADER + name):
                raise ValueError(f"meta command {name!r} needs a docstring starting with its usage, {LEADER}{name}")
            self._all[name] = Meta(name, handler, keyed)
            return handler

        return register

    def __iter__(self) -> Iterator[Meta]:
        return iter(self._all.values())

    @property
    def names(self) -> list[str]:
        return [LEADER + name for name in self._all]

    def find(self, word: str) -> Meta:
        """The meta command a (possibly shortened) name means."""
        name = word.removeprefix(LEADER).lower()
        if name in self._all:
            return self._all[name]
        fits = [meta for meta in self._all.values() if meta.name.startswith(name)]
        if len(fits) == 1:
            return fits[0]
        if fits:
            raise MetaError(f"{LEADER}{name} could be {' or '.join(LEADER + meta.name for meta in fits)}")
        raise MetaError(f"there is no meta command {LEADER}{name}; {LEADER}help lists them")

    async def run(self, line: str, desk: Desk) -> Answer:
        """Do the meta command a line names (`:` alone is `:help`)."""
        words = line.strip().removeprefix(LEADER).split()
        meta = self.find(words[0]) if words else self._all["help"]
        return await meta.handler(desk, words[1:])


def is_meta(line: str) -> bool:
    return line.lstrip().startswith(LEADER)


# -- spins and settings as typed ------------------------------------------------------------------------------


async def spin_words(desk: Desk, words: Sequence[str], *, windows: bool = False) -> tuple[list[SpinPart], Any]:
    """Named spins and settings in the order typed — `prophecy`, `time after`, `order=retrograde` — read by the
    contract's one rule into the protocol's spin argument; and, when `windows`, a window (`turn`, `all` or a
    number of turns, where no field's value is expected) or None. A word that is no named spin is refused here,
    with the names and settings there are."""
    window: Any = None
    spin_words: list[str] = []
    queue = list(words)
    while queue:
        word = queue.pop(0)
        if windows and (word in WINDOWS or word.isdigit()):
            window = int(word) if word.isdigit() else word
            continue
        spin_words.append(word)
        if word.lower() in SPIN_FIELDS and queue:
            spin_words.append(queue.pop(0))  # its value, whatever it looks like
    try:
        parts = spin_argument(spin_words)
    except SpinError as error:
        raise MetaError(str(error).rstrip(".")) from None
    named = {spin.name for spin in await desk.scene.named_spins()}
    for part in parts:
        if isinstance(part, str) and part not in named:
            raise MetaError(
                f"{part!r} is neither a named spin ({', '.join(sorted(named))}) nor a spin setting "
                f"({', '.join(SPIN_FIELDS)})"
            )
    return parts, window


# -- the commands ------------------------------------------------------------------------------------------------


def standard() -> MetaCommands:
    """The meta commands every game has."""
    registry = MetaCommands()

    @registry.add("spin")
    async def spin(desk: Desk, words: list[str]) -> Answer:
        """:spin [NAME | FIELD VALUE …] — show the session's spin, or change it (and show what changed):
        `:spin time after`, `:spin prophecy`, `:spin hesitant surprise order=retrograde time_words on`."""
        parts = (await spin_words(desk, words))[0]
        before = desk.scene.spin
        result = await desk.conn.call("spin", set=parts or None)
        desk.scene.spin = result.spin
        desk.scene.changed()
        if not parts or before is None:
            return describe(result.spin)
        changed = [key for key in SPIN_FIELDS if getattr(before, key) != getattr(result.spin, key)]
        return describe(result.spin, changed) if changed else "The spin is as it was."

    @registry.add("narrate")
    async def narrate(desk: Desk, words: list[str]) -> Answer:
        """:narrate [NAME | FIELD VALUE | turn | N …] — retell the story so far, under the session's spin or
        these (`:narrate prophecy`, `:narrate memoir narrator @guard`, `:narrate 3` the last three turns)."""
        parts, window = await spin_words(desk, words, windows=True)
        reply: m.Reply = await desk.conn.call("narrate", spin=parts or None, window=window)
        return reply

    @registry.add("concept")
    async def concept(desk: Desk, words: list[str]) -> Answer:
        """:concept [@ACTOR] — what your actor (or, where allowed, another) knows of the world, as a tree."""
        result = await desk.conn.call("concept", actor=words[0] if words else None)
        return str(result.text)

    @registry.add("state")
    async def state(desk: Desk, words: list[str]) -> Answer:
        """:state — instance, world, actor, turn, room, what you carry, whether the story has ended, and the
        session's token (`play --server URL --resume TOKEN` takes the session back if play is cut off)."""
        now: m.StateResult = await desk.conn.call("state")
        known = desk.scene.known
        carried = ", ".join(f"{tag} ({known[tag]})" if tag in known else tag for tag in now.inventory)
        room = f"{now.room} ({known[now.room]})" if now.room in known else str(now.room)
        rows = {
            "instance": now.instance,
            "world": now.world,
            "actor": now.actor,
            "turn": now.turn,
            "room": room,
            "carrying": carried or "nothing",
            "ended": "yes" if now.ended else "no",
            "hash": now.hash,
            "session": desk.conn.token or "none",
        }
        return "\n".join(f"{key}: {value}" for key, value in rows.items())

    @registry.add("actions")
    async def actions(desk: Desk, words: list[str]) -> Answer:
        """:actions — the commands that would succeed now."""
        commands: list[str] = (await desk.conn.call("actions")).commands
        return commands or "No command would succeed now."

    @registry.add("who")
    async def who(desk: Desk, words: list[str]) -> Answer:
        """:who — the players in this story, and whom each plays."""
        found = await desk.conn.call("instances")
        here = next((each for each in found.instances if each.instance == desk.scene.instance), None)
        if here is None or not here.players:
            return "Nobody is playing this story."
        return [
            f"{player.name} as {player.actor}{' (you)' if player.actor == desk.scene.actor else ''}"
            for player in here.players
        ]

    @registry.add("keys", keyed=True)
    async def keys(desk: Desk, words: list[str]) -> Answer:
        """:keys [vi | emacs] — switch the key bindings (F4 too), or set them."""
        wanted = words[0].lower() if words else None
        if wanted not in (None, "vi", "emacs"):
            raise MetaError("the key bindings are vi or emacs")
        return desk.screen.keys(wanted)  # type: ignore[arg-type]

    @registry.add("help")
    async def help_(desk: Desk, words: list[str]) -> Answer:
        """:help — the meta commands; `help`, without the colon, asks the story for its directives."""
        keys = desk.screen.keys_help()
        return "\n".join([*(meta.help for meta in registry if keys or not meta.keyed), *keys])

    @registry.add("quit")
    async def quit_(desk: Desk, words: list[str]) -> Answer:
        """:quit — leave the story (so does `quit`)."""
        return QUIT

    return registry
