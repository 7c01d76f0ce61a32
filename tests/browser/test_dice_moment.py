"""The dice moment: a roll reaches everyone at the table as a notice of who rolled what, the
dice tumble (not when the person prefers reduced motion), an optional sound remembered in the
browser, and the page does not move."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_helpers import (
    join,
    new_context,
    notice_of,
    open_table,
    record_notices,
    watch_errors,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def roll(page: Page, expression: str) -> None:
    page.fill("#fd-expression", expression)
    page.locator("#fd-roll button[type=submit]").click()


@pytest.mark.parametrize(("motion", "animated"), [("no-preference", True), ("reduce", False)])
def test_a_roll_reaches_everyone_as_a_notice(
    browser: Any, server: Any, motion: str, animated: bool
) -> None:
    gm_context = new_context(browser, viewport={"width": 1280, "height": 700})
    player_context = new_context(
        browser, viewport={"width": 1280, "height": 700}, reduced_motion=motion
    )
    gm, player = gm_context.new_page(), player_context.new_page()
    errors = watch_errors(gm) + watch_errors(player)
    for page in (gm, player):
        record_notices(page)
    try:
        links = open_table(gm, server.url, "free-dice", "Loud table", "Gina")
        gm.locator("#open-table").click()
        join(player, links["player"], "Pia")
        # What stood before loading is no news: no notice.
        expect(player.locator("#toast-body")).to_be_empty()
        toast = player.locator("#toast")
        expect(toast).to_have_attribute("role", "status")
        expect(toast).to_have_attribute("aria-live", "polite")
        player.evaluate("window.scrollTo(0, 120)")
        before = player.evaluate("window.scrollY")
        roll(gm, "3d6")
        # Outcome first: the result, then the notation, then who rolled (as the notice said
        # it: it goes away by itself after a few seconds).
        expect(player.locator("#log > li")).to_have_count(1)
        seq = int(player.locator("#log > li").first.get_attribute("data-seq") or 0)
        notice = notice_of(player, seq)
        assert notice["shown"], notice
        assert re.fullmatch(r"\d+ \(3d6\)", notice["text"]), notice
        assert notice["who"] == "rolled by Gina", notice
        # The actual dice: the same faces as in the log, once they settle.
        log_faces = (
            player.locator("#log > li")
            .first.locator(".die")
            .evaluate_all("dice => dice.map((d) => d.getAttribute('aria-label'))")
        )
        assert len(notice["faces"]) == 3, notice
        assert sorted(notice["faces"]) == sorted(log_faces), (notice, log_faces)
        expected = "3" if animated else "0"
        expect(toast).to_have_attribute("data-animated", expected)
        # Without a page jump.
        assert player.evaluate("window.scrollY") == before
        # The roller sees the notice too.
        assert notice_of(gm, seq)["who"] == "rolled by Gina"
        assert not errors, errors
    finally:
        gm_context.close()
        player_context.close()


def test_the_tumble_is_running_when_motion_is_welcome(browser: Any, server: Any) -> None:
    context = new_context(browser, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        open_table(page, server.url, "free-dice", "Moving table", "Gina")
        page.locator("#open-table").click()
        expect(page.locator("#conn")).to_have_attribute("data-state", "live")
        # Count the animations the moment the notice is filled, before they can end.
        page.evaluate(
            """() => (window.__observer = new MutationObserver(() => {
                 const t = document.getElementById('toast');
                 if (!t.dataset.animated) return;
                 const dice = [...t.querySelectorAll('.die')];
                 window.__running = dice.filter((d) => d.getAnimations().length).length;
               })).observe(document.getElementById('toast'), {attributes: true})"""
        )
        roll(page, "2d6")
        page.wait_for_function("() => window.__running !== undefined")
        assert page.evaluate("window.__running") == 2
    finally:
        context.close()


def test_the_sound_is_off_by_default_and_remembered(browser: Any, server: Any) -> None:
    context = new_context(browser, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors = watch_errors(page)
    try:
        open_table(page, server.url, "free-dice", "Quiet table", "Gina")
        page.locator("#open-table").click()
        expect(page.locator("#conn")).to_have_attribute("data-state", "live")
        toggle = page.locator("#sound-toggle")
        expect(toggle).not_to_be_checked()
        roll(page, "1d20")
        expect(page.locator("#toast")).to_contain_text("1d20")
        expect(toggle).not_to_have_attribute("data-played", "1")
        toggle.check()
        page.reload()
        expect(page.locator("#conn")).to_have_attribute("data-state", "live")
        expect(toggle).to_be_checked()
        assert page.evaluate("localStorage.getItem('spieltisch.sound')") == "on"
        roll(page, "2d6")
        expect(page.locator("#toast")).to_contain_text("2d6")
        expect(toggle).to_have_attribute("data-played", "1")
        toggle.uncheck()
        page.reload()
        expect(toggle).not_to_be_checked()
        assert not errors, errors
    finally:
        context.close()
