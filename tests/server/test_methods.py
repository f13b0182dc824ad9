"""Every method of the contract, called on a running server over HTTP and over WebSocket."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import AUTHOR, Server, world_path
from tests.wire import Client, Http

pytestmark = pytest.mark.asyncio

ROOT = Path(__file__).resolve().parents[2]

CONTRACT: dict[str, tuple[set[str], set[str]]] = {
    # method: (params, result fields), as PROTOCOL.md lists them
    "worlds": (set(), {"worlds"}),
    "spins": (set(), {"spins"}),
    "create": ({"world", "seed", "spin"}, {"instance"}),
    "instances": ({"after", "limit"}, {"instances"}),
    "join": ({"instance", "actor", "name", "spin"}, {"token", "instance", "actor", "turn", "text", "blocks"}),
    "resume": ({"token", "last_seq"}, {"instance", "actor", "turn"}),
    "leave": (set(), set()),
    "command": ({"text"}, {"text", "blocks", "turn", "ended"}),
    "narrate": ({"spin", "window"}, {"text", "blocks", "turn", "ended"}),
    "spin": ({"set"}, {"spin"}),
    "concept": ({"actor"}, {"actor", "tree", "text"}),
    "world": (set(), {"tree", "text"}),
    "undo": (set(), {"text", "blocks", "turn", "ended"}),
    "restart": (set(), {"text", "blocks", "turn", "ended"}),
    "save": ({"name"}, {"name", "turn"}),
    "restore": ({"name"}, {"name", "turn"}),
    "actions": (set(), {"commands"}),
    "state": (set(), {"instance", "world", "actor", "turn", "room", "inventory", "ended", "hash"}),
    "realize": ({"template", "spin"}, {"text"}),
}
LISTING = re.compile(r"^(?P<indent>(?: {4})*)(?P<tag>@\w+): (?P<name>[^\[\]]+?)(?: \[(?P<link>\w+)\])?$")


def assert_reply(reply: dict[str, Any]) -> None:
    """A Reply as the contract has it: text is the blocks' texts, headings and paragraphs, blank lines between."""
    assert set(reply) >= {"text", "blocks", "turn", "ended"}
    assert isinstance(reply["turn"], int) and isinstance(reply["ended"], bool)
    for block in reply["blocks"]:
        assert block["kind"] in ("heading", "paragraph") and block["text"]
    assert reply["text"] == "\n\n".join(block["text"] for block in reply["blocks"])


EXTENSIONS = {
    "state": {"room_name", "author", "interactive", "focalizers", "concepts", "score", "max_score", "moves"},
    "instances": {"next"},
    "resume": {"seq", "replayed", "state"},
    **{name: {"seq"} for name in ("command", "narrate", "undo", "restart")},
}
"""Optional result fields beyond PROTOCOL.md, for clients that want them (the room as the story heads it; what
the session may read and tell through; the score, the most there is, and the actor's moves; the next page of
instances; the sequence numbers of version 1.1, and what a resume sent again)."""


def listing_of(node: dict[str, Any], depth: int = 0) -> list[str]:
    """The indented `@tag: name [link]` listing a tree node should come with."""
    link = f" [{node['link']}]" if node["link"] else ""
    lines = [f"{'    ' * depth}{node['tag']}: {node['name']}{link}"]
    for child in node["children"]:
        lines += listing_of(child, depth + 1)
    return lines


def walk(node: dict[str, Any]) -> list[dict[str, Any]]:
    return [node, *(each for child in node["children"] for each in walk(child))]


def assert_tree(node: dict[str, Any], text: str) -> None:
    assert set(node) == {"tag", "name", "link", "children", "kind"}
    assert node["tag"] == "@cosmos" and node["link"] is None
    kinds = {"room", "actor", "thing", "door", "shared", "substance"}
    assert all(child["kind"] in kinds for child in walk(node) if child is not node)
    for line in text.splitlines():
        assert LISTING.match(line), line
    assert text.splitlines() == listing_of(node)


# -- catalogue ------------------------------------------------------------------------------------------------


