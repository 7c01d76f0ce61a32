"""Magic Missile's darts split over two creatures in the cast form: the form says how many darts
the slot makes, asks for exactly that many, shows each creature's odds for its darts and casts
one dart per line of the result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from browser_helpers import join, new_context, open_table, watch_errors
from playwright.sync_api import expect
from test_dnd5e_spells_in_browser import add_caster, add_monster


def test_darts_split_over_two_knights(browser: Any, server: Any, screenshots: Path) -> None:
    contexts = [new_context(browser) for _ in range(2)]
    gm, wendy = (c.new_page() for c in contexts)
    errors = watch_errors(gm) + watch_errors(wendy)
    try:
        links = open_table(gm, server.url, "dnd5e", "Tower", "Greta")
        gm.locator("#open-table").click()
        join(wendy, links["player"], "Wendy")
        numbers = {"score": "18", "level": "5", "dc": "14", "attack": "6", "slots": "4, 3"}
        add_caster(wendy, "Wiz", "a1", "int", "Magic Missile", **numbers)
        add_monster(gm, "knight", "c3", "knight")
        add_monster(gm, "knight", "d4", "knight-2")
        for who, roll in (("wiz", "20"), ("knight", "2")):
            gm.fill(f"#dd-ini-{who}", roll)
        gm.fill("#dd-ini-knight-2", "1")
        gm.locator("#dd-start").click()
        expect(wendy.locator("#dd-round")).to_have_text("Round 1 · Wiz's turn")

        wendy.select_option("#dd-cast-spell", "magic-missile")
        expect(wendy.locator("#dd-cast-missiles")).to_contain_text("3 missiles")
        wendy.check("#dd-cast-target-knight")
        # all three darts at one knight: 3 × (1d4 + 1), 10.5 on average
        expect(wendy.locator("#dd-cast-odds-knight")).to_have_text(
            "Knight: no roll, on average 10.5"
        )
        wendy.check("#dd-cast-target-knight-2")
        expect(wendy.locator("#dd-cast-why")).to_have_text(
            "Split exactly 3 missiles over the targets (2 now)."
        )
        expect(wendy.locator("#dd-cast-go")).to_be_disabled()
        wendy.fill("#dd-cast-darts-knight", "2")
        expect(wendy.locator("#dd-cast-why")).to_have_count(0)
        expect(wendy.locator("#dd-cast-odds-knight")).to_have_text("Knight: no roll, on average 7")
        expect(wendy.locator("#dd-cast-odds-knight-2")).to_have_text(
            "Knight: no roll, on average 3.5"
        )
        wendy.select_option("#dd-cast-slot", "2")  # four darts: 2 + 1 asks for one more
        expect(wendy.locator("#dd-cast-why")).to_contain_text("4 missiles")
        wendy.fill("#dd-cast-darts-knight-2", "2")
        expect(wendy.locator("#dd-cast-odds-knight-2")).to_have_text(
            "Knight: no roll, on average 7"
        )
        found = Axe().run(wendy).response["violations"]
        assert [v["id"] for v in found if v["impact"] in ("serious", "critical")] == []
        wendy.screenshot(path=str(screenshots / "dnd5e-darts-split.png"), full_page=True)
        wendy.locator("#dd-cast-go").click()

        for page in (gm, wendy):
            expect(page.locator("#dd-cast-result li")).to_have_count(4)
            expect(page.locator("#dd-cast-result-knight-2-2")).to_have_attribute(
                "data-outcome", "affected"
            )
        expect(wendy.locator("#dd-f-wiz-slots")).to_contain_text("level 2 2/3")
        assert errors == []
    finally:
        for context in contexts:
            context.close()
