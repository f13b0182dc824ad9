"""Names: what a slot's words name among the things the actor can name now, in the slot's scope first; lists,
"all…but", possessives and pronouns; a name that fits several things equally is asked about."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from server.engine.actions.verbs import where_word
from server.engine.english.nouns import join_list
from server.engine.parser import substances
from server.engine.parser.failures import Ambiguous, Rank, Unresolved
from server.engine.parser.kinds import SCOPES, Scope
from server.engine.parser.lexicon import Lexicon
from server.engine.parser.pronouns import Memory, pronoun
from server.engine.parser.readings import Reading
from server.engine.parser.words import (
    ALL_WORDS,
    ARTICLES,
    CONJUNCTIONS,
    DIRECTIONS,
    EXCEPT_WORDS,
    OWNER_WORDS,
    PREPOSITIONS,
    PRONOUNS,
    SELF_WORDS,
    unquoted,
)
from server.engine.world.items import Room
from server.engine.world.perception import Perception
from server.engine.world.state import WorldState

Choices = Mapping[tuple[str, int], tuple[str, ...]]
"""Answers already given: (slot, which listed phrase of it) -> the things chosen."""


@dataclass(frozen=True, slots=True)
class Context:
    """What resolving one reading needs at hand."""

    reading: Reading
    actor: str
    sight: Perception
    memory: Memory
    present: tuple[str, ...]
    chosen: Choices


@dataclass(frozen=True, slots=True)
class Names:
    """Resolves names to the items of one world."""

    world: WorldState
    lexicon: Lexicon

    def present(self, actor: str, sight: Perception) -> tuple[str, ...]:
        """What the actor can name now: itself, what it sees and what it carries (even in the dark), and
        last the room it is in ("examine the cloakroom")."""
        world = self.world
        found = [actor]
        for tag in sight.visible_items(actor):
            if tag not in found and not isinstance(world.items[tag], Room):
                found.append(tag)
        for tag in world.descendants(actor):
            if tag not in found:
                found.append(tag)
        room = world.room_of(actor)
        if room is not None:
            found.append(room)
        return tuple(found)

    def in_scope(self, tag: str, scope: Scope, context: Context, related: tuple[str, ...]) -> bool:
        return SCOPES[scope](self.world, context.sight, context.actor, tag, related)

    def called(self, tags: Sequence[str]) -> str:
        """Things as a question names them: "the velvet cloak", "the hook and the ticket"."""
        return join_list([f"the {self.world.items[tag].called}" for tag in tags])

    def question(self, candidates: tuple[str, ...]) -> str:
        """ "Which do you mean, the velvet cloak or the ticket?" """
        names = [f"the {self.world.items[t].called}" for t in candidates]
        listed = ", ".join(names[:-1]) + (", or " if len(names) > 2 else " or ") + names[-1]
        return f"Which do you mean, {listed}?"

    def implied(self, context: Context, objects: tuple[str, ...]) -> str:
        """The second thing a word order leaves unnamed ("hang the cloak"): the one thing here in its scope that
        is not the actor's own; several, or none, are asked about by what the command lacks."""
        settled = context.chosen.get(("OBJ2", 0))
        if settled and settled[0] in context.present:
            return settled[0]
        world, kind = self.world, context.reading.kind
        others = [
            t
            for t in context.present
            if t != context.actor
            and t not in objects
            and not isinstance(world.items[t], Room)
            and not world.is_descendant(t, context.actor)
        ]
        fits = [t for t in others if self.in_scope(t, kind.scope2, context, objects)]
        if len(fits) == 1:
            return fits[0]
        full = next((p for p in kind.tokens if p[0] == context.reading.pattern[0] and "OBJ2" in p), None)
        lacking = full[: full.index("OBJ2")] if full else context.reading.pattern
        said = " ".join(self.called(objects) if token == "OBJ" else token for token in lacking)
        candidates = tuple(fits or [t for t in others if world.items[t].kind in ("thing", "door")])
        if not candidates:
            raise Unresolved(f"There is nothing here to {said}.", Rank.NAMES_NOTHING)
        raise Ambiguous("OBJ2", 0, candidates, f"What do you want to {said}?")

    def resolve_one(self, context: Context, slot: str, scope: Scope, related: tuple[str, ...]) -> str:
        found = self.resolve(context, slot, scope, False, None, related=related)
        return found[0]

    def resolve(
        self,
        context: Context,
        slot: str,
        scope: Scope,
        many: bool,
        within: str | None,
        *,
        exclude: str | None = None,
        related: tuple[str, ...] = (),
    ) -> tuple[str, ...]:
        """The things a slot's words name. `within`: the second thing, when "all" means what it holds;
        `exclude`: the second thing, which "all" never includes; `related`: the first things, when the
        second is what holds them."""
        words = context.reading.slots[slot]
        # "all but the lamp and the keys" is one phrase: the list is what is left out.
        phrases = [list(words)] if starts_with_all(words) else split_list(words)
        if not phrases:
            raise Unresolved("Which thing do you mean?", Rank.NO_NAME)
        if len(phrases) > 1 and not many:
            raise Unresolved("You can only do that with one thing at a time.", Rank.ONE_AT_A_TIME)
        found: list[str] = []
        for index, phrase in enumerate(phrases):
            settled = context.chosen.get((slot, index))
            if settled is not None and all(t in context.present for t in settled):
                found.extend(settled)
                continue
            found.extend(self._resolve_phrase(context, phrase, slot, index, scope, many, within, exclude, related))
        if not many and len(found) > 1:
            raise Unresolved("You can only do that with one thing at a time.", Rank.ONE_AT_A_TIME)
        return tuple(dict.fromkeys(found))

    def _resolve_phrase(
        self,
        context: Context,
        phrase: list[str],
        slot: str,
        index: int,
        scope: Scope,
        many: bool,
        within: str | None,
        exclude: str | None,
        related: tuple[str, ...],
    ) -> list[str]:
        lexicon = self.lexicon
        words = [w for token in phrase for w in unquoted(token) if w not in ARTICLES]
        if not words:
            raise Unresolved("Which thing do you mean?", Rank.NO_NAME)
        if len(words) == 1 and words[0] in PRONOUNS:
            return self.pronoun(words[0], context, slot, index)
        if len(words) == 1 and words[0] in SELF_WORDS:
            return [context.actor]
        if words[0] in ALL_WORDS:
            if not many:
                raise Unresolved("You can only do that with one thing at a time.", Rank.ONE_AT_A_TIME)
            return self._all(context, words[1:], scope, within, exclude)
        owners, words = self._owners(words, context)
        if not words:
            raise Unresolved("Which thing do you mean?", Rank.NO_NAME)
        several = any(lexicon.is_plural(w) for w in words)
        words = [lexicon.singular(w) for w in words]
        if any(w in DIRECTIONS and w not in lexicon.all_item_words for w in words):
            raise Unresolved("I don't understand that.", Rank.NOT_UNDERSTOOD)
        matching = [t for t in context.present if lexicon.fits(words, t)]
        if not matching:
            matching = substances.holding(
                self.world,
                lexicon,
                words,
                context.present,
                context.actor,
                context.sight,
                lambda t: self.in_scope(t, scope, context, related),
            )
            if not matching and scope == "held" and substances.named(self.world, lexicon, words):
                # "pour the water" with none to hand: what is missing is the player's own.
                verb = context.reading.verb.split()
                while verb[1:] and verb[-1] in PREPOSITIONS:
                    verb.pop()  # "drink from": "You have no water to drink."
                raise Unresolved(f"You have no {' '.join(words)} to {' '.join(verb)}.", Rank.NAMES_NOTHING)
        if owners is not None:
            anyones = matching
            matching = [t for t in matching if any(self.world.is_descendant(t, owner) for owner in owners)]
            if anyones and not matching:
                named = " ".join(words)
                if owners == (context.actor,):
                    raise Unresolved(f"You have no {named}.", Rank.NAMES_NOTHING)
                if len(owners) == 1:
                    raise Unresolved(f"The {self.world.items[owners[0]].called} has no {named}.", Rank.NAMES_NOTHING)
                raise Unresolved(f"No one here has that {named}.", Rank.NAMES_NOTHING)
        if not matching:
            raise Unresolved(self._nothing_called(words, context), Rank.NAMES_NOTHING)
        preferred = self._preferred(matching, context, scope, related)
        if several:
            if not many and len(preferred) > 1:
                raise Unresolved("You can only do that with one thing at a time.", Rank.ONE_AT_A_TIME)
            return preferred
        if len(preferred) > 1:
            narrowed = self.narrowed(tuple(preferred), words)
            if len(narrowed) > 1:
                raise Ambiguous(slot, index, narrowed)
            return list(narrowed)
        return preferred

    def pronoun(self, word: str, context: Context, slot: str, index: int) -> list[str]:
        return pronoun(self.world, word, context.memory, context.present, context.actor, slot, index)

    def _preferred(self, matching: list[str], context: Context, scope: Scope, related: tuple[str, ...]) -> list[str]:
        """Of the things a phrase fits, those the command is likeliest about: in scope, then not the room."""
        preferred = [t for t in matching if self.in_scope(t, scope, context, related)] or matching
        return [t for t in preferred if not isinstance(self.world.items[t], Room)] or preferred

    def narrowed(self, candidates: tuple[str, ...], words: list[str]) -> tuple[str, ...]:
        """One of several candidates, where the words settle it: the one they name exactly; or, when the
        candidates cannot be told apart by name at all, any one of them."""
        phrase = " ".join(words)
        exact = [t for t in candidates if phrase in self.lexicon.exact[t]]
        if len(exact) == 1:
            return (exact[0],)
        if len({self.world.items[t].called for t in candidates}) == 1:
            return candidates[:1]
        return candidates

    def _all(
        self, context: Context, rest: list[str], scope: Scope, within: str | None, exclude: str | None
    ) -> list[str]:
        """ "all", "all the sacks", "everything but the lamp", "all from the box": the things in scope a
        player would mean, never fixtures, people, the room, or what is worn (unless taking it off)."""
        cut = next((i for i, w in enumerate(rest) if w in EXCEPT_WORDS), len(rest))
        kept, excepted = [w for w in rest[:cut] if w not in ARTICLES and w != "of"], rest[cut + 1 :]
        world, actor = self.world, context.actor
        candidates = [
            t
            for t in context.present
            if t not in (actor, within, exclude)
            and world.items[t].kind in ("thing", "door")
            and world.get(t, "mention", True)
            and world.link(t) != "part_of"
        ]
        if within is not None:
            candidates = [t for t in candidates if world.parent(t) == within]
        elif scope == "takeable":
            # Only what lies about: "take all" does not empty the containers in the room.
            candidates = [t for t in candidates if world.parent(t) == world.parent(actor)]
        if within is None or scope != "takeable":
            # (What a bag one carries holds is out of the takeable scope, yet "take all from my bag" means it.)
            candidates = [t for t in candidates if self.in_scope(t, scope, context, ())]
        if scope == "held":
            candidates = [t for t in candidates if world.link(t) != "on"]
        if kept:
            words = [self.lexicon.singular(w) for w in kept]
            candidates = [t for t in candidates if self.lexicon.fits(words, t)]
        if excepted:
            others = self._left_out(excepted, context)
            candidates = [t for t in candidates if t not in others]
        if not candidates:
            verb = context.reading.verb
            if scope == "held" and within is None:
                raise Unresolved(
                    f"You have no {' '.join(kept)} to {verb}." if kept else f"You have nothing to {verb}.",
                    Rank.NAMES_NOTHING,
                )
            if scope == "worn" and within is None and not kept:
                raise Unresolved("You are wearing nothing.", Rank.NAMES_NOTHING)
            where = f" {where_word(world, within)} the {world.items[within].called}" if within else " here"
            raise Unresolved(f"There is nothing{where} to {verb}.", Rank.NAMES_NOTHING)
        return candidates

    def _left_out(self, words: list[str], context: Context) -> set[str]:
        """What "all but…" leaves out: everything each listed phrase fits, with no question asked ("all but
        the lamp" leaves out every lamp)."""
        left: set[str] = set()
        for phrase in split_list(words):
            named = [w for w in phrase if w not in ARTICLES]
            if len(named) == 1 and named[0] in PRONOUNS:
                left.update(self.pronoun(named[0], context, "", 0))
                continue
            named = [self.lexicon.singular(w) for w in named]
            fits = [t for t in context.present if named and self.lexicon.fits(named, t)]
            if not fits:
                raise Unresolved(self._nothing_called(named, context), Rank.NAMES_NOTHING)
            left.update(fits)
        return left

    def _owners(self, words: list[str], context: Context) -> tuple[tuple[str, ...] | None, list[str]]:
        """Take the possessives out of a phrase: "my cloak", "his ball", "the boy's ball". Returns whose
        things the phrase is narrowed to (None: anyone's) and the words left."""
        owners: list[str] = []
        narrowed = False
        rest: list[str] = []
        memory = context.memory
        for position, word in enumerate(words):
            last = position == len(words) - 1
            if word in OWNER_WORDS and last and word != "her":
                continue  # "take my": no name follows
            if word in OWNER_WORDS and not last:
                narrowed = True
                if word in ("my", "your"):
                    owners.append(context.actor)
                elif word == "his" and memory.him:
                    owners.append(memory.him)
                elif word == "her" and memory.her:
                    owners.append(memory.her)
                elif word == "its" and memory.it:
                    owners.append(memory.it)
                elif word == "their":
                    owners.extend(memory.them)
                else:
                    # "his ball" with no "him" yet: any present man's ball will do.
                    gender = {"his": "male", "her": "female"}.get(word)
                    for tag in context.present:
                        item = self.world.items[tag]
                        if item.kind == "actor" and gender in (None, item.gender):
                            owners.append(tag)
            elif word.endswith("'s") and not last and word[:-2] in self.lexicon.all_item_words:
                narrowed = True
                owners.extend(t for t in context.present if word[:-2] in self.lexicon.item_words[t])
            else:
                rest.append(word)
        return (tuple(owners) if narrowed else None), rest

    def _nothing_called(self, words: list[str], context: Context) -> str:
        """The message when a phrase names nothing present; a room seen across the way is only too far off."""
        here = self.world.room_of(context.actor)
        for tag in context.sight.visible_items(context.actor):
            if tag != here and isinstance(self.world.items[tag], Room) and self.lexicon.fits(words, tag):
                return f"The {self.world.items[tag].called} is too far away for that."
        return f"You see no {' '.join(words)} here."


def starts_with_all(words: Sequence[str]) -> bool:
    content = [w for w in words if w not in ARTICLES]
    return bool(content) and content[0] in ALL_WORDS


def split_list(words: Sequence[str]) -> list[list[str]]:
    phrases: list[list[str]] = [[]]
    for word in words:
        if word in CONJUNCTIONS:
            phrases.append([])
        else:
            phrases[-1].append(word)
    return [phrase for phrase in phrases if phrase]
