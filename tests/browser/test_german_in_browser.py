"""German at the table: decimal commas, counted nouns in their number, sides and options in
words (issue 26, item 8)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import ApiTable
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

ATTRIBUTES = {
    "staerke": 3,
    "konstitution": 3,
    "agilitaet": 2,
    "geschick": 3,
    "intelligenz": 2,
    "wahrnehmung": 2,
    "willenskraft": 2,
    "charisma": 1,
}


def being(being_id: str, name: str, side: str) -> dict[str, Any]:
    return {
        "kind": "create_being",
        "id": being_id,
        "sheet": {
            "name": name,
            "side": side,
            "attributes": ATTRIBUTES,
            "skills": {"schwerter": {"depth": 2, "value": 4}},
            "hp": 30,
            "weapons": [{"name": "Schwert", "skill": "schwerter"}],
            "haltungen": {"sturm": {"modifiers": {"schwerter": 2}}},
        },
    }


def test_half_an_ap_is_written_with_a_decimal_comma(server: Any, gm_page: Page) -> None:
    table = ApiTable(server.url, gm_page, "kreiswanderer", language="de")
    table.send(being("ada", "Ada", "party"))
    table.send(being("gob", "Gob", "foes"))
    table.send({"kind": "start_combat", "combatants": ["ada", "gob"]})
    table.send({"kind": "assign_dice", "being": "ada", "dodge": 1})
    table.send({"kind": "assign_dice", "being": "gob", "dodge": 1})
    current = table.state()["fight"]["current"]
    (record,) = table.send(
        {"kind": "switch_haltung", "being": current, "haltung": "sturm", "active": True}
    )
    assert any(e["kind"] == "ap_spent" for e in record["events"])
    table.open()
    name = "Ada" if current == "ada" else "Gob"
    expect(table.entry(record["seq"])).to_contain_text(f"{name} gibt 0,5 Ap aus")


def test_sides_and_counted_nouns_in_german_words(server: Any, gm_page: Page) -> None:
    table = ApiTable(server.url, gm_page, "dnd5e", language="de")
    table.send(
        {
            "kind": "add_character",
            "id": "ada",
            "name": "Ada",
            "ac": 12,
            "hp": 9,
            "speeds": {"walk": 9},
            "abilities": {"str": 10, "dex": 10},
            "attacks": ["Keule: +4, 5 (1d6+2) bludgeoning"],
            "position": "b2",
        }
    )
    table.send({"kind": "add_monster", "id": "goblin", "monster": "goblin", "position": "e5"})
    (hurt,) = table.send({"kind": "damage", "target": "goblin", "amount": 3, "type": "bludgeoning"})
    table.open()
    expect(table.entry(hurt["seq"])).to_contain_text("Goblin erleidet 3 Schaden (Wucht).")
    expect(gm_page.locator("#dd-f-ada")).to_contain_text("Seite: Gruppe")
    expect(gm_page.locator("#dd-f-goblin")).to_contain_text("Seite: Gegner")

    free = ApiTable(server.url, gm_page, "free-dice", language="de")
    (painted,) = free.send({"kind": "paint", "squares": ["b2"], "terrain": "difficult"})
    (rolled,) = free.send({"kind": "roll", "expression": "4W6kh3"})
    free.open()
    expect(free.entry(painted["seq"])).to_contain_text("1 Feld bemalt")
    # The notation is echoed as typed, German W and all.
    expect(free.entry(rolled["seq"]).locator(".log-outcome")).to_contain_text("(4W6kh3)")
