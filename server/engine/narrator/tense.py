"""Stage: tense and aspect of each told event, from Reichenbach's event, reference and speech times.

E against R gives the aspect (perfect when R follows E), R against S the tense:
- during: S moves with the story, at each event: R = S, present ("the teller laughs").
- after: S follows everything: past ("the teller laughed").
- before: S precedes everything: future, prophecy ("the teller will laugh").
- a number such as 6.5: S sits between events 6 and 7; earlier events are past, later ones future.
`perfect` puts R just after E ("has laughed", "had laughed", "will have laughed"). An event told after a
later one (retrograde, a flashback) keeps R at the later event, so it is anterior: past perfect when told
after, future perfect in a prophecy, and simple past when the telling is in the present. What held at the
event's time — the reason it failed, what a look showed — is told at the event, not before it: "you had been
unable to take it because you already had it", "that hall was grand" (`state_form`).
"""

from __future__ import annotations

from protocol.spin import Spin
from server.engine.english import Tense, VerbForm
from server.engine.narrator.draft import Draft, Told
from server.engine.narrator.pieces import Steps, drained, mapped


def run(draft: Draft) -> Draft:
    return drained(steps(draft))


def steps(draft: Draft) -> Steps[Draft]:
    """`run` in pieces (narrator/pieces.py)."""
    told = yield from mapped(draft.told, lambda item: _with_form(item, draft.spin))
    return draft.decided(told=told)


def speech_tense(spin: Spin, event_number: int) -> Tense:
    """The tense R against S gives for an event, before any out-of-order shift."""
    if spin.time == "during":
        return "present"
    if spin.time == "after":
        return "past"
    if spin.time == "before":
        return "future"
    return "past" if event_number <= spin.time else "future"


def _with_form(item: Told, spin: Spin) -> Told:
    tense = speech_tense(spin, item.event.id)
    perfect = spin.perfect
    if item.out_of_order:
        if tense == "present":
            tense = "past"
        else:
            perfect = True
    progressive = spin.progressive or item.event.action.progressive
    form = VerbForm(tense=tense, perfect=perfect, progressive=progressive)
    # A state is described as it held at the reference time: never in the perfect ("the hook has been a small
    # brass hook" would make the state an event), and in the progressive only where its verb is an activity
    # ("cars are passing"), not a description ("doorways are leading south").
    state = VerbForm(tense=tense, progressive=spin.progressive, descriptive=True)
    # Deictics follow the tense the event is told in: an event recalled in the past from a present telling
    # happened "there" and "then", not "here" and "now".
    return item.decided(form=form, state_form=state, present=tense == "present")
