"""A session's sequence numbers outlive a restart of its server: a resume across one gets a fresh state (the
messages kept for resuming do not come back), and every number after it is higher than any the client saw."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.persistence.conftest import DUO, connect, create, read_rows
from tests.wire import Socket

pytestmark = pytest.mark.asyncio


async def _narration(client: Socket) -> dict[str, Any]:
    """The params of the first narration kept, or of the next to come (answers to a state call bring them in)."""
    while not any(note["method"] == "narration" for note in client.notifications):
        await client.ok("state")
    index = next(i for i, note in enumerate(client.notifications) if note["method"] == "narration")
    return dict(client.notifications.pop(index)["params"])


@pytest.mark.parametrize("stop", ["kill", "stop"])
async def test_numbers_only_grow_across_a_restart_and_a_resume_gets_a_fresh_state(
    tmp_path: Path, servers: Any, http: Any, stop: str
) -> None:
    data = tmp_path / "data"
    server = servers(data)
    instance = await create(http, server.url, str(DUO), 1)
    ann = await connect(http, server.url, "ws")
    bob = await connect(http, server.url, "ws")
    ann_token = (await ann.ok("join", instance=instance, actor="@ann", name="Ann"))["token"]
    bob_token = (await bob.ok("join", instance=instance, actor="@bob", name="Bob"))["token"]
    assert isinstance(bob, Socket)
    for _ in range(2):
        await ann.ok("command", text="wave")
    seen = [await _narration(bob) for _ in range(2)]
    assert [note["seq"] for note in seen] == [1, 2]
    turn = seen[-1]["turn"]
    await ann.close()
    await bob.close()

    getattr(server, stop)()  # SIGKILL: no last write; SIGTERM: the graceful way
    server = servers(data)

    bob = await connect(http, server.url, "ws")
    resumed = await bob.ok("resume", token=bob_token, last_seq=2)
    assert resumed["state"]["turn"] == turn, "what was kept for resuming did not survive: a fresh state"
    assert resumed["replayed"] == 0 and resumed["seq"] > 2
    ann = await connect(http, server.url, "ws")
    await ann.ok("resume", token=ann_token)
    waved = await ann.ok("command", text="wave")
    after = await _narration(bob)  # type: ignore[arg-type]
    assert after["seq"] > resumed["seq"] and after["turn"] == waved["turn"] == turn + 1
    assert "Ann waves" in after["text"]
    told = await bob.ok("narrate", window=1)
    assert told["seq"] == after["seq"] and "Ann waves" in told["text"]


async def test_a_command_does_not_rewrite_its_players_session(tmp_path: Path, servers: Any, http: Any) -> None:
    """Each reply takes a number, but the number stored with a change is reserved a block ahead, so a command
    leaves the session's stored number as it was (and the store, which writes a session only when it changed,
    need not write it again), and a restart still counts on above every number given."""
    data = tmp_path / "data"
    server = servers(data)
    instance = await create(http, server.url, str(DUO), 1)
    ann = await connect(http, server.url, "ws")
    token = (await ann.ok("join", instance=instance, actor="@ann", name="Ann"))["token"]

    def stored_seq() -> int:
        ((seq,),) = read_rows(data, "SELECT seq FROM sessions WHERE token = ?", token)
        return int(seq)

    first = await ann.ok("command", text="wave")
    reserved = stored_seq()
    replies = [await ann.ok("command", text="wave") for _ in range(5)]
    assert [reply["seq"] for reply in replies] == list(range(first["seq"] + 1, first["seq"] + 6))
    assert stored_seq() == reserved > replies[-1]["seq"], "the session was written again for each command"

    await ann.close()
    server.kill()
    server = servers(data)
    ann = await connect(http, server.url, "ws")
    await ann.ok("resume", token=token)
    assert (await ann.ok("command", text="wave"))["seq"] > replies[-1]["seq"]
