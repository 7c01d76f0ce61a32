"""Forms wrap inside their region: on a GM's page at 1280 × 900 and on a phone (375 × 812),
in every game with its usual controls shown (a fight running, a sheet with a weapon, every
folded part opened), no control reaches past the edge of the region that holds it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browser_helpers import ApiTable, new_context, watch_errors
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

VIEWPORTS = {"wide": {"width": 1280, "height": 900}, "phone": {"width": 375, "height": 812}}

ATTRIBUTES = dict.fromkeys(
    ["staerke", "konstitution", "agilitaet", "geschick", "intelligenz"], 3
) | dict.fromkeys(["wahrnehmung", "willenskraft", "charisma"], 2)


def _free_dice(table: ApiTable) -> None:
    table.send({"kind": "add_combatant", "id": "rat", "name": "Rat", "initiative": "10"})
    table.send({"kind": "add_combatant", "id": "bat", "name": "Bat", "initiative": "12"})
    table.send({"kind": "roll_initiative"})
    table.send({"kind": "start_fight"})


def _kitties(table: ApiTable) -> None:
    table.send(
        {
            "kind": "create_kitty",
            "id": "mia",
            "name": "Mia",
            "attributes": {"cute": 3, "cunning": 2, "fierce": 1},
            "talents": ["Climbing"],
            "powers": [{"name": "Teleport"}],
            "flaw": "Lazy",
        }
    )
    table.send({"kind": "start_episode"})
    table.send({"kind": "start_scene"})


def _hexxen(table: ApiTable) -> None:
    table.send(
        {
            "kind": "create_hunter",
            "id": "ada",
            "name": "Ada",
            "attributes": {"KKR": 3, "ATH": 2, "GES": 3, "SIN": 3, "WIS": 1, "WIL": 2},
            "skills": {"Parieren": 3, "Nahkampf": 3},
        }
    )
    table.send(
        {
            "kind": "create_npc",
            "id": "wolf",
            "name": "Werwolf",
            "npc_kind": "anfuehrer",
            "level": 2,
            "statblock": "INI 8\nLeP 20\nHandlungen 2\n(N) Klauenhieb Angriff 4, Schaden 3",
        }
    )
    table.send({"kind": "start_fight"})


def _kreiswanderer(table: ApiTable) -> None:
    for being_id, name, side in (("ada", "Ada", "party"), ("gob", "Gob", "foes")):
        table.send(
            {
                "kind": "create_being",
                "id": being_id,
                "sheet": {
                    "name": name,
                    "side": side,
                    "attributes": ATTRIBUTES,
                    "skills": {"schwerter": {"depth": 2, "value": 4}},
                    "hp": 30,
                    "weapons": [{"name": "Langschwert der Morgenröte", "skill": "schwerter"}],
                },
            }
        )


def _dnd5e(table: ApiTable) -> None:
    table.send(
        {
            "kind": "add_character",
            "id": "ada",
            "name": "Ada",
            "ac": 10,
            "hp": 9,
            "speeds": {"walk": 9},
            "abilities": {"str": 10, "dex": 10},
            "attacks": ["Club: +4, 5 (1d6+2) bludgeoning"],
            "bonus_actions": [],
            "position": "b2",
        }
    )
    table.send({"kind": "add_monster", "id": "goblin", "monster": "goblin", "position": "c2"})
    table.send({"kind": "start_combat", "rolls": {"ada": 20, "goblin": 1}})


SETUP: dict[str, tuple[Callable[[ApiTable], None], dict[str, Any] | None]] = {
    "free-dice": (_free_dice, None),
    "magical-kitties": (_kitties, None),
    "kilkenny": (lambda table: None, {"players": 2, "seats": [{"player": "human"}] * 2}),
    "hexxen": (_hexxen, None),
    "kreiswanderer": (_kreiswanderer, None),
    "dnd5e": (_dnd5e, None),
}

OVERFLOWING = """() => {
  // Open every folded part, then list the controls that reach past their region's edges.
  for (const d of document.querySelectorAll('#table details')) d.open = true;
  const out = [];
  const controls = '#table input, #table select, #table textarea, #table button';
  for (const c of document.querySelectorAll(controls)) {
    const region = c.closest('.region');
    // A map or board pans inside its frame on purpose.
    if (!region || c.closest('.zoom-frame, svg')) continue;
    const r = c.getBoundingClientRect(), box = region.getBoundingClientRect();
    if (!r.width || !r.height || !box.width) continue;
    if (r.left < box.left - 1 || r.right > box.right + 1) {
      out.push(`${c.id || c.name || c.tagName}: ${Math.round(r.left)}–${Math.round(r.right)}`
        + ` outside ${region.id} ${Math.round(box.left)}–${Math.round(box.right)}`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("viewport", sorted(VIEWPORTS))
@pytest.mark.parametrize("system", sorted(SETUP))
def test_no_control_reaches_past_its_region(
    browser: Any, server: Any, system: str, viewport: str
) -> None:
    context = new_context(browser, viewport=VIEWPORTS[viewport])
    page = context.new_page()
    errors = watch_errors(page)
    try:
        setup, options = SETUP[system]
        table = ApiTable(server.url, page, system, options)
        setup(table)
        table.open()
        expect(page.locator("#gm-tools")).to_be_attached()
        problems: list[str] = []
        tabs = page.locator("#table-tabs .tab")
        names = tabs.evaluate_all("ts => ts.map((t) => t.id)") if viewport == "phone" else [None]
        for tab in names:
            if tab:
                page.locator("#" + tab).click()
            problems += page.evaluate(OVERFLOWING)
        assert not problems, problems
        assert not errors, errors
    finally:
        context.close()
