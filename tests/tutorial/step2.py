"""The Lamp and the Gull, step 2: the keeper, a gull, and the things around them."""

from server.engine.authoring import Actor, Room, Thing, WorldDefinition

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

WORLD = WorldDefinition(
    name="lighthouse",
    title="The Lamp and the Gull",
    interactive=False,
    items=ITEMS,
    player="@keeper",
)
