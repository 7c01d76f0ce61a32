"""What every table offers, on a free-dice table: live rolls, symbol dice, bad input, hidden
rolls, undo, reload, language switch, reveal and in-browser verification, phone and keyboard."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import join, log_count, new_context, open_table, watch_errors
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def _roll(page: Page, expression: str) -> None:
    page.fill("#fd-expression", expression)
    page.get_by_role("button", name="Roll", exact=True).click()


def test_the_table_for_everyone(browser: Any, server: Any, screenshots: Path) -> None:
    gm_context = new_context(browser, viewport={"width": 1280, "height": 900})
    player_context = new_context(browser, viewport={"width": 1280, "height": 900})
    gm, player = gm_context.new_page(), player_context.new_page()
    errors = watch_errors(gm) + watch_errors(player)
    gm.on("dialog", lambda dialog: dialog.accept())
    try:
        links = open_table(gm, server.url, "free-dice", "Dice night", "Gregor")
        gm.locator("#open-table").click()
        join(player, links["player"], "Pia")
        # The start page lists the tables whose tokens this browser holds.
        player.goto(server.url + "/")
        expect(player.locator("#my-tables")).to_contain_text("Dice night")
        player.get_by_role("link", name="Dice night").click()
        expect(player.locator("#conn")).to_have_attribute("data-state", "live")

        # A roll of HeXXen dice by the player arrives live at the GM, drawn as symbol dice.
        _roll(player, "4H")
        entry = gm.locator("#log > li").first
        expect(entry.locator(".symbol-die")).to_have_count(4)
        expect(entry.locator(".die").first).to_have_attribute("aria-label", r_hexxen())
        # Keep-highest: the dropped die is visible as dropped.
        _roll(gm, "3d6kh2")
        expect(player.locator("#log > li").first.locator(".die.dropped")).to_have_count(1)
        gm.screenshot(path=str(screenshots / "table-log.png"), full_page=True)

        # A bad expression: a clear message naming it, and nothing changes anywhere.
        before = log_count(player), log_count(gm)
        _roll(player, "3d")
        alert = player.locator("#alert")
        expect(alert).to_be_visible()
        expect(alert).to_contain_text("3d")
        assert (log_count(player), log_count(gm)) == before

        # A hidden roll reaches only the GM; the next open roll reaches everyone.
        gm.locator("#hidden-toggle").check()
        _roll(gm, "1d20")
        expect(gm.locator("#log > li").first.locator(".hidden-badge")).to_be_visible()
        expect(gm.locator("#fd-last")).to_contain_text("1d20")
        # Nor does its result reach the player through the table's state: after a reload the
        # last roll the player sees is still the open one before it.
        player.reload()
        expect(player.locator("#conn")).to_have_attribute("data-state", "live")
        expect(player.locator("#fd-last")).to_contain_text("3d6kh2")
        expect(player.locator("#fd-last")).not_to_contain_text("1d20")
        gm.locator("#hidden-toggle").uncheck()
        _roll(gm, "2d10")
        expect(player.locator("#log > li")).to_have_count(before[0] + 1)
        expect(player.locator(".hidden-badge")).to_have_count(0)
        expect(gm.locator("#log > li")).to_have_count(before[1] + 2)

        # Undo (GM only): the player's roll is struck out for everyone.
        expect(player.get_by_role("button", name="Undo entry no. 1")).to_have_count(0)
        gm.get_by_role("button", name="Undo entry no. 1").click()
        expect(player.locator('#log > li[data-seq="1"]')).to_have_class(r_undone())

        # A reload keeps everything: the log, the undone mark, the token.
        expect(player.locator("#log > li").first).to_contain_text("entry no. 1")  # the undo record
        count = log_count(player)
        player.reload()
        expect(player.locator("#log > li")).to_have_count(count)
        expect(player.locator('#log > li[data-seq="1"]')).to_have_class(r_undone())

        # Language switch, per person: the player reads German, the GM still English.
        player.select_option("#lang-select", "de")
        expect(player.locator("#log-heading")).to_have_text("Protokoll")
        expect(player.locator("#log > li")).to_have_count(count)
        expect(gm.locator("#log-heading")).to_have_text("Log")
        # Numbers follow the language too: 1d4 has the mean 2.5, in German "2,50".
        player.fill("#fd-expression", "1d4")
        player.get_by_role("button", name="Chancen zeigen").click()
        expect(player.locator(".odds-wrap")).to_contain_text("25,0 %")
        expect(player.locator(".odds-wrap")).to_contain_text("Mittelwert 2,50")

        # Reveal the seed; everyone can verify every die in the browser.
        gm.get_by_role("button", name="Reveal the seed").click()
        gm.locator("#reveal-dialog-yes").click()
        expect(player.locator("#revealed-seed")).to_be_visible()
        player.locator("#verify-button").click()
        verdict = player.locator("#verify-result")
        expect(verdict).to_contain_text("✓")
        gm.locator("#verify-button").click()
        expect(gm.locator("#verify-result")).to_contain_text("✓")
        player.screenshot(path=str(screenshots / "table-verified-de.png"), full_page=True)
        assert not errors, errors
    finally:
        gm_context.close()
        player_context.close()


def test_phone_and_keyboard(browser: Any, server: Any, screenshots: Path) -> None:
    gm_context = new_context(browser, viewport={"width": 1280, "height": 900})
    phone_context = new_context(
        browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    gm, phone = gm_context.new_page(), phone_context.new_page()
    errors = watch_errors(gm) + watch_errors(phone)
    try:
        links = open_table(gm, server.url, "free-dice", "On the go", "Gregor")
        join(phone, links["player"], "Pia")
        # Nothing is wider than the phone's screen.
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
        # Keyboard only: tab to the expression, type, Enter rolls; focus is visible.
        phone.locator("body").focus()
        for _ in range(12):
            phone.keyboard.press("Tab")
            if phone.evaluate("document.activeElement.id") == "fd-expression":
                break
        assert phone.evaluate("document.activeElement.id") == "fd-expression"
        outline = phone.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline != "none"
        phone.keyboard.type("2d6")
        phone.keyboard.press("Enter")
        expect(phone.locator("#log > li")).to_have_count(1)
        expect(phone.locator("#fd-last .die")).to_have_count(2)
        phone.screenshot(path=str(screenshots / "phone-table.png"), full_page=True)

        # The Kilkenny board fits the phone, and a move is two taps.
        gm.goto(server.url + "/")
        gm.select_option("#new-system", "kilkenny")
        gm.select_option("#opt-seat-N", "greedy")
        board = open_table(gm, server.url, "kilkenny", "Pocket cats", "Gregor", keep_options=True)
        join(phone, board["player"], "Pia")
        phone.locator("#take-seat-S").tap()
        phone.locator("#kk-roll").tap()
        # Every roll of the first turn has a move: wait for the list the roll's answer draws.
        expect(phone.locator("#kk-moves button").first).to_be_attached()
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        moves = phone.locator("#kk-moves button").all_text_contents()
        # The button reads "a3-a4" (or "a3xa4"), its chances after it ("17 % · 0 %").
        origin, target = re.match(r"(\w+)[-x](\w+)", moves[0]).groups()  # type: ignore[union-attr]
        phone.locator(f"#kk-cell-{origin}").tap()
        phone.locator(f"#kk-cell-{target}").tap()
        expect(phone.locator("#log")).to_contain_text(f"South moves {origin}–{target}")
        phone.screenshot(path=str(screenshots / "phone-kilkenny.png"), full_page=True)
        assert not errors, errors
    finally:
        gm_context.close()
        phone_context.close()


def test_spectators_watch_and_cannot_act(browser: Any, server: Any) -> None:
    gm_context = new_context(browser)
    watcher_context = new_context(browser)
    gm, watcher = gm_context.new_page(), watcher_context.new_page()
    errors = watch_errors(gm) + watch_errors(watcher)
    try:
        links = open_table(gm, server.url, "free-dice", "Open house", "Gregor")
        gm.locator("#open-table").click()
        join(watcher, links["spectator"], "Sam")
        expect(watcher.locator("#table-meta")).to_contain_text("Spectator")
        _roll(gm, "2d8")
        expect(watcher.locator("#log > li").first.locator(".die")).to_have_count(2)
        expect(watcher.locator("#fd-last .die")).to_have_count(2)
        for control in ("#fd-expression", "#player-seed", "#hidden-toggle", "#reveal-button"):
            expect(watcher.locator(control)).to_have_count(0)
        expect(watcher.get_by_role("button", name="Undo entry no. 1")).to_have_count(0)
        expect(gm.locator("#people")).to_contain_text("Sam")
        assert not errors, errors
    finally:
        gm_context.close()
        watcher_context.close()


# Test-side shim: remember the page's sockets, and refuse new ones while ``__blocked`` is set.
SOCKET_SHIM = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__blocked = false;
  window.WebSocket = function (url, protocols) {
    const socket = new Native(window.__blocked ? url.replace("/ws?", "/blocked?") : url, protocols);
    window.__sockets.push(socket);
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
})();
"""


