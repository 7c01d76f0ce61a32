"""HeXXen binding follows the map: an NSC dragged next to a hunter is bound with it and may
attack in melee at once, with no binding click; while it stands free the melee button says
how the map binds."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_helpers import join, new_context, open_table, watch_errors
from playwright.sync_api import Page, expect
from test_hexxen_table import WOLF, create_npc

pytestmark = pytest.mark.browser


def drag(page: Page, token: str, square: str) -> None:
    """Drag ``token`` onto ``square`` with the mouse, as a user would.

    The page draws its scene again on every message (a command's own answer and, a moment
    later, the same records over the socket), so elements are replaced while the test acts.
    Each step finds its element afresh through a lazy locator, and ``hover`` waits for it,
    scrolls it into view and retries when it was replaced; the map keeps the drag itself
    across re-renders.
    """
    page.locator(token).hover()
    page.mouse.down()
    end = page.locator(square)
    expect(end).to_be_visible()
    found = end.bounding_box()
    if found is not None:
        page.mouse.move(found["x"] + found["width"] / 2, found["y"] + found["height"] / 2, steps=6)
    end.hover()
    page.mouse.up()


def test_an_npc_moved_next_to_a_hunter_is_bound(browser: Any, server: Any) -> None:
    contexts = [new_context(browser, viewport={"width": 1280, "height": 900}) for _ in range(2)]
    gm, player = (c.new_page() for c in contexts)
    errors = watch_errors(gm) + watch_errors(player)
    try:
        links = open_table(gm, server.url, "hexxen", "Bound by the map", "Greta")
        gm.locator("#open-table").click()
        expect(gm.locator("#conn")).to_have_attribute("data-state", "live")
        join(player, links["player"], "Pia")
        player.fill("#hx-create-name", "Ada")
        player.fill("#hx-create-skill-parieren", "2")
        player.locator("#hx-create-submit").click()
        expect(gm.locator("#hx-hunter-ada")).to_contain_text("Ada")
        create_npc(gm, "Werwolf", "anfuehrer", "2", WOLF)
        expect(gm.locator("#hx-npc-werwolf")).to_contain_text("Klauenhieb")

        player.locator("#hx-pick-ada").click()
        player.locator("#hx-sq-c2").click()
        gm.locator("#hx-pick-werwolf").click()
        gm.locator("#hx-sq-f2").click()
        expect(player.locator("#hx-token-werwolf")).to_have_attribute("data-square", "f2")
        gm.locator("#hx-start-fight").click()
        expect(gm.locator("#hx-round")).to_have_text("Round 1 · Werwolf's turn")
        expect(gm.locator("#hx-declare-0")).to_be_disabled()
        expect(gm.locator("#hx-declare-0")).to_have_attribute(
            "title", "Melee: Werwolf stands free. Move it next to a hunter on the map to bind it."
        )

        # The GM drags the wolf next to Ada: both are bound, the claw may strike.
        drag(gm, "#hx-token-werwolf", "#hx-sq-d3")
        expect(player.locator("#hx-token-werwolf")).to_have_attribute("data-square", "d3")
        for page in (gm, player):
            expect(page.locator("#hx-token-werwolf")).to_have_class(re.compile("is-bound"))
            expect(page.locator("#hx-token-ada")).to_have_class(re.compile("is-bound"))
        expect(gm.locator("#hx-declare-0")).to_be_enabled()
        gm.select_option("#hx-att-target", "ada")
        gm.locator("#hx-declare-0").click()
        expect(player.locator("#hx-defend-parry")).to_be_visible()
        assert not errors, errors
    finally:
        for context in contexts:
            context.close()
