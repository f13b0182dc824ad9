"""The bank robbery played by up to three: scripts for whoever nobody plays (answering in the same tick), news for
each player through its own actor, players coming and going, the bank's own commands, the three endings, and undo
and replay kept exact."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from server.catalog import load_spin, load_world, walkthrough
from server.engine.actions.action import Event
from server.engine.errors import StoryEnded
from server.engine.player import Player
from server.engine.story import Story, Turn


def _story(*played: str) -> tuple[Story, dict[str, Player]]:
    """A fresh bank with a player for each actor in `played` (each taken up, so it waits unless commanded)."""
    story = Story(load_world("bank"))
    players = {}
    for actor in played:
        story.take(actor)
        players[actor] = Player(story, actor)
        players[actor].opening()
    return story, players


def _say(player: Player, line: str, others: dict[str, Player] | None = None) -> tuple[str, dict[str, str | None]]:
    """`line` from `player`; what it is told, and what each of the `others` is told of it (None: nothing)."""
    turns: list[Turn] = []
    told = player.command(line, on_turn=turns.append).text
    news: dict[str, str | None] = {}
    for actor, other in (others or {}).items():
        if other is player:
            continue
        said = [telling.text for turn in turns if (telling := other.news(turn)) is not None]
        news[actor] = " ".join(said) or None
    return told, news


def _beats(events: list[Event]) -> list[tuple[str, str]]:
    """What was done, as (agent, verb), leaving out silent bookkeeping and what did not happen."""
    return [(e.action.agent, e.action.verb) for e in events if e.done and e.action.salience >= 0.2]


def _perceived_by(story: Story, actor: str, verb: str) -> bool:
    return any(e.action.verb == verb and actor in e.perceivers for e in story.simulation.events)


# -- with nobody playing, and the walkthrough -------------------------------------------------------------


def test_nobody_playing_the_story_runs_as_the_robbery_did():
    story = Story(load_world("bank"))
    while not story.ended and story.turn < 30:
        story.idle()
    assert story.ended and story.turn == 8
    beats = _beats(story.simulation.events)
    # The robbery's beats, in its order; only the teller's putting the money in the bag comes a moment before
    # the guard comes out rather than after (each script answers the world as it is, and she is asked first).
    order = [
        ("@teller", "read"),
        ("@guard", "snooze"),
        ("@teller", "count"),
        ("@robber", "wear"),
        ("@teller", "type"),
        ("@teller", "play"),
        ("@robber", "leave"),
        ("@teller", "wave"),
        ("@robber", "brandish"),
        ("@teller", "laugh"),
        ("@guard", "wake"),
        ("@guard", "see"),
        ("@teller", "put"),
        ("@guard", "leave"),
        ("@robber", "turn"),
        ("@guard", "shoot"),
        ("@guard", "shoot"),
        ("@robber", "fall"),
        ("@robber", "die"),
        ("@teller", "cry"),
    ]
    assert [beat for beat in beats if beat in order] == order
    assert beats[-1] == ("@teller", "cry")
    # Each reacts in the tick it is given cause: she laughs as the guard wakes and sees him; he turns to the
    # guard and is shot in the tick after the guard comes out.
    ticks = {(e.action.agent, e.action.verb): e.tick for e in story.simulation.events if e.done}
    assert ticks["@teller", "laugh"] == ticks["@guard", "wake"] == ticks["@guard", "see"]
    assert ticks["@robber", "turn"] == ticks["@guard", "shoot"] == ticks["@guard", "leave"] + 1
    told = story.tell(replace(story.spin, focalizer="@teller", narratee=None)).text
    assert "The bank teller laughs. She puts the fake money in the black bag. A burly guard enters the lobby." in told
    assert "She puts something in a black bag." in story.tell().text  # the robber never learns what


def test_the_walkthrough_reaches_the_robberys_ending():
    story, players = _story("@robber")
    robber = players["@robber"]
    lines = walkthrough("bank")
    replies = dict(zip(lines, (robber.command(line).text for line in lines), strict=True))
    assert story.ended
    assert replies["in"].endswith("She waves to you.")  # the teller answers at once
    assert replies["brandish gun at teller"] == ("You brandish your gun-shaped object at the bank teller. She laughs.")
    assert (
        replies["wait"] == "You wait. The bank teller puts something in the black bag. A burly guard enters the lobby."
    )
    assert replies["turn to guard"] == (
        "You turn to the burly guard. He shoots you in the chest. He shoots you in the chest. You fall. You die."
    )
    assert _beats(story.simulation.events)[-1] == ("@teller", "cry")
    with pytest.raises(StoryEnded):
        robber.command("wait")


@pytest.mark.parametrize("spin", ["prophecy", "retrograde", "memoir", "hesitant"])
def test_the_walkthrough_plays_under_other_spins(spin):
    player = Player(Story(load_world("bank")), named_spins=load_spin)
    player.opening()
    player.change_spin([spin])
    replies = [player.command(line).text for line in walkthrough("bank")]
    assert player.story.ended
    assert all(reply and "[" not in reply and "@" not in reply for reply in replies)
    assert player.recount().text.strip()


# -- the scripts answer the players -----------------------------------------------------------------------


def test_with_only_the_robber_played_the_teller_and_guard_keep_to_their_scripts():
    story, players = _story("@robber")
    robber = players["@robber"]
    robber.command("wear mask")
    assert robber.command("in").text.endswith("She waves to you.")
    assert robber.command("brandish gun").text == (
        "You brandish your gun-shaped object at the bank teller. She laughs."
    )
    assert story.simulation.world.get("@guard", "awake")  # her laugh woke him, and he saw the robber at once
    assert not _perceived_by(story, "@robber", "wake")  # behind the mirror: the robber knows nothing of it
    told = robber.command("wait").text
    # The robber, through the lobby's view of the vestibule, cannot make out what goes into the bag.
    assert told == "You wait. The bank teller puts something in the black bag. A burly guard enters the lobby."


def test_a_played_teller_waits_unless_commanded_and_her_choices_count():
    story, players = _story("@robber", "@teller")
    robber, teller = players["@robber"], players["@teller"]
    for line in ("wear mask", "in", "x teller", "brandish gun", "wait"):
        robber.command(line)
    played = [e for e in story.simulation.events if e.turn > 0]  # after the opening, when everyone looks around
    teller_beats = [verb for agent, verb in _beats(played) if agent == "@teller"]
    assert teller_beats == ["notice"]  # she saw him come in, and has done nothing since: no wave, no laugh
    assert not story.simulation.world.get("@guard", "awake")
    told, news = _say(teller, "laugh", players)
    # Her laugh wakes the guard, who sees the man in the lobby in the same tick; behind his one-way mirror, he
    # is seen by neither of them, so neither knows it.
    assert told == "You laugh."
    assert news["@robber"] == "The bank teller laughs."
    assert story.simulation.world.get("@guard", "awake")


def test_news_goes_to_each_player_through_its_own_actor():
    _, players = _story("@robber", "@teller", "@guard")
    robber, teller, guard = players["@robber"], players["@teller"], players["@guard"]

    # A sleeping guard told to look wakes up first; nobody else perceives it.
    told, news = _say(guard, "look", players)
    assert told.startswith("You wake up.\n\nGuard post")
    assert news == {"@robber": None, "@teller": None}

    told, news = _say(robber, "wear mask", players)
    assert told == "You put on your Dora the Explorer mask."
    assert news == {"@teller": None, "@guard": None}  # out on the street, seen by no one

    told, news = _say(robber, "in", players)
    assert told.startswith("You leave the street.\n\nLobby")
    assert "look up" not in told and "mirror" not in told
    teller_news, guard_news = news["@teller"] or "", news["@guard"] or ""
    assert teller_news.startswith("A twitchy man enters the lobby. You look up and see him out in the lobby.")
    assert guard_news.startswith("A twitchy man enters the lobby. Through the one-way mirror, you watch him come in.")

    told, news = _say(teller, "wave to man", players)
    assert told == "You wave at the twitchy man."
    assert news["@robber"] == "The bank teller waves at you."
    # The mirror shows the lobby, not the vestibule: a wave from someone out of sight is not seen at all.
    assert news["@guard"] is None

    told, news = _say(robber, "brandish gun at teller", players)
    assert told == "You brandish your gun-shaped object at the bank teller."
    assert news["@teller"] == "The twitchy man brandishes a gun-shaped object at you."
    assert news["@guard"] == "The twitchy man brandishes a gun-shaped object at something."


def test_two_players_and_the_sleeping_guard_hears_nothing_of_it():
    story, players = _story("@robber", "@teller")
    robber, teller = players["@robber"], players["@teller"]
    _say(robber, "in", players)
    told, news = _say(teller, "read slips", players)
    assert told == "You read the deposit slips."
    assert news["@robber"] == "The bank teller reads the deposit slips."
    assert not _perceived_by(story, "@guard", "enter")  # asleep


def test_a_role_whose_player_leaves_goes_back_to_its_script():
    story, players = _story("@robber", "@teller")
    robber = players["@robber"]
    robber.command("wear mask")
    assert "waves" not in robber.command("in").text  # the teller is played: she waits
    assert robber.command("wait").text == "You wait."
    story.release("@teller")
    assert robber.command("wait").text == "You wait. The bank teller waves to you."
    assert story.log[-2].entry == "release"


def test_the_unplayed_robber_takes_a_bag_pushed_across_to_him_and_goes():
    story, players = _story("@teller")
    teller = players["@teller"]
    replies = [teller.command(line).text for line in ("read slips", "wait", "wait", "wait", "push bag", "wait")]
    assert replies[3] == "You wait. A twitchy man enters the lobby. You look up and see him out in the lobby."
    assert replies[4] == "You push the black bag across the counter. The twitchy man takes it."  # at once
    assert (
        replies[5] == "You wait. The twitchy man leaves the lobby, heading out."
    )  # and is away: the street is out of sight
    assert story.ended and _beats(story.simulation.events)[-1] == ("@robber", "escape")


def test_the_teller_can_hand_over_the_bag_only_across_the_counter():
    story, players = _story("@robber", "@teller")
    robber, teller = players["@robber"], players["@teller"]
    robber.command("in")
    teller.command("take bag")
    assert teller.command("give bag to man").text == (  # not told of him before: "a twitchy man"
        "A twitchy man is out of reach; you can only push the black bag across the counter."
    )
    told, news = _say(teller, "slide bag across the counter", players)
    assert told == "You push the black bag across the counter."
    assert news["@robber"] == "The bank teller pushes the black bag across the counter."
    assert story.simulation.world.parent("@bag") == "@lobby"


# -- the three endings, each reached by commands -----------------------------------------------------------


def test_the_robber_gets_away_with_the_bag_and_never_learns_what_is_in_it():
    story, players = _story("@robber")
    robber = players["@robber"]
    replies = [
        robber.command(line).text for line in ("wear mask", "in", "say give me the money", "wait", "wait", "take bag")
    ]
    assert replies[2] == 'You say "give me the money". The bank teller puts something in the black bag.'
    assert replies[3] == "You wait. The bank teller zips the black bag shut."
    assert replies[4] == "You wait. The bank teller pushes the black bag across the counter."
    assert replies[5] == "You take the black bag."
    assert robber.command("out").text.endswith("You hurry off down the street with the black bag under your arm.")
    assert story.ended
    assert not story.simulation.world.get("@guard", "awake")  # his words did not carry to the guard post
    assert not story.simulation.concepts["@robber"].knows("@fake_money")


def test_a_played_guard_shoots_with_the_pistol_and_the_teller_cries():
    story, players = _story("@robber", "@teller", "@guard")
    robber, guard = players["@robber"], players["@guard"]
    _say(robber, "wear mask", players)
    _say(robber, "in", players)
    told, news = _say(guard, "shoot robber", players)
    assert told == "You wake up. You do not have a clear shot at a twitchy man from here."
    assert news == {"@robber": None, "@teller": None}  # nobody sees into the guard post
    _say(guard, "out", players)
    told, news = _say(guard, "fire at robber", players)
    assert told == "You shoot the twitchy man in the chest. He staggers."
    assert news["@robber"] == "The burly guard shoots you in the chest. You stagger."
    told, news = _say(guard, "attack robber with pistol", players)  # as players said it before "shoot" was known
    assert told == "You shoot the twitchy man in the chest. He falls. He dies. The bank teller cries."
    assert news["@teller"] == (
        "The burly guard shoots the twitchy man in the chest. The twitchy man falls. He dies. You cry."
    )
    assert story.ended and not story.simulation.world.get("@robber", "alive")


def test_a_robber_who_lets_go_of_his_gun_is_pinned_down_not_shot():
    story, players = _story("@robber")
    robber = players["@robber"]
    for line in ("wear mask", "in", "brandish gun"):
        robber.command(line)
    assert robber.command("wait").text.endswith("A burly guard enters the lobby.")
    told = robber.command("drop gun").text
    assert told == "You drop the gun-shaped object. The burly guard pins you to the marble floor and handcuffs you."
    assert story.ended and story.simulation.world.get("@robber", "alive")


def test_a_robber_who_puts_up_his_hands_is_pinned_down():
    story, players = _story("@robber")
    robber = players["@robber"]
    for line in ("wear mask", "in", "brandish gun"):
        robber.command(line)
    assert robber.command("hands up").text == (
        "You put up your hands. You let the gun-shaped object fall. A burly guard enters the lobby."
    )
    assert robber.command("wait").text == "You wait. The burly guard pins you to the marble floor and handcuffs you."
    assert story.ended and story.simulation.world.get("@robber", "alive")


def test_a_masked_man_who_gives_up_at_once_has_the_teller_call_the_guard():
    story, players = _story("@robber")
    robber = players["@robber"]
    robber.command("wear mask")
    robber.command("in")
    assert robber.command("surrender").text == (
        "You put up your hands. You let your gun-shaped object fall. The bank teller calls out for the guard."
    )
    assert robber.command("wait").text == "You wait. A burly guard enters the lobby."
    assert robber.command("wait").text == "You wait. The burly guard pins you to the marble floor and handcuffs you."
    assert story.ended and story.simulation.world.get("@robber", "alive")


def test_a_played_guard_woken_by_the_laugh_can_tackle_the_robber():
    story, players = _story("@guard")
    guard = players["@guard"]
    replies = [guard.command("wait").text for _ in range(6)]
    assert replies[:5] == ["You are snoozing."] * 5
    assert replies[5] == "You are snoozing. You wake up."  # the teller laughed at the gun-shaped object
    assert "Through the one-way mirror" not in " ".join(replies)  # asleep when the twitchy man came in
    told = guard.command("out").text
    assert told.startswith("You leave the guard post.\n\nLobby")
    assert told.endswith("The twitchy man turns to you.")  # at once
    assert guard.command("attack robber").text == "You pin the twitchy man to the marble floor and handcuff him."
    assert story.ended


def test_a_played_guard_who_points_the_pistol_has_the_robber_give_up():
    story, players = _story("@guard")
    guard = players["@guard"]
    for line in ("wake up", "wait", "wait", "wait"):
        guard.command(line)
    assert guard.command("point pistol at robber").text == (
        "The twitchy man cannot see you. "  # the mirror is one-way; and the story goes on meanwhile
        "He brandishes a gun-shaped object at something."
    )
    guard.command("out")
    assert guard.command("point pistol at robber").text == (
        "You brandish your pistol at the twitchy man. The bank teller puts something in the black bag. "
        "The twitchy man puts up his hands. He lets the gun-shaped object fall."
    )
    assert guard.command("arrest robber").text == "You pin the twitchy man to the marble floor and handcuff him."
    assert story.ended and story.simulation.world.get("@robber", "alive")


# -- the bank's own commands --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "brandish gun",
        "brandish gun at teller",
        "brandish the gun-shaped object at the bank teller",
        "point gun at teller",
        "aim gun at teller",
        "threaten teller with gun",
        "wave gun at teller",
        "wave gun",
        "show gun to teller",
        "show teller gun",
    ],
)
def test_each_way_of_threatening_the_teller_brandishes_the_gun(line):
    story, players = _story("@robber")
    robber = players["@robber"]
    robber.command("in")
    assert robber.command(line).text == ("You brandish your gun-shaped object at the bank teller. She laughs.")
    assert story.simulation.world.get("@robber", "brandished")


@pytest.mark.parametrize(
    "line",
    ["shoot robber", "shoot at robber", "fire at robber", "shoot robber with pistol", "fire pistol at robber"],
)
def test_each_way_of_shooting_fires_the_pistol(line):
    story, players = _story("@robber", "@guard")
    players["@robber"].command("in")
    guard = players["@guard"]
    guard.command("out")
    assert guard.command(line).text == "You shoot the twitchy man in the chest. He staggers."
    assert story.simulation.world.get("@robber", "wounds") == 1


def test_what_cannot_be_done_is_told_in_the_bank_s_terms():
    _, players = _story("@robber", "@teller", "@guard")
    robber, teller, guard = players["@robber"], players["@teller"], players["@guard"]
    assert robber.command("type").text == "There is no computer within your reach."
    robber.command("in")
    assert robber.command("shoot teller").text == (
        "You cannot shoot anyone with your gun-shaped object: it is only shaped like a gun."
    )
    assert robber.command("count slips").text == (
        "You are unable to count the deposit slips because you cannot reach them."
    )
    assert robber.command("arrest teller").text == "You do not have any handcuffs."
    assert robber.command("attack teller").text == (  # across the counter
        "You are unable to strike the bank teller because you cannot reach her."
    )
    assert teller.command("shoot man").text == "You do not have anything to shoot with."
    assert guard.command("wake up").text == "You wake up."
    assert guard.command("wake").text == "You are already awake."
    guard.command("out")
    assert guard.command("arrest robber").text == "The twitchy man has done nothing to be arrested for."
    assert guard.command("attack robber").text == "The twitchy man has done nothing to be arrested for."


def test_the_tellers_chores_and_the_robbers_turn_are_commands_too():
    story, players = _story("@robber", "@teller", "@guard")
    robber, teller, guard = players["@robber"], players["@teller"], players["@guard"]
    told = [teller.command(line).text for line in ("count slips", "type", "play solitaire", "play computer")]
    assert told == [
        "You count the deposit slips.",
        "You type.",
        "You play solitaire on your computer.",
        "You play solitaire on your computer.",
    ]
    assert story.simulation.world.get("@teller", "chores") == 4
    robber.command("in")
    guard.command("out")
    told, news = _say(robber, "turn to guard", players)
    assert told == "You turn to a burly guard."  # not told of him before
    assert news["@guard"] == "The twitchy man turns to you."
    assert story.simulation.world.get("@robber", "turned")


def test_the_bank_offers_its_own_commands_to_bots():
    story, players = _story("@robber")
    players["@robber"].command("wear mask")
    players["@robber"].command("in")
    offered = story.possible_commands("@robber")
    assert {"brandish gun-shaped object", "surrender", "turn to bank teller"} <= set(offered)
    assert not any(line.startswith("shoot") for line in offered)  # the gun-shaped object does not fire


# -- undo and replay --------------------------------------------------------------------------------------


def test_undo_and_replay_keep_the_world_exact_with_several_players():
    story, players = _story("@robber", "@teller", "@guard")
    robber, teller, guard = players["@robber"], players["@teller"], players["@guard"]
    robber.command("wear mask")
    guard.command("look")
    robber.command("in")
    teller.command("wave to man")
    story.release("@teller")
    robber.command("brandish gun at teller")
    before = (story.simulation.world.digest(), len(story.simulation.events), story.turn)
    robber.command("wait")
    assert robber.undo()
    assert (story.simulation.world.digest(), len(story.simulation.events), story.turn) == before
    robber.command("wait")
    guard.command("out")
    digest, count = story.simulation.world.digest(), len(story.simulation.events)
    told = robber.recount().text
    story.replay(tuple(story.log))
    assert (story.simulation.world.digest(), len(story.simulation.events)) == (digest, count)
    assert robber.recount().text == told
    assert story.simulation.played == {"@robber", "@guard"}


def test_undo_after_an_ending_lets_the_robber_choose_again():
    story, players = _story("@robber")
    robber = players["@robber"]
    for line in walkthrough("bank"):
        robber.command(line)
    assert story.ended
    assert robber.undo() and not story.ended
    assert robber.command("put up hands").text == (
        "You put up your hands. You let the gun-shaped object fall. "
        "The burly guard pins you to the marble floor and handcuffs you."
    )
    assert story.ended and story.simulation.world.get("@robber", "alive")
