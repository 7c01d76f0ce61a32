"""The D&D 5e route preview keeps the answer of the route shown: each preview request has its
own key (the move command and the records the page holds), so an answer for an older route
that arrives after the newer one's never replaces it. The server's answer for the shorter
route is held back until the longer route's preview shows, then let through."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import ApiTable, new_context, watch_errors
from playwright.sync_api import Route, expect

pytestmark = pytest.mark.browser

SETTLED = """
(() => {
  // Count the odds answers the page has finished with: a macrotask after the answer's JSON
  // is read runs once every promise chained on it (the preview's handler) has run.
  window.oddsSettled = 0;
  const plain = window.fetch.bind(window);
  window.fetch = async (...args) => {
    const response = await plain(...args);
    if (!String(args[0]).includes("/odds")) return response;
    const read = response.json.bind(response);
    response.json = async () => {
      const value = await read();
      setTimeout(() => { window.oddsSettled += 1; }, 0);
      return value;
    };
    return response;
  };
})();
"""

ADA = {
    "kind": "add_character",
    "id": "ada",
    "name": "Ada",
    "ac": 15,
    "hp": 30,
    "abilities": {"str": 14, "dex": 14},
    "attacks": ["Longsword: +5, 7 (1d8+3) slashing"],
    "position": "b2",
}
GOB = {
    "kind": "add_monster",
    "id": "gob",
    "sheet": {
        "id": "gob",
        "name": "Gob",
        "ac": 13,
        "hp": 30,
        "abilities": {"dex": 10},
        "attacks": ["Claw: +4, 5 (1d6+2) slashing"],
    },
    "position": "j10",
}


def test_a_late_answer_for_an_older_route_never_replaces_the_newer(
    browser: Any, server: Any
) -> None:
    context = new_context(browser)
    context.add_init_script(SETTLED)
    page = context.new_page()
    errors = watch_errors(page)
    held: list[Route] = []

    def hold_the_first(route: Route) -> None:
        command = (route.request.post_data_json or {}).get("command", {})
        if command.get("kind") == "move" and len(command.get("steps", [])) == 1 and not held:
            held.append(route)  # answered later, after the longer route's
        else:
            route.continue_()

    try:
        table = ApiTable(server.url, page, "dnd5e")
        table.send(ADA)
        table.send(GOB)
        table.send({"kind": "start_combat", "rolls": {"ada": 20, "gob": 1}})
        table.open()
        page.route("**/api/tables/*/odds*", hold_the_first)
        page.locator("#dd-token-ada").click()
        expect(page.locator("#dd-route")).to_contain_text("Route of")
        page.locator("#dd-sq-b3").click(force=True)
        page.locator("#dd-sq-b4").click(force=True)
        cost = page.locator("#dd-route-cost")
        expect(cost).to_have_text("b2 → b3 → b4: costs 3 m, 6 m left.")
        assert len(held) == 1
        before = page.evaluate("window.oddsSettled")
        held[0].continue_()
        page.wait_for_function("(n) => window.oddsSettled > n", arg=before)
        # the late answer for b2 → b3 was dropped: the preview is still the longer route's
        expect(cost).to_have_text("b2 → b3 → b4: costs 3 m, 6 m left.")
        expect(page.locator("#dd-sq-b4")).to_have_class("map-square is-route")
        assert errors == []
    finally:
        page.unroute("**/api/tables/*/odds*")
        context.close()