async def test_worlds_lists_every_world_with_its_actors(client: Client) -> None:
    found = {world["name"]: world for world in (await client.ok("worlds"))["worlds"]}
    shipped = {path.stem for path in (ROOT / "worlds").glob("*.py") if not path.stem.startswith("_")}
    assert set(found) == shipped
    for world in found.values():
        assert set(world) >= {"name", "title", "summary", "interactive", "actors", "default_actor"}
        assert world["title"] and isinstance(world["interactive"], bool)
        assert world["default_actor"] in [actor["tag"] for actor in world["actors"]]
        for actor in world["actors"]:
            assert re.fullmatch(r"@\w+", actor["tag"]) and actor["name"]
    assert found["cloak"]["interactive"] and not found["robbery"]["interactive"]
    assert found["cloak"]["actors"] == [{"tag": "@operagoer", "name": "operagoer"}]
    if "bank" in found:
        assert {a["tag"] for a in found["bank"]["actors"]} == {"@robber", "@teller", "@guard"}


async def test_spins_lists_the_named_spins(client: Client) -> None:
    spins = {spin["name"]: spin for spin in (await client.ok("spins"))["spins"]}
    assert set(spins) == {path.stem for path in (ROOT / "spins").glob("*.toml")}
    assert spins["prophecy"]["spin"] == {"time": "before"}
    assert all(spin["summary"] for spin in spins.values())


# -- instances and sessions -----------------------------------------------------------------------------------


async def test_create_makes_an_instance_that_instances_lists(client: Client) -> None:
    first = (await client.ok("create", world="cloak"))["instance"]
    second = (await client.ok("create", world="cloak", seed=5, spin="prophecy"))["instance"]
    assert first != second
    listed = {i["instance"]: i for i in (await client.ok("instances"))["instances"]}
    assert listed[first] == {"instance": first, "world": "cloak", "turn": 0, "ended": False, "players": []}
    await client.ok("join", instance=second, name="Ada")
    listed = {i["instance"]: i for i in (await client.ok("instances"))["instances"]}
    assert listed[second]["players"] == [{"name": "Ada", "actor": "@operagoer"}]
    assert listed[first]["players"] == []


async def test_a_creation_spin_tells_every_player(client: Client) -> None:
    opening = await client.play("cloak", spin="prophecy")
    assert " will " in opening["text"]


async def test_the_same_seed_tells_the_same_story(server: Server, client: Client) -> None:
    other = Http(server)
    for world, commands in (("robbery", []), ("lost_one", ["wander", "look", "wander", "listen"])):
        tellings = []
        for player in (client, other):
            opening = await player.play(world, seed=42)
            replies = [(await player.ok("command", text=command))["text"] for command in commands]
            told = await player.ok("narrate", spin="memoir")
            tellings.append((opening["text"], replies, told["text"]))
            player.token = None
        assert tellings[0] == tellings[1]


async def test_join_tells_the_opening_as_the_actor_perceives_it(client: Client) -> None:
    joined = await client.play("cloak", name="Ada")
    assert set(joined) >= CONTRACT["join"][1]
    assert len(joined["token"]) >= 16 and joined["actor"] == "@operagoer" and joined["turn"] == 0
    assert_reply({**joined, "ended": False})
    assert joined["blocks"][0] == {"kind": "heading", "text": "Cloak of Darkness"}
    assert "Foyer of the Opera House" in joined["text"] and "you" in joined["text"].lower()


async def test_join_a_story_that_tells_itself(client: Client) -> None:
    joined = await client.play("robbery", actor="@robber")
    assert joined["actor"] == "@robber" and joined["turn"] == 1
    assert "mask" in joined["text"]
    guard = await client.ok("narrate", spin="told_and_focalized_by_guard")
    assert guard["text"] != joined["text"] and guard["turn"] == 1


async def test_join_an_actor_by_tag_with_a_spin(server: Server, client: Client) -> None:
    instance = await server.create(world_path("duo"))
    joined = await client.ok("join", instance=instance, actor="@bob", spin={"time": "before"})
    assert joined["actor"] == "@bob"
    assert "Bob will see Ann" in joined["text"] or "You will see Ann" in joined["text"]


async def test_resume_from_a_new_socket_needs_no_token_after(server: Server, transport: str) -> None:
    first = await server.client(transport)
    joined = await first.play("cloak")
    await first.ok("command", text="w")
    socket = await server.socket()
    await socket.fail(-32002, "state")
    resumed = await socket.ok("resume", token=joined["token"])
    assert resumed == {
        "instance": joined["instance"],
        "actor": "@operagoer",
        "turn": 1,
        "seq": 1,  # the reply to "w"
        "replayed": 0,
        "state": None,
    }
    state = await socket.ok("state")
    assert state["room"] == "@cloakroom" and state["turn"] == 1
    assert (await socket.ok("command", text="e"))["turn"] == 2


