"""Splitting a player's line into commands and words, and the small words every command shares."""

from __future__ import annotations

import re

ARTICLES = frozenset({"a", "an", "the", "some"})
PRONOUNS = frozenset({"it", "them", "him", "her", "they"})
SELF_WORDS = frozenset({"me", "myself", "self", "yourself"})
ALL_WORDS = frozenset({"all", "everything", "every"})
CONJUNCTIONS = frozenset({"and", ","})
OWNER_WORDS = frozenset({"my"})

DIRECTIONS: dict[str, str] = {
    "n": "n",
    "north": "n",
    "ne": "ne",
    "northeast": "ne",
    "e": "e",
    "east": "e",
    "se": "se",
    "southeast": "se",
    "s": "s",
    "south": "s",
    "sw": "sw",
    "southwest": "sw",
    "w": "w",
    "west": "w",
    "nw": "nw",
    "northwest": "nw",
    "u": "u",
    "up": "u",
    "upstairs": "u",
    "d": "d",
    "down": "d",
    "downstairs": "d",
    "in": "in",
    "inside": "in",
    "out": "out",
    "outside": "out",
}

_COMMAND_BREAK = re.compile(r'("[^"]*"?)|([;.])')
_WORD = re.compile(r'"[^"]*"?|[\w\'-]+|,')


def split_commands(line: str) -> list[str]:
    """`;` and `.` separate commands, except inside quotation marks ("say "hi. bye"")."""
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


def words_of(command: str) -> list[str]:
    """Lower-cased words, with commas kept as words (they separate listed objects); quoted text stays whole."""
    found = []
    for word in _WORD.findall(command):
        found.append(word if word.startswith('"') else word.lower())
    return found
