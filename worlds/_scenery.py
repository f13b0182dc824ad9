"""What the worlds share (not a world itself): scenery named in descriptions, and commands built on the standard
grammar's own."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from server.engine.authoring import (
    GRAMMAR,
    Action,
    Article,
    Builder,
    CommandKind,
    Refusal,
    Request,
    Scope,
    Thing,
    WorldState,
)


def scenery(
    tag: str,
    called: str,
    where: str,
    sight: str,
    *,
    article: Article = "the",
    plural: bool = False,
    referring: str = "",
    prominence: float = 0.5,
    open: bool | None = None,
    leads: str | None = None,
) -> Thing:
    """Something a room's description names: there to be looked at, fixed in place (`part_of` the room
    `where`), never listed among what is seen. A door or opening `leads` the way one goes through it."""
    return Thing(
        tag=tag,
        called=called,
        where=f"part_of {where}",
        mention=False,
        sight=sight,
        article=article,
        plural=plural,
        referring=referring,
        prominence=prominence,
        open=open,
        features={"leads": leads} if leads else {},
    )


def leave_be(tags: Collection[str], reason: str, verbs: Collection[str] = ("take", "push", "pull")) -> Refusal:
    """One refusal for handling any of the scenery `tags` with any of `verbs`: `reason` says why not."""
    fixed, handled = frozenset(tags), frozenset(verbs)

    def applies(action: Action, world: WorldState) -> bool:
        return action.direct in fixed and action.verb in handled

    return Refusal(when=applies, reason=reason)


def standard(name: str) -> CommandKind:
    """The standard grammar's kind of command called `name`."""
    return next(kind for kind in GRAMMAR if kind.name == name)


def like(name: str, build: Builder, more: tuple[str, ...] = (), *, scope: Scope | None = None) -> CommandKind:
    """The standard kind called `name`, read the same way (and in `more` ways), but built by `build`; a world's
    own kinds are tried before the standard ones."""
    kind = standard(name)
    return replace(kind, patterns=kind.patterns + more, build=build, scope=scope or kind.scope)


def through(go: Builder | None = None) -> CommandKind:
    """ "enter the door", "go through the door": going the way a door `leads` (with `go`, the world's way of
    going, or the standard one); anything else is entered as ever."""
    going = go or standard("go").build
    enter = standard("enter").build

    def build(r: Request) -> list[Action]:
        leads = r.world.get(r.obj, "leads")
        return going(replace(r, direction=leads)) if leads else enter(r)

    return like("enter", build, ("go through OBJ", "walk through OBJ", "step through OBJ", "go out OBJ"))
