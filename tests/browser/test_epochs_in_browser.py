"""The table page shows the seed epochs and what each covers, and verifies them in the page."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import join, new_context, open_table, watch_errors
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def _roll(page: Page, expression: str, count: int) -> None:
    page.fill("#fd-expression", expression)
    page.get_by_role("button", name="Roll", exact=True).click()
    expect(page.locator("#log > li")).to_have_count(count)


def _reveal(page: Page, epochs: int) -> None:
    page.get_by_role("button", name="Reveal the seed").click()
    page.locator("#reveal-dialog-yes").click()
    expect(page.locator("#epochs > li")).to_have_count(epochs)


def test_epochs_are_shown_and_verified_and_the_table_rolls_on(browser: Any, server: Any) -> None:
    gm_context, player_context = new_context(browser), new_context(browser)
    gm, player = gm_context.new_page(), player_context.new_page()
    errors = watch_errors(gm) + watch_errors(player)
    gm.on("dialog", lambda dialog: dialog.accept())
    try:
        links = open_table(gm, server.url, "free-dice", "Epochs", "Gregor")
        gm.locator("#open-table").click()
        join(player, links["player"], "Pia")
        expect(gm.locator("#epochs > li")).to_have_count(1)
        expect(gm.locator('#epochs > li[data-epoch="1"]')).to_contain_text("entries from no. 1 on")

        _roll(gm, "2d6", 1)  # entry 1
        _reveal(gm, 2)
        _roll(gm, "1d20", 2)  # entry 2: the table rolls on after the reveal
        _roll(player, "3d6", 3)  # entry 3
        _reveal(gm, 3)
        _roll(player, "1d8", 4)  # entry 4, in the open third epoch

        epochs = player.locator("#epochs > li")
        expect(epochs).to_have_count(3)
        expect(epochs.nth(0)).to_contain_text("Epoch 1 · entries no. 1–1")
        expect(epochs.nth(1)).to_contain_text("Epoch 2 · entries no. 2–3")
        expect(epochs.nth(2)).to_contain_text("Epoch 3 · entries from no. 4 on")
        expect(epochs.nth(2)).to_have_attribute("data-status", "open")
        expect(epochs.nth(2)).to_contain_text("stays secret")
        expect(epochs.nth(0).locator("code")).to_have_count(3)  # commitment, link and seed
        # Every epoch shows its link, the one the export carries.
        links = player.locator("#epochs code.chain")
        expect(links).to_have_count(3)
        exported = player.evaluate(
            """async () => {
              const core = await import('/static/js/core.js');
              const id = location.pathname.split('/').pop();
              const data = await core.api('GET', `/api/tables/${id}/export`,
                { token: core.myTable(id).token });
              return data.fair.epochs.map((e) => e.chain);
            }"""
        )
        assert links.all_text_contents() == exported

        player.locator("#verify-button").click()
        verdict = player.locator("#verify-result")
        expect(verdict).to_contain_text("✓ All 6 rolls match the revealed seed.")
        expect(verdict).to_contain_text("1 rolls of the current epoch are checked once")
        expect(epochs.nth(0).locator(".badge")).to_have_text("✓ 2 draws match")
        expect(epochs.nth(1).locator(".badge")).to_have_text("✓ 4 draws match")
        expect(epochs.nth(2).locator(".badge")).to_have_text("not revealed yet")

        # A die changed in the second epoch is found there, by the page's own check.
        forged = player.evaluate(
            """async () => {
              const core = await import('/static/js/core.js');
              const { verifyExport } = await import('/static/js/verify.js');
              const id = location.pathname.split('/').pop();
              const data = await core.api('GET', `/api/tables/${id}/export`,
                { token: core.myTable(id).token });
              const draw = data.records[2].draws[0];
              draw.value = draw.value % 6 + 1;
              return verifyExport(data);
            }"""
        )
        assert forged["ok"] is False
        assert {k: forged["mismatch"][k] for k in ("kind", "seq", "index", "epoch")} == {
            "kind": "value",
            "seq": 3,
            "index": 0,
            "epoch": 2,
        }
        # So is a boundary moved back over the second epoch: its link no longer fits.
        moved = player.evaluate(
            """async () => {
              const core = await import('/static/js/core.js');
              const { verifyExport } = await import('/static/js/verify.js');
              const id = location.pathname.split('/').pop();
              const data = await core.api('GET', `/api/tables/${id}/export`,
                { token: core.myTable(id).token });
              data.fair.epochs[2].start = 3;
              return verifyExport(data);
            }"""
        )
        assert moved["ok"] is False and moved["mismatch"] is None
        assert {k: moved["chain"][k] for k in ("kind", "epoch", "start")} == {
            "kind": "link",
            "epoch": 3,
            "start": 3,
        }
        assert not errors, errors
    finally:
        gm_context.close()
        player_context.close()
