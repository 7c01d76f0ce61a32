"""The table page laid out as a table, measured in the page.

On a wide screen the scene (board, battle map, the check) stands beside the log and chat and
the page is far shorter than the one long column it was; on a phone the regions are tabs.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import box_of, join, new_context, open_table, watch_errors
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

GAMES = ("free-dice", "magical-kitties", "kilkenny", "hexxen", "kreiswanderer", "dnd5e")
MAX_DESKTOP_HEIGHT = 1300
"""Pixels: the whole page of a GM at 1280 × 900 (one long column was about 2,100)."""
MAP_GAMES = {"free-dice", "hexxen", "dnd5e"}
"""The games whose scene is a battle map: at 1280 px the map takes the width."""


def box(page: Page, selector: str) -> dict[str, float]:
    """The bounding box of the first element matching ``selector``, in page pixels, once it
    shows (a game's module draws its scene after the page has connected)."""
    expect(page.locator(selector).first).to_be_visible()
    return box_of(page, selector)


def page_height(page: Page) -> int:
    """The height of the whole document."""
    return int(page.evaluate("document.documentElement.scrollHeight"))


@pytest.mark.parametrize("system", GAMES)
def test_the_scene_and_the_log_stand_side_by_side(browser: Any, server: Any, system: str) -> None:
    context = new_context(browser, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = watch_errors(page)
    try:
        open_table(page, server.url, system, "Wide table", "Gina")
        page.locator("#open-table").click()
        expect(page.locator("#conn")).to_have_attribute("data-state", "live")
        scene, log = box(page, "#region-scene"), box(page, "#region-side")
        # Side by side: the log starts right of the scene's right edge, and they share rows.
        assert scene["x"] + scene["width"] <= log["x"], (scene, log)
        assert log["y"] < scene["y"] + scene["height"], (scene, log)
        assert scene["width"] >= 480, scene
        tools = box(page, "#region-tools")
        if system in MAP_GAMES:
            # A battle map takes the width: the sheets and tools follow below the scene, the
            # map leads it with squares of about 40 px (docs/web-table.md).
            assert tools["y"] >= scene["y"] + scene["height"], (tools, scene)
            square = box(page, ".region-scene .map-square")
            assert square["width"] >= 36, square
            assert box(page, ".region-scene .map")["y"] < 400
        else:
            # The sheets and the tools have their own panel beside the scene, not below it.
            assert tools["x"] + tools["width"] <= scene["x"], (tools, scene)
            height = page_height(page)
            print(f"{system}: GM page at 1280 px is {height} px high")
            assert height <= MAX_DESKTOP_HEIGHT, height
        # No tabs on a wide screen: every region shows.
        expect(page.locator("#table-tabs")).to_be_hidden()
        assert not errors, errors
    finally:
        context.close()


def test_a_phone_switches_regions_by_tabs(browser: Any, server: Any) -> None:
    gm_context = new_context(browser, viewport={"width": 1280, "height": 900})
    phone_context = new_context(
        browser, viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True
    )
    gm, phone = gm_context.new_page(), phone_context.new_page()
    errors = watch_errors(gm) + watch_errors(phone)
    try:
        links = open_table(gm, server.url, "magical-kitties", "Pocket table", "Gina")
        join(phone, links["player"], "Pia")
        tabs = phone.locator("#table-tabs [role=tab]")
        expect(phone.locator("#table-tabs")).to_be_visible()
        names = [tab.get_attribute("data-region") for tab in tabs.all()]
        assert names[0] == "scene" and "side" in names and "sheets" in names, names
        # The scene first; the log waits behind its tab.
        expect(phone.locator("#tab-scene")).to_have_attribute("aria-selected", "true")
        expect(phone.locator("#region-scene")).to_be_visible()
        expect(phone.locator("#region-side")).to_be_hidden()
        phone.locator("#tab-side").tap()
        expect(phone.locator("#region-side")).to_be_visible()
        expect(phone.locator("#region-scene")).to_be_hidden()
        expect(phone.locator("#tab-side")).to_have_attribute("aria-selected", "true")
        expect(phone.locator("#tab-scene")).to_have_attribute("aria-selected", "false")
        # The tabs stand side by side in one row, each big enough to tap.
        first, last = box(phone, "#tab-scene"), box(phone, "#table-tabs [role=tab]:last-child")
        assert abs(first["y"] - last["y"]) < 2, (first, last)
        assert min(first["height"], last["height"]) >= 44, (first, last)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 375
        # The keyboard: arrow keys move between the tabs, as in every tab list.
        phone.locator("#tab-side").focus()
        phone.keyboard.press("ArrowLeft")
        focused = phone.evaluate("document.activeElement.dataset.region")
        expect(phone.locator(f"#region-{focused}")).to_be_visible()
        expect(phone.locator("#region-side")).to_be_hidden()
        assert not errors, errors
    finally:
        gm_context.close()
        phone_context.close()


def square_size(page: Page, selector: str) -> tuple[float, float]:
    """Width and height in page pixels of the first square matching ``selector``."""
    found = box(page, selector)
    return found["width"], found["height"]


def test_boards_and_maps_have_fingertip_squares_on_a_phone(browser: Any, server: Any) -> None:
    gm_context = new_context(browser, viewport={"width": 1280, "height": 900})
    phone_context = new_context(
        browser, viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True
    )
    gm, phone = gm_context.new_page(), phone_context.new_page()
    errors = watch_errors(gm) + watch_errors(phone)
    try:
        # Kilkenny Cats: 14 × 14 squares were 20 px at this width.
        gm.goto(server.url + "/")
        gm.select_option("#new-system", "kilkenny")
        gm.select_option("#opt-seat-N", "greedy")
        board = open_table(gm, server.url, "kilkenny", "Pocket cats", "Gina", keep_options=True)
        join(phone, board["player"], "Pia")
        width, height = square_size(phone, "#kk-board rect.sq-dark")
        assert width >= 44 and height >= 44, (width, height)
        # The board pans inside its frame; the page itself is no wider than the phone.
        assert phone.evaluate("document.documentElement.scrollWidth") <= 375
        frame = "document.getElementById('kk-board-frame')"
        assert phone.evaluate(f"{frame}.scrollWidth > {frame}.clientWidth")
        # A move is still two taps, on squares of fingertip size.
        phone.locator("#take-seat-S").tap()
        phone.locator("#kk-roll").tap()
        # Every roll of the first turn has a move: its cells are waited for, then measured.
        cell = box(phone, "#kk-board .cell-hit")
        assert min(cell["width"], cell["height"]) >= 44, cell
        # "Whole board" shows it all at once (smaller squares), and back.
        phone.locator("#kk-board-frame-zoom").tap()
        expect(phone.locator("#kk-board-frame-zoom")).to_have_attribute("aria-pressed", "true")
        width, _ = square_size(phone, "#kk-board rect.sq-dark")
        assert width < 44, width
        assert phone.evaluate(f"{frame}.scrollWidth <= {frame}.clientWidth + 1")
        phone.locator("#kk-board-frame-zoom").tap()
        width, _ = square_size(phone, "#kk-board rect.sq-dark")
        assert width >= 44, width

        # The shared battle map of the free table: the same size for its squares.
        links = open_table(gm, server.url, "free-dice", "Pocket crypt", "Gina")
        join(phone, links["player"], "Pia")
        width, height = square_size(phone, "#fd-map .map-square")
        assert width >= 44 and height >= 44, (width, height)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 375
        assert not errors, errors
    finally:
        gm_context.close()
        phone_context.close()


@pytest.mark.parametrize("system, prefix", [("dnd5e", "dd"), ("hexxen", "hx")])
def test_the_battle_maps_of_dnd5e_and_hexxen_have_fingertip_squares_on_a_phone(
    browser: Any, server: Any, system: str, prefix: str
) -> None:
    """The shared map frame (fight/map.js) in the two games that fight on it, at 375 px."""
    gm_context = new_context(browser, viewport={"width": 1280, "height": 900})
    phone_context = new_context(
        browser, viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True
    )
    gm, phone = gm_context.new_page(), phone_context.new_page()
    errors = watch_errors(gm) + watch_errors(phone)
    try:
        links = open_table(gm, server.url, system, "Pocket map", "Gina")
        join(phone, links["player"], "Pia")
        # The map is in the scene, the first tab.
        expect(phone.locator("#tab-scene")).to_have_attribute("aria-selected", "true")
        square = f"#{prefix}-map .map-square"
        width, height = square_size(phone, square)
        print(f"{system}: a map square at 375 px is {width:.0f} × {height:.0f} px")
        assert width >= 44 and height >= 44, (width, height)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 375
        frame = f"document.getElementById('{prefix}-map-frame')"
        assert phone.evaluate(f"{frame}.scrollWidth > {frame}.clientWidth")
        # "Whole map" shows it all at once (smaller squares), and back.
        toggle = phone.locator(f"#{prefix}-map-frame-zoom")
        toggle.tap()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        width, _ = square_size(phone, square)
        assert width < 44, width
        assert phone.evaluate(f"{frame}.scrollWidth <= {frame}.clientWidth + 1")
        toggle.tap()
        expect(toggle).to_have_attribute("aria-pressed", "false")
        width, _ = square_size(phone, square)
        assert width >= 44, width
        assert not errors, errors
    finally:
        gm_context.close()
        phone_context.close()
