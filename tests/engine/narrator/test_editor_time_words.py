"""Order, time words and frequency read by an editor, swept over every world, every order and every time of
narrating: no forward word with the pluperfect, no time word twice running, no time word or lead dating a
description, every event of a retrograde telling placed, and only a run of the same event folded."""

from __future__ import annotations

import pytest

from server.catalog import spun
from server.engine.actions.action import Event, SenseAction
from server.engine.english.words import FORWARD
from server.engine.narrator.draft import Draft, Told
from server.engine.narrator.timewords import lead_words
from server.engine.spin import apply
from tests.engine.editor import TIMES, WORLDS, played

ORDERS = ("chronicle", "retrograde", "achrony", "analepsis", "syllepsis")


def stages(world: str, **settings: object) -> dict[str, Draft]:
    """The draft after each narrator stage, telling the world's whole story through its player."""
    story = played(world)
    seen: dict[str, Draft] = {}
    story.tell(apply(spun(story.spin, [], []), dict(settings)), trace=lambda name, draft: seen.setdefault(name, draft))
    return seen


def describes(event: Event, draft: Draft) -> bool:
    """Told as what the focalizer's own look showed: a room or a thing, or writing read (a state, not a deed)."""
    action = event.action
    if not isinstance(action, SenseAction) or not action.description or action.agent != draft.focalizer:
        return False
    if event.outcome != "done":
        return False  # told by its reason: "you blunder around in the dark"
    if action.verb == "read" and action.direct is not None:
        view = draft.concept.view(action.direct, event.id)
        return view is not None and bool(view.feature("writing"))
    return True


def said(item: Told) -> str:
    return lead_words(item.lead, item.present) if item.lead else item.time_word


@pytest.mark.parametrize("world", WORLDS)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("time", TIMES)
def test_time_words_follow_the_order_told(world, order, time):
    draft = stages(world, order=order, time=time, time_words=True)["time words"]
    previous: Told | None = None
    for item in draft.told:
        where = f"{world} {order} {time}: event {item.event.id} ({item.event.action.told_as!r})"
        if describes(item.event, draft):
            assert not item.time_word and not item.lead, f"{where}: a description dated by {said(item)!r}"
        if item.out_of_order and item.form is not None and item.form.perfect:
            assert item.time_word not in FORWARD, f"{where}: {item.time_word!r} with the pluperfect"
        if previous is not None and said(item):
            assert said(item) != said(previous), f"{where}: {said(item)!r} twice running"
        placing = order == "retrograde" and previous is not None and previous.segment == item.segment
        if placing and not describes(item.event, draft):
            assert item.time_word, f"{where}: told with nothing placing it"
        previous = item


def _kind(item: Told) -> tuple[object, ...]:
    action = item.event.action
    return (action.verb, action.agent, action.direct, action.indirect, item.event.outcome)


@pytest.mark.parametrize("world", WORLDS)
@pytest.mark.parametrize("order", ORDERS)
def test_iterative_folds_only_a_run_of_the_same_event(world, order):
    seen = stages(world, order=order, frequency="iterative")
    before, after = seen["order"].told, seen["frequency"].told
    assert [_kind(item) for item in before] == [_kind(item) for item in after for _ in range(item.count)]
