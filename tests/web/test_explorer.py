"""The spin explorer: every spin field a labelled control, the story so far re-told at once beside the telling as
it was with the differences marked, what a player may not choose disabled with the reason, "Keep this spin",
and the spin in the page's address."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.web.conftest import Server, shoot
from tests.web.story import command, start, transcript

FIELDS = ("Time", "Order", "Narrator", "Narratee", "Focalizer", "Perfect", "Progressive", "Speed", "Time words")


def explorer(page: Page):  # type: ignore[no-untyped-def]
    return page.get_by_role("region", name="Spin explorer")


def test_time_after_and_a_narrator_retell_the_story_in_the_past_beside_the_present(page: Page, server: Server) -> None:
    start(page, server, "Cloak of Darkness")
    command(page, "w")
    command(page, "hang cloak on hook")
    page.get_by_role("button", name="Spin explorer").click()
    panel = explorer(page)
    for field in FIELDS:
        expect(panel.get_by_label(field, exact=True)).to_be_visible()
    expect(panel.get_by_role("group", name="Filters")).to_be_visible()

    before = panel.get_by_role("region", name="As it was told")
    after = panel.get_by_role("region", name="Re-told")
    expect(after).to_contain_text("You put your velvet cloak on the hook.")
    panel.get_by_label("Time", exact=True).select_option("after")
    panel.get_by_label("Narrator", exact=True).select_option("@operagoer")
    expect(after).to_contain_text("I put my velvet cloak on the hook.")
    expect(after).to_contain_text("I left the foyer.")
    expect(before).to_contain_text("You put your velvet cloak on the hook.")
    # What differs is marked on each side: the words the re-telling adds, and those it drops.
    expect(after.locator("ins", has_text=re.compile(r"^I left$"))).to_have_count(1)
    expect(before.locator("del", has_text=re.compile(r"^You leave$"))).to_have_count(1)
    expect(after.locator("ins", has_text="velvet")).to_have_count(0), "what is the same is not marked"
    expect(page).to_have_url(re.compile(r"#narrator=%40operagoer&time=after$"))
    shoot(page, "spin-explorer", region="Spin explorer")

    # Kept, it is the session's spin: the next command is told in the past, by the operagoer.
    panel.get_by_role("button", name="Keep this spin").click()
    expect(panel.get_by_role("status")).to_contain_text("This is now your spin")
    expect(command(page, "e")).to_contain_text("I left the cloakroom")


def test_a_player_may_not_tell_through_another_actor_and_is_told_why(page: Page, server: Server) -> None:
    start(page, server, "Cloak of Darkness Plus")
    page.get_by_role("button", name="Spin explorer").click()
    focalizer = explorer(page).get_by_label("Focalizer", exact=True)
    expect(focalizer).to_be_disabled()
    expect(explorer(page)).to_contain_text("In an interactive world the story is told only through your own actor.")
    expect(focalizer.locator("option", has_text="@mime")).to_be_disabled()


def test_a_link_with_a_spin_opens_the_explorer_with_that_telling(page: Page, server: Server) -> None:
    start(page, server, "Cloak of Darkness")
    command(page, "w")
    link = page.url.split("#")[0] + "#order=retrograde&time_words=true"
    page.goto(link)  # followed on the page itself
    expect(explorer(page).get_by_label("Order", exact=True)).to_have_value("retrograde")

    opened = page.context.new_page()  # and opened afresh, later, in another tab
    opened.goto(link)
    panel = explorer(opened)
    expect(panel.get_by_label("Order", exact=True)).to_have_value("retrograde")
    expect(panel.get_by_label("Time words", exact=True)).to_be_checked()
    expect(panel.get_by_role("region", name="Re-told")).to_contain_text("Before that")
    expect(transcript(opened)).to_contain_text("The story so far:")


def test_a_named_spin_sets_its_fields_and_an_error_is_the_servers_sentence(page: Page, server: Server) -> None:
    start(page, server, "Cloak of Darkness")
    command(page, "w")
    page.get_by_role("button", name="Spin explorer").click()
    panel = explorer(page)
    panel.get_by_role("button", name="memoir").click()
    expect(panel.get_by_label("Narrator", exact=True)).to_have_value("focalizer")
    expect(panel.get_by_label("Time", exact=True)).to_have_value("after")
    expect(panel.get_by_role("region", name="Re-told")).to_contain_text("I left the foyer.")

    panel.get_by_label("Ellipsis", exact=True).fill("three")
    panel.get_by_label("Ellipsis", exact=True).press("Tab")
    expect(panel.get_by_role("alert")).to_contain_text("ellipsis")
    expect(panel.get_by_role("alert")).not_to_contain_text("-326")
