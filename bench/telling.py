"""Benchmarks of simulating and telling: a synthetic story at growing sizes, and the robbery told many times.

The synthetic story is made, deterministically from a seed, as a ring of rooms that each look into their two
neighbours, a few actors and many things, and a timeline of exactly N events: actors go from room to room,
take, drop, give and box things, polish them, open and close boxes, see and look, wave and laugh. The
generator keeps its own model of the world so every action can happen, except a planned few that fail
("already so"), which exercises the telling of failures. Whoever is in a room, or in one that sees into it,
perceives what happens there, so each actor's concept holds a different part of the story.
"""

from __future__ import annotations

import gc
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from bench.measure import (
    Benchmark,
    Result,
    Settings,
    calls,
    distribution,
    duration,
    fastest,
    mebibytes,
    peak_bytes,
    ratio,
    table,
)
from protocol.spin import Spin, apply
from server.catalog import load_world, spin_from_words, spin_names
from server.engine.actions.action import Action, Behave, Configure, Modify, SenseAction
from server.engine.actions.verbs import go, look
from server.engine.narrator import Draft
from server.engine.story import Story
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Item, Room, Thing

LINEAR_SLACK = 1.2
"""A cost is called linear when growing the story k times grows it at most 1.2·k times (12 for 1k → 10k)."""

ROOMS = 5
ACTORS = 6
THINGS = 100
MAX_HELD = 4
"""Actors take no more than this, so the story's state (and so the cost of an event) stays the same
throughout: a long story is a short one's workload, only longer."""

SPUN: dict[str, Any] = {
    "order": "retrograde",
    "time_words": True,
    "frequency": "iterative",
    "filters": ("double_entry", "hesitant", "surprise"),
}
"""The heavier telling: every order-, frequency- and filter-stage does work (a template, a sentence and a
paragraph filter)."""

_ADJECTIVES = ("red", "brass", "old", "heavy", "tiny", "green", "cracked", "shiny", "wooden", "silver")
_NOUNS = ("lamp", "key", "book", "cup", "coin", "ring", "map", "apple", "hammer", "bottle", "clock", "umbrella")
_ACTORS = (
    ("baker", "female"),
    ("clerk", "male"),
    ("poet", "nonbinary"),
    ("sailor", "female"),
    ("tinker", "male"),
    ("weaver", "female"),
)
_PROMINENCES = (0.3, 0.5, 0.8)


@dataclass(frozen=True)
class Synthetic:
    """A generated story: the world, how many events its timeline yields, how many are meant to fail, and
    how many actions of each kind were planned."""

    definition: WorldDefinition
    events: int
    failures: int
    kinds: Counter[str] = field(default_factory=Counter)


class _Model:
    """The generator's own picture of the world, so it only plans actions that can happen."""

    def __init__(self, rooms: list[str], actors: list[str], boxes: dict[str, str]) -> None:
        self.rooms = rooms
        self.actors = actors
        self.box_in = dict(boxes)  # box -> its room (boxes never move)
        self.box_of = {room: box for box, room in boxes.items()}
        self.open = dict.fromkeys(boxes, True)
        self.room_of: dict[str, str] = {}  # actor -> room
        self.place: dict[str, tuple[str, str]] = {}  # thing -> (link, parent)
        self.shine: dict[str, int] = {}

    def thing_room(self, thing: str) -> str:
        _link, parent = self.place[thing]
        if parent in self.room_of:
            return self.room_of[parent]
        return self.box_in.get(parent, parent)

    def loose_in(self, room: str) -> list[str]:
        """Things lying in the room or in its open box, which anyone there may take."""
        box = self.box_of[room]
        return [t for t, (_, parent) in self.place.items() if parent == room or (parent == box and self.open[box])]

    def held_by(self, actor: str) -> list[str]:
        return [t for t, (link, parent) in self.place.items() if parent == actor and link == "of"]

    def visible_things(self, room: str) -> list[str]:
        """Things anyone in `room` can see: all there but what is shut in a closed box."""
        return [t for t in self.place if self.thing_room(t) == room and self.open.get(self.place[t][1], True)]

    def others_in(self, room: str, actor: str) -> list[str]:
        return [a for a in self.actors if a != actor and self.room_of[a] == room]

    def neighbours(self, room: str) -> list[str]:
        index = self.rooms.index(room)
        return [self.rooms[(index - 1) % len(self.rooms)], self.rooms[(index + 1) % len(self.rooms)]]


