"""The Kilkenny AI's move is shown: the moved cat glides from its square to the new one (and
simply stands there for a person who asks for reduced motion), instead of jumping."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import ApiTable, new_context, watch_errors
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

COUNT_ANIMATIONS = """
window.catMoves = [];
document.addEventListener('animationend', (e) => window.catMoves.push(e.animationName), true);
"""
"""Test instrumentation: every animation that ran to its end, by name."""


def play_until_the_ai_moves(page: Page) -> None:
    """South rolls and takes its first move until North (the AI) has moved a cat."""
    for _turn in range(40):
        if page.locator("#kk-moved-cat").count():
            return
        if page.locator("#kk-roll").count():
            seq = int(page.locator("#log > li").first.get_attribute("data-seq") or 0)
            page.locator("#kk-roll").click()
            page.wait_for_function(
                "seq => Number(document.querySelector('#log > li')?.dataset.seq || 0) > seq"
                " || document.getElementById('kk-moved-cat')",
                arg=seq,
            )
            continue
        moves = page.locator("#kk-moves button")
        if moves.count():
            if page.locator("#kk-move-list").get_attribute("open") is None:
                page.locator("#kk-move-list summary").click()
            seq = int(page.locator("#log > li").first.get_attribute("data-seq") or 0)
            moves.first.click()
            page.wait_for_function(
                "seq => Number(document.querySelector('#log > li')?.dataset.seq || 0) > seq",
                arg=seq,
            )
            continue
        expect(page.locator("#kk-roll, #kk-moves, #kk-moved-cat").first).to_be_attached()
    raise AssertionError("the AI never moved a cat")


def start_against_the_ai(page: Page, base: str) -> None:
    """South for the person, North for the greedy AI (the start page's seat options are
    driven in test_kilkenny_table.py; here the table is made through the API)."""
    seats = [{"player": "human"}, {"player": "greedy"}]
    ApiTable(base, page, "kilkenny", {"players": 2, "seats": seats}).open()
    page.locator("#take-seat-S").click()
    expect(page.locator("#kk-roll")).to_be_visible()


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_ai_move_is_animated(browser: Any, server: Any, motion: str) -> None:
    context = new_context(browser, viewport={"width": 1280, "height": 900}, reduced_motion=motion)
    page = context.new_page()
    page.add_init_script(COUNT_ANIMATIONS)
    errors = watch_errors(page)
    try:
        start_against_the_ai(page, server.url)
        play_until_the_ai_moves(page)
        cat = page.locator("#kk-moved-cat")
        expect(cat).to_have_attribute("data-motion", "done")
        # The end state: the cat stands on its new square, untransformed.
        assert cat.evaluate("e => getComputedStyle(e).transform") == "none"
        assert "is-moving" not in (cat.get_attribute("class") or "")
        ran = page.evaluate("window.catMoves")
        if motion == "reduce":
            assert "kk-cat-move" not in ran, ran
        else:
            assert "kk-cat-move" in ran, ran
        assert not errors, errors
    finally:
        context.close()


def test_a_phone_opens_the_board_on_the_own_cats(browser: Any, server: Any) -> None:
    size = {"viewport": {"width": 375, "height": 812}, "is_mobile": True, "has_touch": True}
    context = new_context(browser, **size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        start_against_the_ai(page, server.url)
        page.reload()
        expect(page.locator("#kk-board-centre")).to_be_attached()
        frame = "document.getElementById('kk-board-frame')"
        assert page.evaluate(f"{frame}.scrollWidth > {frame}.clientWidth")
        # The middle of South's cats stands in the middle of the frame (within a square).
        page.wait_for_function(
            """() => {
              const f = document.getElementById('kk-board-frame').getBoundingClientRect();
              const m = document.getElementById('kk-board-centre').getBoundingClientRect();
              const dx = m.left + m.width / 2 - (f.left + f.width / 2);
              const dy = m.top + m.height / 2 - (f.top + f.height / 2);
              return Math.abs(dx) < 46 && Math.abs(dy) < 46;
            }"""
        )
        assert not errors, errors
    finally:
        context.close()
