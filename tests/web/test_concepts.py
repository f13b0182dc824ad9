"""Reading the robbery (a story that tells itself) and seeing what each actor knows: the concept view as an ARIA
tree, two actors side by side, what one knows and the other does not marked."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.conftest import Server, shoot
from tests.web.story import start, transcript


def test_the_robbery_is_read_with_no_prompt_and_the_explorer_below(page: Page, server: Server) -> None:
    start(page, server, "The Simulated Bank Robbery")
    expect(transcript(page)).to_contain_text("A twitchy man puts on a Dora the Explorer mask.")
    expect(page.get_by_role("textbox", name="Command")).to_have_count(0)
    panel = page.get_by_role("region", name="Spin explorer")
    expect(panel).to_be_visible()
    # In a story every focalizer may be chosen: the guard's telling, through the guard.
    panel.get_by_label("Focalizer", exact=True).select_option("@guard")
    expect(panel.get_by_role("region", name="Re-told")).to_contain_text("The burly guard")


def test_the_tellers_tree_marks_the_fake_money_she_alone_knows_of(page: Page, server: Server) -> None:
    start(page, server, "The Simulated Bank Robbery")
    page.get_by_role("button", name="Concepts").click()
    panel = page.get_by_role("region", name="Concepts")
    panel.get_by_label("Actor", exact=True).select_option("@teller")
    panel.get_by_label("Compared with", exact=True).select_option("@robber")

    teller = panel.get_by_role("tree", name="What the bank teller knows")
    robber = panel.get_by_role("tree", name="What the twitchy man knows")
    expect(robber).to_be_visible()  # the pickers' last choice is drawn
    money = teller.get_by_role("treeitem", name="fake money")
    expect(money).to_contain_text("only the bank teller knows")
    expect(money).to_contain_text("thing")  # each node says its kind
    expect(robber.get_by_role("treeitem", name="fake money")).to_have_count(0)
    expect(robber.get_by_role("treeitem", name="Dora the Explorer mask")).to_contain_text("only the twitchy man knows")
    expect(teller.get_by_role("treeitem", name="black bag").locator(":scope > .node")).not_to_contain_text("only")
    shoot(page, "concepts")

    # The keyboard walks the tree: Home, Down into it, Left to close an item and hide what it holds.
    bag = teller.get_by_role("treeitem", name="black bag")
    bag.locator(":scope > .node .name").click()
    expect(bag).to_be_focused()
    expect(bag).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("ArrowLeft")
    expect(bag).to_have_attribute("aria-expanded", "false")
    expect(money).to_be_hidden()
    page.keyboard.press("ArrowRight")
    expect(money).to_be_visible()
    page.keyboard.press("ArrowDown")
    expect(money).to_be_focused()
    page.keyboard.press("Home")
    expect(teller.get_by_role("treeitem", name="cosmos")).to_be_focused()