def _items(model: _Model, rng: random.Random, rooms: int, actors: int, things: int) -> list[Item]:
    items: list[Item] = []
    for index, tag in enumerate(model.rooms):
        left, right = model.neighbours(tag)
        items.append(
            Room(
                tag=tag,
                called=f"hall {index}",
                article="",
                sight=f"[this] is hall {index}, one of {rooms} around a courtyard",
                exits={"west": left, "east": right},
                views={left: (0.7, "to the west"), right: (0.7, "to the east")},
            )
        )
    for index, tag in enumerate(model.actors):
        noun, gender = _ACTORS[index % len(_ACTORS)]
        room = model.rooms[index % rooms]
        model.room_of[tag] = room
        called = noun if index < len(_ACTORS) else f"{noun} {index // len(_ACTORS) + 1}"
        items.append(Actor(tag=tag, called=called, gender=gender, where=f"in {room}"))  # type: ignore[arg-type]
    for box, room in model.box_in.items():
        items.append(
            Thing(
                tag=box,
                called=f"box in hall {model.rooms.index(room)}",
                where=f"in {room}",
                holds=("in",),
                open=True,
                prominence=0.8,
            )
        )
    boxes = list(model.box_in)
    for index in range(things):
        tag = f"@thing{index}"
        called = f"{_ADJECTIVES[index % len(_ADJECTIVES)]} {_NOUNS[index // len(_ADJECTIVES) % len(_NOUNS)]}"
        roll = rng.random()
        if roll < 0.15:
            place = ("of", model.actors[index % actors])
        elif roll < 0.3:
            place = ("in", boxes[index % len(boxes)])
        else:
            place = ("in", model.rooms[index % rooms])
        model.place[tag] = place
        model.shine[tag] = 0
        items.append(
            Thing(
                tag=tag,
                called=called,
                where=" ".join(place),
                prominence=rng.choice(_PROMINENCES),
                features={"shine": 0},
            )
        )
    return items


# Each planner returns the action to take (and how many events it yields), or None when it cannot happen
# now; the generator then falls back to an action that always can.
Plan = tuple[str, Action, int] | None


def _go(model: _Model, rng: random.Random, agent: str, room: str) -> Plan:
    index = rng.randrange(2)
    to = model.neighbours(room)[index]
    model.room_of[agent] = to
    return "go", go(agent, to, direction=("west", "east")[index]), 2


def _take(model: _Model, rng: random.Random, agent: str, room: str) -> Plan:
    loose = model.loose_in(room)
    if not loose or len(model.held_by(agent)) >= MAX_HELD:
        return None
    thing = rng.choice(loose)
    model.place[thing] = ("of", agent)
    action = Configure(
        verb="take", agent=agent, direct=thing, to=f"of {agent}", template="[agent/s] [pick/v] up [direct/o]"
    )
    return "configure", action, 1


def _drop(model: _Model, rng: random.Random, agent: str, room: str) -> Plan:
    held = model.held_by(agent)
    if not held:
        return None
    thing = rng.choice(held)
    box = model.box_of[room]
    if model.open[box] and rng.random() < 0.4:
        model.place[thing] = ("in", box)
        action = Configure(
            verb="put", agent=agent, direct=thing, to=f"in {box}", template="[agent/s] [put/v] [direct/o] in [target/o]"
        )
    else:
        model.place[thing] = ("in", room)
        action = Configure(
            verb="drop", agent=agent, direct=thing, to=f"in {room}", template="[agent/s] [put/v] [direct/o] down"
        )
    return "configure", action, 1


def _give(model: _Model, rng: random.Random, agent: str, room: str) -> Plan:
    held, others = model.held_by(agent), model.others_in(room, agent)
    if not held or not others:
        return None
    thing, other = rng.choice(held), rng.choice(others)
    model.place[thing] = ("of", other)
    action = Configure(
        verb="give", agent=agent, direct=thing, to=f"of {other}", template="[agent/s] [give/v] [direct/o] to [target/o]"
    )
    return "configure", action, 1


