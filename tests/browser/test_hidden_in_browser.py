"""Hidden is chosen per roll; the GM's persistent hidden mode shows a banner that stays in view
(issue 26, item 1)."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_helpers import join, new_context, open_table
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def roll(page: Page, expression: str) -> None:
    page.fill("#fd-expression", expression)
    page.locator("#fd-roll button[type=submit]").click()


def test_one_roll_is_hidden_and_the_hidden_mode_is_unmissable(browser: Any, server: Any) -> None:
    gm_context = new_context(browser, viewport={"width": 1280, "height": 800})
    player_context = new_context(browser, viewport={"width": 1280, "height": 800})
    gm, player = gm_context.new_page(), player_context.new_page()
    try:
        links = open_table(gm, server.url, "free-dice", "Secret table", "Gina")
        gm.locator("#open-table").click()
        join(player, links["player"], "Pia")
        expect(gm.locator("#hidden-banner")).to_be_hidden()
        expect(player.locator("#fd-hidden")).to_have_count(0)  # only the GM hides rolls

        # One hidden roll: only the GM sees it, and the box is cleared after it.
        gm.locator("#fd-hidden").check()
        roll(gm, "1d20")
        expect(gm.locator("#log > li").first.locator(".hidden-badge")).to_be_visible()
        expect(gm.locator("#fd-hidden")).not_to_be_checked()
        expect(gm.locator("#hidden-banner")).to_be_hidden()
        # The next roll is open again: the player sees it, and only it.
        roll(gm, "2d6")
        expect(player.locator("#log > li")).to_have_count(1)
        expect(player.locator("#log > li").first).to_contain_text("(2d6)")
        expect(player.locator(".hidden-badge")).to_have_count(0)

        # The persistent hidden mode: a banner in view, even scrolled down, and a way out.
        gm.locator("#hidden-toggle").check()
        banner = gm.locator("#hidden-banner")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("the players see nothing of what you do now")
        blocking = [
            v["id"]
            for v in Axe().run(gm).response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert not blocking, blocking
        gm.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        expect(banner).to_be_in_viewport()
        roll(gm, "3d6")
        expect(gm.locator("#log > li")).to_have_count(3)
        expect(gm.locator("#log > li").first.locator(".hidden-badge")).to_be_visible()
        gm.locator("#hidden-off").click()
        expect(banner).to_be_hidden()
        expect(gm.locator("#hidden-toggle")).not_to_be_checked()
        roll(gm, "4d4")
        expect(player.locator("#log > li")).to_have_count(2)
        expect(player.locator("#log > li").first).to_contain_text("(4d4)")
    finally:
        gm_context.close()
        player_context.close()
