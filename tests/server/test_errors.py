"""Every error code of the contract, provoked on a running server, over HTTP and over WebSocket."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.app import Config
from tests.helpers import StepClock
from tests.server.conftest import AUTHOR, Server, world_path
from tests.wire import Client, Http, Socket, error_of, result_of

pytestmark = pytest.mark.asyncio


async def send_raw(server: Server, transport: str, text: str) -> Any:
    """Send one message exactly as given; the decoded answer."""
    if transport == "http":
        status, answer = await server.post(text)
        assert status in (200, 204)
        return answer
    socket = await server.socket()
    await socket.send(text)
    answer = await socket.receive()
    assert await socket.drain(0.05) == [], "one answer to one message"
    return answer


async def still_serving(client: Client) -> None:
    assert (await client.ok("worlds"))["worlds"]


# -- the standard codes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["{", '{"jsonrpc": "2.0", "method": "worlds", "id": 1', "nonsense", '[{"a": 1},', ""])
async def test_parse_error(server: Server, transport: str, text: str) -> None:
    answer = await send_raw(server, transport, text)
    error = error_of(answer, -32700)
    assert answer["id"] is None and error["message"]


async def test_parse_error_leaves_the_socket_working(server: Server) -> None:
    socket = await server.socket()
    await socket.send("{{{")
    error_of(await socket.receive(), -32700)
    await still_serving(socket)


@pytest.mark.parametrize(
    "request_",
    [
        {"jsonrpc": "2.0", "id": 1},
        {"jsonrpc": "1.0", "method": "worlds", "id": 1},
        {"method": "worlds", "id": 1},
        {"jsonrpc": "2.0", "method": 7, "id": 1},
        {"jsonrpc": "2.0", "method": "worlds", "params": "all", "id": 1},
        42,
        "worlds",
        None,
    ],
)
async def test_invalid_request(server: Server, transport: str, request_: Any) -> None:
    answer = await send_raw(server, transport, json.dumps(request_))
    error_of(answer, -32600)
    assert answer["id"] in (None, 1)


async def test_empty_batch_is_one_invalid_request(server: Server, transport: str) -> None:
    answer = await send_raw(server, transport, "[]")
    assert isinstance(answer, dict), "an empty batch is answered by one error object, not an array"
    error_of(answer, -32600)
    assert answer["id"] is None


async def test_method_not_found(client: Client) -> None:
    error = await client.fail(-32601, "teleport", to="the moon")
    assert "teleport" in json.dumps(error)


async def test_method_not_found_keeps_the_id(server: Server, transport: str) -> None:
    answer = await send_raw(server, transport, json.dumps({"jsonrpc": "2.0", "method": "nope", "id": "abc"}))
    error_of(answer, -32601)
    assert answer["id"] == "abc"


@pytest.mark.parametrize(
    ("method", "params", "field"),
    [
        ("command", {}, "text"),
        ("command", {"txt": "look"}, "txt"),
        ("command", {"text": 7}, "text"),
        ("command", {"text": "x" * 2001}, "text"),
        ("create", {"world": "cloak", "seed": "seven"}, "seed"),
        ("create", {"world": "cloak", "seed": -1}, "seed"),
        ("create", {}, "world"),
        ("join", {"instance": "x", "actor": "guard"}, "actor"),
        ("join", {"instance": "x", "name": ""}, "name"),
        ("narrate", {"window": 0}, "window"),
        ("narrate", {"window": "yesterday"}, "window"),
        ("narrate", {"spin": 3}, "spin"),
        ("save", {"name": "no spaces"}, "name"),
        ("spin", {"set": {"time": "sometime"}}, "set"),
        ("spin", {"set": {"tense": "past"}}, "set"),
        ("realize", {}, "template"),
        ("realize", {"template": "[@nowhere/s] [be/v]"}, "template"),
        ("resume", {"token": "short"}, "token"),
        ("command", {"text": "spin time sometime"}, "text"),
        ("command", {"text": "wait; " * 17}, "text"),
        ("state", {"verbose": True}, "verbose"),
    ],
)
async def test_invalid_params_name_the_field(client: Client, method: str, params: dict[str, Any], field: str) -> None:
    await client.play("cloak")
    error = await client.fail(-32602, method, **params)
    assert error["data"]["field"] == field, error
    assert isinstance(error["data"]["reason"], str) and error["data"]["reason"], error


async def test_invalid_spin_settings_say_why(client: Client) -> None:
    await client.play("cloak")
    error = await client.fail(-32602, "narrate", spin={"time": "sometime"})
    assert error["data"]["field"] == "spin" and "sometime" in json.dumps(error)
    error = await client.fail(-32602, "spin", set={"tense": "past"})
    assert "tense" in json.dumps(error)


async def test_positional_params_are_invalid(server: Server, transport: str) -> None:
    for params in (["cloak", 1], ["cloak"]):
        message = {"jsonrpc": "2.0", "method": "create", "params": params, "id": 9}
        answer = await send_raw(server, transport, json.dumps(message))
        error = error_of(answer, -32602)
        assert error["data"]["field"] == "params" and answer["id"] == 9
        assert "object" in error["data"]["reason"], "the reason says what params must be"


async def test_internal_error_never_leaks(server: Server, transport: str) -> None:
    instance = await server.create(world_path("faulty"))
    client = await server.client(transport)
    await client.ok("join", instance=instance)
    await client.ok("command", text="look")
    answer = await client.call("command", text="jump")
    error = error_of(answer, -32603)
    assert error == {"code": -32603, "message": "Internal error"}
    text = json.dumps(answer)
    assert "secret" not in text and "Traceback" not in text and "faulty" not in text
    await still_serving(client)
    assert (await client.ok("command", text="look"))["text"]


# -- the application's codes ---------------------------------------------------------------------------------


async def test_unknown_world_instance_spin_actor(client: Client) -> None:
    error = await client.fail(-32001, "create", world="atlantis")
    assert error["data"]["field"] == "world"
    await client.fail(-32001, "create", world="cloak", spin="nospin")
    await client.fail(-32001, "join", instance="nosuchinstance")
    instance = (await client.ok("create", world="cloak"))["instance"]
    error = await client.fail(-32001, "join", instance=instance, actor="@nobody")
    assert error["data"]["field"] == "actor"
    await client.fail(-32001, "join", instance=instance, spin="nospin")
    await client.ok("join", instance=instance)
    await client.fail(-32001, "narrate", spin="nospin")
    await client.fail(-32001, "narrate", spin=["prophecy", "nospin"])
    await client.fail(-32001, "realize", template="[@operagoer/s] [be/v]", spin="nospin")
    await client.fail(-32001, "concept", actor="@nobody")
    await client.fail(-32001, "restore", name="never_saved")
    await client.fail(-32001, "spin", set={"focalizer": "@nobody"})


async def test_no_session(server: Server, transport: str) -> None:
    client = await server.client(transport)
    for method, params in (("command", {"text": "look"}), ("state", {}), ("leave", {}), ("narrate", {})):
        await client.fail(-32002, method, **params)
    await Http(server, "not-a-token-anyone-was-given").fail(-32002, "state")
    await client.fail(-32002, "resume", token="not-a-token-anyone-was-given")
    socket = await server.socket(token="not-a-token-anyone-was-given")
    await socket.fail(-32002, "state")


async def test_forbidden_world_without_author(client: Client) -> None:
    await client.play("cloak")
    await client.fail(-32003, "world")
    await client.fail(-32003, "command", text="world tree")


async def test_forbidden_to_run_a_world_file_without_author(server: Server, client: Client) -> None:
    error = await client.fail(-32003, "create", world=world_path("duo"))
    assert error["data"]["field"] == "world"
    await client.fail(-32003, "create", world="/etc/passwd")
    assert await server.create(world_path("duo"))


async def test_forbidden_other_actors_in_an_interactive_world(server: Server, transport: str) -> None:
    instance = await server.create(world_path("duo"))
    ann = await server.client(transport)
    await ann.ok("join", instance=instance, actor="@ann")
    for actor in ("@bob", "@cat"):
        await ann.fail(-32003, "concept", actor=actor)
        await ann.fail(-32003, "narrate", spin={"focalizer": actor})
        await ann.fail(-32003, "spin", set={"focalizer": actor})
        await ann.fail(-32003, "realize", template="[@ball/s] [be/v] red", spin={"focalizer": actor})
        await ann.fail(-32003, "command", text=f"concept {actor}")
        await ann.fail(-32003, "command", text=f"spin focalizer {actor}")
        await ann.fail(-32003, "spin", set={"commanded": actor})
        await ann.fail(-32003, "command", text=f"spin commanded {actor}. take ball")
    assert (await ann.ok("spin"))["spin"]["focalizer"] == "@ann"
    told_by_bob = await ann.ok("narrate", spin={"narrator": "@bob", "narratee": "@cat"})
    assert "Ann" in told_by_bob["text"]


async def test_forbidden_to_join_with_another_focalizer(server: Server) -> None:
    instance = await server.create(world_path("duo"))
    error = await Http(server).fail(-32003, "join", instance=instance, actor="@ann", spin={"focalizer": "@bob"})
    assert error["data"]["field"] == "spin"
    await Http(server).fail(-32003, "join", instance=instance, actor="@bob", spin={"commanded": "@ann"})
    await Http(server).ok("join", instance=instance, actor="@ann")


async def test_a_creation_spin_through_another_is_told_through_whoever_joins(server: Server) -> None:
    """The creation spin is the instance's default telling: a player it would tell through (or have
    command) someone else is given the same telling through their own actor, not refused."""
    instance = await server.create(world_path("duo"), spin={"focalizer": "@bob", "commanded": "@bob"})
    ann = Http(server)
    joined = await ann.ok("join", instance=instance, actor="@ann")
    assert "You see Bob" in joined["text"]
    spin = (await ann.ok("spin"))["spin"]
    assert (spin["focalizer"], spin["commanded"]) == ("@ann", "@ann")
    assert (await ann.ok("command", text="n"))["turn"] == 1, "Ann's commands move Ann"
    assert (await ann.ok("state"))["room"] == "@yard"
    bob = await Http(server).ok("join", instance=instance, actor="@bob")
    assert "You see Ann and a red ball" in bob["text"] and "She leaves the hall" in bob["text"]


async def test_authors_may_read_any_concept(server: Server) -> None:
    instance = await server.create(world_path("duo"))
    author = Http(server, AUTHOR)
    await author.ok("join", instance=instance, actor="@ann")
    assert (await author.ok("concept", actor="@cat"))["actor"] == "@cat"
    assert (await author.ok("narrate", spin={"focalizer": "@bob"}))["text"]


async def test_anyone_may_read_any_concept_of_a_story_that_tells_itself(client: Client) -> None:
    await client.play("robbery")
    for actor in ("@teller", "@guard"):
        concept = await client.ok("concept", actor=actor)
        assert concept["actor"] == actor
    assert "guard" in (await client.ok("narrate", spin={"focalizer": "@guard"}))["text"]
    await client.ok("spin", set={"focalizer": "@teller"})


@pytest.mark.parametrize(
    ("method", "params"), [("undo", {}), ("restore", {"name": "start"}), ("restart", {})], ids=lambda x: str(x)
)
async def test_forbidden_to_change_the_story_for_others(
    server: Server, transport: str, method: str, params: dict[str, Any]
) -> None:
    instance = await server.create(world_path("duo"))
    ann, bob = await server.client(transport), await server.client(transport)
    await ann.ok("join", instance=instance, actor="@ann")
    await ann.ok("save", name="start")
    await ann.ok("command", text="take ball")
    await bob.ok("join", instance=instance, actor="@bob")
    await ann.fail(-32003, method, **params)
    line = " ".join([method, *params.values()])
    await ann.fail(-32003, "command", text=line)
    await bob.fail(-32003, "command", text=f"look. {line}")
    state = await bob.ok("state")
    assert state["turn"] == 1
    await bob.ok("leave")
    assert (await ann.ok(method, **params))["turn"] == 0


@pytest.mark.parametrize(
    ("method", "params", "said"),
    [
        ("undo", {}, "Ada took back the last turn; it is turn 1 now."),
        ("restore", {"name": "start"}, "Ada went back to a save; it is turn 0 now."),
        ("restart", {}, "Ada began the story again; it is turn 0 now."),
    ],
    ids=lambda x: str(x),
)
async def test_an_author_taking_the_story_back_tells_the_others(
    server: Server, method: str, params: dict[str, Any], said: str
) -> None:
    instance = await server.create(world_path("duo"))
    author = await server.socket(AUTHOR)
    bob = await server.socket()
    await author.ok("join", instance=instance, actor="@ann", name="Ada")
    await bob.ok("join", instance=instance, actor="@bob")
    await author.ok("save", name="start")
    await bob.ok("command", text="n")
    await author.ok("command", text="take ball")
    await bob.drain()
    if method == "undo":  # as a directive in a command line: the same as the method
        await author.ok("command", text="undo")
    else:
        await author.ok(method, **params)
    told = await bob.notification("narration")
    assert told["text"].startswith(said)
    assert told["turn"] == (await bob.ok("state"))["turn"]
    # Bob hears where his own actor is now: back in the hall unless only the last turn was taken back.
    assert told["text"].endswith("You are in the yard." if method == "undo" else "You are in the hall.")
    await author.ok("command", text="undo")  # nothing more to take back after a restart: nobody is told
    if method == "restart":
        assert [note for note in await bob.drain() if note.get("method") == "narration"] == []


async def test_unavailable_actor(server: Server, transport: str) -> None:
    instance = await server.create(world_path("duo"))
    first, second = await server.client(transport), await server.client(transport)
    await first.ok("join", instance=instance, actor="@ann", name="First")
    error = await second.fail(-32004, "join", instance=instance, actor="@ann")
    assert error["data"]["field"] == "actor"
    await second.fail(-32004, "join", instance=instance)
    await second.fail(-32004, "join", instance=instance, actor="@cat")
    await second.ok("join", instance=instance, actor="@bob")
    robbery = (await first.ok("create", world="robbery"))["instance"]
    await Http(server).fail(-32004, "join", instance=robbery, actor="@guard")


async def test_the_story_has_ended(client: Client) -> None:
    await client.play("cloak")
    for command in ("w", "hang cloak on hook", "e", "s", "read message"):
        reply = await client.ok("command", text=command)
    assert reply["ended"]
    error = await client.fail(-32005, "command", text="n")
    assert error["message"]
    await client.fail(-32005, "command", text="look")
    assert (await client.ok("actions"))["commands"] == []
    told = await client.ok("narrate")
    assert told["ended"] and "YOU HAVE WON" in told["text"]
    assert (await client.ok("concept"))["actor"] == "@operagoer"
    assert (await client.ok("state"))["ended"]
    again = await client.ok("restart")
    assert not again["ended"] and again["turn"] == 0
    assert (await client.ok("command", text="w"))["turn"] == 1


async def test_rate_limited(start: Any, transport: str) -> None:
    server = await start(rate=1.0, burst=5.0)
    client = await server.client(transport)
    await client.play("cloak")
    answers = [await client.call("state") for _ in range(8)]
    ok = [a for a in answers if "result" in a]
    limited = [error_of(a, -32006) for a in answers if "error" in a]
    assert 5 <= len(ok) <= 6 and len(limited) == 8 - len(ok)
    assert answers[: len(ok)] == [a for a in answers if "result" in a], "once limited, a burst stays limited"
    other = await server.client(transport)
    await other.play("cloak")
    result_of(await other.call("state"))


async def test_rate_limited_at_the_default_burst(start: Any, transport: str) -> None:
    server = await start(clock=StepClock(), rate=0.001)  # nothing refills while the batch is answered
    client = await server.client(transport)
    joined = await client.play("cloak")
    burst = int(Config().burst) + 10
    batch = [{"jsonrpc": "2.0", "method": "state", "id": n} for n in range(burst)]
    if isinstance(client, Socket):
        await client.send(batch)
        answers = await client.receive()
    else:
        status, answers = await server.post(batch, token=joined["token"])
        assert status == 200
    assert [a["id"] for a in answers] == list(range(burst))
    codes = [a["error"]["code"] if "error" in a else 0 for a in answers]
    assert codes[0] == 0 and codes[-1] == -32006 and set(codes) == {0, -32006}
    assert codes == sorted(codes, reverse=True), "once limited, a burst stays limited"


async def test_too_large_over_http(start: Any) -> None:
    server = await start(max_message=4096)
    status, answer = await server.post({"jsonrpc": "2.0", "method": "worlds", "id": 1, "params": {"x": "y" * 5000}})
    assert status == 200
    error_of(answer, -32007)
    status, answer = await server.post(b"[" * 10_000_000)
    error_of(answer, -32007)
    await still_serving(Http(server))


async def test_too_large_over_websocket_keeps_the_socket(start: Any) -> None:
    server = await start(max_message=4096)
    socket = await server.socket()
    await socket.play("cloak")
    await socket.send({"jsonrpc": "2.0", "method": "command", "id": 1, "params": {"text": "look " * 2000}})
    error_of(await socket.receive(), -32007)
    assert (await socket.ok("command", text="w"))["turn"] == 1


async def test_a_line_too_long_is_told_in_a_sentence_with_the_validators_words_in_the_data(client: Any) -> None:
    await client.play("cloak")
    error = await client.fail(-32602, "command", text="look " * 500)
    assert error["message"] == "A command may be at most 2000 characters long; that one is longer."
    assert error["data"]["field"] == "text" and "2000" in error["data"]["reason"]
    assert (await client.ok("command", text="w"))["turn"] == 1  # nothing of it was done, and play goes on