def _modify(model: _Model, rng: random.Random, agent: str, room: str) -> Plan:
    box = model.box_of[room]
    if rng.random() < 0.25:
        value = not model.open[box]
        model.open[box] = value
        verb = "open" if value else "close"
        return "modify", Modify(verb=verb, agent=agent, direct=box, feature="open", value=value), 1
    # Anything in reach: in the room, in its open box, or held by anyone there.
    reach = model.visible_things(room)
    if not reach:
        return None
    thing = rng.choice(reach)
    model.shine[thing] += 1
    return "modify", Modify(verb="polish", agent=agent, direct=thing, feature="shine", value=model.shine[thing]), 1


def _sense(model: _Model, rng: random.Random, agent: str, room: str) -> Plan:
    if rng.random() < 0.2:
        return "sense", look(agent), 1
    seen = model.visible_things(room) + model.others_in(room, agent)
    if not seen:
        return None
    return "sense", SenseAction(verb="see", agent=agent, direct=rng.choice(seen)), 1


def _fail(model: _Model, rng: random.Random, agent: str, room: str) -> Plan:
    box = model.box_of[room]
    verb = "open" if model.open[box] else "close"
    # Opening the open box (or closing the closed one) is refused as "already so": a told failure.
    return "failure", Modify(verb=verb, agent=agent, direct=box, feature="open", value=model.open[box]), 1


def _behave(model: _Model, rng: random.Random, agent: str, room: str) -> Plan:
    roll = rng.random()
    if roll < 0.3:
        return "behave", Behave(verb="laugh", agent=agent), 1
    if roll < 0.5:
        return "behave", Behave(verb="hum", agent=agent, progressive=True, duration=2), 1
    others = model.others_in(room, agent)
    if roll < 0.75 and others:
        template = "[agent/s] [wave/v] to [direct/o]"
        action = Behave(verb="wave", agent=agent, direct=rng.choice(others), template=template)
        return "behave", action, 1
    things = model.visible_things(room)
    if things:
        return "behave", Behave(verb="examine", agent=agent, direct=rng.choice(things)), 1
    return "behave", Behave(verb="laugh", agent=agent), 1


_PLANNERS = (
    (_go, 12),
    (_take, 12),
    (_drop, 10),
    (_give, 6),
    (_modify, 14),
    (_sense, 14),
    (_behave, 29),
    (_fail, 3),
)


def synthetic(
    events: int, *, seed: int = 0, rooms: int = ROOMS, actors: int = ACTORS, things: int = THINGS
) -> Synthetic:
    """A non-interactive story whose timeline yields exactly `events` events, the same for the same seed."""
    if events < 1 or rooms < 3 or actors < 2:
        raise ValueError("a synthetic story needs at least one event, three rooms and two actors")
    rng = random.Random(f"synthetic:{seed}")
    room_tags = [f"@hall{index}" for index in range(rooms)]
    actor_tags = [f"@actor{index}" for index in range(actors)]
    model = _Model(room_tags, actor_tags, {f"@box{index}": room for index, room in enumerate(room_tags)})
    items = _items(model, rng, rooms, actors, things)
    planners, weights = zip(*_PLANNERS, strict=True)
    timeline: list[tuple[int, Action]] = []
    kinds: Counter[str] = Counter()
    produced = 0
    tick = 0
    while produced < events:
        tick += 1
        agent = rng.choice(model.actors)
        room = model.room_of[agent]
        planner = rng.choices(planners, weights)[0]
        if planner is _go and events - produced < 2:
            planner = _behave  # a go is two events (leaving, then entering); there is room for one only
        plan = planner(model, rng, agent, room) or _behave(model, rng, agent, room)
        assert plan is not None
        kind, action, count = plan
        timeline.append((tick, action))
        kinds[kind] += 1
        produced += count
    definition = WorldDefinition(
        name=f"synthetic{events}",
        title=f"A synthetic story of {events} events",
        interactive=False,
        items=tuple(items),
        player=model.actors[0],
        timeline=tuple(timeline),
    )
    return Synthetic(definition=definition, events=produced, failures=kinds["failure"], kinds=kinds)


