"""The free table asks the server which of its buttons can work: start a fight before anyone
has initiative, damage on a track at 0 and healing of a full track are disabled with the
reason; a secret combatant's buttons are asked about as hidden records, so they stay usable."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import ApiTable, open_table, post
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def _add(page: Page, name: str, tracks: str, at: str, *, secret: bool = False) -> None:
    page.fill("#fd-add-name", name)
    page.fill("#fd-add-ini", "10")
    page.fill("#fd-add-tracks", tracks)
    page.fill("#fd-add-at", at)
    if secret:
        page.locator("#fd-add-secret").check()
    page.locator("#fd-add-submit").click()
    expect(page.locator("#fd-tracker")).to_contain_text(name)
    # The form empties once the answer is in (the tracker may show the entry before, by the
    # socket): the next entry waits for that, or the emptying takes it away.
    expect(page.locator("#fd-add-name")).to_have_value("")


def test_free_table_buttons_that_cannot_work_are_disabled(server: Any, gm_page: Page) -> None:
    gm = gm_page  # its browser is closed after the test, which fails on a script error
    open_table(gm, server.url, "free-dice", "Legal", "Greta")
    gm.locator("#open-table").click()
    expect(gm.locator("#conn")).to_have_attribute("data-state", "live")
    _add(gm, "Rat", "HP 1", "a1")
    # Nobody has rolled initiative: no fight can start.
    start = gm.locator("#fd-start-fight")
    expect(start).to_be_disabled()
    expect(start).to_have_attribute("data-reason", "freedice.nobody_has_initiative")
    # HP 1 of 1: healing changes nothing, damage works.
    heal, damage = gm.locator("#fd-heal-rat-0"), gm.locator("#fd-dmg-rat-0")
    expect(heal).to_be_disabled()
    full = "Rat: HP is already full (1), healing would change nothing."
    expect(heal).to_have_attribute("title", full)
    expect(damage).to_be_enabled()
    damage.click()
    expect(gm.locator("#fd-track-rat-0")).to_have_text("HP 0/1")
    # 1 − 1 = 0: now damage changes nothing and healing works.
    expect(gm.locator("#fd-dmg-rat-0")).to_be_disabled()
    expect(gm.locator("#fd-dmg-rat-0")).to_have_attribute(
        "title", "Rat: HP is already at 0, damage would change nothing."
    )
    expect(gm.locator("#fd-heal-rat-0")).to_be_enabled()
    # A secret ghost exists on the GM's fold only: asked as hidden, its damage is legal.
    _add(gm, "Ghost", "HP 3", "c3", secret=True)
    expect(gm.locator("#fd-dmg-ghost-0")).to_be_enabled()
    expect(gm.locator("#fd-heal-ghost-0")).to_be_disabled()
    gm.locator("#fd-roll-init").click()
    expect(gm.locator("#fd-c-rat")).to_contain_text("Ini 10")
    expect(gm.locator("#fd-start-fight")).to_be_enabled()


def test_an_answer_for_a_state_that_is_gone_does_not_reach_the_buttons(
    server: Any, gm_page: Page
) -> None:
    """The answer to the asking after the damage is held back until the heal that follows is
    answered: it (damage refused at 0) speaks of a state that is gone and must not disable
    the damage button of HP 1 of 1."""
    gm = gm_page
    table = ApiTable(server.url, gm, "free-dice", title="Late answers")
    table.open()
    _add(gm, "Rat", "HP 1", "a1")
    heal, damage = gm.locator("#fd-heal-rat-0"), gm.locator("#fd-dmg-rat-0")
    expect(heal).to_be_disabled()
    held: list[Any] = []

    def hold_the_first(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    gm.route("**/api/tables/*/check*", hold_the_first)
    damage.click()
    expect(gm.locator("#fd-track-rat-0")).to_have_text("HP 0/1")
    expect(heal).to_be_enabled()  # drawn afresh; the asking about it is held
    for _ in range(1000):  # each round trip to the page lets the held request's handler run
        if held:
            break
        gm.evaluate("0")
    assert held
    # What the server says now, at HP 0 of 1: damage refused, healing fine.
    asked = held[0].request.post_data_json
    stale = post(f"{server.url}/api/tables/{table.id}/check", asked, table.token)
    said = {
        command["change"]: answer["ok"]
        for command, answer in zip(asked["commands"], stale["results"], strict=True)
        if command["kind"] == "change_track"
    }
    assert said == {"damage": False, "heal": True}
    heal.click()
    expect(gm.locator("#fd-track-rat-0")).to_have_text("HP 1/1")
    expect(heal).to_have_attribute("data-reason", "freedice.track_full")
    expect(gm.locator("html")).to_have_attribute("data-legal-asking", "1")  # the held one
    held[0].fulfill(json=stale)
    expect(gm.locator("html")).to_have_attribute("data-legal-asking", "0")
    expect(damage).to_be_enabled()
    expect(damage).not_to_have_attribute("data-reason", "freedice.track_at_floor")
    expect(heal).to_be_disabled()
