"""The Simulated Bank Robbery: a non-interactive story, the same events told through whoever saw them."""

from server.engine.authoring import Actor, Behave, Configure, Modify, Room, SenseAction, Thing, WorldDefinition, go

ITEMS = (
    Room(
        tag="@street",
        called="street",
        sight="cars [pass/2/v] along [this] ordinary street outside the bank",
        exits={"in": "@lobby"},
    ),
    Room(
        tag="@lobby",
        called="lobby",
        sight="[this] [be/v] the bank's lobby, marble-floored and hushed",
        exits={"out": "@street", "in": "@guard_post"},
        views={"@vestibule": (0.6, "inside the vestibule")},
    ),
    Room(
        tag="@vestibule",
        called="vestibule",
        referring="teller's area",
        sight="[this] [be/v] the teller's area, behind a counter",
        views={"@lobby": (0.8, "out in the lobby")},
    ),
    Room(
        tag="@guard_post",
        called="guard post",
        sight="[this] [be/v] a cramped room with a stool and a one-way mirror",
        exits={"out": "@lobby"},
        views={"@lobby": (0.8, "through the one-way mirror")},
    ),
    Actor(tag="@teller", called="bank teller", article="the", gender="female", where="in @vestibule"),
    Actor(tag="@robber", called="twitchy man", gender="male", where="in @street", referring="robber"),
    Actor(tag="@guard", called="burly guard", gender="male", where="in @guard_post", awake=False),
    Thing(tag="@slips", called="deposit slips", article="some", plural=True, where="in @vestibule"),
    Thing(tag="@bag", called="black bag", where="in @vestibule", holds=("in",), open=True),
    Thing(
        tag="@fake_money",
        called="fake money",
        article="some",
        where="in @vestibule",
        prominence=0.3,
        referring="bills",
    ),
    Thing(tag="@mask", called="Dora the Explorer mask", where="of @robber", qualities=("clothing",)),
    Thing(tag="@toy_gun", called="gun-shaped object", where="of @robber"),
    Thing(tag="@pistol", called="pistol", where="of @guard"),
)


def shot(tick: int) -> tuple[int, Behave]:
    return tick, Behave(
        verb="shoot",
        agent="@guard",
        direct="@robber",
        indirect="@pistol",
        template="[agent/s] [shoot/v] [direct/o] in the chest",
        salience=0.9,
    )


TIMELINE = (
    (1, Behave(verb="read", agent="@teller", direct="@slips")),
    (2, Behave(verb="snooze", agent="@guard", progressive=True, duration=8)),
    (3, Behave(verb="count", agent="@teller", direct="@slips")),
    (
        4,
        Configure(
            verb="wear", agent="@robber", direct="@mask", to="on @robber", template="[agent/s] [put/v] on [direct/o]"
        ),
    ),
    (5, Behave(verb="type", agent="@teller", salience=0.3)),
    (
        6,
        Behave(
            verb="play", agent="@teller", template="[agent/s] [play/v] solitaire on [agent's] computer", salience=0.3
        ),
    ),
    (7, go("@robber", "@lobby", direction="in")),
    (8, Behave(verb="wave", agent="@teller", direct="@robber", template="[agent/s] [wave/v] to [direct/o]")),
    (
        9,
        Behave(
            verb="brandish",
            agent="@robber",
            direct="@teller",
            indirect="@toy_gun",
            template="[agent/s] [brandish/v] [indirect/o] at [direct/o]",
            salience=0.8,
        ),
    ),
    (10, Behave(verb="laugh", agent="@teller")),
    (11, Modify(verb="wake", agent="@guard", feature="awake", value=True, template="[agent/s] [wake/v] up")),
    (12, SenseAction(verb="see", agent="@guard", direct="@robber")),
    (13, go("@guard", "@lobby", direction="out")),
    (
        14,
        Configure(
            verb="put",
            agent="@teller",
            direct="@fake_money",
            to="in @bag",
            template="[agent/s] [put/v] [direct/o] in [target/o]",
        ),
    ),
    (15, Behave(verb="turn", agent="@robber", direct="@guard", template="[agent/s] [turn/v] to [direct/o]")),
    shot(16),
    shot(17),
    (18, Modify(verb="fall", agent="@robber", feature="standing", value=False, salience=0.8)),
    (19, Modify(verb="die", agent="@robber", feature="alive", value=False, salience=0.9)),
    (20, Behave(verb="cry", agent="@teller", final=True)),
)

WORLD = WorldDefinition(
    name="robbery",
    title="The Simulated Bank Robbery",
    summary="A twitchy man in a mask walks into a bank. Told through the robber, the teller or the guard.",
    author="after Nick Montfort's Curveship demonstration",
    interactive=False,
    items=ITEMS,
    player="@robber",
    spin={"room_headings": False},
    timeline=TIMELINE,
)
