"""Revealing the seed asks in the page, in an accessible dialog that says what becomes
checkable (issue 26, item 12)."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_helpers import new_context, open_table
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_the_reveal_asks_in_the_page_and_says_what_becomes_checkable(
    browser: Any, server: Any
) -> None:
    context = new_context(browser, viewport={"width": 1280, "height": 900})
    gm = context.new_page()
    boxes: list[str] = []
    gm.on("dialog", lambda box: (boxes.append(box.message), box.dismiss()))
    try:
        open_table(gm, server.url, "free-dice", "Fair table", "Gina")
        gm.locator("#open-table").click()
        expect(gm.locator("#conn")).to_have_attribute("data-state", "live")
        reveal = gm.get_by_role("button", name="Reveal the seed")

        # Before any roll there is nothing to check, and it says so; Escape keeps the seed.
        reveal.click()
        dialog = gm.get_by_role("dialog", name="Reveal the seed now?")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("Nothing was rolled in this epoch yet")
        blocking = [
            v["id"]
            for v in Axe().run(gm).response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert not blocking, blocking
        expect(gm.locator("#reveal-dialog-yes")).to_be_focused()
        gm.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
        expect(reveal).to_be_focused()
        expect(gm.locator("#revealed-seed")).to_have_count(0)

        gm.fill("#fd-expression", "2d6")
        gm.locator("#fd-roll button[type=submit]").click()
        expect(gm.locator("#log > li")).to_have_count(1)
        reveal.click()
        expect(dialog).to_contain_text(
            "Then everyone can check 2 draws of this epoch (log no. 1–1)."
        )
        expect(dialog).to_contain_text("later rolls stay secret until the next reveal")
        gm.locator("#reveal-dialog-no").click()
        expect(gm.locator("#revealed-seed")).to_have_count(0)
        reveal.click()
        gm.locator("#reveal-dialog-yes").click()
        expect(gm.locator("#revealed-seed")).to_be_visible()
        assert not boxes, boxes  # no browser box asked
    finally:
        context.close()
