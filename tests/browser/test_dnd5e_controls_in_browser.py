"""The D&D 5e page's controls for the table's later commands, end to end: dropping
concentration from the caster's card, the GM ending the fight and calling a short or a long
rest, dragging a grappled creature along (the box in the move form, the dragged path in the
preview, the drag on the map), the GM's ground heights on picked squares (shown on the map)
and a flying step's height above the ground. Each is checked in the page and through the API.

Ada (AC 15, 20 HP, walk 9 m) is the hand-made fighter of the D&D rule tests; the goblin-like
"Gob" is a typed-in monster (AC 13, 30 HP)."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_helpers import (
    ApiTable,
    into_view,
    join,
    new_context,
    open_table,
    post,
    send_as,
    state_of,
    watch_errors,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

CLERIC = {
    "ability": "wis",
    "level": 3,
    "save_dc": 13,
    "attack_bonus": 5,
    "slots": [4, 2],
    "spells": ["bless"],
}


def hero(id_: str, position: str, **extra: Any) -> dict[str, Any]:
    """A player character (AC 15, 20 HP, walk 9 m, a longsword)."""
    return {
        "kind": "add_character",
        "id": id_,
        "name": id_.title(),
        "ac": 15,
        "hp": 20,
        "abilities": {"str": 14, "dex": 14, "con": 12, "wis": 16},
        "attacks": ["Longsword: +5, 7 (1d8+3) slashing"],
        "position": position,
        **extra,
    }


def foe(id_: str, position: str) -> dict[str, Any]:
    """A typed-in monster (AC 13, 30 HP)."""
    sheet = {
        "id": id_,
        "name": id_.title(),
        "ac": 13,
        "hp": 30,
        "abilities": {"dex": 10},
        "attacks": ["Claw: +4, 5 (1d6+2) slashing"],
    }
    return {"kind": "add_monster", "id": id_, "sheet": sheet, "position": position}


def records(table: ApiTable) -> list[dict[str, Any]]:
    """Every record of the table as its GM sees them (through the API)."""
    request = urllib.request.Request(
        f"{table.base}/api/tables/{table.id}/records",
        headers={"Authorization": "Bearer " + table.token},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return list(json.load(answer)["records"])


def events(table: ApiTable, kind: str) -> list[dict[str, Any]]:
    """The events of ``kind`` in the table's records."""
    return [e for r in records(table) for e in r.get("events", []) if e.get("kind") == kind]


