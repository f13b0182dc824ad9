"""The words every story understands, as the server's `vocabulary` gives them, arranged for completion."""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol import messages as m


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """Verbs; for each, the words between or after its slots ("on", "from"); the verbs that take a direction;
    the words before what is looked at ("x", "look at"); directions; directives ("undo", "world tree")."""

    verbs: tuple[str, ...] = ()
    particles: dict[str, tuple[str, ...]] = field(default_factory=dict)
    directed: frozenset[str] = frozenset()
    looking: frozenset[str] = frozenset()
    directions: tuple[str, ...] = ()
    directives: tuple[str, ...] = ()

    @classmethod
    def of(cls, result: m.VocabularyResult) -> Vocabulary:
        return cls(
            verbs=tuple(result.verbs),
            particles={verb: tuple(words) for verb, words in result.particles.items()},
            directed=frozenset(result.directed),
            looking=frozenset(result.looking),
            directions=tuple(result.directions),
            directives=tuple(result.directives),
        )

    @property
    def directive_words(self) -> frozenset[str]:
        """The first words of directives ("light" of "light level")."""
        return frozenset(name.split()[0] for name in self.directives)
