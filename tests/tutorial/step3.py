"""The Lamp and the Gull, step 3: what happens, tick by tick."""

from server.engine.authoring import Actor, Behave, Configure, Modify, Room, SenseAction, Thing, WorldDefinition

ITEMS = (
    Room(
        tag="@lamp_room",
        called="lamp room",
        sight="[this] is a round room of glass at the top of the tower",
        exits={"out": "@gallery", "down": "@stairwell"},
        views={"@gallery": (0.7, "out on the gallery")},
    ),
    Room(
        tag="@gallery",
        called="gallery",
        sight="an iron walkway circles the tower, high above the sea",
        exits={"in": "@lamp_room", "down": "it is a long way down to the rocks"},
        views={"@lamp_room": (0.5, "through the glass")},
    ),
    Room(
        tag="@stairwell",
        called="stairwell",
        sight="stone steps wind down into the dark",
        exits={"up": "@lamp_room"},
    ),
    Actor(tag="@keeper", called="lighthouse keeper", article="the", gender="female", where="in @lamp_room"),
    Actor(tag="@gull", called="herring gull", subsequent="gull", gender="male", where="in @gallery"),
    Thing(tag="@railing", called="railing", where="part_of @gallery", holds=("on",)),
    Thing(tag="@lamp", called="great lamp", article="the", where="in @lamp_room", prominence=0.9, lit=False),
    Thing(tag="@table", called="table", where="in @lamp_room", holds=("on",)),
    Thing(tag="@tin", called="sardine tin", where="on @table", holds=("in",), open=True),
    Thing(tag="@sardine", called="sardine", where="in @tin", prominence=0.3, qualities=("food",)),
    Thing(tag="@matches", called="matches", article="some", plural=True, where="of @keeper"),
)

TIMELINE = (
    (1, Modify(verb="light", agent="@keeper", direct="@lamp", feature="lit", value=True,
               template="[agent/s] [light/v] [direct/o] with [@matches/o]")),
    (2, Behave(verb="preen", agent="@gull", template="[agent/s] [preen/v] [agent's] feathers")),
    (3, Configure(verb="take", agent="@keeper", direct="@sardine", to="of @keeper",
                  template="[agent/s] [take/v] [direct/o] out of [parent/o]")),
    (4, Configure(verb="step", agent="@keeper", direct="@keeper", to="in @gallery",
                  template="[agent/s] [step/v] out onto [target/o]")),
    (5, SenseAction(verb="eye", agent="@gull", direct="@sardine", template="[agent/s] [eye/v] [direct/o]")),
    (6, Configure(verb="set", agent="@keeper", direct="@sardine", to="on @railing",
                  template="[agent/s] [set/v] [direct/o] on [target/o]")),
)

WORLD = WorldDefinition(
    name="lighthouse",
    title="The Lamp and the Gull",
    interactive=False,
    items=ITEMS,
    player="@keeper",
    timeline=TIMELINE,
)