def test_a_dropped_connection_catches_up(browser: Any, server: Any) -> None:
    gm_context = new_context(browser)
    player_context = new_context(browser)
    player_context.add_init_script(SOCKET_SHIM)
    gm, player = gm_context.new_page(), player_context.new_page()
    errors = watch_errors(gm) + watch_errors(player)
    try:
        links = open_table(gm, server.url, "free-dice", "Bad wifi", "Gregor")
        gm.locator("#open-table").click()
        join(player, links["player"], "Pia")
        _roll(gm, "1d6")
        expect(player.locator("#log > li")).to_have_count(1)
        player.evaluate("window.__blocked = true; window.__sockets.forEach(s => s.close())")
        expect(player.locator("#conn")).to_have_attribute("data-state", "off")
        _roll(gm, "2d6")
        _roll(gm, "3d6")
        expect(gm.locator("#log > li")).to_have_count(3)
        assert log_count(player) == 1
        player.evaluate("window.__blocked = false")
        expect(player.locator("#conn")).to_have_attribute("data-state", "live", timeout=30_000)
        expect(player.locator("#log > li")).to_have_count(3)
        expect(player.locator("#log > li").first.locator(".die")).to_have_count(3)
        assert not errors, errors
    finally:
        gm_context.close()
        player_context.close()


