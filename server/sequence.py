"""A session's sequence numbers: each Reply and notification numbered, the recent ones kept for `resume`.

In order:
1. Every notification a session is sent, and every Reply to a call that changes its story (command, undo,
   restart), takes the next number (`stamp`), and is kept in a bounded buffer of the most recent ones; a
   retelling (narrate) changes nothing and carries the number reached (`last`).
2. `resume` with the last number a client saw asks for the messages after it (`since`): all of them, in
   order, while the buffer still holds them; None when it does not (the client gets a fresh state instead).
3. The numbers outlive a restart of a server with a data directory: each change stores `reserved()`, a
   number above any this session can be given before the next change is stored, and a session brought back
   counts on from there (`Sequence(last=…)`). Its buffer does not come back: a resume from before the restart
   gets a fresh state, and the numbers after it are higher than any the client saw.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import msgspec

from protocol import messages as m

KEPT = 100
"""Messages one session keeps for `resume` by default (`Config.resume_buffer`)."""

RESERVE = 1024
"""Numbers one stored change covers at least (`reserved` moves in steps of it, so up to twice as many): every
number a session is given comes after a change to its instance was stored (a reply or a notification follows a
write), and one change gives a session at most a handful (a reply, one narration a command of its line, a
rewind, an ending), far below this."""

CHANGING = frozenset({"command", "undo", "restart"})
"""The calls whose Reply is numbered and kept: each changes the story, so its answer cannot be asked again."""

Message = tuple[str, m.Result]
"""A notification's method and its params, numbered."""


@dataclass(eq=False)
class Sequence:
    """One session's numbering and its most recent messages."""

    last: int = 0
    """The last number given (0: none yet)."""
    limit: int = KEPT
    recent: deque[Message] = field(default_factory=deque)
    floor: int = -1
    """Messages numbered above this are all in `recent`; -1: `last` when made (a new or restored session)."""

    def __post_init__(self) -> None:
        if self.floor < 0:
            self.floor = self.last

    def stamp(self, method: str, params: m.Result) -> m.Result:
        """`params` numbered with the next number (a copy: one notification may go to several sessions), kept."""
        self.last += 1
        numbered = msgspec.structs.replace(params, seq=self.last)  # type: ignore[type-var]
        self.recent.append((method, numbered))
        while len(self.recent) > self.limit:
            self.recent.popleft()
            self.floor += 1
        return numbered

    def answered(self, method: str, reply: m.Reply) -> m.Reply:
        """A Reply numbered: the next number for a call that changed the story (kept, to be sent again if it
        is lost), else the number reached."""
        if method not in CHANGING:
            return msgspec.structs.replace(reply, seq=self.last)
        lost = m.LostReply(method=method, text=reply.text, blocks=reply.blocks, turn=reply.turn, ended=reply.ended)
        numbered = self.stamp("reply", lost)
        return msgspec.structs.replace(reply, seq=numbered.seq)  # type: ignore[attr-defined]

    def since(self, seen: int) -> list[Message] | None:
        """The messages numbered after `seen`, in order; None when some of them are no longer kept, or `seen`
        is a number this session was never given (from before a restart, say)."""
        if seen < self.floor or seen > self.last:
            return None
        return list(self.recent)[len(self.recent) - (self.last - seen) :] if seen < self.last else []

    def reserved(self) -> int:
        """The number to store with a change: above any this session is given before the next one is stored
        (at least RESERVE above the last). It moves a whole RESERVE at a time, not with every number given, so
        a command, which numbers its reply, seldom makes the session differ from what was last stored of it:
        the store writes a session only when it changed."""
        return (self.last // RESERVE + 2) * RESERVE
