"""The words every story understands, offered by completion: the standard verbs (the first word of each word
order in the engine's grammar), the small words later in them ("on", "with") verb by verb, the verbs that take
a direction, directions and directives. A world's own commands are not here: the server's `actions` lists
them, with the things they apply to."""

from __future__ import annotations

from server.engine.directives import standard
from server.engine.parser.grammar import GRAMMAR
from server.engine.parser.words import DIRECTIONS as DIRECTION_WORDS

LOOK = "examine"
"""The kind of command that looks at what it names, a room among them ("x foyer")."""


def _words() -> tuple[tuple[str, ...], dict[str, tuple[str, ...]], frozenset[str], frozenset[str]]:
    later: dict[str, dict[str, None]] = {}
    directed: set[str] = set()
    looking: set[str] = set()
    for kind in GRAMMAR:
        for pattern in kind.tokens:
            if not pattern or pattern[0].isupper():
                continue
            words = later.setdefault(pattern[0], {})
            words.update(dict.fromkeys(word for word in pattern[1:] if not word.isupper()))
            if "DIR" in pattern:
                directed.add(pattern[0])
            if kind.name == LOOK and pattern[-1] == "OBJ":
                looking.add(" ".join(pattern[:-1]))
    verbs = {verb: tuple(words) for verb, words in later.items()}
    return tuple(later), verbs, frozenset(directed), frozenset(looking)


VERBS, PARTICLES, DIRECTED, LOOKING = _words()
"""First words of commands ("take", "put", "x"); for each, the words between or after its slots ("on",
"from"); those that take a direction ("go", "walk"); the words before what is looked at ("x", "look at")."""
DIRECTIONS: tuple[str, ...] = tuple(DIRECTION_WORDS)
DIRECTIVES: tuple[str, ...] = tuple(directive.name for directive in standard())
"""The system's own commands, by name ("undo", "world tree", "light level")."""
DIRECTIVE_WORDS = frozenset(name.split()[0] for name in DIRECTIVES)
