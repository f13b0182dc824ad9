"""Tab completion of what the reader may type next.

For a command (after the last `;` or `.`, where a new one begins), in this order:
1. whole commands that would succeed now (the server's `actions`), from the word being typed on; so too
   directives of more than one word ("light level");
2. the first word: the standard verbs, directives, directions, and the world's own verbs (first words of its
   actions); a later word: after a thing's name, the small words the verb's word orders go on with ("on",
   "from"); after a verb of motion, directions; the things the actor knows, one name each (whole, or from
   the later word being typed: "cloak" for "velvet cloak"), never the rooms it has been in, except the one
   it is in after a verb that looks ("x foyer"); the verb's small words.
3. a directive's arguments, and nothing else: `spin` takes a named spin or a field and its value, as :spin
   does; `concept` the actors whose concepts may be read, then `tree`; the others nothing.
After a colon: the meta commands; then for :spin and :narrate the named spins, spin fields and each field's
values; for :concept the actors whose concepts may be read here; for :keys vi and emacs.
"""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator, Iterable, Iterator, Sequence
from functools import cache

import msgspec
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from clients.cli.meta import LEADER, WINDOWS
from clients.cli.scene import Scene
from protocol.spin import SPIN_FIELDS, Spin

_COMMAND_START = re.compile(r"[;.]")
_LAST_WORD = re.compile(r"\S*\Z")
SPIN_METAS = ("spin", "narrate")


class StoryCompleter(Completer):
    """Completes from the scene as last refreshed and the meta commands; at the first Tab of a turn, it asks the
    server once for the commands that would succeed now (prompt_toolkit awaits `get_completions_async`)."""

    def __init__(self, scene: Scene, metas: Sequence[str]) -> None:
        self.scene = scene
        self.metas = list(metas)

    async def get_completions_async(
        self, document: Document, complete_event: CompleteEvent
    ) -> AsyncGenerator[Completion, None]:
        if not document.text_before_cursor.lstrip().startswith(LEADER):
            await self.scene.fetch_actions()
        for completion in self.get_completions(document, complete_event):
            yield completion

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        before = document.text_before_cursor
        if before.lstrip().startswith(LEADER):
            found = self._meta(before.lstrip())
        else:
            found = self._command(_COMMAND_START.split(before)[-1])
        seen: set[str] = set()
        for completion in found:
            if completion.text not in seen:
                seen.add(completion.text)
                yield completion

    # -- commands --------------------------------------------------------------------------------------------

    def _command(self, command: str) -> Iterator[Completion]:
        word = _LAST_WORD.search(command).group()  # type: ignore[union-attr]
        head = " ".join(command[: len(command) - len(word)].lower().split())
        typed = word.lower()
        vocabulary = self.scene.vocabulary
        yield from _phrases(self.scene.actions, head, typed, word, "now")
        yield from _phrases((d for d in vocabulary.directives if " " in d), head, typed, word, "directive")
        if not head:
            yield from _starting(vocabulary.verbs, typed, word, "verb")
            yield from _starting(vocabulary.directives, typed, word, "directive")
            yield from _starting(vocabulary.directions, typed, word, "direction")
            own = dict.fromkeys(action.split()[0] for action in self.scene.actions if action.strip())
            yield from _starting(own, typed, word, "command")
            return
        verb = head.split()[0]
        if verb in vocabulary.directive_words and verb not in vocabulary.verbs:
            yield from self._directive(head.split(), typed, word)
            return
        names = self.scene.names
        particles = list(_starting(vocabulary.particles.get(verb, ()), typed, word, verb))
        if any(head.endswith(f" {name}") or head.endswith(f" {name.split()[-1]}") for name in names):
            yield from particles  # a thing was named: "put cloak " goes on with "on", "in"…
        if verb in vocabulary.directed:
            yield from _starting(vocabulary.directions, typed, word, "direction")
        yield from _named(self.scene.things(looking=head in vocabulary.looking), typed, word)
        yield from particles

    def _directive(self, words: list[str], typed: str, word: str) -> Iterator[Completion]:
        """A directive's arguments: `spin`'s one setting or named spin; `concept`'s actor."""
        if words[0] == "spin":
            if len(words) == 1:
                yield from _starting(self.scene.spin_names, typed, word, "spin")
                yield from self._settings(typed, word)
            elif len(words) == 2 and words[1] in SPIN_FIELDS:
                yield from _starting(self._values(words[1]), typed, word, words[1])
        elif words[0] == "concept" and len(words) == 1:
            yield from _starting(self.scene.askable, typed, word, "actor")

    # -- meta commands -----------------------------------------------------------------------------------------

    def _meta(self, line: str) -> Iterator[Completion]:
        word = _LAST_WORD.search(line).group()  # type: ignore[union-attr]
        words = line[: len(line) - len(word)].split()
        if not words:
            yield from _starting(self.metas, word.lower(), word, "meta")
            return
        name = words[0].removeprefix(LEADER).lower()
        fits = [meta for meta in self.metas if meta.removeprefix(LEADER).startswith(name)]
        meta = fits[0].removeprefix(LEADER) if len(fits) == 1 else name
        typed = word.lower()
        if meta in SPIN_METAS:
            previous = words[-1] if len(words) > 1 else ""
            if previous in SPIN_FIELDS:
                yield from _starting(self._values(previous), typed, word, previous)
                return
            yield from _starting(self.scene.spin_names, typed, word, "spin")
            yield from self._settings(typed, word)
            if meta == "narrate":
                yield from _starting(WINDOWS, typed, word, "window")
        elif meta == "concept":
            yield from _starting(self.scene.askable, typed, word, "actor")
        elif meta == "keys":
            yield from _starting(("vi", "emacs"), typed, word, "keys")

    def _settings(self, typed: str, word: str) -> Iterator[Completion]:
        """A spin field, or a whole `field=value` once the `=` is typed."""
        key, equals, value = word.partition("=")
        if equals and key in SPIN_FIELDS:
            settings = (f"{key}={each}" for each in self._values(key))
            yield from _starting(settings, f"{key}={value.lower()}", word, key)
        else:
            yield from _starting(SPIN_FIELDS, typed, word, "setting")

    def _values(self, field: str) -> list[str]:
        """A field's values; where it takes an actor, the actors known."""
        values = field_values(field)
        if "@" not in values:
            return list(values)
        return [*self.scene.actor_tags, *(value for value in values if value != "@")]


