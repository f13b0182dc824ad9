"""The client's connection against a real server on a real socket: typed calls over HTTP and WebSocket,
errors with their codes, batches in order, notifications between two players, and resuming after a drop."""

from __future__ import annotations

import asyncio

import pytest

from clients.connection import CallError, Connection, ConnectionLost, NotSent, Status
from protocol import messages as m
from protocol.errors import Code
from tests.clients.conftest import AUTHOR, FAST, PAIR, WAIT, Running
from tests.helpers import until

pytestmark = pytest.mark.asyncio


@pytest.fixture(params=["http", "websocket"])
def transport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def _next(notes: object, kind: type[m.Result]) -> m.Result:
    """The next notification of this kind (others skipped), or a timeout."""
    async with asyncio.timeout(WAIT):
        async for note in notes:  # type: ignore[attr-defined]
            if isinstance(note, kind):
                return note
    raise AssertionError(f"the notifications ended before a {kind.__name__}")


async def test_calls_return_the_contracts_structs(running: Running, transport: str) -> None:
    async with Connection(running.url, transport=transport) as conn:  # type: ignore[arg-type]
        created = await conn.call("create", world="cloak", seed=1)
        joined = await conn.call("join", instance=created.instance, name="Reader")
        assert isinstance(created, m.CreateResult) and isinstance(joined, m.JoinResult)
        assert conn.token == joined.token and joined.actor == "@operagoer"
        reply = await conn.call("command", text="w")
        assert isinstance(reply, m.Reply) and reply.turn == 1 and "Cloakroom" in reply.text
        state = await conn.call("state")
        assert isinstance(state, m.StateResult) and state.room == "@cloakroom"
        assert isinstance(await conn.call("leave"), m.Empty) and conn.token is None


async def test_an_error_answer_raises_call_error_with_its_code(running: Running, transport: str) -> None:
    async with Connection(running.url, transport=transport) as conn:  # type: ignore[arg-type]
        with pytest.raises(CallError) as unknown:
            await conn.call("create", world="nowhere")
        assert unknown.value.code is Code.UNKNOWN and "'nowhere'" in unknown.value.message
        with pytest.raises(CallError) as no_session:
            await conn.call("state")
        assert no_session.value.code is Code.NO_SESSION
        with pytest.raises(CallError) as invalid:
            await conn.call("create", world="cloak", seed=-1)
        assert invalid.value.code is Code.INVALID_PARAMS and invalid.value.data["field"] == "seed"
        await conn.call("join", instance=(await conn.call("create", world="cloak")).instance)
        with pytest.raises(CallError) as forbidden:
            await conn.call("world")
        assert forbidden.value.code is Code.FORBIDDEN


async def test_an_author_token_makes_an_authors_session(running: Running, transport: str) -> None:
    async with Connection(running.url, transport=transport, author_token=AUTHOR) as conn:  # type: ignore[arg-type]
        await conn.call("join", instance=(await conn.call("create", world=PAIR)).instance)
        assert "@lamp: brass lamp [in]" in (await conn.call("world")).text


async def test_a_batch_answers_each_call_in_order(running: Running, transport: str) -> None:
    async with Connection(running.url, transport=transport) as conn:  # type: ignore[arg-type]
        await conn.call("join", instance=(await conn.call("create", world="cloak", seed=1)).instance)
        calls = [("command", {"text": "w"}), ("nothing", {}), ("state", {}), ("command", {"text": "e"}), ("state", {})]
        answers = await asyncio.wait_for(conn.batch(calls), WAIT)
        first, missing, there, back, here = answers
        assert (first.turn, there.room, back.turn, here.room) == (1, "@cloakroom", 2, "@foyer")
        assert isinstance(missing, CallError) and missing.code is Code.METHOD_NOT_FOUND
        assert await conn.batch([]) == []


async def test_a_message_too_large_to_read_fails_its_own_calls(running: Running, transport: str) -> None:
    # The server answers -32007 without an id: the calls of the message it could not read fail, no other.
    async with Connection(running.url, transport=transport) as conn:  # type: ignore[arg-type]
        await conn.call("join", instance=(await conn.call("create", world="cloak")).instance)
        with pytest.raises(CallError) as too_large:
            await conn.call("command", text="x" * 70_000)
        assert too_large.value.code is Code.TOO_LARGE
        assert (await conn.call("state")).turn == 0


async def test_notifications_tell_one_player_what_another_does(running: Running) -> None:
    async with Connection(running.url, author_token=AUTHOR) as ann, Connection(running.url) as bob:
        instance = (await ann.call("create", world=PAIR, seed=1)).instance
        await ann.call("join", instance=instance, actor="@ann", name="Ann")
        notes = ann.notifications()
        await bob.call("join", instance=instance, actor="@bob", name="Bob")
        joined = await _next(notes, m.Presence)
        assert joined == m.Presence(instance=instance, name="Bob", actor="@bob", event="joined", seq=1)
        await bob.call("command", text="wave")
        seen = await _next(notes, m.Narration)
        assert isinstance(seen, m.Narration) and "Bob waves" in seen.text and seen.turn == 1
        await bob.call("leave")
        left = await _next(notes, m.Presence)
        assert isinstance(left, m.Presence) and left.event == "left"


