"""The GM's forms drawn from the command schemas: the free table's map settings (a decimal
comma in German, bounds checked on the page before anything is sent), HeXXen's map size and
Kreiswanderer's hit and magic points, each starting at what the table holds."""

from __future__ import annotations

from typing import Any

from browser_helpers import ApiTable, new_context, watch_errors
from playwright.sync_api import expect

ATTRS = {
    "staerke": 3,
    "konstitution": 3,
    "agilitaet": 2,
    "geschick": 3,
    "intelligenz": 2,
    "wahrnehmung": 2,
    "willenskraft": 2,
    "charisma": 1,
}


def test_free_table_map_settings_in_german(browser: Any, server: Any) -> None:
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "free-dice", language="de")
        table.send({"kind": "set_map", "width": 12, "height": 9, "square_m": "1.5"})
        table.open()
        # every field starts at what the table holds, the square size with a decimal comma
        expect(page.locator("#fd-map-width")).to_have_value("12")
        expect(page.locator("#fd-map-height")).to_have_value("9")
        expect(page.locator("#fd-map-square_m")).to_have_value("1,5")
        expect(page.locator("label[for=fd-map-square_m]")).to_contain_text("Feldgröße")
        expect(page.locator("#fd-map-diagonal option:checked")).to_have_text("jede ein Feld")

        # out of its bounds or not a number: refused on the page, naming it; nothing sent
        before = table.state()
        page.fill("#fd-map-square_m", "0")
        page.locator("#fd-map-submit").click()
        expect(page.locator("#alert")).to_contain_text("0 liegt nicht zwischen")
        page.fill("#fd-map-square_m", "1,5,1")
        page.locator("#fd-map-submit").click()
        expect(page.locator("#alert")).to_contain_text("'1,5,1' ist keine gültige Zahl")
        assert table.state()["map"] == before["map"]

        # a decimal comma as German writes it
        page.fill("#fd-map-square_m", "2,5")
        page.fill("#fd-map-width", "8")
        page.select_option("#fd-map-diagonal", '"alternating"')
        page.locator("#fd-map-submit").click()
        expect(page.locator("#fd-sq-h9")).to_have_count(1)
        expect(page.locator("#fd-sq-i1")).to_have_count(0)
        state = table.state()["map"]
        assert (state["width"], state["square_m"], state["diagonal"]) == (8, "2.5", "alternating")
        expect(page.locator("#fd-map-square_m")).to_have_value("2,5")
    finally:
        context.close()
    assert errors == []


def test_hexxen_map_size_and_kreiswanderer_tracks(browser: Any, server: Any) -> None:
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "hexxen")
        table.open()
        width = table.state()["map"]["width"]
        expect(page.locator("#hx-map-width")).to_have_value(str(width))
        page.fill("#hx-map-width", "41")
        page.locator("#hx-map-submit").click()
        expect(page.locator("#alert")).to_contain_text("41 is not between 2 and 40")
        page.fill("#hx-map-width", "12")
        page.fill("#hx-map-height", "10")
        page.locator("#hx-map-submit").click()
        expect(page.locator("#hx-sq-l10")).to_have_count(1)
        assert (table.state()["map"]["width"], table.state()["map"]["height"]) == (12, 10)

        kw = ApiTable(server.url, page, "kreiswanderer", language="de")
        sheet = {"name": "Ada", "side": "party", "attributes": ATTRS, "hp": 20, "mp": 6}
        kw.send({"kind": "create_being", "id": "ada", "sheet": sheet})
        kw.open()
        page.locator("#kw-track-ada-details summary").click()
        page.select_option("#kw-track-ada-track", '"mp"')
        page.fill("#kw-track-ada-value", "3")
        page.locator("#kw-track-ada-submit").click()
        expect(page.locator("#kw-sheet-mp-ada")).to_contain_text("3 / ")
        page.select_option("#kw-track-ada-track", '"tp"')
        page.fill("#kw-track-ada-value", "")
        page.locator("#kw-track-ada-submit").click()
        expect(page.locator("#alert")).to_contain_text("Bitte Wert angeben")
        assert next(b for b in kw.state()["beings"] if b["id"] == "ada")["tp"]["current"] == 20
    finally:
        context.close()
    assert errors == []
