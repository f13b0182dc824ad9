"""The bottom toolbar: world, actor, room, turn and the spin in a few words, then the key bindings; first of
all, while there is any, trouble with the connection."""

from __future__ import annotations

import time

from prompt_toolkit.formatted_text import StyleAndTextTuples

from clients.cli.scene import Scene, spin_summary
from clients.cli.status import not_answering
from clients.connection import Status

SEPARATOR = ("class:toolbar.separator", " · ")
TROUBLE = {
    Status.RECONNECTING: " reconnecting… ",
    Status.SESSION_LOST: " session lost: :quit and join again ",
}


def toolbar(scene: Scene, keys: str, width: int, now: float | None = None) -> StyleAndTextTuples:
    """The toolbar's text for the scene as it is now, `keys` naming the key bindings in use; what does not
    fit in `width` is left out, the least needed first (the keys, the spin, the actor, the room). While the
    server is not answering, how long until it is tried again, counted from `now` (the event loop's clock,
    which is `time.monotonic`)."""
    parts: StyleAndTextTuples = []
    if scene.link in TROUBLE:
        alarm = TROUBLE[scene.link]  # type: ignore[index]
        if scene.offline and scene.retry is not None:
            alarm += f"{not_answering(scene.retry, scene.retry.at - (time.monotonic() if now is None else now))} "
        parts += [("class:toolbar.alert", alarm), ("", " ")]
    fields = {
        "world": ("class:toolbar.world", scene.world or scene.instance),
        "actor": ("", scene.actor),
        "room": ("", scene.room_name),
        "turn": ("", f"turn {scene.turn}{', ended' if scene.ended else ''}"),
        "spin": ("", spin_summary(scene.spin, scene.actor)),
        "keys": ("class:toolbar.quiet", f"{keys} (F4)"),
    }
    shown = {name: field for name, field in fields.items() if field[1]}
    room = width - sum(len(part[1]) for part in parts) - 1
    for name in LEAST_NEEDED:
        if _length(shown) <= room:
            break
        shown.pop(name, None)
    parts.append(("", " "))
    for index, field in enumerate(shown.values()):
        if index:
            parts.append(SEPARATOR)
        parts.append(field)
    return parts


LEAST_NEEDED = ("keys", "spin", "actor", "room")


def _length(fields: dict[str, tuple[str, str]]) -> int:
    return sum(len(text) for _, text in fields.values()) + len(SEPARATOR[1]) * (len(fields) - 1)
