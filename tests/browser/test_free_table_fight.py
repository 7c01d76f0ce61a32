"""A full free-table fight in two browsers: the GM builds the map and the roster, a player
adds a character; initiative, turns and rounds in the tracker, an effect that expires, damage
on a track, tokens moved live (the other browser sees it), a refused move with its reason, a
background image uploaded and a renamed text file refused with a clear message."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from browser_helpers import join, new_context, open_table, watch_errors
from PIL import Image
from playwright.sync_api import Page, expect


def png(tmp_path: Path) -> Path:
    path = tmp_path / "map.png"
    out = io.BytesIO()
    Image.new("RGB", (320, 240), (30, 120, 60)).save(out, format="PNG")
    path.write_bytes(out.getvalue())
    return path


def add(page: Page, name: str, initiative: str, at: str, tracks: str = "HP 20") -> None:
    page.fill("#fd-add-name", name)
    page.fill("#fd-add-ini", initiative)
    page.fill("#fd-add-tracks", tracks)
    page.fill("#fd-add-at", at)
    page.locator("#fd-add-submit").click()
    expect(page.locator("#fd-tracker")).to_contain_text(name)


def test_a_free_table_fight(browser: Any, server: Any, tmp_path: Path, screenshots: Path) -> None:
    gm_context, player_context = new_context(browser), new_context(browser)
    gm, player = gm_context.new_page(), player_context.new_page()
    errors = watch_errors(gm) + watch_errors(player)
    try:
        links = open_table(gm, server.url, "free-dice", "Crypt", "Greta")
        gm.locator("#open-table").click()
        join(player, links["player"], "Pia")
        expect(gm.locator("#fd-map")).to_be_visible()

        # The GM sizes the map and paints a wall.
        gm.fill("#fd-map-width", "8")
        gm.fill("#fd-map-height", "6")
        gm.locator("#fd-map-submit").click()
        expect(player.locator("#fd-sq-h6")).to_have_count(1)
        gm.select_option("#fd-paint", "wall")
        gm.locator("#fd-sq-c1").click()
        expect(player.locator("#fd-sq-c1")).to_have_class("map-square terrain-wall")
        gm.select_option("#fd-paint", "")

        # An invalid file is refused with a clear message; a real PNG becomes the background.
        uploads = tmp_path / "uploads"  # not beside the screenshots, which must all be PNGs
        uploads.mkdir()
        text = uploads / "notes.png"
        text.write_text("these are my notes, not a picture\n")
        gm.set_input_files("#fd-image-file", str(text))
        gm.locator("#fd-image-upload").click()
        expect(gm.locator("#alert")).to_have_text("This is no PNG, JPEG or WebP image.")
        gm.set_input_files("#fd-image-file", str(png(uploads)))
        gm.locator("#fd-image-upload").click()
        expect(gm.locator("#fd-image")).to_have_count(1)
        expect(player.locator("#fd-image")).to_have_count(1)
        assert player.locator("#fd-image").get_attribute("href", timeout=5000).startswith("blob:")

        # The roster: a rat by the GM, the player's own hero.
        add(gm, "Rat", "10", "a1")
        add(player, "Hero", "20", "b2")
        expect(gm.locator("#fd-tracker")).to_contain_text("Hero")
        gm.locator("#fd-roll-init").click()
        expect(gm.locator("#fd-c-hero")).to_contain_text("Ini 20")
        gm.locator("#fd-start-fight").click()
        expect(player.locator("#fd-round")).to_have_text("Round 1 · Hero's turn")

        # The hero is blessed for one round; the player moves the token, the GM sees it.
        player.fill("#fd-eff-name", "Blessed")
        player.fill("#fd-eff-rounds", "1")
        player.locator("#fd-eff-submit").click()
        expect(gm.locator("#fd-c-hero .fd-effect")).to_contain_text("Blessed · 1 round left")
        player.locator("#fd-token-hero").click()
        player.locator("#fd-sq-d2").click()
        expect(gm.locator("#fd-token-hero")).to_have_attribute("data-square", "d2")
        # By keyboard: one square up.
        player.locator("#fd-token-hero").focus()
        player.keyboard.press("ArrowUp")
        expect(gm.locator("#fd-token-hero")).to_have_attribute("data-square", "d3")
        # Into the wall: refused, with the reason.
        player.locator("#fd-token-hero").click()
        player.locator("#fd-sq-c1").click()
        expect(player.locator("#alert")).to_contain_text("no room for the token on c1")
        expect(gm.locator("#fd-token-hero")).to_have_attribute("data-square", "d3")

        # The player ends the hero's turn; the GM deals damage to the hero.
        player.locator("#fd-end-turn-hero").click()
        expect(gm.locator("#fd-round")).to_have_text("Round 1 · Rat's turn")
        gm.fill("#fd-amt-hero-0", "7")
        gm.locator("#fd-dmg-hero-0").click()
        expect(player.locator("#fd-track-hero-0")).to_have_text("HP 13/20")

        # The round ends: the blessing expires, the log says so.
        gm.locator("#fd-next-turn").click()
        expect(player.locator("#fd-round")).to_have_text("Round 2 · Hero's turn")
        expect(player.locator("#fd-c-hero .fd-effect")).to_have_count(0)
        expect(player.locator("#log")).to_contain_text("Ended: Blessed (Hero).")
        gm.screenshot(path=str(screenshots / "free-table-fight.png"), full_page=True)
        player.screenshot(path=str(screenshots / "free-table-player.png"))
        gm.locator("#fd-next-round").click()
        expect(player.locator("#fd-round")).to_have_text("Round 3 · Hero's turn")
        gm.locator("#fd-end-fight").click()
        expect(player.locator("#fd-round")).to_have_text("No fight is running.")
        assert not errors, errors
    finally:
        gm_context.close()
        player_context.close()
