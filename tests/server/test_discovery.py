"""What the server says of itself holds: every error a method answers with is among those its OpenRPC entry
lists; a spin given at creation is each joiner's telling, through their own actor."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from protocol.methods import METHODS
from tests.helpers import StepClock, until
from tests.server.conftest import AUTHOR, Server, Start, world_path
from tests.wire import Http

pytestmark = pytest.mark.asyncio

GRACE = 0.2
"""How long a session may be silent before it is detached, on the clock the test steps."""


class Recorder:
    """Calls made over HTTP, each error's code kept with the method that answered it."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.seen: set[tuple[str, int]] = set()

    def client(self, token: str | None = None) -> Callable[..., Awaitable[dict[str, Any]]]:
        http = Http(self.server, token)

        async def call(method: str, code: int | None = None, **params: Any) -> dict[str, Any]:
            answer = await http.call(method, **params)
            if code is not None:
                assert "error" in answer and answer["error"]["code"] == code, (method, params, answer)
                self.seen.add((method, code))
            return answer

        call.http = http  # type: ignore[attr-defined]
        return call


VALID: dict[str, dict[str, Any]] = {
    "create": {"world": "cloak"},
    "join": {"instance": "somewhere"},
    "resume": {"token": "x" * 32},
    "command": {"text": "look"},
    "save": {"name": "here"},
    "restore": {"name": "here"},
    "realize": {"template": "[@ann/s] [wave/v]"},
}
"""Params each method takes well, so that what fails is the session or the limit, not the params."""


async def test_every_error_a_method_answers_with_is_listed_in_its_description(start: Start) -> None:
    record = Recorder(await start(max_instances=4))
    anyone, author = record.client(), record.client(AUTHOR)
    for method in ("worlds", "spins", "instances", "create", "join", "resume"):
        await anyone(method, -32602, nonsense=1)
    await anyone("create", -32001, world="atlantis")
    await anyone("create", -32001, world="cloak", spin="nosuch")
    await anyone("create", -32003, world=world_path("duo"))
    instance = (await author("create", world=world_path("duo")))["result"]["instance"]
    await anyone("join", -32001, instance="nowhere")
    await anyone("join", -32001, instance=instance, actor="@nobody")
    await anyone("join", -32003, instance=instance, actor="@ann", spin={"focalizer": "@bob"})
    ann = record.client()
    await ann("join", instance=instance, actor="@ann")
    await anyone("join", -32004, instance=instance, actor="@ann")
    await anyone("resume", -32002, token="x" * 32)
    for method in METHODS:
        if method.session:
            await anyone(method.name, -32002, **VALID.get(method.name, {}))
            await ann(method.name, -32602, nonsense=1)
    await ann("command", -32001, text="spin nosuch")
    await ann("command", -32003, text="spin focalizer @bob")
    await ann("narrate", -32001, spin="nosuch")
    await ann("narrate", -32003, spin={"focalizer": "@bob"})
    await ann("spin", -32001, set={"focalizer": "@nobody"})
    await ann("spin", -32003, set={"focalizer": "@bob"})
    await ann("concept", -32001, actor="@nobody")
    await ann("concept", -32003, actor="@bob")
    await ann("world", -32003)
    await ann("restore", -32001, name="never")
    await ann("realize", -32001, template="[@ann/s] [wave/v]", spin="nosuch")
    await ann("realize", -32003, template="[@ann/s] [wave/v]", spin={"focalizer": "@bob"})
    await ann("save", name="here")
    await record.client()("join", instance=instance, actor="@bob")
    for method in ("undo", "restart"):
        await ann(method, -32003)
    await ann("restore", -32003, name="here")
    await ann("command", -32003, text="undo")
    reader = record.client()
    await reader("join", instance=(await author("create", world="cloak"))["result"]["instance"])
    for line in ("w", "hang cloak on hook", "e", "s", "read message"):
        await reader("command", text=line)
    await reader("command", -32005, text="look")
    await author("create", world="cloak")
    await author("create", world="cloak")
    await author("create", -32006, world="cloak")  # the fifth instance of four

    # A session detached while silent, whose actor someone else has taken since.
    clock = StepClock()
    away = Recorder(await start(detach_after=GRACE, clock=clock))
    made = (await away.client(AUTHOR)("create", world=world_path("duo")))["result"]["instance"]
    bob = away.client()
    await bob("join", instance=made, actor="@bob")
    token = bob.http.token  # type: ignore[attr-defined]
    clock.step(GRACE * 2)
    await until(lambda: no_players(away.server, made), "the silent session detached")
    holder = await away.server.socket()  # seated for as long as its socket is open
    await holder.ok("join", instance=made, actor="@bob")
    await away.client()("resume", -32004, token=token)
    for method in METHODS:
        if method.session and method.seats:
            await away.client(token)(method.name, -32004, **VALID.get(method.name, {}))

    # Too fast: an address may make twenty requests at once here, a session two.
    fast = Recorder(await start(clock=StepClock(), rate=0.001, burst=2))
    made = (await fast.client(AUTHOR)("create", world=world_path("duo")))["result"]["instance"]
    player = fast.client()
    await player("join", instance=made, actor="@ann")
    while "result" in await player("state"):
        pass
    while "result" in await fast.client()("worlds"):
        pass
    for method in METHODS:
        caller = player if method.session else fast.client()
        await caller(method.name, -32006, **VALID.get(method.name, {}))
    await caller("rpc.discover", -32006)

    document = (await anyone("rpc.discover"))["result"]
    listed = {entry["name"]: {error["code"] for error in entry["errors"]} for entry in document["methods"]}
    seen = record.seen | away.seen | fast.seen
    missing = sorted((method, code) for method, code in seen if code not in listed[method])
    assert not missing, f"errors answered but not listed: {missing}"
    for method in METHODS:
        assert {-32602, -32006, -32007} <= listed[method.name], method.name
        assert (-32002 in listed[method.name]) == (method.session or method.name == "resume"), method.name
    assert tuple(sorted(listed["rpc.discover"], reverse=True)) == (-32006, -32007)


