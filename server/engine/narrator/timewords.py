"""Stage: time words — relate each told event to the one told before it (then, meanwhile, before that, earlier).

Words for the same relation take turns ("then", "next", "after that"; "before that", "just before that",
"previously", "prior to that"), so a retrograde telling does not open thirteen sentences alike, and no time word
is said twice running, counting a segment's lead: after "then," (the return from a flashback, told in the past)
the next event goes on with "next", not "then" again. All of it depends only on the order told: the same
telling always has the same words."""

from __future__ import annotations

from server.engine.english.words import BACKWARD, FORWARD, LONG_BEFORE, SIMULTANEOUS, deictic
from server.engine.narrator.compose import describes
from server.engine.narrator.draft import Draft, Told
from server.engine.narrator.templates import Deictic, Text, parse


def run(draft: Draft) -> Draft:
    if not draft.spin.time_words:
        return draft
    rank = {number: index for index, number in enumerate(sorted(item.event.id for item in draft.told))}
    result: list[Told] = []
    turns = {FORWARD: 0, BACKWARD: 0}
    said = ""  # the time word (or a segment's lead) said last
    previous: Told | None = None
    for item in draft.told:
        word = ""
        # A segment (a flashback, a syllepsis group) is its own thread, opened by its lead or a new paragraph:
        # its first event is not related to the last one of another thread ("Earlier, the man enters").
        # One's own look is told as a room's description under its heading: "Then, this hall is grand" would
        # time the hall, not the look.
        if item.lead:
            said = lead_words(item.lead, item.present)
        elif previous is not None and previous.segment == item.segment and not describes(item.event, draft):
            relation = _relation(previous, item, rank)
            if relation == FORWARD and item.out_of_order:
                # "Then, you had put…": a forward word with the pluperfect reads as a step back and on at once;
                # the event's place is given by what is told around it.
                word = ""
            elif isinstance(relation, str):
                word = "" if relation == said else relation  # never the same word twice running
            else:
                word = _in_turn(relation, turns[relation], said)
                turns[relation] = relation.index(word) + 1
            said = word
        result.append(item.decided(time_word=word))
        previous = item
    return draft.decided(told=tuple(result))


def _relation(before: Told, now: Told, rank: dict[int, int]) -> str | tuple[str, ...]:
    """The word relating `now` to the event told `before` it, or the words that take turns for that relation."""
    earlier, later = before.event, now.event
    if later.id > earlier.id:
        if earlier.end > earlier.tick and later.tick <= earlier.end:
            return SIMULTANEOUS  # it happened while the earlier activity went on
        return FORWARD
    # Told after something that happened later: just before it, or further back.
    return BACKWARD if rank[earlier.id] - rank[later.id] <= 1 else LONG_BEFORE


def _in_turn(words: tuple[str, ...], turn: int, said: str) -> str:
    """The word whose turn it is, or the one after it when that was just said."""
    word = words[turn % len(words)]
    return words[(turn + 1) % len(words)] if word == said else word


def lead_words(lead: str, present: bool) -> str:
    """What a segment's lead says, as far as its words go: "[now]," is "now" in the present, "then" in the past."""
    words = []
    for token in parse(lead):
        if isinstance(token, Text):
            words.append(token.text)
        elif isinstance(token, Deictic):
            words.append(deictic(token.word, present))
    return "".join(words).strip(" ,").lower()