def _phrases(phrases: Iterable[str], head: str, typed: str, word: str, meta: str) -> Iterator[Completion]:
    """The rest of each phrase that begins as the command typed so far, from the word being typed on."""
    so_far = f"{head} {typed}" if head else typed
    start = len(head) + 1 if head else 0
    for phrase in phrases:
        if phrase.startswith(so_far) and len(phrase) > len(so_far):
            yield Completion(phrase[start:], -len(word), display=phrase, display_meta=meta)


def _named(names: Iterable[str], typed: str, word: str) -> Iterator[Completion]:
    """One completion a thing: its whole name, or its name from the later word that begins as typed."""
    for name in names:
        words = name.split()
        fits = [index for index, each in enumerate(words) if each.lower().startswith(typed)]
        if fits:
            rest = " ".join(words[fits[0] :])
            if len(rest) > len(typed):
                yield Completion(rest, -len(word), display_meta="thing")


def _starting(candidates: Iterable[str], typed: str, word: str, meta: str) -> Iterator[Completion]:
    """Candidates that begin with what is typed and go further, replacing the word being typed."""
    for candidate in candidates:
        if candidate.lower().startswith(typed) and len(candidate) > len(typed):
            yield Completion(candidate, -len(word), display_meta=meta)


@cache
def field_values(field: str) -> tuple[str, ...]:
    """The words a spin field takes, as typed after its name; "@" stands for any actor's tag."""
    described = msgspec.inspect.type_info(Spin)
    assert isinstance(described, msgspec.inspect.StructType)
    kind = {each.name: each.type for each in described.fields}[field]
    return tuple(dict.fromkeys(_values_of(kind)))


def _values_of(kind: msgspec.inspect.Type) -> Iterator[str]:
    if isinstance(kind, msgspec.inspect.Metadata):  # a field's description
        yield from _values_of(kind.type)
    elif isinstance(kind, msgspec.inspect.UnionType):
        for each in kind.types:
            yield from _values_of(each)
    elif isinstance(kind, msgspec.inspect.LiteralType):
        yield from (str(value) for value in kind.values)
    elif isinstance(kind, msgspec.inspect.VarTupleType | msgspec.inspect.ListType):
        yield from _values_of(kind.item_type)
        yield "none"
    elif isinstance(kind, msgspec.inspect.BoolType):
        yield from ("on", "off")
    elif isinstance(kind, msgspec.inspect.NoneType):
        yield "none"
    elif isinstance(kind, msgspec.inspect.StrType) and kind.pattern and "@" in kind.pattern:
        yield "@"  # an actor's tag; and any word the pattern allows besides, like `focalizer` in ^(@\w+|focalizer)$
        yield from (word for word in kind.pattern.strip("^$()").split("|") if word.isidentifier())
