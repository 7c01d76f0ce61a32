"""The game pages share one set of helpers (static/js/helpers.js): a new piece's id is made
from its name the same way in every game ("Müller" → "muller", then "muller-2"), and the free
table no longer makes "mu-ller"."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import ApiTable
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_the_free_table_and_hexxen_make_the_same_id_from_a_name(server: Any, gm_page: Page) -> None:
    base = server.url
    free = ApiTable(base, gm_page, "free-dice")
    free.open()
    for _ in range(2):
        details = gm_page.locator("details:has(#fd-add)")
        if details.count() and details.get_attribute("open") is None:
            details.locator("summary").first.click()
        gm_page.fill("#fd-add-name", "Müller")
        gm_page.locator("#fd-add-submit").click()
        expect(gm_page.locator("#fd-add-name")).to_have_value("")
    assert [c["id"] for c in free.state()["combatants"]] == ["muller", "muller-2"]

    hexxen = ApiTable(base, gm_page, "hexxen")
    hexxen.open()
    gm_page.locator("details:has(#hx-create-name) > summary").click()
    gm_page.fill("#hx-create-name", "Müller")
    for attribute in ("KKR", "ATH", "GES", "SIN", "WIS", "WIL"):
        gm_page.fill(f"#hx-create-{attribute}", "2")
    gm_page.locator("#hx-create-submit").click()
    expect(gm_page.locator("#hx-hunter-muller")).to_be_visible()
