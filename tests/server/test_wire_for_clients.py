"""What a thin client needs is on the wire: the Spin described field by field, whom a session may read and tell
through, the words for completion, and the `spin` method taking named spins as `narrate` does."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from protocol.commands import SEPARATORS
from protocol.spin import SPIN_FIELDS, Spin, spin_argument
from server.catalog import spin_from_words
from tests.server.conftest import AUTHOR, Server
from tests.wire import Client, Http

pytestmark = pytest.mark.asyncio


async def test_the_discovery_document_describes_the_spin_field_by_field(client: Client) -> None:
    schemas = (await client.ok("rpc.discover"))["components"]["schemas"]
    spin = schemas["Spin"]
    assert list(spin["properties"]) == list(SPIN_FIELDS)
    for name, field in spin["properties"].items():
        assert len(field["description"]) > 20, name  # a sentence a client can show beside the control
        assert "default" in field, name
    assert set(spin["properties"]["order"]["enum"]) == {"chronicle", "retrograde", "achrony", "analepsis", "syllepsis"}
    assert spin["properties"]["order"]["default"] == "chronicle"
    kinds = [set(each.get("enum", ())) for each in spin["properties"]["time"]["anyOf"]]
    assert {"before", "during", "after"} in kinds
    result = schemas["SpinResult"]["properties"]["spin"]
    assert result["$ref"].endswith("/Spin")


async def test_spin_answers_the_whole_spin_and_takes_named_spins_that_add_up(client: Client) -> None:
    await client.play("robbery")
    whole = (await client.ok("spin"))["spin"]
    assert list(whole) == list(SPIN_FIELDS)
    changed = (await client.ok("spin", set=["hesitant", "surprise", {"time": "after"}]))["spin"]
    assert changed["filters"] == ["hesitant", "surprise"] and changed["time"] == "after"
    told = await client.ok("narrate")
    assert " laughed" in told["text"] or " was " in told["text"]  # told in the past now
    # a named spin given alone, as narrate takes it
    assert (await client.ok("spin", set="prophecy"))["spin"]["time"] == "before"
    error = await client.fail(-32001, "spin", set=["sideways"])
    assert "sideways" in error["message"] and "spin setting" in error["message"]


async def test_a_player_may_tell_through_and_read_only_its_own_actor(server: Server, client: Client) -> None:
    await client.play("lost_one", actor="@punk")
    state = await client.ok("state")
    assert state["author"] is False and state["interactive"] is True
    assert state["focalizers"] == ["@punk"] and state["concepts"] == ["@punk"]
    # what state says is what the server allows
    for actor in ("@visitor", "@friend"):
        await client.fail(-32003, "concept", actor=actor)
    await client.ok("concept", actor="@punk")


async def test_a_reader_of_a_story_may_use_every_actor(client: Client) -> None:
    await client.play("robbery")
    state = await client.ok("state")
    assert state["interactive"] is False
    assert set(state["focalizers"]) == set(state["concepts"]) == {"@teller", "@robber", "@guard"}
    for actor in state["concepts"]:
        assert (await client.ok("concept", actor=actor))["actor"] == actor
    for actor in state["focalizers"]:
        await client.ok("narrate", spin={"focalizer": actor})


async def test_an_author_may_use_every_actor_of_an_interactive_world(server: Server) -> None:
    author = Http(server, AUTHOR)
    await author.play("lost_one")
    state = await author.ok("state")
    assert state["author"] is True and len(state["focalizers"]) > 1 and state["focalizers"] == state["concepts"]


async def test_vocabulary_gives_the_words_for_completion(client: Client) -> None:
    await client.play("cloak")
    words: dict[str, Any] = await client.ok("vocabulary")
    assert {"take", "put", "go", "x"} <= set(words["verbs"])
    assert "on" in words["particles"]["put"] and "go" in words["directed"] and "x" in words["looking"]
    assert {"north", "west", "n"} <= set(words["directions"]) and {"undo", "world tree"} <= set(words["directives"])
    assert "velvet cloak" in words["names"] and "Foyer of the Opera House" not in words["names"]
    assert words["separators"] == SEPARATORS
    # the names grow with what the actor comes to know
    await client.ok("command", text="w")
    assert len((await client.ok("vocabulary"))["names"]) > len(words["names"])


async def test_a_spin_from_the_wire_decodes_as_the_contracts_type(client: Client) -> None:
    await client.play("cloak")
    await client.ok("spin", set={"time": "after", "filters": ["hedges"]})
    spin = msgspec.convert((await client.ok("spin"))["spin"], Spin)
    assert spin.time == "after" and spin.filters == ("hedges",) and spin.order == "chronicle"


WORDINGS = [
    ["hesitant", "surprise"],
    ["hesitant", "surprise", "time=after"],
    ["prophecy", "time", "during", "retrograde"],
    ["filters", "hedges", "surprise"],
    ["memoir", "order=retrograde", "time_words", "on", "valley_girl"],
]


@pytest.mark.parametrize("words", WORDINGS, ids=" ".join)
async def test_spin_words_mean_one_thing_by_every_path(server: Server, words: list[str]) -> None:
    """The `spin` method given the words read by the contract, the `spin` directive typed at the prompt and
    `curveship tell`'s reading (the catalog's) give the same spin: one rule, named spins' filters adding up."""
    by_method, by_directive = Http(server), Http(server)
    await by_method.play("robbery")
    await by_directive.play("robbery")
    told = (await by_method.ok("spin", set=spin_argument(words)))["spin"]
    await by_directive.ok("command", text="spin " + " ".join(words))
    typed = (await by_directive.ok("spin"))["spin"]
    assert told == typed
    from_words = spin_from_words(Spin(), words)
    for field in ("time", "order", "filters", "narrator", "time_words"):
        assert msgspec.json.decode(msgspec.json.encode(getattr(from_words, field))) == told[field], field