async def test_notifications_come_only_over_a_websocket(running: Running) -> None:
    async with Connection(running.url, transport="http") as conn:
        with pytest.raises(TypeError):
            await anext(conn.notifications())


async def test_closing_ends_the_notifications(running: Running) -> None:
    conn = Connection(running.url)
    await conn.open()
    notes = conn.notifications()
    await conn.close()
    assert [note async for note in notes] == []
    with pytest.raises(ConnectionLost):
        await conn.call("worlds")


async def test_after_the_server_closes_the_socket_the_session_is_resumed(running: Running) -> None:
    heard: list[Status] = []
    back = asyncio.Event()

    def hear(status: Status) -> None:
        heard.append(status)
        if status is not Status.RECONNECTING:
            back.set()

    async with (
        Connection(running.url, author_token=AUTHOR, on_status=hear, backoff=FAST) as ann,
        Connection(running.url) as bob,
    ):
        instance = (await ann.call("create", world=PAIR, seed=1)).instance
        joined = await ann.call("join", instance=instance, actor="@ann")
        await ann.call("command", text="take lamp")
        await bob.call("join", instance=instance, actor="@bob")
        notes = ann.notifications()
        await _next(notes, m.Presence)

        await running.drop()  # every socket closed by the server; it listens again at once
        await running.listen()
        await asyncio.wait_for(back.wait(), WAIT)
        assert heard == [Status.RECONNECTING, Status.RESUMED]

        state = await ann.call("state")
        assert (state.actor, state.turn, state.inventory) == ("@ann", 1, ["@lamp"])
        assert ann.token == joined.token
        await bob.call("command", text="wave")  # bob's socket came back too (it had no session to resume)
        assert "Bob waves" in (await _next(notes, m.Narration)).text  # type: ignore[attr-defined]


async def _dropped(running: Running, heard: list[Status]) -> None:
    """Stop the server listening and close its sockets; return once the client has noticed. (A call sent
    before it notices, while the server is closing, fails: the server may or may not have taken it.)"""
    await running.drop()
    await until(lambda: Status.RECONNECTING in heard, "the client heard reconnecting", timeout=WAIT)


async def test_calls_made_while_the_server_is_away_wait_and_go_through(running: Running) -> None:
    heard: list[Status] = []
    async with Connection(running.url, on_status=heard.append, backoff=FAST) as conn:
        await conn.call("join", instance=(await conn.call("create", world="cloak")).instance)
        await _dropped(running, heard)
        waiting = asyncio.create_task(conn.call("command", text="w"))
        await asyncio.sleep(0.3)
        assert not waiting.done()
        await running.listen()
        reply = await asyncio.wait_for(waiting, WAIT)
        assert reply.turn == 1 and "Cloakroom" in reply.text


async def test_a_call_fails_clearly_when_the_server_stays_away(running: Running) -> None:
    heard: list[Status] = []
    async with Connection(running.url, on_status=heard.append, backoff=FAST, outage=0.3) as conn:
        await conn.call("join", instance=(await conn.call("create", world="cloak")).instance)
        await _dropped(running, heard)
        with pytest.raises(NotSent, match="no connection"):
            await conn.call("state")


async def test_a_command_that_waited_in_vain_is_said_not_sent_and_was_not_taken(keeping: Running) -> None:
    heard: list[Status] = []
    async with Connection(keeping.url, on_status=heard.append, backoff=FAST, outage=0.3) as conn:
        await conn.call("join", instance=(await conn.call("create", world="cloak")).instance)
        await _dropped(keeping, heard)
        with pytest.raises(NotSent):
            await conn.call("command", text="w")
        assert not conn.up
        await keeping.listen()
        await until(lambda: conn.up, "the connection up again", timeout=WAIT)
        assert (await conn.call("state")).turn == 0  # never taken: it may be sent again
        assert (await conn.call("command", text="w")).turn == 1


async def test_a_session_the_new_server_does_not_know_is_reported_lost(running: Running) -> None:
    heard: list[Status] = []
    async with Connection(running.url, on_status=heard.append, backoff=FAST) as conn:
        await conn.call("join", instance=(await conn.call("create", world="cloak")).instance)
        await running.replace()
        await until(lambda: Status.SESSION_LOST in heard, "the session reported lost", timeout=WAIT)
        assert conn.token is None
        with pytest.raises(CallError) as lost:
            await conn.call("state")
        assert lost.value.code is Code.NO_SESSION


async def test_a_session_kept_by_the_server_is_resumed_after_a_restart(keeping: Running) -> None:
    heard: list[Status] = []
    async with Connection(keeping.url, on_status=heard.append, backoff=FAST) as conn:
        await conn.call("join", instance=(await conn.call("create", world="cloak", seed=1)).instance)
        await conn.call("command", text="w")
        await keeping.replace()
        await until(lambda: Status.RESUMED in heard, "the session resumed", timeout=WAIT)
        reply = await conn.call("command", text="hang cloak on hook")
        assert reply.turn == 2 and "hook" in reply.text
