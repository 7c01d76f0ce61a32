"""Rising in place on the D&D 5e page (rules edition 5): Fay, a flyer, picks flying, types a
height and rises straight up on her square with the move form's button; the preview prices
the height alone and the move keeps her square. Without a typed height the button says so
and the route stays empty. A table of an earlier edition, whose rules refuse that step, does
not offer the button."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import ApiTable, new_context, watch_errors
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def hero(id_: str, position: str) -> dict[str, Any]:
    """A player character who flies (AC 15, 20 HP, walk and fly 9 m)."""
    return {
        "kind": "add_character",
        "id": id_,
        "name": id_.title(),
        "ac": 15,
        "hp": 20,
        "speeds": {"walk": 9, "fly": 9},
        "attacks": ["Longsword: +5, 7 (1d8+3) slashing"],
        "position": position,
    }


def foe(id_: str, position: str) -> dict[str, Any]:
    """A typed-in monster (AC 13, 30 HP)."""
    sheet = {"id": id_, "name": id_.title(), "ac": 13, "hp": 30, "abilities": {"dex": 10}}
    return {"kind": "add_monster", "id": id_, "sheet": sheet, "position": position}


def test_a_flyer_rises_in_place_paying_the_height(browser: Any, server: Any) -> None:
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e", {"width": 8, "height": 8})
        table.send(hero("fay", "c3"))
        table.send(foe("gob", "h8"))
        table.send({"kind": "start_combat", "rolls": {"fay": 20, "gob": 1}})
        table.open()
        page.locator("#dd-token-fay").click()
        expect(page.locator("#dd-rise")).to_have_count(0)
        page.select_option("#dd-mode", "fly")
        page.locator("#dd-rise").click()
        expect(page.locator("#alert")).to_contain_text("Type the height above the ground")
        expect(page.locator("#dd-route-cost")).to_have_count(0)
        page.fill("#dd-altitude", "4.5")
        page.locator("#dd-rise").click()
        expect(page.locator("#dd-route-cost")).to_contain_text("4.5 m")
        page.locator("#dd-move").click()
        expect(page.locator("#log")).to_contain_text("4.5 m")
        fay = next(f for f in table.state()["fighters"] if f["id"] == "fay")
        assert (fay["position"], fay["altitude_m"]) == ("c3", "4.5")
        expect(page.locator("#dd-token-fay")).to_have_attribute("data-square", "c3")
        assert errors == []
    finally:
        context.close()


def test_a_table_of_edition_4_offers_no_rise_in_place(browser: Any, server: Any) -> None:
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e", {"width": 8, "height": 8, "edition": 4})
        table.send(hero("fay", "c3"))
        table.send(foe("gob", "h8"))
        table.send({"kind": "start_combat", "rolls": {"fay": 20, "gob": 1}})
        table.open()
        page.locator("#dd-token-fay").click()
        page.select_option("#dd-mode", "fly")
        expect(page.locator("#dd-altitude")).to_be_visible()  # the flying form is drawn
        expect(page.locator("#dd-rise")).to_have_count(0)
        assert errors == []
    finally:
        context.close()
