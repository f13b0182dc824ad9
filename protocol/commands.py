"""How a typed line becomes commands: the rule every client and the server share (a client that sends a
line of several commands, or counts them, splits it the same way the server will)."""

from __future__ import annotations

import re

SEPARATORS = (
    'A line holds several commands separated by ";" or by a "." (one that ends a sentence, followed by a space or '
    'the end of the line, or one between two letters: "w.e"), never inside quotation marks ("say "hi. bye""), a '
    'number or a list of numbers ("6.5", "0;2"), or the name given to save, restore or spin ("save my.game").'
)
"""The rule in one sentence, as the `vocabulary` method gives it to clients in other languages."""

NAMING = frozenset({"save", "restore", "spin"})
"""Commands whose words may be a name or a path with a dot in it ("save my.game", "spin spins/odd.toml")."""

# Typographers' quotation marks and apostrophes count as the plain ones.
_PLAIN = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})
# A `;` ends a command unless it is in a list of numbers ("spin ellipsis 0;2;4-9"); a `.` ends one where it ends
# a sentence (followed by a space or the end of the line), and between two letters ("w.e", as players of
# interactive fiction type it), never inside a number ("spin time 6.5").
_BREAKING = re.compile('[";.“”„‘’]')
"""What a line must hold to break into more than one command or be changed by `plain`: most hold none of it."""
_COMMAND_BREAK = re.compile(r'("[^"]*"?)|((?<!\d);|;(?!\d)|\.+(?=\s|$))|((?<=[^\W\d_])\.(?=[^\W\d_]))')


def plain(text: str) -> str:
    """The text with curly quotation marks and apostrophes made straight."""
    return text.translate(_PLAIN)


def split_commands(line: str) -> list[str]:
    """`;` separates commands, and so does a `.` that ends a sentence ("w. n", "w.") or stands between two
    letters ("w.e"), except inside quotation marks ("say "hi. bye""), in numbers ("6.5", "0;2") and in what save,
    restore and spin are given ("save my.game")."""
    if _BREAKING.search(line) is None:
        # One command, as most lines are, found in a tenth of the time: every line is split by its client and
        # twice by the server.
        command = line.strip()
        return [command] if command else []
    line = plain(line)
    commands: list[str] = []
    current: list[str] = []
    position = 0
    for match in _COMMAND_BREAK.finditer(line):
        current.append(line[position : match.start()])
        if match.group(1):
            current.append(match.group(1))
        elif match.group(3) and _first_word("".join(current)) in NAMING:
            current.append(match.group(3))  # a name with a dot in it: "save my.game"
        else:
            commands.append("".join(current))
            current = []
        position = match.end()
    current.append(line[position:])
    commands.append("".join(current))
    return [command.strip() for command in commands if command.strip()]


def _first_word(text: str) -> str:
    words = text.split()
    return words[0].lower() if words else ""
