"""Syllepsis: events grouped by where they happened or by who did them, each group in its own paragraph."""

from __future__ import annotations

from dataclasses import replace

from server.engine.narrator.draft import Draft, Told


def order(draft: Draft) -> tuple[Told, ...]:
    groups: dict[str, list[Told]] = {}
    concept = draft.concept
    for item in draft.told:
        key = item.event.room if draft.spin.group_by == "place" else item.event.action.agent
        # A place or agent the focalizer never perceived cannot head a group: "in something" says nothing.
        if key is None or not concept.knows(key, item.event.id):
            key = ""
        groups.setdefault(key, []).append(item)
    result: list[Told] = []
    for segment, (key, members) in enumerate(groups.items()):
        lead = _lead(key, draft.spin.group_by)
        for index, item in enumerate(members):
            result.append(replace(item, segment=segment, lead=lead if index == 0 and key else ""))
    return tuple(result)


def _lead(key: str, group_by: str) -> str:
    return f"in [{key}/o]," if group_by == "place" else f"as for [{key}/o],"
