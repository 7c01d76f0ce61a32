"""Kilkenny Cats in the browser: a person against a fast AI, played to the end of the game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import join, new_context, open_table, watch_errors
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

MAX_TURNS = 600


def _last_seq(page: Page) -> int:
    first = page.locator("#log > li").first
    return int(first.get_attribute("data-seq") or 0) if first.count() else 0


def _wait_after(page: Page, seq: int) -> None:
    page.wait_for_function(
        "seq => Number(document.querySelector('#log > li')?.dataset.seq || 0) > seq", arg=seq
    )


def _wait_for_my_part(page: Page) -> None:
    """Wait until the game is over, or it is my turn to roll, or my roll has its moves drawn.

    A newer log entry alone does not say my part is drawn: once, right after my move, the page
    showed neither my roll button nor my moves.
    """
    page.wait_for_function(
        "() => document.querySelector('#kk-outcome, #kk-roll, #kk-moves button') !== null"
    )


def _rank(square: str) -> int:
    match = re.fullmatch(r"[a-n](\d+)", square)
    return int(match.group(1)) if match else 99  # a hole (S1, S2) beats every square


def _choose(moves: list[str]) -> tuple[str, str]:
    """South's plan: into a hole if the roll fits, else a capture, else as far north as possible."""
    # A move's button reads "a3-a4" followed by its chances ("17 % · 0 %").
    parsed = [re.match(r"(\w+)[-x](\w+)", move).groups() for move in moves]  # type: ignore[union-attr]
    best = max(
        range(len(moves)),
        key=lambda i: (_rank(parsed[i][1]), "x" in moves[i], -_rank(parsed[i][0])),
    )
    origin, target = parsed[best]
    return origin, target


def test_a_game_against_the_ai_to_its_end(browser: Any, server: Any, screenshots: Path) -> None:
    context = new_context(browser, viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.url + "/")
        page.select_option("#new-system", "kilkenny")
        expect(page.locator("#opt-seat-N")).to_be_visible()
        page.select_option("#opt-seat-N", "greedy")
        links = open_table(page, server.url, "kilkenny", "Cats at dusk", "Clara", keep_options=True)
        page.goto(server.url + "/t/" + links["table"])
        expect(page.locator("#kk-board")).to_be_visible()
        # The page renders again when its socket is live: type only after that.
        expect(page.locator("#conn")).to_have_attribute("data-state", "live")
        # A seed string of our own takes part in every later draw of the fair dice.
        page.fill("#player-seed", "cats at dusk")
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator("#alert")).to_contain_text("counts from the next roll")
        page.locator("#take-seat-S").click()
        expect(page.locator("#kk-roll")).to_be_visible()
        page.screenshot(path=str(screenshots / "kilkenny-start.png"), full_page=True)

        clicked_on_board = 0
        for _turn in range(MAX_TURNS):
            _wait_for_my_part(page)
            if page.locator("#kk-outcome").count():
                break
            seq = _last_seq(page)
            if page.locator("#kk-roll").count():
                page.locator("#kk-roll").click()
                _wait_after(page, seq)
                continue
            moves = page.locator("#kk-moves button").all_text_contents()
            assert moves, "my turn with a roll but no move offered"
            origin, target = _choose(moves)
            if clicked_on_board == 0:
                # The first move by keyboard alone: focus the cat, Enter; the target, Enter.
                page.locator(f"#kk-cell-{origin}").focus()
                page.keyboard.press("Enter")
                expect(page.locator(f"#kk-cell-{origin}")).to_have_attribute("aria-pressed", "true")
                page.locator(f"#kk-cell-{target}").focus()
                page.keyboard.press("Enter")
            else:
                page.locator(f"#kk-cell-{origin}").click()
                expect(page.locator(f"#kk-cell-{target}")).to_be_visible()
                if clicked_on_board == 3:
                    page.screenshot(path=str(screenshots / "kilkenny-move.png"), full_page=True)
                page.locator(f"#kk-cell-{target}").click()
            clicked_on_board += 1
            _wait_after(page, seq)
        outcome = page.locator("#kk-outcome")
        expect(outcome).to_be_visible()
        assert re.search(r"wins|draw|over|stopped", outcome.inner_text(), re.I)
        page.screenshot(path=str(screenshots / "kilkenny-end.png"), full_page=True)
        assert clicked_on_board > 0
        assert not errors, errors
    finally:
        context.close()


