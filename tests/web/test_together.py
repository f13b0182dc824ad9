"""Two players in one story, each in a browser of their own: a friend joins by the link, and what one does
appears in the other's transcript as it happens; a server killed mid-game, the page coming back by itself; and
a socket dropped while the other plays on, what it missed shown once and in order when it is back."""

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


def test_what_happened_while_the_server_dropped_the_socket_is_shown_once_and_in_order_when_it_is_back(
    page: Page, context: BrowserContext, server: Server
) -> None:
    # The robber's socket goes through the test, which can drop it from the server's side and keep it from
    # coming back for a while, as a failing network or a server shedding a connection would.
    cut = False
    routes: list[tuple[WebSocketRoute, WebSocketRoute]] = []

    def through(route: WebSocketRoute) -> None:
        if cut:
            route.close()
            return
        routes.append((route, route.connect_to_server()))

    page.route_web_socket(re.compile(r"/ws(\?|$)"), through)
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
        command(friend, "wave to robber")
        expect(transcript(page).locator(".entry.news").last).to_have_text("The bank teller waves at you.")

        cut = True
        to_page, to_server = routes[-1]
        to_server.close(code=1012, reason="restarting")  # the server's side of the socket goes, and with it the page's
        to_page.close(code=1012, reason="restarting")
        expect(page.get_by_role("status").filter(has_text="Reconnecting…")).to_be_visible()
        command(friend, "wave to robber")  # the robber's page hears nothing of these now
        command(friend, "say hello")
        cut = False
        expect(page.get_by_role("status").filter(has_text="Reconnected.")).to_be_visible()
        # The socket opened again names the session's instance, for a server of several workers to place it.
        assert routes[-1][0].url.endswith("/ws?instance=" + link.rsplit("instance=", 1)[1]), routes[-1][0].url
        news = transcript(page).locator(".entry.news")
        expect(news.last).to_contain_text("hello")
        told = news.all_inner_texts()
        # The wave before the drop, then what was missed, in order, each once: the second wave, the greeting.
        assert told[-3:] == ["The bank teller waves at you.", "The bank teller waves at you.", told[-1]], told
        assert told.count("The bank teller waves at you.") == 2 and sum("hello" in one for one in told) == 1, told
        assert "Meanwhile" not in "".join(told), "sent again as it happened, not retold"
        command(friend, "wave to robber")
        expect(news).to_have_count(len(told) + 1)  # the next one, and nothing sent again with it
        expect(news.last).to_contain_text("The bank teller waves at you.")
    finally:
        friend_context.close()


def test_an_answer_lost_with_the_socket_is_shown_where_its_command_was_typed(page: Page, server: Server) -> None:
    # The test stands between the page and the server: the command "w" reaches the server, and then both sides
    # of the socket are closed, so its answer never reaches the page.
    routes: list[WebSocketRoute] = []

    def through(route: WebSocketRoute) -> None:
        to_server = route.connect_to_server()

        def onwards(message: str | bytes) -> None:
            to_server.send(message)
            if isinstance(message, str) and '"text":"w"' in message.replace(" ", ""):
                to_server.close(code=1012, reason="restarting")
                route.close(code=1012, reason="restarting")

        route.on_message(onwards)
        routes.append(route)

    page.route_web_socket(re.compile(r"/ws(\?|$)"), through)
    start(page, server, "Cloak of Darkness")
    box = page.get_by_role("textbox", name="Command")
    box.fill("w")
    box.press("Enter")
    expect(page.get_by_role("status").filter(has_text="Reconnected.")).to_be_visible()
    assert len(routes) == 2, "a socket of its own after the drop"
    answered = transcript(page).locator(".entry.reply").filter(has_text="> w")
    expect(answered).to_have_count(1)
    expect(answered).not_to_have_class(re.compile("pending"))
    expect(answered).to_contain_text("Cloakroom")
    expect(answered).not_to_contain_text("dropped before the answer came")
    expect(page.get_by_text("turn 1")).to_be_visible()
    expect(command(page, "e")).to_contain_text("Foyer")
