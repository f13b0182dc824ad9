"""Readable anywhere: the system's light or dark, a text size the reader sets (and the browser keeps), a
phone-width window with nothing off the side, and everything reachable from the keyboard."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.conftest import Server, shoot
from tests.web.story import command, start


def background(page: Page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def test_the_page_follows_the_systems_dark_preference(page: Page, server: Server) -> None:
    page.emulate_media(color_scheme="light")
    page.goto(server.url + "/")
    expect(page.get_by_role("heading", name="Worlds")).to_be_visible()
    light = background(page)
    page.emulate_media(color_scheme="dark")
    assert background(page) != light
    assert sum(int(part) for part in background(page)[4:-1].split(",")) < 150, "dark is dark"


def test_the_text_size_changes_and_is_kept(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    size = "getComputedStyle(document.documentElement).fontSize"
    assert page.evaluate(size) == "16px"
    page.get_by_role("button", name="Larger text").click()
    page.get_by_role("button", name="Larger text").click()
    assert page.evaluate(size) == "19.2px"
    page.reload()
    expect(page.get_by_role("heading", name="Worlds")).to_be_visible()
    assert page.evaluate(size) == "19.2px"


def test_a_phone_width_window_stacks_the_tellings_and_nothing_runs_off_the_side(page: Page, server: Server) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    start(page, server, "Cloak of Darkness")
    command(page, "w")
    page.get_by_role("button", name="Spin explorer").click()
    panel = page.get_by_role("region", name="Spin explorer")
    before = panel.get_by_role("region", name="As it was told")
    after = panel.get_by_role("region", name="Re-told")
    expect(after).to_contain_text("Cloakroom")
    above, below = before.bounding_box(), after.bounding_box()
    assert above is not None and below is not None and below["y"] >= above["y"] + above["height"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shoot(page, "phone")


def test_the_keyboard_alone_starts_a_story_and_plays_it(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    expect(page.get_by_role("heading", name="Worlds")).to_be_visible()
    start_cloak = page.get_by_role("button", name="Start Cloak of Darkness", exact=True)
    for _ in range(40):  # Tab through the page until the button has the focus, as a keyboard user would
        page.keyboard.press("Tab")
        if start_cloak.evaluate("element => element === document.activeElement"):
            break
    expect(start_cloak).to_be_focused()
    page.keyboard.press("Enter")
    box = page.get_by_role("textbox", name="Command")
    expect(box).to_be_focused()
    page.keyboard.type("w")
    page.keyboard.press("Enter")
    expect(page.get_by_role("log", name="Transcript").get_by_role("heading", name="Cloakroom")).to_be_visible()
