"""What a person does on the page, one line each: start a world from the lobby, type a command, read the log."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from tests.web.conftest import Server


def start(page: Page, server: Server, title: str, *, name: str = "Ann", actor: str | None = None) -> str:
    """From the lobby, start a new story of the world titled `title` (as `actor`, by name); its instance id."""
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill(name)
    if actor is not None:
        page.get_by_label(f"Play {title} as").select_option(label=actor)
    verb = "Read" if title == "The Simulated Bank Robbery" else "Start"
    page.get_by_role("button", name=f"{verb} {title}", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(title)
    expect(page).to_have_url(re.compile(r"\?instance=[\w-]+"))
    return page.url.split("instance=", 1)[1].split("#", 1)[0]


def transcript(page: Page) -> Locator:
    return page.get_by_role("log", name="Transcript")


def command(page: Page, text: str) -> Locator:
    """Type a command and press Enter, as a player does; the transcript's entry for it, once answered."""
    box = page.get_by_role("textbox", name="Command")
    box.fill(text)
    box.press("Enter")
    entry = transcript(page).locator(".entry.reply").filter(has_text=f"> {text}").last
    expect(entry).not_to_have_class(re.compile("pending"))
    return entry