async def test_resume_over_http_checks_the_token(server: Server) -> None:
    player = Http(server)
    joined = await player.play("cloak")
    other = Http(server)
    assert await other.ok("resume", token=joined["token"]) == {
        "instance": joined["instance"],
        "actor": "@operagoer",
        "turn": 0,
        "seq": 0,
        "replayed": 0,
        "state": None,
    }
    assert (await other.ok("state"))["instance"] == joined["instance"]


async def test_leave_ends_the_session_and_frees_the_actor(server: Server, client: Client) -> None:
    joined = await client.play("cloak")
    assert await client.ok("leave") == {}
    await client.fail(-32002, "state")
    await Http(server, joined["token"]).fail(-32002, "state")
    listed = {i["instance"]: i for i in (await client.ok("instances"))["instances"]}
    assert listed[joined["instance"]]["players"] == []
    again = await Http(server).ok("join", instance=joined["instance"])
    assert again["actor"] == "@operagoer"


# -- playing -------------------------------------------------------------------------------------------------


async def test_command_replies_and_the_turn_counts(client: Client) -> None:
    await client.play("cloak")
    first = await client.ok("command", text="w")
    assert_reply(first)
    assert first["turn"] == 1 and not first["ended"]
    assert [b["kind"] for b in first["blocks"]] == ["paragraph", "heading", "paragraph"]
    assert first["blocks"][1]["text"] == "Cloakroom"
    assert (await client.ok("command", text="hang cloak on hook"))["turn"] == 2
    not_understood = await client.ok("command", text="xyzzy")
    assert not_understood["turn"] == 2 and "xyzzy" in not_understood["text"]
    directive = await client.ok("command", text="spin time before")
    assert_reply(directive)
    assert directive["turn"] == 2
    assert "will" in (await client.ok("command", text="e"))["text"]


async def test_a_line_of_commands_takes_a_turn_each(client: Client) -> None:
    await client.play("cloak")
    reply = await client.ok("command", text="w. hang cloak on hook")
    assert reply["turn"] == 2 and "hook" in reply["text"]


async def test_command_to_the_ending(client: Client) -> None:
    await client.play("cloak")
    for command in ("w", "hang cloak on hook", "e", "s"):
        assert not (await client.ok("command", text=command))["ended"]
    last = await client.ok("command", text="read message")
    assert last["ended"] and "YOU HAVE WON" in last["text"]
    assert (await client.ok("state"))["ended"]


async def test_narrate_retells_without_advancing_time(client: Client) -> None:
    joined = await client.play("cloak")
    await client.ok("command", text="w")
    last = await client.ok("command", text="hang cloak on hook")
    state = await client.ok("state")
    whole = await client.ok("narrate")
    assert_reply(whole)
    assert whole["turn"] == 2 and not whole["ended"]
    assert whole["text"].startswith("Foyer of the Opera House") and "hook" in whole["text"]
    assert await client.ok("narrate", window="all") == whole
    assert await client.ok("state") == state

    turn = await client.ok("narrate", window="turn")
    assert "hook" in last["text"] and "hook" in turn["text"] and "Cloakroom" not in turn["text"]
    assert await client.ok("narrate", window=1) == turn
    two = await client.ok("narrate", window=2)
    assert "Cloakroom" in two["text"] and "Foyer of the Opera House" not in two["text"]
    assert joined["turn"] == 0 and (await client.ok("state"))["turn"] == 2


async def test_narrate_under_a_spin_by_name_list_or_settings(client: Client) -> None:
    await client.play("cloak")
    await client.ok("command", text="w")
    plain = (await client.ok("narrate"))["text"]
    prophecy = (await client.ok("narrate", spin="prophecy"))["text"]
    assert prophecy != plain and "You will leave the foyer" in prophecy
    assert (await client.ok("narrate", spin={"time": "before"}))["text"] == prophecy
    assert (await client.ok("narrate", spin=["prophecy"]))["text"] == prophecy
    # The later spin wins where both set a field (time); the memoir's first person stays.
    memoir_then_prophecy = (await client.ok("narrate", spin=["memoir", "prophecy"]))["text"]
    assert (
        memoir_then_prophecy == (await client.ok("narrate", spin={"time": "before", "narrator": "focalizer"}))["text"]
    )
    assert "I will leave the foyer" in memoir_then_prophecy
    assert (await client.ok("narrate", spin=["prophecy", "memoir"]))["text"] != prophecy
    assert (await client.ok("narrate"))["text"] == plain