def test_two_people_play_online_at_one_table(browser: Any, server: Any) -> None:
    gm_context = new_context(browser, viewport={"width": 1280, "height": 1000})
    player_context = new_context(browser, viewport={"width": 1280, "height": 1000})
    gm, player = gm_context.new_page(), player_context.new_page()
    errors = watch_errors(gm) + watch_errors(player)
    try:
        gm.goto(server.url + "/")
        gm.select_option("#new-system", "kilkenny")
        gm.select_option("#opt-seat-N", "human")
        links = open_table(gm, server.url, "kilkenny", "Two cats", "Clara", keep_options=True)
        gm.goto(server.url + "/t/" + links["table"])
        join(player, links["player"], "David")
        player.locator("#take-seat-N").click()
        expect(gm.locator(".seat-list")).to_contain_text("David")
        expect(gm.locator("#take-seat-N")).to_have_count(0)
        gm.locator("#take-seat-S").click()
        # North may not roll for South; South's roll arrives live at North.
        expect(player.locator("#kk-roll")).to_have_count(0)
        expect(player.locator("#kk-turn")).to_contain_text("South to move")
        gm.locator("#kk-roll").click()
        expect(player.locator("#log > li").first).to_contain_text("South rolls")
        # Every roll of the first turn has a move (the start position offers 6 to 32), so the
        # list is waited for, not read at once from a page that may not have drawn it yet.
        expect(gm.locator("#kk-moves button").first).to_be_attached()
        moves = gm.locator("#kk-moves button").all_text_contents()
        origin, target = re.match(r"(\w+)[-x](\w+)", moves[0]).groups()  # type: ignore[union-attr]
        gm.locator(f"#kk-cell-{origin}").click()
        gm.locator(f"#kk-cell-{target}").click()
        cat = player.locator(f'[aria-label="Cat of South on {target}"]')
        expect(cat).to_have_count(1)
        expect(player.locator("#kk-turn")).to_contain_text("Your turn (North)")
        expect(player.locator("#kk-roll")).to_be_visible()
        assert not errors, errors
    finally:
        gm_context.close()
        player_context.close()


def _press(page: Page, selector: str, key: str) -> None:
    """Focus ``selector`` and press ``key`` (focus again if a redraw came in between)."""
    for _ in range(20):
        page.locator(selector).focus()
        if page.evaluate("s => document.activeElement === document.querySelector(s)", selector):
            page.keyboard.press(key)
            return
    raise AssertionError(f"{selector} cannot be focused")


def test_the_keyboard_stays_in_the_game_after_rolling(browser: Any, server: Any) -> None:
    context = new_context(browser, viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.url + "/")
        page.select_option("#new-system", "kilkenny")
        page.select_option("#opt-seat-N", "random")
        links = open_table(page, server.url, "kilkenny", "Keys only", "Kim", keep_options=True)
        page.goto(server.url + "/t/" + links["table"])
        expect(page.locator("#conn")).to_have_attribute("data-state", "live")
        _press(page, "#take-seat-S", "Enter")
        expect(page.locator("#kk-roll")).to_be_visible()
        expect(page.locator("#log > li")).to_have_count(1)
        _press(page, "#kk-roll", "Enter")
        expect(page.locator("#log > li")).not_to_have_count(0)
        # The roll button is gone; the focus moved to the control now in its place (the
        # list of moves, or the next roll after a pass), not back to the top of the page.
        inside = "document.querySelector('#game-body').contains(document.activeElement)"
        page.wait_for_function(inside)
        page.keyboard.press("Enter")  # opens the list of moves (or rolls again after a pass)
        page.keyboard.press("Tab")
        assert page.evaluate(inside)
        assert not errors, errors
    finally:
        context.close()