async def no_players(server: Server, instance: str) -> bool:
    """Whether the instance lists nobody among its players (all, silent, were detached)."""
    listed = (await Http(server, AUTHOR).ok("instances"))["instances"]
    return not next(info for info in listed if info["instance"] == instance)["players"]


# -- a spin given at creation ---------------------------------------------------------------------------------


async def test_a_creation_spin_told_by_another_is_each_joiners_own_telling(server: Server) -> None:
    """The guard's account to the teller, created for the bank: joined as the robber it is the robber's
    account to the teller; as the teller, the teller's to the guard; as the guard, as it was."""
    instance = (await Http(server).ok("create", world="bank", seed=3, spin="told_and_focalized_by_guard"))["instance"]
    expected = {
        "@robber": ("@robber", "@robber", "@teller"),
        "@teller": ("@teller", "@teller", "@guard"),
        "@guard": ("@guard", "@guard", "@teller"),
    }
    for actor, (focalizer, narrator, narratee) in expected.items():
        player = Http(server)
        joined = await player.ok("join", instance=instance, actor=actor)
        assert joined["actor"] == actor and joined["text"]
        spin = (await player.ok("spin"))["spin"]
        assert (spin["focalizer"], spin["narrator"], spin["narratee"]) == (focalizer, narrator, narratee), actor
        assert spin["time"] == "after", "the rest of the telling is kept"
        reply = await player.ok("command", text="wait")
        assert reply["text"].startswith("I "), f"told in the first person, by {actor}: {reply['text']}"


async def test_a_spin_asked_for_at_join_goes_over_the_joiners_telling(server: Server) -> None:
    instance = (await Http(server).ok("create", world="bank", spin="told_and_focalized_by_guard"))["instance"]
    robber = Http(server)
    await robber.ok("join", instance=instance, actor="@robber", spin={"time": "during"})
    spin = (await robber.ok("spin"))["spin"]
    assert (spin["focalizer"], spin["narrator"], spin["time"]) == ("@robber", "@robber", "during")
    error = await Http(server).fail(-32003, "join", instance=instance, actor="@teller", spin={"focalizer": "@guard"})
    assert error["data"]["field"] == "spin"


async def test_an_author_keeps_the_creation_spin(server: Server) -> None:
    instance = (await Http(server).ok("create", world="bank", spin="told_and_focalized_by_guard"))["instance"]
    author = Http(server, AUTHOR)
    await author.ok("join", instance=instance, actor="@robber")
    assert (await author.ok("spin"))["spin"]["focalizer"] == "@guard"


# -- GET / ----------------------------------------------------------------------------------------------------
