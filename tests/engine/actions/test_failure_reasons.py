"""What cannot be done is told with the reason a player would give: "Your ticket cannot be opened.", never a
reason about something else ("…because you cannot reach the cosmos")."""

from __future__ import annotations

import pytest

from server.engine.player import Player
from server.engine.story import Story
from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Room, Thing


def opera() -> Player:
    """Ann in a foyer, with her ticket, cloak and tortilla, sacks and a mime; a cloakroom with a hook to the west."""
    world = WorldDefinition(
        name="opera",
        title="The Opera",
        items=(
            Room(tag="@foyer", called="foyer", exits={"w": "@cloakroom"}),
            Room(tag="@cloakroom", called="cloakroom", exits={"e": "@foyer"}),
            Actor(tag="@ann", called="Ann", article="", gender="female", where="in @foyer", referring="me"),
            Actor(tag="@mime", called="mime", gender="male", where="in @foyer"),
            Thing(tag="@ticket", called="ticket", where="of @ann"),
            Thing(tag="@cloak", called="velvet cloak", where="on @ann", qualities=("clothing",)),
            Thing(tag="@tortilla", called="tortilla", where="of @ann", qualities=("food",)),
            Thing(tag="@note", called="note", where="in @foyer", writing="meet me at the bar"),
            Thing(tag="@sack", called="large sack", where="in @foyer", holds=("in",), open=True),
            Thing(
                tag="@hamper",
                called="hamper",
                where="in @foyer",
                holds=("in",),
                open=True,
                features={"enterable": True},
            ),
            Thing(tag="@hook", called="hook", where="part_of @cloakroom", holds=("on",)),
        ),
        player="@ann",
        spin={"narratee": "@ann"},
    )
    player = Player(Story(world))
    player.opening()
    return player


def test_eating_what_one_holds_or_what_lies_here_uses_it_up():
    ann = opera()
    assert ann.command("eat tortilla").text == "You eat your tortilla."
    ann = opera()
    ann.command("drop tortilla")
    assert ann.command("eat tortilla").text == "You eat the tortilla."
    assert "tortilla" not in ann.command("look").text


@pytest.mark.parametrize(
    ("line", "told"),
    [
        ("enter foyer", "You are already in the foyer."),
        ("open ticket", "Your ticket cannot be opened."),
        ("open ticket with cloak", "Your ticket cannot be opened."),
        ("close ticket", "Your ticket cannot be closed."),
        ("put ticket in ticket", "Your ticket cannot go in itself."),
        ("take ticket", "You are unable to take your ticket because you already have it."),
        ("give cloak to me", "You cannot give your velvet cloak to yourself."),
        ("free ticket from sack", "Your ticket is not in the large sack."),
        ("take ticket from sack", "Your ticket is not in the large sack."),
        ("read cloak", "There is nothing written on your velvet cloak."),
    ],
)
def test_a_failure_is_told_by_its_own_reason(line, told):
    assert opera().command(line).text == told


def test_putting_something_in_what_only_holds_things_on_it():
    ann = opera()
    ann.command("w")
    assert ann.command("put ticket in hook").text == "You can only put things on the hook."
    assert ann.command("put ticket on hook").text == "You put your ticket on the hook."


def test_putting_a_container_in_what_it_holds():
    ann = opera()
    ann.command("put ticket in sack")
    ann.command("take sack")
    told = ann.command("put sack in ticket").text
    assert told == "You are unable to put the large sack in the ticket because the ticket is in the large sack."


def test_reading_tells_what_is_written():
    assert opera().command("read note").text == "Meet me at the bar."


def test_getting_into_something_twice_and_out_again():
    ann = opera()
    assert ann.command("enter hamper").text.startswith("You get into the hamper.")
    assert ann.command("enter hamper").text == "You are already in the hamper."
    assert ann.command("out").text.startswith("You get out of the hamper.")
    assert ann.command("out").text == "You cannot go that way."


def test_what_one_carries_in_a_container_is_not_told_with_every_room():
    ann = opera()
    ann.command("put ticket in sack")
    ann.command("take sack")
    told = ann.command("w").text
    assert "ticket" not in told and "sack" not in told
    assert "ticket" in ann.command("look in sack").text


def test_a_lamp_one_holds_can_be_switched_on_in_the_dark():
    world = WorldDefinition(
        name="cellar",
        title="The Cellar",
        items=(
            Room(tag="@cellar", called="cellar", glow=0.0),
            Actor(tag="@ann", called="Ann", article="", gender="female", where="in @cellar"),
            Thing(tag="@lamp", called="lamp", where="of @ann", on=False, glow=1.0),
            Thing(tag="@crate", called="crate", where="in @cellar"),
        ),
        player="@ann",
        spin={"narratee": "@ann"},
    )
    ann = Player(Story(world))
    assert "too dark" in ann.opening().text
    assert ann.command("turn on lamp").text == "You turn on your lamp."
    assert "crate" in ann.command("look").text
