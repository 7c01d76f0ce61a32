"""Shield against the hit that triggers it, in the browser: a goblin's claw hits Pia's wizard,
the hit waits, Pia is told (a notice, focus on the decision) and casts Shield from the page; the
table goes on as the numbers say. The d20 decides whether the claw hits at all and whether
Shield turns it, so the test reads the held roll from the table and asserts what follows from
it; a claw that misses outright (no decision) is followed by another round until one hits."""

from __future__ import annotations

import re
from typing import Any

from browser_helpers import ApiTable, join, new_context, send_as, watch_errors
from playwright.sync_api import expect

WIZ = {
    "kind": "add_character",
    "id": "wiz",
    "name": "Wiz",
    "ac": 15,
    "hp": 200,
    "abilities": {"int": 18, "dex": 10},
    "attacks": ["Dagger: +4, 4 (1d4+2) piercing"],
    "position": "b2",
    "spellcasting": {
        "ability": "int",
        "level": 3,
        "save_dc": 14,
        "attack_bonus": 6,
        "slots": [2, 1],
        "spells": ["shield", "fire-bolt"],
    },
}
"""Wiz: AC 15 (20 with Shield), 200 HP (no run of claws fells her), two 1st-level slots."""

GOB = {
    "kind": "add_monster",
    "id": "gob",
    "position": "c2",
    "sheet": {
        "id": "gob",
        "name": "Gob",
        "ac": 13,
        "hp": 30,
        "abilities": {"dex": 10},
        "attacks": ["Claw: +10, 5 (1d6+2) slashing"],
    },
}
"""Gob's claw +10: a d20 of 5 or more hits AC 15 (a 20 always), 10 or more still hits AC 20."""

CLAW = {"kind": "attack", "creature": "gob", "target": "wiz", "attack": "Claw"}


def test_a_player_casts_shield_against_the_hit_that_waits(browser: Any, server: Any) -> None:
    contexts = [new_context(browser) for _ in range(2)]
    gm, pia = (c.new_page() for c in contexts)
    errors = watch_errors(gm) + watch_errors(pia)
    try:
        table = ApiTable(server.url, gm, "dnd5e")
        table.open()
        join(pia, table.invite("player"), "Pia")
        assert send_as(pia, table.id, WIZ)["status"] == 200
        table.send(GOB)
        table.send({"kind": "start_combat", "rolls": {"gob": 20, "wiz": 1}})
        expect(pia.locator("#dd-round")).to_have_text("Round 1 · Gob's turn")

        held = None
        for _ in range(40):  # a claw misses outright on a d20 of 1–4: 1/5 a round
            table.send(CLAW)
            held = table.state()["held_hit"]
            if held is not None:
                break
            table.send({"kind": "end_turn"})  # Gob's turn ends, Wiz's begins
            table.send({"kind": "end_turn"})  # and Gob's comes again
        assert held is not None
        natural = max(held["d20"]) if held["mode"] == "advantage" else min(held["d20"])
        assert held["total"] == natural + 10 and (held["ac"], held["shield_ac"]) == (15, 20)
        turned = natural != 20 and held["total"] < 20

        # Pia is asked, in the page and in the notice; the GM's page shows the same decision.
        notice = pia.locator("#notice-dd-shield")
        expect(notice).to_contain_text(
            f"Gob hits Wiz with Claw (total {held['total']} against AC 15): "
            "Wiz may cast Shield (AC 20)."
        )
        expect(pia.locator("#dd-shield")).to_be_focused()
        odds = pia.locator("#dd-shield-odds")
        if turned:
            total = held["total"]
            expect(odds).to_have_text(f"With Shield the attack misses: {total} is below AC 20.")
        else:
            expect(odds).to_contain_text("With Shield the attack still hits")
        expect(pia.locator("#log")).to_contain_text("the hit waits for Wiz's decision on Shield")
        expect(pia.locator("#dd-end-turn")).to_have_count(0)  # not her turn, and the table waits

        pia.locator("#dd-shield-cast").click()
        expect(pia.locator("#dd-shield")).to_have_count(0)
        expect(gm.locator("#dd-shield")).to_have_count(0)
        expect(pia.locator("#notice-dd-shield")).to_have_count(0)
        state = table.state()
        assert state["held_hit"] is None
        assert state["casting"]["wiz"]["slots_left"][0] == 1
        wiz = next(f for f in state["fighters"] if f["id"] == "wiz")
        if turned:
            assert wiz["hp"] == 200
            expect(pia.locator("#dd-last")).to_have_attribute("data-outcome", "miss")
        else:
            assert wiz["hp"] < 200
            expect(pia.locator("#dd-last")).not_to_have_attribute("data-outcome", "miss")
        assert errors == []
    finally:
        for context in contexts:
            context.close()