async def test_spin_is_set_read_back_and_kept(server: Server, transport: str) -> None:
    client = await server.client(transport)
    joined = await client.play("cloak")
    spin = (await client.ok("spin"))["spin"]
    assert spin["focalizer"] == "@operagoer" and spin["time"] != "before"
    changed = (await client.ok("spin", set={"time": "before", "filters": ["hesitant"]}))["spin"]
    assert changed["time"] == "before" and changed["filters"] == ["hesitant"]
    assert changed == {**spin, "time": "before", "filters": ["hesitant"]}
    assert (await client.ok("spin"))["spin"] == changed
    assert "will" in (await client.ok("command", text="w"))["text"]
    elsewhere = await server.socket()
    await elsewhere.ok("resume", token=joined["token"])
    assert (await elsewhere.ok("spin"))["spin"] == changed


async def test_concept_is_a_tree_and_its_listing(client: Client) -> None:
    await client.play("cloak")
    await client.ok("command", text="w")
    concept = await client.ok("concept")
    assert concept["actor"] == "@operagoer"
    assert_tree(concept["tree"], concept["text"])
    assert "    @cloakroom: cloakroom [of]" in concept["text"].splitlines()
    assert "@bar" not in concept["text"]
    assert await client.ok("concept", actor="@operagoer") == concept


async def test_world_for_an_author_by_token(server: Server, transport: str) -> None:
    instance = (await Http(server).ok("create", world="cloak"))["instance"]
    author: Client
    if transport == "http":
        author = Http(server, AUTHOR)
        joined = await author.ok("join", instance=instance)
        author.token = joined["token"]
    else:
        author = await server.socket(token=AUTHOR)
        await author.ok("join", instance=instance)
    world = await author.ok("world")
    assert_tree(world["tree"], world["text"])
    assert "@bar: bar [of]" in world["text"] and "@message" in world["text"]


async def test_world_for_an_author_on_loopback(start: Any, transport: str) -> None:
    server = await start(author_on_loopback=True)
    client = await server.client(transport)
    await client.play("cloak")
    world = await client.ok("world")
    assert_tree(world["tree"], world["text"])


async def test_undo_and_restart_reply(client: Client) -> None:
    await client.play("cloak")
    before = await client.ok("state")
    await client.ok("command", text="w")
    undone = await client.ok("undo")
    assert_reply(undone)
    assert undone["turn"] == 0 and not undone["ended"]
    assert await client.ok("state") == before
    await client.ok("command", text="w")
    await client.ok("command", text="hang cloak on hook")
    restarted = await client.ok("restart")
    assert_reply(restarted)
    assert restarted["turn"] == 0 and restarted["blocks"][0]["text"] == "Cloak of Darkness"
    assert await client.ok("state") == before


async def test_save_and_restore(client: Client) -> None:
    await client.play("cloak")
    await client.ok("command", text="w")
    saved_state = await client.ok("state")
    assert await client.ok("save", name="hooks") == {"name": "hooks", "turn": 1}
    await client.ok("command", text="hang cloak on hook")
    await client.ok("command", text="e")
    assert await client.ok("restore", name="hooks") == {"name": "hooks", "turn": 1}
    assert await client.ok("state") == saved_state


async def test_actions_lists_commands_that_succeed(client: Client) -> None:
    await client.play("cloak")
    commands = (await client.ok("actions"))["commands"]
    assert "look" in commands and "go west" in commands and all(isinstance(c, str) and c for c in commands)
    for command in [*commands[:4], "go west", commands[-1]]:
        reply = await client.ok("command", text=command)
        assert reply["turn"] == 1, (command, reply["text"])
        assert "unable" not in reply["text"] and "know the word" not in reply["text"], (command, reply["text"])
        await client.ok("undo")