def spun_spin(story: Story) -> Spin:
    """The story's own spin under retrograde order, time words, iterative frequency and three filters."""
    return apply(story.spin, SPUN, source="bench")


def run_story(definition: WorldDefinition) -> Story:
    story = Story(definition)
    story.run_to_end()
    return story


# -- scaling -----------------------------------------------------------------------------------------------


def told_counts(story: Story, spin: Spin | None = None) -> tuple[int, int]:
    """How many events a telling tells (after selection and folding) and how many sentences it makes."""
    found: dict[str, int] = {}

    def trace(stage: str, draft: Draft) -> None:
        if stage == "frequency":
            found["events"] = len(draft.told)
        elif stage == "realize":
            found["sentences"] = sum(len(item.sentences) for item in draft.told)

    story.tell(spin, trace=trace)
    return found["events"], found["sentences"]


def simulate_by_tenths(made: Synthetic) -> list[float]:
    """Seconds per event over each tenth of one simulation, run a tick at a time as `Story.run_to_end` runs
    it: flat when an event costs the same however long the story has gone on, rising when it costs more."""
    simulation = Story(made.definition).simulation
    last = made.definition.ticks or simulation.last_tick
    bounds = [max(1, made.events * tenth // 10) for tenth in range(1, 11)]
    marks = [(0, time.perf_counter())]
    while simulation.tick < last and not simulation.ended:
        simulation.advance(new_turn=simulation.tick == 0)
        while len(marks) <= len(bounds) and len(simulation.events) >= bounds[len(marks) - 1]:
            marks.append((len(simulation.events), time.perf_counter()))
    return [(end - start) / max(1, done - begun) for (begun, start), (done, end) in pairwise(marks) if done > begun]


def _measure_size(events: int, repeats: int) -> Result:
    made = synthetic(events)
    story = run_story(made.definition)
    spin = spun_spin(story)
    told, sentences = told_counts(story)  # also warms up: the verb lexicon loads on first use
    told_spun, sentences_spun = told_counts(story, spin)
    simulate = fastest(repeats, lambda: run_story(made.definition))
    tell = fastest(repeats, story.tell)
    tell_spun = fastest(repeats, lambda: story.tell(spin))
    work = {
        "simulate_s": calls(lambda: run_story(made.definition)),
        "tell_s": calls(story.tell),
        "tell_spun_s": calls(lambda: story.tell(spin)),
    }
    peak, _told = peak_bytes(lambda: run_story(made.definition).tell())
    # The fastest of each tenth over the repeats: a long run rarely escapes every disturbance of the machine,
    # so its total is biased upwards against a short run's; a tenth at a time is not.
    runs = [simulate_by_tenths(made) for _ in range(repeats)]
    tenths = [min(run[tenth] for run in runs) for tenth in range(min(len(run) for run in runs))]
    return {
        "events": len(story.simulation.events),
        "told": told,
        "sentences": sentences,
        "told_spun": told_spun,
        "sentences_spun": sentences_spun,
        "simulate_s": simulate,
        "tell_s": tell,
        "tell_spun_s": tell_spun,
        "peak_bytes": peak,
        "simulate_tenths_s": tenths,
        "calls": work,
    }


MEASURES = (
    ("simulate_s", "simulate: Story() + run_to_end()"),
    ("tell_s", "tell, default spin"),
    ("tell_spun_s", "tell, retrograde+time words+iterative+filters"),
    ("peak_bytes", "peak memory, simulate + tell"),
)


def scaling(settings: Settings) -> Result:
    """Each measure at each size, and its growth from the smallest size to the largest against linear."""
    sizes = sorted(set(settings.sizes))
    by_size = {str(size): _measure_size(size, settings.repeats) for size in sizes}
    small, large = by_size[str(sizes[0])], by_size[str(sizes[-1])]
    target = LINEAR_SLACK * sizes[-1] / sizes[0]
    ratios = {key: ratio(large[key], small[key]) for key, _label in MEASURES}
    call_ratios = {key: ratio(large["calls"][key], small["calls"][key]) for key in large["calls"]}
    return {
        "world": {"rooms": ROOMS, "actors": ACTORS, "things": THINGS},
        "repeats": settings.repeats,
        "sizes": by_size,
        "ratios": ratios,
        "call_ratios": call_ratios,
        "target": target,
        "verdicts": {key: "PASS" if value <= target else "WARN" for key, value in ratios.items()},
    }


def report_scaling(result: Result) -> str:
    sizes = list(result["sizes"])
    measured = [result["sizes"][size] for size in sizes]
    header = ["", *(f"N={int(size):,}" for size in sizes), f"{sizes[-1]}/{sizes[0]}", "target", "", "calls†"]
    rows = []
    for key, label in MEASURES:
        shown = mebibytes if key == "peak_bytes" else duration
        work = result["call_ratios"].get(key)
        rows.append(
            [
                label,
                *(shown(found[key]) for found in measured),
                f"{result['ratios'][key]:.1f}",
                f"≤ {result['target']:.0f}",
                result["verdicts"][key],
                f"{work:.1f}" if work else "",
            ]
        )
    blank = ["", "", "", ""]
    rows.append(
        ["tell per sentence, default", *(duration(f["tell_s"] / max(1, f["sentences"])) for f in measured), *blank]
    )
    rows.append(
        [
            "tell per sentence, spun",
            *(duration(f["tell_spun_s"] / max(1, f["sentences_spun"])) for f in measured),
            *blank,
        ]
    )
    rows.append(
        [
            "simulate per event, first / last tenth*",
            *(f"{duration(f['simulate_tenths_s'][0])} / {duration(f['simulate_tenths_s'][-1])}" for f in measured),
            *blank,
        ]
    )
    rows.append(
        [
            "events / told / sentences",
            *(f"{f['events']:,} / {f['told']:,} / {f['sentences']:,}" for f in measured),
            *blank,
        ]
    )
    rows.append(
        ["spun: told / sentences", *(f"{f['told_spun']:,} / {f['sentences_spun']:,}" for f in measured), *blank]
    )
    world = result["world"]
    title = (
        f"synthetic story: {world['rooms']} rooms, {world['actors']} actors, {world['things']} things; "
        f"times are the fastest of {result['repeats']} runs"
    )
    note = (
        "† growth in function calls made (cProfile): the work done, which no other load on the machine "
        "disturbs\n* each tenth of the events the fastest over the runs; equal when an event costs the same "
        "however long the story has run"
    )
    return title + "\n" + table(header, rows) + "\n" + note


# -- the robbery, told many times ----------------------------------------------------------------------------


def robbery(settings: Settings) -> Result:
    """The robbery run once, then told `tellings` times under its own spin and as often under the shipped
    spins in turn; each telling timed alone."""
    story = run_story(load_world("robbery"))
    names = spin_names()
    spins = [spin_from_words(story.spin, [name]) for name in names]  # read from disk once, outside the timing

    def timings(choose: Callable[[int], Spin | None]) -> list[float]:
        # No collection between tellings: the pauses the collector makes belong in the percentiles.
        found = []
        gc.collect()
        for index in range(settings.tellings):
            spin = choose(index)
            start = time.perf_counter()
            story.tell(spin)
            found.append(time.perf_counter() - start)
        return found

    default = timings(lambda _index: None)
    rotating = timings(lambda index: spins[index % len(spins)])
    return {
        "tellings": settings.tellings,
        "events": len(story.simulation.events),
        "spins": names,
        "default": distribution(default),
        "rotating": distribution(rotating),
    }


def report_robbery(result: Result) -> str:
    header = ["robbery", "tellings", "median", "p90", "p99", "total"]
    rows = []
    for key, label in (("default", "default spin"), ("rotating", f"{len(result['spins'])} shipped spins in turn")):
        found = result[key]
        rows.append(
            [
                label,
                f"{found['count']:,}",
                duration(found["median_s"]),
                duration(found["p90_s"]),
                duration(found["p99_s"]),
                duration(found["total_s"]),
            ]
        )
    return f"the robbery ({result['events']} events), one run, told again and again\n" + table(header, rows)


BENCHMARKS = (
    Benchmark(
        "scaling", "simulate and tell a synthetic story at each size; growth against linear", scaling, report_scaling
    ),
    Benchmark("robbery", "tell the robbery many times: per-telling median, p90, p99", robbery, report_robbery),
)
