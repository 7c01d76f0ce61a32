"""The join page names the table, its game and its GM, and says nothing about a connection
before the page tries one (issue 26, item 11)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import new_context, open_table
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("kind", "role"), [("player", "you join as a player"), ("spectator", "you join as a spectator")]
)
def test_the_join_page_names_table_game_and_gm(
    browser: Any, server: Any, kind: str, role: str
) -> None:
    gm_context, guest_context = new_context(browser), new_context(browser)
    gm, guest = gm_context.new_page(), guest_context.new_page()
    try:
        links = open_table(gm, server.url, "dnd5e", "The Crypt", "Greta")
        guest.goto(links[kind])
        expect(guest.locator("#join-title")).to_have_text("Take a seat at “The Crypt”")
        expect(guest.locator("#join-about")).to_have_text(f"D&D 5e combat · GM: Greta · {role}.")
        # Not "disconnected" before the page has tried to connect.
        expect(guest.locator("#conn")).to_have_text("")
        expect(guest.locator("#conn")).not_to_have_attribute("data-state", "off")
        guest.fill("#join-name", "Pia")
        guest.locator("#join-form button[type=submit]").click()
        expect(guest.locator("#conn")).to_have_attribute("data-state", "live")
    finally:
        gm_context.close()
        guest_context.close()


def test_a_wrong_invite_is_told_on_the_join_page(browser: Any, server: Any) -> None:
    context = new_context(browser)
    page = context.new_page()
    try:
        links = open_table(page, server.url, "free-dice", "Quiet", "Greta")
        other = new_context(browser)
        guest = other.new_page()
        guest.goto(links["player"].replace("#invite=", "#invite=x"))
        expect(guest.locator("#alert")).to_be_visible()
        expect(guest.locator("#join-about")).to_have_text("")
        other.close()
    finally:
        context.close()
