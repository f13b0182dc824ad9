"""Artmaking: a one-room demonstration — an artist, a box, and a sculpture awaiting its breakthrough."""

from server.engine.authoring import (
    Action,
    Actor,
    Behave,
    Modify,
    Refusal,
    Room,
    SenseAction,
    Thing,
    WorldDefinition,
    WorldState,
)
from worlds._scenery import leave_be, scenery, through

BREAKTHROUGH = "finally, [begin-caps]a worthy contribution to the art world[end-caps]"
WORK_TO_DO = "[agent/s] [have/v] work to do, and to leave [now] [be/1/v] to give up"
SELF_PORTRAIT = (
    "[agent/s] [be/v] an artist, paint under [agent's] fingernails, who [settle/v] for nothing less than a breakthrough"
)


def puncture(action: Action, world: WorldState) -> list[Action]:
    """Kicking or striking the sculpture punctures it: the breakthrough, and the end."""
    if action.verb not in ("kick", "strike") or action.direct != "@sculpture":
        return []
    if not world.get("@sculpture", "intact"):
        return []
    return [
        Modify(
            verb="puncture",
            agent=action.agent,
            direct="@sculpture",
            feature="intact",
            value=False,
            template="[agent/s] [puncture/v] [direct/o]",
            salience=0.8,
        ),
        Behave(verb="triumph", agent=action.agent, template=BREAKTHROUGH, salience=0.9, final=True),
    ]


def self_regard(action: Action, world: WorldState) -> list[Action]:
    """Looking herself over, the artist takes stock of more than what she carries."""
    if not isinstance(action, SenseAction) or action.verb != "look" or action.direct != action.agent:
        return []
    return [Behave(verb="regard", agent=action.agent, template=SELF_PORTRAIT, witnessed="agent", salience=0.5)]


def score(world: WorldState) -> tuple[int, int]:
    """The breakthrough is the one point there is: the sculpture punctured."""
    return int(world.get("@sculpture", "intact") is False), 1


ITEMS = (
    Room(
        tag="@studio",
        called="studio",
        sight="[this] bare studio [have/v] white walls, a concrete floor, and a single door to the north",
        exits={"n": WORK_TO_DO, "out": WORK_TO_DO},
    ),
    Actor(
        tag="@artist",
        called="artist",
        gender="female",
        where="in @studio",
        referring="me self",
        react=self_regard,
    ),
    scenery(
        "@walls",
        "walls",
        "@studio",
        "[@walls/s] [be/v] white and bare, waiting for something worth hanging on them",
        plural=True,
        referring="wall white",
    ),
    scenery(
        "@floor",
        "floor",
        "@studio",
        "[@floor/s] [be/v] grey concrete, spattered with the paint of old failures",
        referring="ground concrete",
    ),
    scenery(
        "@door",
        "door",
        "@studio",
        "[@door/s] [lead/v] north, out of the studio and away from the work",
        referring="exit",
        open=False,
        leads="n",
    ),
    Thing(
        tag="@box",
        called="box",
        where="in @studio",
        referring="crate carton cardboard",
        holds=("in",),
        open=False,
        sight="[@box/s] [be/v] a sturdy cardboard box, [@box/open/a], stamped FRAGILE",
    ),
    Thing(
        tag="@sculpture",
        called="sculpture of a mountain",
        subsequent="sculpture",
        where="in @box",
        referring="mountain artwork work art piece model",
        features={"intact": True},
        react=puncture,
        sight="[@sculpture/s] [be/v] a mountain in miniature, made to order, perfectly and unbearably competent",
    ),
)

WORLD = WorldDefinition(
    name="artmaking",
    title="Artmaking",
    summary="One room, one box, one sculpture. Settle for nothing less than an artistic breakthrough.",
    author="after Nick Montfort's Curveship demonstration",
    interactive=True,
    items=ITEMS,
    player="@artist",
    spin={"narratee": "@artist"},
    prologue="Settle for nothing less than an artistic breakthrough.",
    timeline=((1, Behave(verb="frown", agent="@artist", direct="@box", template="[agent/s] [frown/v] at [direct/o]")),),
    refusals=(
        Refusal(
            verb="kick",
            direct="@box",
            reason="[agent/s] [be/v] an artist, not a vandal; the box [be/not/v] the work",
        ),
        Refusal(
            verb="eat", reason="[agent/s] [have/v] no appetite; art [be/1/v] the only thing [agent/s] [hunger/v] for"
        ),
        Refusal(verb="wander", reason=WORK_TO_DO),
        Refusal(verb="open", direct="@door", reason=WORK_TO_DO),
        leave_be(("@walls", "@floor", "@door"), "[direct/s] [be/not/v] the work; the sculpture [be/v]"),
    ),
    commands=(through(),),
    score=score,
)
