"""Kreiswanderer in two browsers: a GM and a player fight to the end.

The player's Ada checks with the odds shown before the roll, edits her sheet, overloads a
Begabung with no magic points left, begins a 2-Ap technique in round 1 and carries it out in
round 2; the GM's goblin falls; in round 3 she dodges with another skill than Akrobatik.
The GM's secret being never reaches the player's page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import join, new_context, open_table, watch_errors
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# Ada: Geschick 2, Schwerter depth 2 value 10: TW 2 × 2 + 10 = 14, so every attack hits a
# target of at most 10 + 2 (a d10 and Agilität 2) and deals at least 15 − 12 + 3 = 6.


def _create(page: Page, name: str, hp: int, *, mp: int = 0, secret: bool = False) -> None:
    details = page.locator("#kw-create-details")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    page.fill("#kw-new-name", name)
    page.fill("#kw-new-hp", str(hp))
    page.fill("#kw-new-mp", str(mp))
    if name == "Ada":
        page.fill("#kw-new-skills", "schwerter 2 10")
        # Weapons as rows: a first one, a second one removed again, the first one filled.
        page.locator("#kw-new-weapons-add").click()
        page.locator("#kw-new-weapons-add").click()
        expect(page.locator("#kw-new-weapons-1-name")).to_be_focused()
        page.locator("#kw-new-weapons-1-remove").click()
        expect(page.locator("#kw-new-weapons-1")).to_have_count(0)
        page.fill("#kw-new-weapons-0-name", "Schwert")
        page.fill("#kw-new-weapons-0-skill", "schwerter")
        page.fill("#kw-new-weapons-0-damage_bonus", "3")
        # A marking of the weapon, as a row inside the weapon's row: 1 extra trauma damage.
        page.locator("#kw-new-weapons-0-markings-add").click()
        page.fill("#kw-new-weapons-0-markings-0-name", "zusatzschaden")
        page.fill("#kw-new-weapons-0-markings-0-value", "1")
        page.fill("#kw-new-weapons-0-markings-0-detail", "TR")
        page.fill("#kw-new-begabungen", "funke")
        # A Haltung with one modifier, a Sonderfertigkeit, both as rows.
        page.locator("#kw-new-haltungen-add").click()
        page.fill("#kw-new-haltungen-0-name", "sturm")
        page.locator("#kw-new-haltungen-0-mods-add").click()
        page.select_option("#kw-new-haltungen-0-mods-0-target", "dodge")
        expect(page.locator("#kw-new-haltungen-0-mods-0-skill")).to_be_disabled()
        page.fill("#kw-new-haltungen-0-mods-0-value", "-2")
        page.locator("#kw-new-sonderfertigkeiten-add").click()
        page.fill("#kw-new-sonderfertigkeiten-0-name", "klingenfluss")
        page.fill("#kw-new-sonderfertigkeiten-0-bonus", "2")
        page.fill("#kw-new-sonderfertigkeiten-0-skills", "schwerter")
    else:
        page.fill("#kw-new-side", "foes")
        page.locator("#kw-new-markings-add").click()
        page.fill("#kw-new-markings-0-name", "defensive")
        page.fill("#kw-new-markings-0-value", "0")
    if secret:
        page.locator("#kw-new-secret").check()
    page.get_by_role("button", name="Create the being").click()
    expect(page.locator(f"#kw-being-{name.lower()}")).to_be_visible()
    expect(page.locator("#kw-new-name")).to_have_value("")


def _until_ada_acts(gm: Page, player: Page) -> None:
    """The GM ends the goblin's turns until it is Ada's."""
    for _ in range(3):
        text = player.locator("#kw-round").inner_text()
        if "Ada is acting" in text:
            return
        gm.locator("#kw-end-turn").click()
        expect(player.locator("#kw-round")).not_to_have_text(text)
    expect(player.locator("#kw-round")).to_contain_text("Ada is acting")


def test_gm_and_player_fight_to_the_end_and_the_secret_stays_secret(
    browser: Any, server: Any, screenshots: Path
) -> None:
    gm_context = new_context(browser, viewport={"width": 1280, "height": 1000})
    player_context = new_context(browser, viewport={"width": 1280, "height": 1000})
    gm, player = gm_context.new_page(), player_context.new_page()
    errors = watch_errors(gm) + watch_errors(player)
    try:
        links = open_table(gm, server.url, "kreiswanderer", "Am Kreis", "Gisela")
        gm.locator("#open-table").click()
        expect(gm.locator("#conn")).to_have_attribute("data-state", "live")
        join(player, links["player"], "Ben")

        # Sheets: the player's Ada, the GM's goblin and a secret lurker.
        _create(player, "Ada", 30)
        expect(gm.locator("#kw-being-ada")).to_be_visible()
        _create(gm, "Goblin", 3)
        _create(gm, "Lauerer", 40, secret=True)
        expect(gm.locator("#kw-being-lauerer")).to_contain_text("secret")
        expect(player.locator("#kw-being-goblin")).to_be_visible()
        expect(player.locator("#kw-being-lauerer")).to_have_count(0)

        # A check with the odds before the roll: Klettern (not on the sheet: basic, 0) with
        # Geschick 2 → TW 2; a pass needs 8 on the d10 (30 %), a critical success 18 (3 %).
        player.select_option("#kw-check-attribute", "geschick")
        player.fill("#kw-check-skill", "klettern")
        player.locator("#kw-check-skill").dispatch_event("change")
        summary = player.locator("#kw-check-summary")
        expect(summary).to_contain_text("Passes: 30.0 %")
        expect(summary).to_contain_text("Critical success: 3.0 %")
        expect(summary).to_contain_text("Critical failure: 0.0 %")
        player.screenshot(path=str(screenshots / "kreiswanderer-check-odds.png"), full_page=True)
        player.locator("#kw-check-submit").click()
        expect(player.locator("#kw-last-check")).to_be_focused()
        expect(player.locator("#kw-last-check .die")).not_to_have_count(0)
        expect(gm.locator("#log > li").first).to_contain_text("Ada, klettern: TW 2")

        # The rows reached the sheet.
        ada_sheet = gm.locator("#kw-being-ada")
        expect(ada_sheet).to_contain_text("Schwert (schwerter; damage +3")
        expect(ada_sheet).to_contain_text("[zusatzschaden 1 TR]")
        expect(ada_sheet).to_contain_text("klingenfluss (+2)")
        expect(player.locator("#kw-haltung-ada-sturm")).to_contain_text("Dodge -2")

        # The player edits her sheet (its rows come filled in); both logs say what changed.
        player.locator("#kw-edit-ada-details summary").click()
        expect(player.locator("#kw-edit-ada-weapons-0-name")).to_have_value("Schwert")
        expect(player.locator("#kw-edit-ada-haltungen-0-mods-0-value")).to_have_value("-2")
        player.fill("#kw-edit-ada-hp", "32")
        player.locator("#kw-edit-ada").get_by_role("button", name="Save").click()
        change = "Sheet of Ada changed: Hit points (maximum): 30 → 32"
        expect(gm.locator("#log > li").first).to_contain_text(change)
        expect(player.locator("#kw-sheet-tp-ada")).to_have_text("30 / 32")

        # Overload: no magic points, the Begabung still works and costs 1d10 hit points.
        begabung = player.locator("#kw-begabung-ada-funke")
        expect(begabung).to_contain_text("overload: 1d10 damage")
        begabung.click()
        expect(gm.locator("#log > li").first).to_contain_text("Overload! Ada casts funke")
        expect(player.locator("#log > li").first).to_contain_text("no resistance")
        hp_after = player.locator("#kw-sheet-tp-ada").inner_text()
        assert hp_after != "30 / 32"
        expect(gm.locator("#kw-sheet-tp-ada")).to_have_text(hp_after)

        # The fight: the GM starts it, each side chooses which die becomes the dodge.
        gm.locator("#kw-join-ada").check()
        gm.locator("#kw-join-goblin").check()
        gm.locator("#kw-start-combat").click()
        choice = player.locator("#kw-assign-ada-0")
        expect(choice).to_contain_text("to dodge")
        expect(gm.locator("#kw-assign-goblin-0")).to_be_visible()
        expect(player.locator("#kw-assign-goblin-0")).to_have_count(0)  # not the player's
        choice.click()
        gm.locator("#kw-assign-goblin-1").click()
        expect(player.locator("#kw-tracker")).to_be_visible()
        expect(player.locator("#kw-round")).to_contain_text("Round 1")
        _until_ada_acts(gm, player)

        # Round 1: a technique for 2 Ap with 1 Ap left is begun, the target broken down (the
        # goblin's dodge is the die the GM chose, read once the GM's page has drawn the turn).
        expect(gm.locator("#kw-round")).to_contain_text("Ada is acting")
        gm_dodge = gm.locator("#kw-row-goblin td").nth(1).inner_text()
        breakdown = player.locator("#kw-attack-breakdown")
        expect(breakdown).to_contain_text(
            f"dodge {gm_dodge} + markings 0 + Führungsschwellen 0 − Durchdringend 0 = {gm_dodge}"
        )
        expect(player.locator("#kw-attack-hit")).to_contain_text("Chance to hit: 100.0 %")
        expect(player.locator("#kw-attack-secondary")).to_contain_text(
            "Zusatzschaden 1 TR → 1 after resistance"
        )
        player.fill("#kw-attack-cost", "2")
        submit = player.locator("#kw-attack-submit")
        expect(submit).to_have_text("Begin a technique for 2 Ap")
        player.screenshot(path=str(screenshots / "kreiswanderer-fight.png"), full_page=True)
        submit.click()
        expect(gm.locator("#kw-techniques-ada")).to_contain_text("1 of 2 Ap paid")
        expect(player.locator("#kw-ap-ada")).to_have_text("0")
        player.locator("#kw-end-turn").click()
        expect(player.locator("#kw-round")).not_to_contain_text("Ada is acting")

        # Round 2: the round start paid the rest; Ada carries the technique out.
        for _ in range(2):
            if "Round 2" in player.locator("#kw-round").inner_text():
                break
            gm.locator("#kw-end-turn").click()
            expect(player.locator("#kw-round")).to_contain_text("Round 2")
        _until_ada_acts(gm, player)
        ready = player.locator("#kw-techniques-ada")
        expect(ready).to_contain_text("Ready: Schwert against Goblin (2 Ap paid)")
        ready.get_by_role("button", name="Carry out").click()
        expect(player.locator("#kw-last-attack")).to_be_focused()
        expect(player.locator("#kw-last-attack")).to_contain_text("Ada hits Goblin with Schwert")
        expect(gm.locator("#log > li").first).to_contain_text("Ada hits Goblin")
        expect(gm.locator("#kw-sheet-tp-goblin")).to_have_text("0 / 3")
        # Fallen: out of the order (no row in the tracker), named below it.
        expect(player.locator("#kw-fallen")).to_contain_text("Goblin")
        expect(player.locator("#kw-row-goblin")).to_have_count(0)
        gm.screenshot(path=str(screenshots / "kreiswanderer-gm.png"), full_page=True)

        # Round 3: Ada dodges with Schwerter instead of Akrobatik (2 × 2 + 10 = 14, not 2).
        for _ in range(3):
            if "Round 3" in player.locator("#kw-round").inner_text():
                break
            text = player.locator("#kw-round").inner_text()
            gm.locator("#kw-end-turn").click()
            expect(player.locator("#kw-round")).not_to_have_text(text)
        expect(player.locator("#kw-round")).to_contain_text("Round 3")
        dodge = player.locator("#kw-dodge-ada")
        expect(dodge).to_contain_text("Dodge with akrobatik: +2")
        player.select_option("#kw-dodge-skill-ada", "schwerter")
        expect(dodge).to_contain_text("Dodge with schwerter: +14")
        dodge.click()
        expect(gm.locator("#log > li").first).to_contain_text("Ada dodges with schwerter: +14")
        expect(player.locator(".kw-reactions")).to_contain_text("dodge +14 until the next round")

        # The GM ends the fight; Ada rests (not allowed while fighting, now allowed).
        gm.locator("#kw-end-combat").click()
        expect(player.locator("#kw-fight")).to_contain_text("No fight")
        player.locator("#kw-rest-ada-details summary").click()
        player.fill("#kw-rest-ada-sleep", "4")
        player.locator("#kw-rest-ada-submit").click()
        expect(gm.locator("#log > li").first).to_contain_text("Ada rests")

        # Nothing of the secret being reached the player: not its name, not its id.
        for text in (player.locator("body").inner_text(), player.content()):
            assert "Lauerer" not in text and "lauerer" not in text
        expect(gm.locator("#kw-being-lauerer")).to_be_visible()
        # GM-only controls stay with the GM.
        expect(player.locator("#kw-end-combat, #kw-start-combat, #reveal-button")).to_have_count(0)
        assert not errors, errors
    finally:
        gm_context.close()
        player_context.close()


def test_the_log_shows_a_fehlqualitaet_as_a_positive_number(browser: Any, server: Any) -> None:
    """A failed check's event carries its Fehlqualität (never negative): the line says 2, not
    -2; a finished accumulation below its target and a critical comparative say so too."""
    context = new_context(browser)
    page = context.new_page()
    try:
        open_table(page, server.url, "kreiswanderer", "Log", "Gisela")
        page.locator("#open-table").click()
        expect(page.locator("#conn")).to_have_attribute("data-state", "live")
        lines = page.evaluate(
            """async () => {
              const game = await import("/static/js/games/kreiswanderer/index.js");
              const beings = [{ id: "ada", name: "Ada" }, { id: "gob", name: "Gob" }];
              const ctx = { state: { beings } };
              const check = { kind: "check_rolled", being: "ada", skills: ["klettern"],
                talent_value: 2, result: 8, target: 10, passed: false, quality: 2 };
              const acc = { kind: "accumulation_rolled", result: 3, total: 7, finished: true,
                quality: -3 };
              const side = (being, result) => ({ being, result, rolls: [], talent_value: 0 });
              const contest = { kind: "comparative_rolled", active: side("ada", 26),
                passive: side("gob", 8), winner: "active", quality: 18, critical: "success" };
              return [check, acc, contest].map((event) => game.describe(event, ctx));
            }"""
        )
        assert "Fehlqualität 2" in lines[0] and "-2" not in lines[0]
        assert "Fehlqualität 3" in lines[1] and "-3" not in lines[1]
        assert "wins by 18" in lines[2] and "critical" in lines[2]
    finally:
        context.close()


def _gm_until(gm: Page, text: str) -> None:
    """The GM ends turns until the round line shows ``text``."""
    for _ in range(8):
        line = gm.locator("#kw-round").inner_text()
        if text in line:
            return
        gm.locator("#kw-end-turn").click()
        expect(gm.locator("#kw-round")).not_to_have_text(line)
    expect(gm.locator("#kw-round")).to_contain_text(text)


def test_the_gm_s_toolbox_trap_reinforcements_the_fallen_and_a_ritual(
    browser: Any, server: Any
) -> None:
    """A trap deals typed damage outside the fight; in the fight a wolf joins, the goblin
    falls and leaves the order, and Ada's ritual of 2 Ap takes two rounds."""
    context = new_context(browser, viewport={"width": 1280, "height": 1000})
    gm = context.new_page()
    errors = watch_errors(gm)
    try:
        open_table(gm, server.url, "kreiswanderer", "Werkzeug", "Gisela")
        gm.locator("#open-table").click()
        expect(gm.locator("#conn")).to_have_attribute("data-state", "live")
        _create(gm, "Ada", 30)
        _create(gm, "Goblin", 3)
        _create(gm, "Wolf", 10)
        expect(gm.locator("#kw-options")).to_contain_text("edition 2")

        # A fire trap outside the fight: 4 BR and, as a further marking, 2 TR of Zusatzschaden;
        # Ada resists neither, and she burns.
        gm.locator("#kw-hurt-ada-details summary").click()
        gm.fill("#kw-hurt-ada-amount", "4")
        gm.select_option("#kw-hurt-ada-type", "BR")
        gm.fill("#kw-hurt-ada-reason", "Feuerfalle")
        gm.locator("#kw-hurt-ada-fire").check()
        gm.locator("#kw-hurt-ada-markings-add").click()
        gm.fill("#kw-hurt-ada-markings-0-name", "zusatzschaden")
        gm.fill("#kw-hurt-ada-markings-0-value", "2")
        gm.fill("#kw-hurt-ada-markings-0-detail", "TR")
        gm.locator("#kw-hurt-ada-submit").click()
        expect(gm.locator("#log > li").first).to_contain_text("Ada takes 4 BR (Feuerfalle)")
        expect(gm.locator("#log > li").first).to_contain_text("6 hit points lost")
        expect(gm.locator("#kw-sheet-tp-ada")).to_have_text("24 / 30")
        expect(gm.locator("#kw-being-ada")).to_contain_text("burning")

        # The fight: Ada and the goblin (every being present is ticked, the GM leaves the
        # wolf out); the wolf joins as reinforcement.
        expect(gm.locator("#kw-join-wolf")).to_be_checked()
        gm.locator("#kw-join-wolf").uncheck()
        gm.locator("#kw-join-ada").check()
        gm.locator("#kw-join-goblin").check()
        gm.locator("#kw-start-combat").click()
        gm.locator("#kw-assign-ada-0").click()
        gm.locator("#kw-assign-goblin-0").click()
        expect(gm.locator("#kw-tracker")).to_be_visible()
        gm.select_option("#kw-join-being", "wolf")
        gm.locator("#kw-join-fight").click()
        expect(gm.locator("#log > li").first).to_contain_text("Wolf joins the fight")
        gm.locator("#kw-assign-wolf-0").click()
        expect(gm.locator("#kw-row-wolf")).to_be_visible()

        # Ada begins a ritual of 2 Ap with her one Ap.
        _gm_until(gm, "Ada is acting")
        gm.fill("#kw-act-name", "Bannkreis")
        gm.fill("#kw-act-cost", "2")
        expect(gm.locator("#kw-act-submit")).to_have_text("Begin the action for 2 Ap")
        gm.locator("#kw-act-submit").click()
        expect(gm.locator("#kw-techniques-ada")).to_contain_text("Begun: Bannkreis, 1 of 2 Ap")

        # A rockfall fells the goblin: it leaves the order, its turns are skipped.
        gm.locator("#kw-hurt-goblin-details summary").click()
        gm.fill("#kw-hurt-goblin-amount", "10")
        gm.fill("#kw-hurt-goblin-reason", "Steinschlag")
        gm.locator("#kw-hurt-goblin-submit").click()
        expect(gm.locator("#log > li").first).to_contain_text("Goblin takes 10 PH (Steinschlag)")
        expect(gm.locator("#kw-fallen")).to_contain_text("Goblin")
        expect(gm.locator("#kw-row-goblin")).to_have_count(0)

        # Round 2: the round start paid the second Ap; Ada carries the ritual out.
        _gm_until(gm, "Round 2")
        _gm_until(gm, "Ada is acting")
        ready = gm.locator("#kw-techniques-ada")
        expect(ready).to_contain_text("Ready: Bannkreis (2 Ap paid)")
        ready.get_by_role("button", name="Carry out").click()
        expect(gm.locator("#log > li").first).to_contain_text("Ada: Bannkreis (2 Ap) is done")
        assert "Goblin is acting" not in gm.locator("#kw-round").inner_text()
        assert not errors, errors
    finally:
        context.close()
