"""The D&D 5e page's forms: the character form cleared after a character is added (kept as
typed when the table refuses it, for the correction) and holding exactly what is typed while
another person's command redraws the page; the GM's choice of advantage, normal or
disadvantage on an attack and a saving throw, with the odds following the choice."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_helpers import ApiTable, join, new_context, open_table, watch_errors
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
        # Typing over the whole attack line while another person's command redraws the page:
        # the redrawn field keeps the selection, so the typed line replaces the old one.
        pia.locator("#dd-hero-attacks").select_text()
        gm.select_option("#dd-monster", "knight")
        gm.fill("#dd-monster-at", "f5")
        gm.locator("#dd-monster-add").click()
        expect(pia.locator("#dd-token-knight")).to_have_attribute("data-square", "f5")
        expect(pia.locator("#dd-hero-attacks")).to_be_focused()
        pia.keyboard.insert_text("Dagger: +4, 4 (1d4+2) piercing")
        expect(pia.locator("#dd-hero-attacks")).to_have_value("Dagger: +4, 4 (1d4+2) piercing")
        assert errors == []
    finally:
        for context in contexts:
            context.close()


def test_the_gm_chooses_advantage_normal_or_disadvantage_and_the_odds_follow(
    browser: Any, server: Any
) -> None:
    """The SRD goblin (Dex 14, Scimitar +4) beside an orc on the other side (AC 13): its
    attack misses on 1–8, 2/5 of the time; with advantage both dice must: 4/25; with
    disadvantage either: 16/25. Its Dexterity save (+2) against DC 15 succeeds on 13–20: 2/5,
    with advantage 16/25."""
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e")
        table.send({"kind": "add_monster", "id": "gob", "monster": "goblin", "position": "a1"})
        orc = {"kind": "add_monster", "id": "orc", "monster": "orc", "position": "b1"}
        table.send({**orc, "side": "party"})  # a tame orc: two sides, so the fight goes on
        table.send({"kind": "start_combat", "rolls": {"gob": 20, "orc": 1}})
        table.open()
        page.select_option("#dd-attack-target", "orc")
        expect(page.locator("#dd-attack-mode")).to_have_value("normal")
        expect(page.locator("#dd-attack-odds")).to_contain_text("P(hit) 60.0 %")
        expect(page.locator("#dd-damage-odds")).to_be_visible()
        page.select_option("#dd-attack-mode", "advantage")
        expect(page.locator("#dd-attack-odds")).to_contain_text("(4/25)")
        page.select_option("#dd-attack-mode", "disadvantage")
        expect(page.locator("#dd-attack-odds")).to_contain_text("(16/25)")
        page.locator("#dd-attack").click()
        expect(page.locator("#log")).to_contain_text("with disadvantage")
        assert table.state()["last_attack"]["mode"] == "disadvantage"

        page.select_option("#dd-save-creature", "gob")
        page.select_option("#dd-save-ability", "dex")
        page.fill("#dd-save-dc", "15")
        expect(page.locator("#dd-save-odds")).to_contain_text("(2/5)")
        page.select_option("#dd-save-mode", "advantage")
        expect(page.locator("#dd-save-odds")).to_contain_text("(16/25)")
        page.locator("#dd-save-roll").click()
        expect(page.locator("#dd-save-result")).to_have_attribute("data-succeeded", re.compile("."))
        assert table.state()["last_save"]["mode"] == "advantage"
        assert errors == []
    finally:
        context.close()
