"""Spirit Guardians on the D&D 5e page: the cast box offers the damage type (radiant first)
and the spared creatures (the caster's side checked to begin with), and sends what was
chosen; a route into the area shows the mover's Wisdom save with its exact odds and the
damage, halved on a save. The odds are checked against an enumeration written here."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from browser_helpers import ApiTable, new_context, watch_errors
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CLERIC = {
    "ability": "wis",
    "level": 5,
    "save_dc": 13,
    "attack_bonus": 5,
    "slots": [4, 3, 2],
    "spells": ["spirit-guardians", "bless"],
}


def hero(id_: str, position: str, **extra: Any) -> dict[str, Any]:
    """A player character (AC 15, 40 HP, walk 9 m)."""
    return {
        "kind": "add_character",
        "id": id_,
        "name": id_.title(),
        "ac": 15,
        "hp": 40,
        "abilities": {"str": 14, "dex": 14, "con": 12, "wis": 16},
        "attacks": ["Mace: +4, 5 (1d6+2) bludgeoning"],
        "position": position,
        **extra,
    }


GOB = {
    "kind": "add_monster",
    "id": "gob",
    "sheet": {
        "id": "gob",
        "name": "Gob",
        "ac": 13,
        "hp": 60,
        "abilities": {"dex": 10, "wis": 10},
        "attacks": ["Claw: +4, 5 (1d6+2) slashing"],
    },
    "position": "f1",
}
"""Gob (Wis 10: +0 against DC 13) at f1, 7.5 m from Cleo at a1: outside the 4.5 m area."""


def enumerated_mean() -> Fraction:
    """The mean damage of entering: every d20 and every 3d8, halved (down) when d20 >= 13."""
    total = Fraction(0)
    for d20 in range(1, 21):
        for faces in itertools.product(range(1, 9), repeat=3):
            total += sum(faces) // 2 if d20 >= 13 else sum(faces)
    return total / (20 * 512)


def test_spirit_guardians_cast_with_choices_and_the_odds_of_entering(
    browser: Any, server: Any
) -> None:
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e")
        table.send(hero("cleo", "a1", spellcasting=CLERIC))
        table.send(hero("ada", "a2"))
        table.send(GOB)
        table.send({"kind": "start_combat", "rolls": {"cleo": 20, "gob": 10, "ada": 1}})
        table.open()

        page.select_option("#dd-cast-spell", "spirit-guardians")
        kinds = page.locator("#dd-cast-dtype option")
        expect(kinds).to_have_text(["radiant", "necrotic"])
        expect(page.locator("#dd-cast-dtype")).to_have_value("radiant")
        # the caster's side is spared to begin with: Ada, not Gob
        expect(page.locator("#dd-cast-spare-ada")).to_be_checked()
        expect(page.locator("#dd-cast-spare-gob")).not_to_be_checked()
        expect(page.locator("#dd-cast-spare-cleo")).to_have_count(0)
        page.select_option("#dd-cast-dtype", "necrotic")
        page.locator("#dd-cast-spare-ada").uncheck()
        page.locator("#dd-cast-go").click()
        expect(page.locator("#dd-sq-b1")).to_have_class("map-square is-aura")
        aura = table.state()["auras"][0]
        # necrotic, and Ada (a2, inside) is no longer spared
        assert (aura["caster"], aura["damage_type"], aura["affected"]) == (
            "cleo",
            "necrotic",
            ["ada"],
        )

        # Gob's turn: its route e1 → d1 enters the area on d1 (4.5 m from Cleo)
        table.send({"kind": "end_turn"})
        expect(page.locator("#dd-round")).to_have_text("Round 1 · Gob's turn")
        page.locator("#dd-token-gob").click()
        expect(page.locator("#dd-route")).to_contain_text("Route of")
        page.locator("#dd-sq-e1").click(force=True)
        expect(page.locator("#dd-route-cost")).to_contain_text("f1 → e1")
        expect(page.locator("#dd-route-aura")).to_have_count(0)
        page.locator("#dd-sq-d1").click(force=True)
        line = page.locator("#dd-route-aura")
        expect(line).to_contain_text("Step 2 enters Cleo's Spirit Guardians on d1: a Wisdom save,")
        # d20 + 0 >= 13: 8 faces of 20
        expect(page.locator("#dd-route-aura-save")).to_have_text("P(save) 40.0 % (2/5)")
        expect(page.locator("#dd-route-aura-fail")).to_have_text("P(fail) 60.0 % (3/5)")
        mean = f"{float(enumerated_mean()):.1f}"
        expect(page.locator("#dd-route-aura-mean")).to_have_text(
            f"— {mean} damage on average, half on a save."
        )
        # the chart: 1 (half of 3, rounded down) to 24 damage
        line.locator("summary").click()
        rows = line.locator(".odds-chart tbody tr")
        expect(rows.first.locator("th")).to_have_text("1 damage")
        expect(rows.last.locator("th")).to_have_text("24 damage")
        assert errors == []
    finally:
        context.close()
