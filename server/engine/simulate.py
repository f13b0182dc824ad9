"""The simulation: ticks, the action queue, the change each action makes, and who perceived what.

One tick, in order:
1. The commanded actor's actions, then the timeline's actions for this tick, are queued and run (steps
   2-5); then each other living actor's script is asked for its action, one actor after another, against
   the world as it now is, and that action is run (actors that players have taken up wait instead).
2. The front action is tried: refusal, preconditions, prevention by items present.
3. If it can happen: reactions are asked for (against the world as it was), the change is made, and
   what it entails follows; entailments, then reactions, go to the *front* of the queue.
4. It becomes an event, whatever its outcome; every actor who perceived it (the agent, and whoever saw
   the agent, or the direct object if the action moved, changed or touched it, before or after) records it
   and what it saw in its concept. Being looked at, or waved at, by someone unseen is not perceived at all.
5. Repeat until the queue is empty. An event whose action is `final` ends the story, and the tick.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from server.engine.actions.action import Action, Configure, Event, Modify, Outcome, SenseAction, felt_by_direct
from server.engine.actions.preconditions import failure, prevention, refusal
from server.engine.actions.records import event_from
from server.engine.concepts import BEFORE_ANY_EVENT, Concept, Views, export_concept, load_concept
from server.engine.errors import WorldError
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Item, Room
from server.engine.world.perception import VISIBLE_AT, Perception
from server.engine.world.state import WorldState

MAX_ACTIONS_PER_TICK = 1000
"""Reactions that keep answering each other are an authoring mistake; stop and say so."""


Queued = tuple[Action, str, "Event | None"]
"""An action waiting its turn, why it is there, and the event that brought it about (if any)."""


@dataclass(frozen=True, slots=True)
class Mark:
    """Where a turn began: enough to put everything back as it was (undo)."""

    journal: int
    events: int
    tick: int
    turn: int
    ended: bool


class Simulation:
    """A running world: its true state, the events so far, and every actor's concept."""

    def __init__(self, definition: WorldDefinition, seed: int = 0) -> None:
        self.definition = definition
        self.seed = seed
        self.world = WorldState(definition.all_items())
        self.sight = Perception(self.world)
        self.views = Views(self.world)
        self.events: list[Event] = []
        self.concepts: dict[str, Concept] = {actor.tag: Concept(actor.tag) for actor in definition.actors()}
        self.tick = 0
        self.turn = 0
        self.ended = False
        self.played: set[str] = set()
        """Actors players have taken up: they act when commanded and otherwise wait, untold."""
        self._marks: list[Mark] = []
        self._timeline: dict[int, list[Action]] = {}
        for at, action in definition.timeline:
            self._timeline.setdefault(at, []).append(action)
        self.hooked = [tag for tag, item in self.world.items.items() if item.react or item.prevent]
        self._reacting = [tag for tag in self.hooked if self.world.items[tag].react]
        for actor, concept in self.concepts.items():
            concept.perceive(self.views, self._in_sight(actor), BEFORE_ANY_EVENT)

    @property
    def items(self) -> Mapping[str, Item]:
        return self.world.items

    @property
    def last_tick(self) -> int:
        """The last tick anything is scheduled for."""
        return max(self._timeline, default=0)

    def rng(self, *purpose: str) -> random.Random:
        """The random generator for this tick (and a purpose): derived from the seed, never shared, so a
        story replays the same and undoing a turn needs no generator state."""
        return random.Random(":".join((str(self.seed), str(self.tick), *purpose)))

    def advance(self, commanded: Iterable[Action] = (), *, new_turn: bool = True) -> list[Event]:
        """Run one tick with the commanded actions; return the events it produced, in order."""
        if new_turn:
            self._marks.append(Mark(len(self.world.journal), len(self.events), self.tick, self.turn, self.ended))
            self.turn += 1
        self.tick += 1
        queue: deque[Queued] = deque((action, "command", None) for action in commanded)
        acting = {action.agent for action, _, _ in queue}
        queue.extend((action, "timeline", None) for action in self._timeline.get(self.tick, ()))
        produced = self._run(queue)
        # The others act after the commanded actions are done, so they answer to the world as it now is.
        for actor, script in self.definition.scripts.items():
            if self.ended:
                break
            if actor in acting or actor in self.played or self.world.get(actor, "alive") is False:
                continue
            action = script(actor, self.world, self.tick, self.rng("script", actor))
            if action is not None:
                produced += self._run(deque([(action, "script", None)]))
        return produced

    def undo(self) -> bool:
        """Put the world, the events and every concept back as they were before the last turn."""
        if not self._marks:
            return False
        mark = self._marks.pop()
        self.world.rollback(mark.journal)
        del self.events[mark.events :]
        for concept in self.concepts.values():
            concept.truncate(mark.events - 1)
        self.tick, self.turn, self.ended = mark.tick, mark.turn, mark.ended
        return True

    # -- as plain data (snapshots) ------------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """The running state as plain data: world, clock, players, undo marks and concepts. Not the events:
        they never change once they happen, so a snapshot encodes them after the story is let go (`load`
        takes them back under "events")."""
        return {
            "world": self.world.export(),
            "tick": self.tick,
            "turn": self.turn,
            "ended": self.ended,
            "played": sorted(self.played),
            "marks": self._marks,
            "concepts": [export_concept(concept) for concept in self.concepts.values()],
        }

    def load(self, data: dict[str, Any]) -> None:
        """Put back what `export` gave, over a simulation freshly made from the same world and seed."""
        self.world.load(data["world"])
        self.tick, self.turn, self.ended = data["tick"], data["turn"], data["ended"]
        self.played = set(data["played"])
        self._marks = msgspec.convert(data["marks"], list[Mark])
        self.events = [event_from(event) for event in data["events"]]
        shared: dict[Any, Any] = {}
        self.concepts = {concept["actor"]: load_concept(concept, shared) for concept in data["concepts"]}

    def _run(self, queue: deque[Queued]) -> list[Event]:
        produced: list[Event] = []
        while queue:
            if len(produced) >= MAX_ACTIONS_PER_TICK:
                raise WorldError(
                    f"{self.definition.name}: more than {MAX_ACTIONS_PER_TICK} actions in one tick; "
                    "do reactions keep answering each other?"
                )
            action, cause, origin = queue.popleft()
            event, entailed, reactions = self._do(action, cause, origin)
            produced.append(event)
            if event.done and action.final:
                self.ended = True
                break  # the story is over: nothing more happens in it
            follow: list[Queued] = [(a, f"entailed by {event.id}", event) for a in entailed]
            follow += [(a, f"reaction to {event.id}", event) for a in reactions]
            queue.extendleft(reversed(follow))
        return produced

    def _do(self, action: Action, cause: str, origin: Event | None) -> tuple[Event, list[Action], list[Action]]:
        world, sight = self.world, self.sight
        event_id = len(self.events)
        room = world.room_of(action.agent)
        parent = world.parent(action.direct) if action.direct is not None and action.direct in world.items else None
        before = self._onlookers(action, agent_only=not felt_by_direct(action))
        surroundings = {actor: self._surroundings(actor) for actor in self.concepts}
        # Who sees what is about to be moved: they see it go, and picture it where it went.
        moving = action.direct if isinstance(action, Configure) and action.direct in world.items else None
        saw_moving = frozenset(a for a in self.concepts if moving is not None and sight.sees(a, moving))

        reason = refusal(action, world, self.definition.refusals)
        outcome: Outcome = "refused"
        if reason is None:
            reason, outcome = failure(action, world, sight), "failed"
        if reason is None:
            reason, outcome = prevention(action, world, self.hooked), "prevented"
        if reason is None and action.unanswered is not None and not self._reactions(action):
            # Nothing prevents it, but nothing would come of it either (reading what has nothing written on it).
            reason, outcome = action.unanswered(action, world, sight), "failed"
        entailed: list[Action] = []
        reactions: list[Action] = list(reason.instead) if reason is not None else []
        observed: tuple[str, ...] = ()
        compartment = sight.compartment(action.agent)
        lit = sight.light(compartment) >= VISIBLE_AT
        if reason is None:
            outcome = "done"
            reactions = self._reactions(action)
            self._change(action)
            if action.entails is not None:
                entailed = list(action.entails(action, world))
            if isinstance(action, SenseAction) and action.modality == "sight":
                observed = self._observed(action)
        if reason is not None:
            # Nothing happened to the direct object: only someone who saw the agent saw the attempt.
            before = self._onlookers(action, agent_only=True)
        after = self._onlookers(action, agent_only=reason is not None or not felt_by_direct(action))
        if action.witnessed in ("arrival", "newcomers"):
            # New to the scene: seen now by those who did not see the departure that brought it about.
            already = origin.perceivers if origin is not None else before
            newcomers = after - already - {action.agent}
            perceivers = frozenset(newcomers | ({action.agent} if action.witnessed == "arrival" else set()))
        else:
            witnessed = {"before": before, "after": after, "either": before | after, "agent": set()}[action.witnessed]
            perceivers = frozenset(witnessed | {action.agent})
        if reason is not None and (outcome == "refused" or reason.alone):
            # An actor's unwillingness, or a reason told in place of the attempt, is the actor's own: nothing was
            # done that others could see ("the visitor means to, but…" is not the punk's to know). What happens
            # instead is an event of its own, which they may see.
            perceivers = frozenset({action.agent})
        event = Event(
            id=event_id,
            action=action,
            tick=self.tick,
            end=self.tick + action.duration,
            turn=self.turn,
            cause=cause,
            outcome=outcome,
            reason=reason,
            room=room,
            parent=parent,
            perceivers=perceivers,
            observed=observed,
            lit=lit,
        )
        self.events.append(event)
        self._record(event, surroundings, saw_moving)
        return event, entailed, reactions

    def _onlookers(self, action: Action, *, agent_only: bool = False) -> set[str]:
        """Living, waking actors who see the agent or (unless `agent_only`) the direct object now."""
        world, sight = self.world, self.sight
        roles = (action.agent,) if agent_only else (action.agent, action.direct)
        seen = [tag for tag in roles if tag is not None and tag in world.items]
        found = set()
        seen_in: dict[str, bool] = {}  # whether anyone in a compartment sees one of them, asked once a room
        for actor in self.concepts:
            if world.get(actor, "alive") is False or world.get(actor, "awake") is False:
                continue
            if actor in seen:
                found.add(actor)
                continue
            here = sight.compartment(actor)
            sees = seen_in.get(here)
            if sees is None:
                sees = seen_in[here] = bool(sight.seen_from(here, seen))
            if sees:
                found.add(actor)
        return found

    def _surroundings(self, actor: str) -> tuple[str, float]:
        compartment = self.sight.compartment(actor)
        return compartment, self.sight.light(compartment)

    def _reactions(self, action: Action) -> list[Action]:
        world = self.world
        room = world.room_of(action.agent)
        found: list[Action] = []
        for tag in self._reacting:
            hook = world.items[tag].react
            if hook is not None and (tag == room or world.room_of(tag) == room):
                found.extend(hook(action, world))
        for rule in self.definition.reactions:
            found.extend(rule(action, world))
        return found

    def _change(self, action: Action) -> None:
        if isinstance(action, Configure):
            link, target = action.destination()
            assert action.direct is not None
            self.world.move(action.direct, link, target)
        elif isinstance(action, Modify):
            self.world.set(action.target_item, action.feature, action.value)

    def _observed(self, action: SenseAction) -> tuple[str, ...]:
        """What a look shows: everything visible when looking at a room, else the item and what is on or in it."""
        world, sight = self.world, self.sight
        looked = action.direct
        if looked is None or isinstance(world.items[looked], Room):
            # Looking around shows the place, not what one carries (taking stock of that is another look).
            return tuple(
                t
                for t in sight.visible_items(action.agent)
                if t != action.agent and not world.is_descendant(t, action.agent)
            )
        if looked == action.agent:
            return tuple(world.children[looked])  # one knows what one carries, even in the dark
        return tuple(t for t in world.descendants(looked) if sight.sees(action.agent, t))

    def _record(
        self, event: Event, surroundings: dict[str, tuple[str, float]], saw_moving: frozenset[str] = frozenset()
    ) -> None:
        """Each perceiver records the event and the state of what it perceived."""
        world, sight, action = self.world, self.sight, event.action
        involved = [action.agent, action.direct, action.indirect, event.parent, event.room]
        if isinstance(action, Configure):
            involved.append(action.destination()[1])
        if event.observed:
            involved.extend(event.observed)
        involved_items = [tag for tag in involved if tag is not None and tag in world.items]
        # An actor seen is seen with what it visibly wears and carries (the robber's mask, the operagoer's lamp).
        involved_items += [
            held
            for tag in (action.agent, action.direct, action.indirect)
            if tag is not None and tag in self.concepts and tag in world.items
            for held in world.children[tag]
            if held not in involved_items
        ]
        moved = action.direct if isinstance(action, Configure) and event.done else None
        # Per compartment, which involved items anyone in it sees: asked once a room, not once a perceiver.
        seen_in: dict[str, set[str]] = {}
        for actor in event.perceivers:
            concept = self.concepts.get(actor)
            if concept is None:
                continue  # a room or thing "doing" something (a world's bookkeeping) perceives nothing
            concept.witness(event.id)
            if surroundings[actor] != self._surroundings(actor):
                # Moved, or the light changed: take in the new surroundings whole.
                concept.perceive(self.views, self._in_sight(actor), event.id)
            here = sight.compartment(actor)
            seen = seen_in.get(here)
            if seen is None:
                seen = seen_in[here] = sight.seen_from(here, involved_items)
            reaches = actor == action.agent
            perceived = [
                tag
                for tag in involved_items
                if tag in seen or tag == actor or (reaches and sight.can_reach(actor, tag))
            ]
            if moved is not None and moved not in perceived and actor in saw_moving:
                # Seen to go (out of the room, into the sack): no longer pictured where it was, but where it went.
                perceived.append(moved)
            concept.perceive(self.views, [*perceived, *substances(world, perceived)], event.id)

    def _in_sight(self, actor: str) -> list[str]:
        """Everything `actor` takes in of its surroundings: what it sees, itself and what it carries (known even
        in the dark), and what is in what it sees."""
        seen = [*self.sight.visible_items(actor), actor, *self.world.children[actor]]
        return [*seen, *substances(self.world, seen)]


def substances(world: WorldState, tags: Iterable[str]) -> list[str]:
    """The substances in the vessels and sources among `tags`: the water is perceived with the basin."""
    found: list[str] = []
    features, items = world.features, world.items  # (read directly: this runs for everything a perceiver sees)
    for tag in tags:
        held = features[tag]
        for feature in ("contents", "source_of"):
            substance = held.get(feature)
            if isinstance(substance, str) and substance in items and substance not in found:
                found.append(substance)
    return found
