"""Never a lost line: a session's replies and notifications are numbered, and `resume` with the last number seen
sends again what a dropped socket missed, in order and once, or a fresh state when that is no longer kept."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import Http, Server, Socket, world_path

pytestmark = pytest.mark.asyncio


async def _seat(server: Server, instance: str, actor: str, name: str) -> Socket:
    socket = await server.socket()
    await socket.ok("join", instance=instance, actor=actor, name=name)
    return socket


async def _pair(server: Server) -> tuple[str, Socket, Socket]:
    """Ann and Bob in the duo's hall, each on a socket; Ann has heard Bob join (her number 1)."""
    instance = await server.create(world_path("duo"))
    ann = await _seat(server, instance, "@ann", "Ann")
    bob = await _seat(server, instance, "@bob", "Bob")
    assert (await ann.notification("presence"))["seq"] == 1
    return instance, ann, bob


def _sent(notes: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(note["method"], note["params"]["seq"]) for note in notes]


async def test_replies_and_notifications_share_one_growing_number_and_a_retelling_takes_none(server: Server) -> None:
    _instance, ann, bob = await _pair(server)
    first = await ann.ok("command", text="wave")
    assert first["seq"] == 2, "after the presence she heard"
    await bob.ok("command", text="wave")
    heard = await ann.notification("narration")
    assert heard["seq"] == 3 and "Bob waves" in heard["text"]
    retold = await ann.ok("narrate")
    assert retold["seq"] == 3, "a retelling changes nothing: it carries the number reached"
    assert (await ann.ok("command", text="take ball"))["seq"] == 4
    heard_by_bob = [(await bob.notification("narration"))["seq"] for _ in range(2)]
    assert heard_by_bob == [1, 3], "Bob's numbers are his own: Ann's wave, his reply, Ann taking the ball"


async def test_a_dropped_socket_is_sent_what_it_missed_in_order_and_once(server: Server) -> None:
    _instance, ann, bob = await _pair(server)
    token = bob.token
    assert token is not None
    for _ in range(2):
        await ann.ok("command", text="wave")
    seen = [await bob.notification("narration") for _ in range(2)]
    assert [note["seq"] for note in seen] == [1, 2]
    last = seen[-1]["seq"]

    # Bob gives a command and his socket drops before its answer can reach him.
    await bob.send({"jsonrpc": "2.0", "id": 99, "method": "command", "params": {"text": "take ball"}})
    await bob.ws.close()
    assert "Bob takes the red ball" in (await ann.notification("narration"))["text"]  # the turn was taken
    # Meanwhile Ann plays on.
    waves = [await ann.ok("command", text="wave") for _ in range(3)]

    again = await server.socket()
    resumed = await again.ok("resume", token=token, last_seq=last)
    assert (resumed["replayed"], resumed["seq"], resumed["state"]) == (4, last + 4, None)
    missed = again.notifications
    assert _sent(missed) == [("reply", 3), ("narration", 4), ("narration", 5), ("narration", 6)]
    lost = missed[0]["params"]
    assert lost["method"] == "command" and "red ball" in lost["text"] and lost["turn"] == waves[0]["turn"] - 1
    assert [note["params"]["turn"] for note in missed[1:]] == [wave["turn"] for wave in waves]
    assert all("Ann waves" in note["params"]["text"] for note in missed[1:])

    # Live notifications go on from there: the next is numbered after the last sent again, nothing comes twice.
    again.notifications = []
    more = await ann.ok("command", text="wave")
    following = await again.notification("narration")
    assert (following["seq"], following["turn"]) == (last + 5, more["turn"])
    assert again.notifications == []
    assert (await again.ok("command", text="wave"))["seq"] == last + 6


async def test_a_resume_with_nothing_missed_sends_nothing_again(server: Server) -> None:
    _instance, ann, bob = await _pair(server)
    await ann.ok("command", text="wave")
    last = (await bob.notification("narration"))["seq"]
    again = await server.socket()
    resumed = await again.ok("resume", token=bob.token, last_seq=last)
    assert (resumed["replayed"], resumed["seq"], resumed["state"]) == (0, last, None)
    assert again.notifications == []


async def test_too_old_a_number_gets_a_fresh_state_and_the_numbers_go_on(start: Any) -> None:
    server = await start(resume_buffer=2)
    _instance, ann, bob = await _pair(server)
    token = bob.token
    await bob.ws.close()
    waves = [await ann.ok("command", text="wave") for _ in range(3)]
    again = await server.socket()
    resumed = await again.ok("resume", token=token, last_seq=0)
    assert (resumed["replayed"], resumed["seq"]) == (0, 3)
    state = resumed["state"]
    assert state["turn"] == waves[-1]["turn"] and state["actor"] == "@bob" and state["room"] == "@hall"
    assert again.notifications == [], "what it holds is not all Bob missed: none of it is sent"
    more = await ann.ok("command", text="wave")
    following = await again.notification("narration")
    assert (following["seq"], following["turn"]) == (4, more["turn"])


async def test_a_number_never_given_gets_a_fresh_state(server: Server) -> None:
    _instance, _ann, bob = await _pair(server)
    again = await server.socket()
    resumed = await again.ok("resume", token=bob.token, last_seq=50)
    assert resumed["state"]["actor"] == "@bob" and (resumed["replayed"], resumed["seq"]) == (0, 0)


async def test_over_http_a_resume_that_missed_something_gets_a_fresh_state(server: Server) -> None:
    _instance, ann, bob = await _pair(server)
    await ann.ok("command", text="wave")
    await ann.ok("command", text="wave")
    late = Http(server)
    behind = await late.ok("resume", token=bob.token, last_seq=1)
    assert behind["state"]["turn"] == 2 and (behind["replayed"], behind["seq"]) == (0, 2)
    current = await late.ok("resume", token=bob.token, last_seq=2)
    assert current["state"] is None
    assert (await late.ok("command", text="wave"))["seq"] == 3
