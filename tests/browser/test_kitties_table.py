"""Magical Kitties in two browsers: a GM and a player play a check with odds, tier and reroll."""

from __future__ import annotations

import re
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import join, log_count, new_context, open_table, watch_errors
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def _tier_odds(pool: int, difficulty: int) -> list[Fraction]:
    """Independent oracle: P(0), P(1), P(2), P(3), P(4+) successes of ``pool`` d6."""
    p = Fraction(7 - difficulty, 6)
    exact = [comb(pool, k) * p**k * (1 - p) ** (pool - k) for k in range(pool + 1)]
    return [*exact[:4], sum(exact[4:], Fraction(0))] + [Fraction(0)] * max(0, 4 - pool)


def _percent(text: str) -> float:
    return float(re.sub(r"[^\d.,]", "", text.split("(")[0]).replace(",", "."))


def _gm_setup(gm: Page) -> None:
    gm.get_by_role("button", name="Start an episode").click()
    gm.get_by_role("button", name="Start a scene").click()
    expect(gm.get_by_text("Scene 1 running")).to_be_visible()
    gm.get_by_text("New foe").click()
    gm.fill("#foe-name", "Grumpy Raccoon")
    gm.get_by_role("button", name="Bring in the foe").click()
    expect(gm.get_by_text("Grumpy Raccoon").first).to_be_visible()


def _create_kitty(player: Page) -> None:
    details = player.locator("details:has(#create-kitty)")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    player.fill("#kc-name", "Mochi")
    player.select_option("#kc-cute", "1")
    player.select_option("#kc-cunning", "2")
    player.select_option("#kc-fierce", "3")
    player.fill("#kc-talent", "Climbing")
    player.fill("#kc-power", "Shadow step")
    player.fill("#kc-flaw", "Curious")
    player.fill("#kc-human", "Lena")
    player.get_by_role("button", name="Create the kitty").click()
    expect(player.locator("#sheet-mochi")).to_be_visible()


def test_a_full_check_with_odds_tier_menu_and_reroll(
    browser: Any, server: Any, screenshots: Path
) -> None:
    gm_context = new_context(browser, viewport={"width": 1280, "height": 900})
    player_context = new_context(browser, viewport={"width": 1280, "height": 900})
    gm, player = gm_context.new_page(), player_context.new_page()
    errors = watch_errors(gm) + watch_errors(player)
    try:
        links = open_table(gm, server.url, "magical-kitties", "Saturday kitties", "Anna")
        screenshots_start = screenshots / "start-page.png"
        gm.screenshot(path=str(screenshots_start), full_page=True)
        gm.locator("#open-table").click()
        expect(gm.locator("#conn")).to_have_attribute("data-state", "live")

        join(player, links["player"], "Ben")
        expect(gm.locator("#people")).to_contain_text("Ben")  # the GM sees the join live
        _gm_setup(gm)
        _create_kitty(player)
        expect(gm.locator("#sheet-mochi")).to_be_visible()

        # The check builder: Fierce 3 + talent 1 + power 2 = 6 dice against difficulty 4.
        player.locator("#check-attr-fierce").check()
        player.select_option("#check-talent", "Climbing")
        player.select_option("#check-power", "Shadow step")
        player.select_option("#check-difficulty", "4")
        chart = player.locator("#check-odds table.odds-chart")
        expect(chart).to_be_visible()
        oracle = _tier_odds(6, 4)
        rows = chart.locator("tbody tr")
        expect(rows).to_have_count(5)
        expect(rows.nth(4).locator("td.num")).to_contain_text(
            f"{oracle[4].numerator}/{oracle[4].denominator}"
        )
        for index, chance in enumerate(oracle):
            shown = _percent(rows.nth(index).locator("td.num").inner_text())
            assert shown == pytest.approx(float(chance) * 100, abs=0.051)
        player.screenshot(path=str(screenshots / "kitties-check-odds.png"), full_page=True)

        before = log_count(gm)
        player.get_by_role("button", name="Roll", exact=True).click()
        last = player.locator("#last-check")
        expect(last).to_be_visible()
        expect(last.locator(".die")).to_have_count(6)
        # The GM sees the roll live, die by die.
        expect(gm.locator("#log > li")).to_have_count(before + 1)
        expect(gm.locator("#log > li").first.locator(".die")).to_have_count(6)
        tier_text = player.locator("#check-tier").inner_text()
        assert tier_text

        # A treat reroll of the chosen dice: pick two dice, see the reroll odds, reroll.
        treats_before = player.locator("#kitty-mochi").inner_text()
        assert "2 of 2" in treats_before
        player.locator("#reroll-die-0").click()
        player.locator("#reroll-die-1").click()
        expect(player.locator("#reroll-die-0")).to_have_attribute("aria-pressed", "true")
        expect(player.locator("#reroll-odds table")).to_be_visible()
        player.get_by_role("button", name="Treat: reroll the chosen dice (2)").click()
        expect(player.locator("#kitty-mochi")).to_contain_text("1 of 2")
        expect(gm.locator("#log > li").first).to_contain_text("rerolls dice: 2")
        expect(gm.locator("#log > li").first.locator(".die")).to_have_count(2)

        # The tier decides the menu: complications are the GM's, bonuses the player's.
        tier = int(player.locator("#check-tier").get_attribute("class").split("tier-")[-1])
        player.screenshot(path=str(screenshots / "kitties-check-result.png"), full_page=True)
        if tier == 2:
            expect(player.locator("#menu-heading")).to_have_count(0)
        else:
            chooser = gm if tier < 2 else player
            entry = chooser.locator("#last-check ul.menu li:not(:has(select)) button:enabled").first
            expect(entry).to_be_enabled()
            label = entry.inner_text()
            entry.click()
            expect(player.locator("#last-check")).to_contain_text("Chosen: " + label)
        assert not errors, errors
    finally:
        gm_context.close()
        player_context.close()