def centre(page: Page, selector: str) -> tuple[float, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found["x"] + found["width"] / 2, found["y"] + found["height"] / 2


def blocking(page: Page) -> list[str]:
    """The serious and critical accessibility violations axe finds on the page."""
    found = Axe().run(page).response["violations"]
    return [v["id"] for v in found if v["impact"] in ("serious", "critical")]


def send_hidden(table: ApiTable, command: dict[str, Any]) -> None:
    """Send ``command`` as the GM, hidden."""
    post(
        f"{table.base}/api/tables/{table.id}/commands",
        {"command": command, "hidden": True, "expected_seq": None},
        table.token,
    )


def test_drop_concentration_end_the_fight_and_rest(browser: Any, server: Any) -> None:
    """Cleo blesses herself with a level 1 slot (3 of 4 left), Gob takes 4 damage: dropping
    concentration ends Bless; Cleo then takes 5 (after the drop, so no concentration save's
    dice decide what the page shows); a long rest outside the fight (Gob left out) restores
    Cleo's 20/20 HP and 4/4 slots, not Gob's. A secret spy rests in a hidden rest of its own."""
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e")
        table.send(hero("cleo", "b1", spellcasting=CLERIC))
        table.send(foe("gob", "f5"))
        send_hidden(table, {**foe("spy", "h8"), "secret": True})
        table.send({"kind": "start_combat", "rolls": {"cleo": 20, "gob": 1}})
        table.send({"kind": "cast", "creature": "cleo", "spell": "bless", "targets": ["cleo"]})
        table.send({"kind": "damage", "target": "gob", "amount": 4})
        table.open()
        expect(page.locator("#dd-f-cleo-concentration")).to_contain_text("Concentrating on Bless")
        expect(page.locator("#dd-f-cleo-slots")).to_contain_text("level 1 3/4")
        expect(page.locator("#dd-rest")).to_have_count(0)  # no rest during a fight
        assert blocking(page) == []

        page.locator("#dd-f-cleo-drop").click()
        expect(page.locator("#dd-f-cleo-concentration")).to_have_count(0)
        expect(page.locator("#log")).to_contain_text("Cleo stops concentrating on Bless.")
        assert table.state()["casting"]["cleo"]["concentration"] is None
        table.send({"kind": "damage", "target": "cleo", "amount": 5})
        expect(page.locator("#dd-f-cleo-hp")).to_have_text("HP 15/20")

        page.locator("#dd-end-combat").click()
        expect(page.locator("#dd-round")).to_contain_text("No fight yet")
        expect(page.locator("#log")).to_contain_text("The fight is over.")
        assert table.state()["combat"] is None
        expect(page.locator("#dd-end-combat")).to_have_count(0)

        expect(page.locator("#dd-f-cleo-hp")).to_have_text("HP 15/20")
        page.locator("#dd-rest-short").click()
        expect(page.locator("#log")).to_contain_text("Short rest: Cleo, Gob.")
        expect(page.locator("#log")).to_contain_text("Short rest: Spy.")
        expect(page.locator("#dd-f-cleo-hp")).to_have_text("HP 15/20")  # no hit points back
        page.locator("#dd-rest-who-gob").uncheck()
        page.locator("#dd-rest-long").click()
        expect(page.locator("#log")).to_contain_text("Long rest: Cleo regain")
        expect(page.locator("#log")).to_contain_text("Long rest: Spy regain")
        expect(page.locator("#dd-f-cleo-hp")).to_have_text("HP 20/20")
        expect(page.locator("#dd-f-gob-hp")).to_have_text("HP 26/30")
        expect(page.locator("#dd-f-cleo-slots")).to_contain_text("level 1 4/4")
        hp = {f["id"]: f["hp"] for f in table.state()["fighters"]}
        assert hp == {"cleo": 20, "gob": 26, "spy": 30}
        rests = [
            (r["hidden"], e["length"], e["creatures"])
            for r in records(table)
            for e in r["events"]
            if e["kind"] == "rested"
        ]
        assert rests == [
            (False, "short", ["cleo", "gob"]),
            (True, "short", ["spy"]),
            (False, "long", ["cleo"]),
            (True, "long", ["spy"]),
        ]
        # with nobody ticked there is nothing to rest
        page.locator("#dd-rest-who-cleo").uncheck()
        page.locator("#dd-rest-who-spy").uncheck()
        expect(page.locator("#dd-rest-long")).to_be_disabled()
        expect(page.locator("#dd-rest-long")).to_have_attribute(
            "title", "Tick at least one creature to rest."
        )
        assert errors == []
    finally:
        context.close()


def test_a_player_stops_their_own_casters_concentration_only(browser: Any, server: Any) -> None:
    """Pia's Cleo and the GM's Wiz both concentrate on Bless: Pia may stop Cleo's (in Wiz's
    turn: it is free), not Wiz's; the GM may stop either."""
    contexts = [new_context(browser) for _ in range(2)]
    gm, pia = (c.new_page() for c in contexts)
    errors = watch_errors(gm) + watch_errors(pia)
    try:
        links = open_table(gm, server.url, "dnd5e", "Bless", "Greta")
        gm.locator("#open-table").click()
        join(pia, links["player"], "Pia")
        table = links["table"]
        assert send_as(pia, table, hero("cleo", "b1", spellcasting=CLERIC))["status"] == 200
        assert send_as(gm, table, hero("wiz", "c1", spellcasting=CLERIC))["status"] == 200
        assert send_as(gm, table, foe("gob", "h8"))["status"] == 200
        start = {"kind": "start_combat", "rolls": {"cleo": 20, "wiz": 10, "gob": 1}}
        assert send_as(gm, table, start)["status"] == 200
        bless = {"kind": "cast", "spell": "bless", "targets": ["cleo", "wiz"]}
        assert send_as(pia, table, {**bless, "creature": "cleo"})["status"] == 200
        assert send_as(pia, table, {"kind": "end_turn"})["status"] == 200
        assert send_as(gm, table, {**bless, "creature": "wiz"})["status"] == 200
        for page in (gm, pia):
            expect(page.locator("#dd-f-wiz-concentration")).to_contain_text("Bless")
            expect(page.locator("#dd-f-cleo-drop")).to_have_text("Stop concentrating on Bless")
        expect(gm.locator("#dd-f-wiz-drop")).to_have_count(1)
        expect(pia.locator("#dd-f-wiz-drop")).to_have_count(0)
        # the table refuses it too: Wiz is not Pia's
        refused = send_as(pia, table, {"kind": "drop_concentration", "creature": "wiz"})
        assert refused["status"] == 403
        pia.locator("#dd-f-cleo-drop").click()
        for page in (gm, pia):
            expect(page.locator("#dd-f-cleo-concentration")).to_have_count(0)
            expect(page.locator("#dd-f-wiz-concentration")).to_contain_text("Bless")
            expect(page.locator("#dd-round")).to_contain_text("Wiz's turn")
        assert state_of(pia, table)["casting"]["cleo"]["concentration"] is None
        assert state_of(gm, table)["casting"]["wiz"]["concentration"]["spell"] == "bless"
        gm.locator("#dd-f-wiz-drop").click()
        for page in (gm, pia):
            expect(page.locator("#dd-f-wiz-concentration")).to_have_count(0)
        assert state_of(gm, table)["casting"]["wiz"]["concentration"] is None
        assert send_as(gm, table, {"kind": "end_combat"})["status"] == 200
        expect(pia.locator("#dd-round")).to_contain_text("No fight yet")
        expect(pia.locator("#dd-end-combat")).to_have_count(0)  # the GM's alone
        expect(pia.locator("#dd-rest")).to_have_count(0)
        assert errors == []
    finally:
        for context in contexts:
            context.close()


def test_a_grappled_creature_is_dragged_along_on_the_map(browser: Any, server: Any) -> None:
    """Ada at e5 grapples Gob at f5; dragging him to d5 pulls Gob from f5 to e5. A drag halves
    her speed: 1.5 m of 4.5 m, 3 m left."""
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e", {"width": 10, "height": 10})
        table.send(hero("ada", "e5"))
        table.send(foe("gob", "f5"))
        table.send({"kind": "start_combat", "rolls": {"ada": 20, "gob": 1}})
        grappled = {"kind": "condition", "target": "gob", "condition": "grappled"}
        table.send({**grappled, "source": "ada"})
        table.open()
        page.locator("#dd-token-ada").click()
        drag = page.locator("#dd-drag-gob")
        expect(page.get_by_label("Drag Gob along")).to_have_count(1)
        expect(drag).not_to_be_checked()
        page.locator("#dd-sq-d5").click(force=True)
        expect(page.locator("#dd-route-cost")).to_contain_text("1.5 m")
        expect(page.locator("#dd-route-drag")).to_have_count(0)
        drag.check()
        expect(page.locator("#dd-route-drag")).to_have_text("Gob is dragged along: f5 → e5.")
        expect(page.locator("#dd-route-cost")).to_contain_text("3 m left")
        expect(page.locator("#dd-sq-e5")).to_have_class(re.compile("is-drag"))
        assert blocking(page) == []
        page.locator("#dd-route-clear").click()
        expect(page.locator("#dd-route-drag")).to_have_count(0)

        # The drag on the map sends the drag field once the box is ticked.
        page.locator("#dd-token-ada").click()
        page.locator("#dd-drag-gob").check()
        into_view(page, "#dd-sq-d5")
        page.mouse.move(*centre(page, "#dd-token-ada"))
        page.mouse.down()
        page.mouse.move(*centre(page, "#dd-sq-d5"), steps=6)
        expect(page.locator("#dd-map .map-ruler-text").first).to_have_text("1.5 m, 3 m left")
        expect(page.locator("#dd-sq-e5")).to_have_class(re.compile("is-drag"))
        page.mouse.up()
        expect(page.locator("#dd-token-ada")).to_have_attribute("data-square", "d5")
        expect(page.locator("#dd-token-gob")).to_have_attribute("data-square", "e5")
        expect(page.locator("#log")).to_contain_text("Gob is dragged along: f5 → e5.")
        where = {f["id"]: f["position"] for f in table.state()["fighters"]}
        assert where == {"ada": "d5", "gob": "e5"}
        assert events(table, "moved")[-1]["drag"] == {"creature": "gob", "path": ["f5", "e5"]}
        assert errors == []
    finally:
        context.close()


def test_dragging_a_secret_creature_is_sent_hidden(browser: Any, server: Any) -> None:
    """The GM moves Ada, who grapples a secret spy: the move (with the spy's path) is sent
    hidden, so no player's log or state learns where the spy went."""
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e", {"width": 10, "height": 10})
        table.send(hero("ada", "e5"))
        table.send(foe("gob", "j10"))
        spy = {**foe("spy", "f5"), "secret": True}
        grappled = {"kind": "condition", "target": "spy", "condition": "grappled", "source": "ada"}
        for command in (spy, grappled):
            send_hidden(table, command)
        table.send({"kind": "start_combat", "rolls": {"ada": 20, "gob": 1}})
        table.open()
        page.locator("#dd-token-ada").click()
        page.locator("#dd-drag-spy").check()
        page.locator("#dd-sq-d5").click(force=True)
        expect(page.locator("#dd-route-drag")).to_have_text("Spy is dragged along: f5 → e5.")
        page.locator("#dd-move").click()
        expect(page.locator("#dd-token-spy")).to_have_attribute("data-square", "e5")
        last = records(table)[-1]
        assert last["command"]["drag"] == "spy"
        assert last["hidden"] is True
        assert errors == []
    finally:
        context.close()


def test_ground_heights_and_a_flying_step_in_german(browser: Any, server: Any) -> None:
    """The GM picks c2 and d2 on the map and raises them by 2,5 m (a bad height is refused,
    naming it, and changes nothing); Fay flies from a1 to c1 rising 3 m on her first step:
    3 m across plus 3 m up is 6 m of her 9 m."""
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e", {"width": 8, "height": 8}, language="de")
        table.send(hero("fay", "a1", speeds={"walk": 9, "fly": 9}))
        table.send(foe("gob", "h8"))
        table.open()
        page.select_option("#dd-paint", "ground")
        page.locator("#dd-sq-c2").click(force=True)
        page.locator("#dd-sq-d2").click(force=True)
        expect(page.locator("#dd-ground-squares")).to_have_value("c2, d2")
        expect(page.locator("#dd-sq-c2")).to_have_class(re.compile("is-picked"))
        assert blocking(page) == []
        page.fill("#dd-ground-height", "1,2")
        page.locator("#dd-ground-set").click()
        expect(page.locator("#alert")).to_contain_text("„1,2“ ist keine Bodenhöhe")
        page.fill("#dd-ground-squares", "c2, zz9")
        page.fill("#dd-ground-height", "2,5")
        page.locator("#dd-ground-set").click()
        expect(page.locator("#alert")).to_contain_text("„zz9“ ist kein Feld dieser Karte")
        assert table.state()["grid"]["ground"] == {}
        page.fill("#dd-ground-squares", "c2 d2")
        page.locator("#dd-ground-set").click()
        for square in ("c2", "d2"):
            expect(page.locator(f"#dd-ground-{square}")).to_have_text("2,5")
            expect(page.locator(f"#dd-sq-{square} title")).to_have_text(f"{square} · Boden 2,5 m")
        expect(page.locator("#dd-ground-squares")).to_have_value("")
        expect(page.locator("#log")).to_contain_text("c2, d2")
        assert table.state()["grid"]["ground"] == {"c2": "2.5", "d2": "2.5"}
        page.select_option("#dd-paint", "")
        expect(page.locator("#dd-ground")).to_have_count(0)

        table.send({"kind": "start_combat", "rolls": {"fay": 20, "gob": 1}})
        page.locator("#dd-token-fay").click()
        expect(page.locator("#dd-altitude")).to_have_count(0)
        page.select_option("#dd-mode", "fly")
        page.fill("#dd-altitude", "-1")
        page.locator("#dd-sq-c1").click(force=True)
        expect(page.locator("#alert")).to_contain_text("„-1“ ist keine Höhe über dem Boden")
        expect(page.locator("#dd-route-cost")).to_have_count(0)
        page.fill("#dd-altitude", "3")
        page.locator("#dd-sq-c1").click(force=True)
        expect(page.locator("#dd-route-cost")).to_contain_text("6 m")
        expect(page.locator("#dd-ground-c2")).to_have_text("2,5")
        assert blocking(page) == []
        page.locator("#dd-move").click()
        expect(page.locator("#dd-token-fay")).to_have_attribute("data-square", "c1")
        expect(page.locator("#log")).to_contain_text("Flughöhe: 3 m über dem Boden.")
        moved = events(table, "moved")[-1]
        assert moved["path"] == ["a1", "b1", "c1"]
        assert moved["altitude_m"] == "3"
        assert moved["movement"]["spent"] == "6.0"
        assert errors == []
    finally:
        context.close()
