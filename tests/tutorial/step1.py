"""The Lamp and the Gull, step 1: three rooms at the top of a lighthouse, and the keeper."""

from server.engine.authoring import Actor, Room, WorldDefinition

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
)

WORLD = WorldDefinition(
    name="lighthouse",
    title="The Lamp and the Gull",
    interactive=False,
    items=ITEMS,
    player="@keeper",
)
