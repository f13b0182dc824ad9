"""An author's views (the true world, templates rendered as they are typed) and the transcript downloaded as
text and as the JSON of `curveship export`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import Server
from tests.web.story import command, start


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