def test_bad_input_changes_nothing_and_a_reload_keeps_everything(
    browser: Any, server: Any, screenshots: Path
) -> None:
    gm_context = new_context(browser, viewport={"width": 1280, "height": 900})
    player_context = new_context(browser, viewport={"width": 1280, "height": 900})
    gm, player = gm_context.new_page(), player_context.new_page()
    errors = watch_errors(gm) + watch_errors(player)
    try:
        links = open_table(gm, server.url, "magical-kitties", "Kitties, take two", "Anna")
        gm.locator("#open-table").click()
        join(player, links["player"], "Ben")
        _gm_setup(gm)
        expect(player.locator("#log > li")).to_have_count(log_count(gm))
        before = log_count(player), log_count(gm)

        # Three times a 3 is not how a kitty starts: a clear message naming the values.
        expect(player.locator("#create-kitty-details")).to_have_attribute("open", "")
        player.fill("#kc-name", "Tiger")
        player.fill("#kc-talent", "Sneaking")
        player.fill("#kc-power", "Tiny roar")
        player.fill("#kc-flaw", "Greedy")
        for attribute in ("cute", "cunning", "fierce"):
            player.select_option(f"#kc-{attribute}", "3")
        player.get_by_role("button", name="Create the kitty").click()
        alert = player.locator("#alert")
        expect(alert).to_be_visible()
        expect(alert).to_contain_text("[3, 3, 3]")
        assert (log_count(player), log_count(gm)) == before
        expect(player.locator(".sheet")).to_have_count(0)
        expect(gm.locator(".sheet")).to_have_count(0)
        # The form keeps what was typed, so the fix is one change away.
        assert player.input_value("#kc-name") == "Tiger"
        player.select_option("#kc-cute", "1")
        player.select_option("#kc-cunning", "2")
        player.get_by_role("button", name="Create the kitty").click()
        expect(gm.locator("#kitty-tiger")).to_be_visible()

        # A check, then a reload: log, sheet, the check and its tier all come back.
        player.get_by_role("button", name="Roll", exact=True).click()
        expect(player.locator("#last-check .die")).to_have_count(1)  # Cute 1
        tier = player.locator("#check-tier").inner_text()
        count = log_count(player)
        sheet = player.locator("#kitty-tiger").inner_text()
        player.reload()
        expect(player.locator("#log > li")).to_have_count(count)
        expect(player.locator("#check-tier")).to_have_text(tier)
        assert player.locator("#kitty-tiger").inner_text() == sheet

        # The same table in German, for the player only.
        player.select_option("#lang-select", "de")
        expect(player.locator("#sheets-heading")).to_have_text("Kätzchen")
        expect(gm.locator("#sheets-heading")).to_have_text("Kitties")
        player.screenshot(path=str(screenshots / "kitties-table-de.png"), full_page=True)
        # GM-only controls stay with the GM.
        expect(player.locator("#start-scene, #end-scene, #reveal-button")).to_have_count(0)
        expect(player.get_by_role("button", name="Rückgängig")).to_have_count(0)
        expect(gm.locator("#end-scene")).to_be_visible()

        # Auas past the Aua-Limit (2) become an injury, which a treat may avoid.
        for auas in ("1 / 2", "2 / 2"):
            gm.locator("#aua-tiger").click()
            expect(gm.locator("#kitty-tiger")).to_contain_text(auas)
        treats = "2 von 2"
        expect(player.locator("#kitty-tiger")).to_contain_text(treats)
        gm.locator("#aua-tiger").click()
        injuries = player.locator("#kitty-tiger dt:has-text('Verletzungen') + dd")
        expect(injuries).to_have_text("1")
        player.locator("#avoid-tiger").click()
        expect(injuries).to_have_text("0")
        expect(player.locator("#kitty-tiger")).to_contain_text("1 von 2")
        expect(player.locator("#avoid-tiger")).to_have_count(0)

        # The end of the episode: the GM answers the questions, the XP follow from them.
        gm.locator("#end-scene").click()
        expect(gm.locator("#start-scene")).to_be_visible()
        gm.locator("#end-episode-details summary").click()
        gm.locator("#end-saved").check()
        gm.locator("#end-fun").check()
        gm.get_by_role("button", name="End the episode", exact=True).click()
        expect(gm.locator("#start-episode")).to_be_visible()
        expect(gm.locator("#kitty-tiger")).to_contain_text("2 / 5")
        expect(player.locator("#kitty-tiger")).to_contain_text("2 / 5")

        # The GM corrects the XP; the player then levels up with an entry of the list.
        gm.locator("#edit-tiger-details summary").click()
        gm.fill("#edit-tiger-xp", "5")
        gm.locator("#edit-tiger-details").get_by_role("button", name="Save").click()
        level_up = player.locator("#level-tiger-details")
        expect(level_up).to_be_visible()
        player.select_option("#level-tiger-entry", "aua_limit")
        level_up.get_by_role("button", name="Aufsteigen").click()
        expect(gm.locator("#sheet-tiger")).to_contain_text("Level 2")
        expect(gm.locator("#kitty-tiger")).to_contain_text("2 / 3")  # Aua-Limit 3 now
        expect(level_up).to_have_count(0)
        assert not errors, errors
    finally:
        gm_context.close()
        player_context.close()
