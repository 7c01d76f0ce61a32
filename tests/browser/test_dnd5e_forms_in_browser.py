"""The D&D 5e page's character form: cleared after a character is added, kept as typed when
the table refuses it (so the player can correct it)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import join, new_context, open_table, watch_errors
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

FRESH = {
    "name": "",
    "ac": "15",
    "hp": "12",
    "speed": "9",
    "str": "14",
    "dex": "12",
    "attacks": "Longsword: +5, 7 (1d8+3) slashing",
    "bonus": "",
    "at": "",
}


def test_the_character_form_is_cleared_after_a_character_is_added(
    browser: Any, server: Any
) -> None:
    contexts = [new_context(browser) for _ in range(2)]
    gm, pia = (c.new_page() for c in contexts)
    errors = watch_errors(gm) + watch_errors(pia)
    try:
        links = open_table(gm, server.url, "dnd5e", "Forms", "Greta")
        gm.locator("#open-table").click()
        join(pia, links["player"], "Pia")
        typed = {
            "name": "Rika",
            "ac": "16",
            "hp": "33",
            "speed": "12",
            "str": "10",
            "dex": "18",
            "attacks": "Shortsword: +6, 7 (1d6+4) piercing",
            "bonus": "Dash",
            "at": "c3",
        }
        for key, value in typed.items():
            pia.fill(f"#dd-hero-{key}", value)
        pia.select_option("#dd-hero-cast-ability", "wis")
        pia.fill("#dd-hero-cast-spells", "Bless")
        # a square off the map: refused, and everything typed stays for the correction
        pia.fill("#dd-hero-at", "zz99")
        pia.locator("#dd-hero-add").click()
        expect(pia.locator("#alert")).to_contain_text("zz99")
        expect(pia.locator("#dd-hero-name")).to_have_value("Rika")
        expect(pia.locator("#dd-hero-cast-spells")).to_have_value("Bless")
        pia.fill("#dd-hero-at", "c3")
        pia.locator("#dd-hero-add").click()
        expect(pia.locator("#dd-fighters")).to_contain_text("Rika")
        expect(gm.locator("#dd-fighters")).to_contain_text("Rika")
        for key, value in FRESH.items():
            expect(pia.locator(f"#dd-hero-{key}")).to_have_value(value)
        expect(pia.locator("#dd-hero-cast-ability")).to_have_value("")
        assert errors == []
    finally:
        for context in contexts:
            context.close()