def test_someone_who_joined_while_the_socket_was_away_shows_up(browser: Any, server: Any) -> None:
    # A join sends a "participants" message only to the sockets listening at that moment; a
    # page that (re)connects afterwards must read the people again.
    gm_context = new_context(browser)
    gm_context.add_init_script(SOCKET_SHIM)
    watcher_context = new_context(browser)
    gm, watcher = gm_context.new_page(), watcher_context.new_page()
    errors = watch_errors(gm) + watch_errors(watcher)
    try:
        links = open_table(gm, server.url, "free-dice", "Late guest", "Gregor")
        gm.locator("#open-table").click()
        expect(gm.locator("#conn")).to_have_attribute("data-state", "live")
        gm.evaluate("window.__blocked = true; window.__sockets.forEach(s => s.close())")
        expect(gm.locator("#conn")).to_have_attribute("data-state", "off")
        join(watcher, links["spectator"], "Sam")
        expect(watcher.locator("#table-meta")).to_contain_text("Spectator")
        expect(gm.locator("#people")).not_to_contain_text("Sam")
        gm.evaluate("window.__blocked = false")
        expect(gm.locator("#conn")).to_have_attribute("data-state", "live", timeout=30_000)
        expect(gm.locator("#people")).to_contain_text("Sam")
        assert not errors, errors
    finally:
        gm_context.close()
        watcher_context.close()


def r_hexxen() -> Any:
    import re

    return re.compile("HeXXen die")


def r_undone() -> Any:
    import re

    return re.compile("is-undone")