def test_the_gm_lets_a_hit_stand_and_sees_spirit_guardians(browser: Any, server: Any) -> None:
    """The GM decides for a wizard no player holds and lets the hit stand (the slot stays);
    then a cleric's Spirit Guardians is drawn around her on the map."""
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e")
        table.send(WIZ)
        table.send(GOB)
        cleric = {
            **WIZ,
            "id": "cleo",
            "name": "Cleo",
            "position": "h8",
            "spellcasting": {
                "ability": "wis",
                "level": 5,
                "save_dc": 13,
                "attack_bonus": 5,
                "slots": [4, 3, 2],
                "spells": ["spirit-guardians"],
            },
        }
        table.send(cleric)
        table.send({"kind": "start_combat", "rolls": {"gob": 20, "wiz": 2, "cleo": 1}})
        table.open()
        held = None
        for _ in range(40):
            table.send(CLAW)
            held = table.state()["held_hit"]
            if held is not None:
                break
            for _ in range(3):
                table.send({"kind": "end_turn"})
        assert held is not None
        expect(page.locator("#notice-dd-shield")).to_contain_text("Wiz may cast Shield (AC 20)")
        page.locator("#dd-shield-take").click()
        expect(page.locator("#dd-shield")).to_have_count(0)
        state = table.state()
        assert state["held_hit"] is None and state["casting"]["wiz"]["slots_left"][0] == 2
        expect(page.locator("#dd-last")).not_to_have_attribute("data-outcome", "miss")

        # Cleo's turn: Spirit Guardians around h8 (4.5 m: the squares g7 to i9 and beyond).
        while table.state()["combat"]["current"] != "cleo":
            table.send({"kind": "end_turn"})
        table.send({"kind": "cast", "creature": "cleo", "spell": "spirit-guardians", "slot": 3})
        aura = table.state()["auras"][0]
        assert aura["caster"] == "cleo" and "g7" in aura["squares"]
        for square in aura["squares"][:5]:
            expect(page.locator(f"#dd-sq-{square}")).to_have_class(re.compile(r"\bis-aura\b"))
        assert errors == []
    finally:
        context.close()


MAGE = {
    "kind": "add_monster",
    "id": "mage",
    "position": "c2",
    "sheet": {
        "id": "mage",
        "name": "Mage",
        "ac": 12,
        "hp": 40,
        "abilities": {"dex": 10},
        "spellcasting": {
            "ability": "int",
            "save_dc": 14,
            "attack_bonus": 6,
            "slots": [2],
            "spells": ["magic-missile"],
        },
    },
}
"""Mage: Magic Missile with a 1st-level slot, three darts that always strike."""


def test_a_player_casts_shield_against_magic_missile(browser: Any, server: Any) -> None:
    """The GM's mage casts Magic Missile at Pia's wizard (rules edition 5): the darts wait,
    Pia is asked, casts Shield from the page, and the darts deal nothing."""
    contexts = [new_context(browser) for _ in range(2)]
    gm, pia = (c.new_page() for c in contexts)
    errors = watch_errors(gm) + watch_errors(pia)
    try:
        table = ApiTable(server.url, gm, "dnd5e")
        table.open()
        join(pia, table.invite("player"), "Pia")
        assert send_as(pia, table.id, WIZ)["status"] == 200
        table.send(MAGE)
        table.send({"kind": "start_combat", "rolls": {"mage": 20, "wiz": 1}})
        expect(pia.locator("#dd-round")).to_have_text("Round 1 · Mage's turn")
        table.send(
            {"kind": "cast", "creature": "mage", "spell": "magic-missile", "targets": ["wiz"]}
        )
        held = table.state()["held_spell"]
        assert held["target"] == "wiz" and len(held["rolls"]) == 3 and held["shield_hits"] == 0

        notice = pia.locator("#notice-dd-shield")
        expect(notice).to_contain_text(
            "3 darts of Mage's Magic Missile strike Wiz: Wiz may cast Shield, which stops them."
        )
        expect(pia.locator("#dd-shield")).to_be_focused()
        expect(pia.locator("#dd-shield-odds")).to_have_text("With Shield none of it deals damage.")
        expect(pia.locator("#log")).to_contain_text(
            "Its rolls at Wiz wait for the decision on Shield."
        )
        expect(gm.locator("#dd-shield-wait")).to_have_count(0)  # the GM may decide for anyone

        pia.locator("#dd-shield-cast").click()
        expect(pia.locator("#dd-shield")).to_have_count(0)
        expect(gm.locator("#dd-shield")).to_have_count(0)
        expect(pia.locator("#log")).to_contain_text(
            "Mage's Magic Missile at Wiz is judged after the decision on Shield."
        )
        state = table.state()
        assert state["held_spell"] is None
        assert state["casting"]["wiz"]["slots_left"][0] == 1
        wiz = next(f for f in state["fighters"] if f["id"] == "wiz")
        assert wiz["hp"] == 200
        assert errors == []
    finally:
        for context in contexts:
            context.close()