async def test_state_hash_changes_iff_the_world_does(client: Client) -> None:
    joined = await client.play("cloak")
    state = await client.ok("state")
    assert state == {
        "instance": joined["instance"],
        "world": "cloak",
        "actor": "@operagoer",
        "turn": 0,
        "room": "@foyer",
        "room_name": "Foyer of the Opera House",
        "inventory": ["@cloak"],
        "ended": False,
        "hash": state["hash"],
        "author": False,
        "interactive": True,
        "focalizers": ["@operagoer"],
        "concepts": ["@operagoer"],
        "score": 0,
        "max_score": 2,
        "moves": 0,
    }
    for unchanged in ("look", "take cloak", "xyzzy", "inventory"):
        await client.ok("command", text=unchanged)
        assert (await client.ok("state"))["hash"] == state["hash"], unchanged
    await client.ok("narrate")
    assert (await client.ok("state"))["hash"] == state["hash"]
    await client.ok("command", text="w")
    moved = await client.ok("state")
    assert moved["hash"] != state["hash"] and moved["room"] == "@cloakroom"
    await client.ok("command", text="hang cloak on hook")
    hung = await client.ok("state")
    assert hung["hash"] != moved["hash"] and hung["inventory"] == []
    # The look and the taking tried count as moves; the word it did not know and the directive do not.
    assert (moved["moves"], hung["moves"], hung["score"]) == (4, 5, 1)
    await client.ok("undo")
    undone = await client.ok("state")
    assert (undone["hash"], undone["moves"]) == (moved["hash"], 4), "the move taken back is not counted"
    await client.ok("command", text="n")
    assert (await client.ok("state"))["moves"] == 5, "nor is it counted twice with the one made in its place"


async def test_realize_renders_a_template(client: Client) -> None:
    await client.play("cloak")
    assert (await client.ok("realize", template="[@operagoer/s] [wear/v] [@cloak/o]"))["text"] == (
        "You wear your velvet cloak."
    )
    future = await client.ok("realize", template="[@operagoer/s] [wear/v] [@cloak/o]", spin="prophecy")
    assert future["text"] == "You will wear your velvet cloak."


# -- discovery and plain routes ----------------------------------------------------------------------------------


async def test_discover_describes_every_method_of_the_contract(server: Server, client: Client) -> None:
    document = await client.ok("rpc.discover")
    async with server.http.get(server.url + "/openrpc.json") as response:
        assert response.status == 200 and response.content_type == "application/json"
        assert await response.json() == document
    assert document["openrpc"].startswith("1.")
    methods = {method["name"]: method for method in document["methods"]}
    assert set(methods) >= {*CONTRACT, "rpc.discover"}
    schemas = document["components"]["schemas"]
    for name, (params, fields) in CONTRACT.items():
        method = methods[name]
        assert method["summary"]
        assert {param["name"] for param in method["params"]} == params, name
        assert all("schema" in param for param in method["params"])
        result = method["result"]["schema"]["$ref"].rsplit("/", 1)[1]
        # The contract's fields, all required; beyond them only the optional additions named in EXTENSIONS.
        assert set(schemas[result].get("properties", {})) == fields | EXTENSIONS.get(name, set()), name
        assert set(schemas[result].get("required", [])) == fields, name
    required = {
        name: {param["name"] for param in methods[name]["params"] if param["required"]}
        for name in ("create", "join", "resume", "command", "save", "restore", "realize", "narrate")
    }
    assert required == {
        "create": {"world"},
        "join": {"instance"},
        "resume": {"token"},
        "command": {"text"},
        "save": {"name"},
        "restore": {"name"},
        "realize": {"template"},
        "narrate": set(),
    }
    codes = {error["code"] for error in document["components"]["errors"].values()}
    assert codes >= {-32700, -32600, -32601, -32602, -32603, *range(-32008, -32000)}


async def test_health(server: Server) -> None:
    async with server.http.get(server.url + "/health") as response:
        assert response.status == 200
        assert await response.json() == {"status": "ok"}


async def test_the_browser_client_route(server: Server) -> None:
    async with server.http.get(server.url + "/") as response:
        if (ROOT / "clients" / "web" / "index.html").is_file():
            assert response.status == 200 and response.content_type == "text/html"
        else:
            assert response.status == 404 and "JSON-RPC" in await response.text()
