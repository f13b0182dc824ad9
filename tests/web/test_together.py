"""Two players in one story, each in a browser of their own: a friend joins by the link, and what one does
appears in the other's transcript as it happens; and a server killed mid-game, the page coming back by itself."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page, WebSocketRoute, expect

from tests.web.conftest import WAIT, Server
from tests.web.story import command, start, transcript


def test_one_players_action_appears_in_the_others_transcript_as_it_happens(
    page: Page, context: BrowserContext, server: Server
) -> None:
    start(page, server, "The Bank Robbery", name="Robin", actor="twitchy man")
    link = page.get_by_role("link", name="/?instance=").get_attribute("href")
    assert link is not None

    friend_context = context.browser.new_context() if context.browser else None
    assert friend_context is not None
    friend_context.set_default_timeout(WAIT)
    try:
        friend = friend_context.new_page()
        friend.goto(link)
        expect(friend.get_by_role("heading", level=1)).to_have_text("Join The Bank Robbery")
        friend.get_by_label("Your name").fill("Tess")
        friend.get_by_label("Play as").select_option(label="bank teller")
        friend.get_by_role("button", name="Join").click()
        expect(transcript(friend).get_by_role("heading", name="Vestibule")).to_be_visible()
        expect(transcript(page)).to_contain_text("Tess (bank teller) joined the story.")

        command(page, "wear mask")
        command(page, "in")
        news = transcript(friend).locator(".entry.news").last
        expect(news).to_contain_text("You look up and see him out in the lobby")

        command(friend, "wave to robber")
        expect(transcript(page).locator(".entry.news").last).to_have_text("The bank teller waves at you.")
    finally:
        friend_context.close()


def test_the_page_reconnects_by_itself_when_the_server_is_killed_and_started_again(
    page: Page, own_server: Server
) -> None:
    start(page, own_server, "Cloak of Darkness")
    command(page, "w")

    own_server.kill()
    expect(page.get_by_role("status").filter(has_text="Reconnecting…")).to_be_visible()
    # A command typed while the server is away waits for it, and is answered once the session is resumed.
    box = page.get_by_role("textbox", name="Command")
    box.fill("hang cloak on hook")
    box.press("Enter")
    own_server.start()
    expect(page.get_by_role("status").filter(has_text="Reconnected.")).to_be_visible()

    # The same session, nothing lost: the cloak hangs where it was taken, and the turns go on from there.
    answered = transcript(page).locator(".entry.reply").last
    expect(answered).not_to_have_class(re.compile("pending"))
    expect(answered).to_contain_text("You put your velvet cloak on the hook")
    expect(page.get_by_text("turn 2")).to_be_visible()
    expect(command(page, "e")).to_contain_text("Foyer")


def test_what_happened_while_the_socket_was_down_is_told_when_it_is_back(
    page: Page, context: BrowserContext, server: Server
) -> None:
    # The robber's socket goes through the test, which can cut it and keep it cut, as a network failure would.
    cut = False
    routes: list[WebSocketRoute] = []

    def through(route: WebSocketRoute) -> None:
        if cut:
            route.close()
            return
        route.connect_to_server()
        routes.append(route)

    page.route_web_socket(re.compile(r"/ws$"), through)
    start(page, server, "The Bank Robbery", name="Robin", actor="twitchy man")
    command(page, "wear mask")
    command(page, "in")
    link = page.get_by_role("link", name="/?instance=").get_attribute("href")
    assert link is not None and context.browser is not None
    friend_context = context.browser.new_context()
    friend_context.set_default_timeout(WAIT)
    try:
        friend = friend_context.new_page()
        friend.goto(link)
        friend.get_by_label("Play as").select_option(label="bank teller")
        friend.get_by_role("button", name="Join").click()
        expect(transcript(page)).to_contain_text("joined the story")

        cut = True
        routes[-1].close()
        expect(page.get_by_role("status").filter(has_text="Reconnecting…")).to_be_visible()
        command(friend, "wave to robber")  # the robber's page hears nothing of it now
        cut = False
        expect(page.get_by_role("status").filter(has_text="Reconnected.")).to_be_visible()
        missed = transcript(page).locator(".entry.news").last
        expect(missed).to_contain_text("Meanwhile:")
        expect(missed).to_contain_text("The bank teller waves at you.")
    finally:
        friend_context.close()
