"""How a typed line becomes commands: the rule every client and the server share (a client that sends a
line of several commands, or counts them, splits it the same way the server will)."""

from __future__ import annotations

import re

SEPARATORS = (
    'A line holds several commands separated by ";" or by a "." that ends a sentence (followed by a space or the '
    'end of the line), never inside quotation marks ("say "hi. bye"") or a word or number ("6.5", "my.game").'
)
"""The rule in one sentence, as the `vocabulary` method gives it to clients in other languages."""

# Typographers' quotation marks and apostrophes count as the plain ones.
_PLAIN = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})
# A `.` ends a command only where it ends a sentence: followed by a space or the end of the line, never inside
# a number, a name or a path ("spin time 6.5", "save my.game", "spin spins/odd.toml").
_COMMAND_BREAK = re.compile(r'("[^"]*"?)|(;|\.+(?=\s|$))')


def plain(text: str) -> str:
    """The text with curly quotation marks and apostrophes made straight."""
    return text.translate(_PLAIN)


def split_commands(line: str) -> list[str]:
    """`;` separates commands, and so does a `.` that ends a sentence ("w. n", "w."), except inside quotation
    marks ("say "hi. bye""); a `.` inside a word or number ("6.5", "my.game") is part of it."""
    line = plain(line)
    commands: list[str] = []
    current: list[str] = []
    position = 0
    for match in _COMMAND_BREAK.finditer(line):
        current.append(line[position : match.start()])
        if match.group(1):
            current.append(match.group(1))
        else:
            commands.append("".join(current))
            current = []
        position = match.end()
    current.append(line[position:])
    commands.append("".join(current))
    return [command.strip() for command in commands if command.strip()]
