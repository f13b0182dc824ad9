"""An author's views (the true world, templates rendered as they are typed), a browser showing the author token
to be one (its WebSocket cannot send a header), and the transcript downloaded as text and as the JSON of
`curveship export`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import Server, shoot
from tests.web.story import command, start

TOKEN = "an-author-token-for-the-browser-tests"


@pytest.fixture(scope="module")
def authoring(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`curveship serve --author`: every connection from this machine acts as an author."""
    running = Server(tmp_path_factory.mktemp("authoring") / "data", author=True)
    running.start()
    yield running
    running.stop()


def test_an_author_sees_the_true_world_and_templates_render_as_they_are_typed(page: Page, authoring: Server) -> None:
    start(page, authoring, "Cloak of Darkness")
    page.get_by_role("button", name="Author").click()
    panel = page.get_by_role("region", name="Author")
    world = panel.get_by_role("tree", name="The true world")
    expect(world.get_by_role("treeitem", name="message").first).to_be_visible()

    template = panel.get_by_label("Template")
    template.fill("[@operagoer/s] [hang/v] [@cloak/o] on the hook.")
    expect(panel.locator("output")).to_have_text("You hang your velvet cloak on the hook.")
    template.fill("[@nobody/s] [hang/v].")
    expect(panel.get_by_role("alert")).to_contain_text("@nobody")


@pytest.fixture(scope="module")
def tokened(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`curveship serve` with $CURVESHIP_AUTHOR_TOKEN and without --author: a page is an author only by the token."""
    running = Server(tmp_path_factory.mktemp("tokened") / "data", token=TOKEN)
    running.start()
    yield running
    running.stop()


def test_a_browser_shows_the_author_token_and_gets_the_author_view(page: Page, tokened: Server) -> None:
    page.goto(tokened.url + "/")
    page.get_by_text("For authors").click()
    field = page.get_by_label("Author token")
    field.fill("not-the-token-of-this-server")
    page.get_by_role("button", name="Act as author").click()
    expect(page.get_by_role("alert").filter(has_text="not this server's author token")).to_be_visible()
    field.fill(TOKEN)
    page.get_by_role("button", name="Act as author").click()
    expect(page.get_by_role("status").filter(has_text="This page acts as an author")).to_be_visible()
    shoot(page, "lobby-author")

    page.get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Start Cloak of Darkness", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Cloak of Darkness")
    page.get_by_role("button", name="Author").click()
    world = page.get_by_role("region", name="Author").get_by_role("tree", name="The true world")
    expect(world.get_by_role("treeitem", name="message").first).to_be_visible()


def test_the_page_shows_the_token_again_on_a_socket_opened_after_a_restart(page: Page, tmp_path: Path) -> None:
    restarted = Server(tmp_path / "data", token=TOKEN)
    restarted.start()
    try:
        page.goto(restarted.url + "/")
        page.get_by_text("For authors").click()
        page.get_by_label("Author token").fill(TOKEN)
        page.get_by_role("button", name="Act as author").click()
        expect(page.get_by_role("status").filter(has_text="This page acts as an author")).to_be_visible()
        restarted.kill()
        expect(page.get_by_role("status").filter(has_text="Reconnecting…")).to_be_visible()
        restarted.start()
        expect(page.get_by_role("status").filter(has_text="Reconnected.")).to_be_visible()
        page.get_by_role("button", name="Start Cloak of Darkness", exact=True).click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Cloak of Darkness")
        expect(page.get_by_role("button", name="Author")).to_be_visible()
    finally:
        restarted.stop()


def test_without_the_token_a_browser_on_this_machine_is_no_author(page: Page, tokened: Server) -> None:
    start(page, tokened, "Cloak of Darkness")
    expect(page.get_by_role("button", name="Concepts")).to_be_visible()
    expect(page.get_by_role("button", name="Author")).to_have_count(0)


def test_a_player_sees_no_author_view(page: Page, server: Server) -> None:
    start(page, server, "Cloak of Darkness")
    expect(page.get_by_role("button", name="Concepts")).to_be_visible()
    expect(page.get_by_role("button", name="Author")).to_have_count(0)


def test_the_transcript_downloads_as_text_and_as_exports_json(page: Page, server: Server, tmp_path: Path) -> None:
    instance = start(page, server, "Cloak of Darkness")
    command(page, "w")
    with page.expect_download() as text:
        page.get_by_role("button", name="Download text").click()
    saved = tmp_path / "story.txt"
    text.value.save_as(saved)
    written = saved.read_text()
    assert written.startswith(f"Transcript of instance {instance} (cloak), turn 1")
    assert "> w\n\nYou leave the foyer." in written

    with page.expect_download() as data:
        page.get_by_role("button", name="Download JSON").click()
    saved = tmp_path / "story.json"
    data.value.save_as(saved)
    document = json.loads(saved.read_text())
    assert {key: document[key] for key in ("instance", "world", "title", "turn", "ended")} == {
        "instance": instance,
        "world": "cloak",
        "title": "Cloak of Darkness",
        "turn": 1,
        "ended": False,
    }
    assert [(page["turn"], page["actor"], page["command"]) for page in document["pages"]] == [
        (0, "@operagoer", ""),
        (1, "@operagoer", "w"),
    ]
    assert document["pages"][1]["blocks"][1] == {"kind": "heading", "text": "Cloakroom"}
