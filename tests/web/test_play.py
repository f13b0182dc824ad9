"""Playing in the browser: the lobby, Cloak of Darkness to its win by typing, the history, and a reload that
brings the same session back with its story."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page, expect

from tests.web.conftest import Server, shoot
from tests.web.story import command, start, transcript


def test_the_lobby_lists_every_world_with_its_summary_and_the_stories_under_way(page: Page, server: Server) -> None:
    assert f"to play in a browser, open {server.url}/" in server.printed
    page.goto(server.url + "/")
    worlds = page.get_by_role("region", name="Worlds")
    expect(worlds.get_by_role("heading", name="Cloak of Darkness", exact=True)).to_be_visible()
    expect(worlds).to_contain_text("hang up your cloak, then read the message in the bar")
    expect(worlds.get_by_role("button", name="Read The Simulated Bank Robbery")).to_be_visible()
    parts = worlds.get_by_label("Play The Bank Robbery as").locator("option")
    expect(parts).to_have_text(["twitchy man", "bank teller", "burly guard"])
    shoot(page, "lobby")

    instance = start(page, server, "Cloak of Darkness", name="Ann")
    page.get_by_role("link", name="Lobby").click()
    running = page.get_by_role("region", name="Stories under way")
    expect(running.get_by_role("link", name="Continue Cloak of Darkness")).to_be_visible()
    expect(running).to_contain_text(f"{instance}, turn 0; playing: Ann (operagoer)")


def test_cloak_is_played_to_the_win_by_typing(page: Page, server: Server) -> None:
    start(page, server, "Cloak of Darkness")
    log = transcript(page)
    expect(log.get_by_role("heading", name="Foyer of the Opera House")).to_be_visible()
    expect(page.get_by_role("textbox", name="Command")).to_be_focused()

    expect(command(page, "w").get_by_role("heading", name="Cloakroom")).to_be_visible()
    expect(command(page, "hang cloak on hook")).to_contain_text("You put your velvet cloak on the hook")
    command(page, "e")
    shoot(page, "play")
    command(page, "s")
    expect(command(page, "read message")).to_contain_text("YOU HAVE WON")
    expect(log.locator(".ended")).to_have_text("The story has ended.")
    expect(page.get_by_text("turn 5")).to_be_visible()


def test_up_and_down_bring_back_earlier_commands_even_after_a_reload(page: Page, server: Server) -> None:
    start(page, server, "Cloak of Darkness")
    command(page, "look")
    command(page, "inventory")
    page.reload()
    box = page.get_by_role("textbox", name="Command")
    box.press("ArrowUp")
    expect(box).to_have_value("inventory")
    box.press("ArrowUp")
    expect(box).to_have_value("look")
    box.press("ArrowDown")
    expect(box).to_have_value("inventory")
    box.press("ArrowDown")
    expect(box).to_have_value("")


def test_a_reload_in_the_middle_resumes_the_session_with_its_transcript(page: Page, server: Server) -> None:
    instance = start(page, server, "Cloak of Darkness")
    command(page, "w")
    command(page, "hang cloak on hook")
    page.reload()

    log = transcript(page)
    expect(log).to_contain_text("The story so far:")
    expect(log.get_by_role("heading", name="Cloakroom")).to_be_visible()
    expect(log).to_contain_text("You put your velvet cloak on the hook")
    expect(page.get_by_text("turn 2")).to_be_visible()
    expect(command(page, "e")).to_contain_text("Foyer")

    # Opening the address again later, in a new tab, is the same session too: its turn goes on.
    again = page.context.new_page()
    again.goto(f"{server.url}/?instance={instance}")
    expect(again.get_by_text("turn 3")).to_be_visible()
    expect(transcript(again)).to_contain_text("You leave the cloakroom")


def test_the_browser_refuses_anything_from_another_origin(context: BrowserContext, server: Server) -> None:
    page = context.new_page()  # not the `page` fixture, which fails a test whose page breaks the policy
    page.goto(server.url + "/")
    expect(page.get_by_role("heading", name="Worlds")).to_be_visible()
    with page.expect_console_message(lambda message: "Content Security Policy" in message.text) as refused:
        page.evaluate("document.body.insertAdjacentHTML('beforeend', '<img src=\"http://192.0.2.1/x.png\">')")
    assert "img-src" in refused.value.text


def test_tab_completes_from_the_words_the_story_knows_and_what_would_succeed_now(page: Page, server: Server) -> None:
    start(page, server, "Cloak of Darkness")
    command(page, "w")
    box = page.get_by_role("textbox", name="Command")
    box.press_sequentially("hang cl")
    expect(page.locator("#completions")).to_contain_text("Tab completes: cloak")
    box.press("Tab")
    expect(box).to_have_value(re.compile(r"^hang cloak"))
    expect(box).to_be_focused()
    box.fill("")
    box.press("Tab")  # nothing being typed: Tab moves on, as everywhere
    expect(box).not_to_be_focused()


def test_a_brisk_player_of_a_big_world_is_never_refused_for_what_the_page_asks_by_itself(
    page: Page, server: Server
) -> None:
    # The page asks the story's words after each turn, but not the commands that would succeed (`actions`
    # tries every one: 0.2-0.4 s of engine in Lost One, charged to the player's allowance as the work it
    # is): asked after every turn, they spent a brisk player's allowance, and the player's own commands were
    # refused "too many requests".
    start(page, server, "Lost One")
    for text in ("look", "listen", "x sky", "look", "listen", "x sky", "look", "listen"):
        entry = command(page, text)
        expect(entry).not_to_contain_text("too many requests")
        expect(entry).not_to_have_class(re.compile("error"))
    box = page.get_by_role("textbox", name="Command")
    box.press_sequentially("lis")
    box.press("Tab")  # asked for only now, when completing needs it
    expect(box).to_have_value(re.compile(r"^listen"))


def test_leaving_ends_the_session_and_a_token_the_server_does_not_know_is_said_in_its_words(
    page: Page, server: Server
) -> None:
    instance = start(page, server, "Cloak of Darkness")
    page.get_by_role("button", name="Leave").click()
    running = page.get_by_role("region", name="Stories under way")
    expect(running.locator(f'[data-instance="{instance}"]')).to_have_text("Join Cloak of Darkness")

    # A kept token the server no longer knows (expired, or from another server): the join form, and why.
    page.evaluate(
        """instance => localStorage.setItem("curveship.sessions",
             JSON.stringify({[instance]: {token: "x".repeat(32), actor: "@operagoer"}}))""",
        instance,
    )
    page.goto(f"{server.url}/?instance={instance}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Join Cloak of Darkness")
    expect(page.get_by_role("alert")).to_contain_text("token")
    expect(page.get_by_role("alert")).not_to_contain_text("-32002")
    page.get_by_role("button", name="Join").click()
    expect(transcript(page).get_by_role("heading", name="Foyer of the Opera House")).to_be_visible()
