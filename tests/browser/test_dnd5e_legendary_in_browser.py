"""A legendary monster in the browser: after the player ends Ada's turn the GM is offered the
adult red dragon's legendary actions with their odds (the player waits), uses its Tail Attack
(one of three actions this round), passes to the next turn, poisons Ada until a save (its odds
on her badge), and has Ada fall 9 m (3d6, prone). Nothing here depends on what the dice
show."""

from __future__ import annotations

from typing import Any

from browser_helpers import ApiTable, join, new_context, send_as, watch_errors
from playwright.sync_api import expect

ADA = {
    "kind": "add_character",
    "id": "ada",
    "name": "Ada",
    "ac": 16,
    "hp": 60,
    "abilities": {"str": 14, "dex": 14},
    "attacks": ["Longsword: +5, 7 (1d8+3) slashing"],
    "position": "b2",
}
"""Ada (AC 16, 60 HP: more than the tail's critical 40 and the fall's 18 together) at b2, Pia's
own (added with her token; the character form is driven in the other D&D tests)."""


def test_a_legendary_action_after_a_player_s_turn_and_a_fall(browser: Any, server: Any) -> None:
    contexts = [new_context(browser) for _ in range(2)]
    gm, pia = (c.new_page() for c in contexts)
    errors = watch_errors(gm) + watch_errors(pia)
    try:
        table = ApiTable(server.url, gm, "dnd5e")
        table.open()
        join(pia, table.invite("player"), "Pia")
        assert send_as(pia, table.id, ADA)["status"] == 200
        # The dragon (huge, e2–g4, Tail reach 4.5 m) beside her; initiative Ada 20 + 2, the
        # dragon 1 + 0.
        dragon = {"kind": "add_monster", "id": "adult-red-dragon", "monster": "adult-red-dragon"}
        table.send({**dragon, "position": "e2"})
        table.send({"kind": "start_combat", "rolls": {"ada": 20, "adult-red-dragon": 1}})
        expect(pia.locator("#dd-round")).to_have_text("Round 1 · Ada's turn")
        expect(gm.locator("#dd-round")).to_have_text("Round 1 · Ada's turn")

        # Pia ends Ada's turn: the GM is offered the legendary actions, Pia waits.
        pia.locator("#dd-end-turn").click()
        expect(pia.locator("#dd-legendary-wait")).to_contain_text("waiting for the GM")
        expect(pia.locator("#dd-turn")).to_have_count(0)
        box = gm.locator("#dd-legendary")
        expect(box).to_contain_text("End of Ada's turn: legendary actions")
        expect(box).to_contain_text("3 of 3 legendary actions left")
        tail = gm.locator("#dd-leg-adult-red-dragon-1")
        expect(tail).to_contain_text("Tail Attack")
        # +14 against AC 16: d20 ≥ 2 hits, 19/20; a 20 is a critical, 1/20
        expect(tail).to_contain_text("(19/20, 1/20)")
        wing = gm.locator("#dd-leg-adult-red-dragon-2")
        # Ada's Dex save (+2) against DC 22: only a 20, 1/20
        expect(wing).to_contain_text("P(save) 5.0 % (1/20)")
        gm.locator("#dd-leg-adult-red-dragon-1-use").click()
        expect(pia.locator("#log")).to_contain_text(
            "Adult Red Dragon takes the legendary action Tail Attack (cost 1)."
        )
        expect(box).to_contain_text("2 of 3 legendary actions left")

        # The GM passes: the dragon's turn begins.
        gm.locator("#dd-leg-pass").click()
        expect(pia.locator("#dd-round")).to_have_text("Round 1 · Adult Red Dragon's turn")
        expect(gm.locator("#dd-legendary")).to_have_count(0)

        # The GM poisons Ada until a Wisdom save (DC 12) at the end of her turn: her badge
        # shows the save and its odds, +0 against 12: 9/20.
        gm.select_option("#dd-f-ada-cond", "poisoned")
        gm.select_option("#dd-f-ada-cond-until", "save")
        gm.fill("#dd-f-ada-cond-n", "12")
        gm.select_option("#dd-f-ada-cond-ability", "wis")
        gm.locator("#dd-f-ada-cond-add").click()
        expect(pia.locator("#dd-f-ada-conditions [data-condition=poisoned]")).to_contain_text(
            "Wisdom save DC 12 at the end of each turn: 45.0 % (9/20)"
        )

        # Ada falls 9 m: 3d6 (3 to 18) bludgeoning, she lands prone.
        gm.fill("#dd-f-ada-fall-height", "9")
        gm.locator("#dd-f-ada-fall").click()
        expect(pia.locator("#log")).to_contain_text("Ada falls 9 m and takes")
        expect(pia.locator("#dd-f-ada-conditions [data-condition=prone]")).to_have_count(1)
        expect(pia.locator("#dd-f-ada-hp")).not_to_have_text("HP 60/60")
        assert errors == []
    finally:
        for context in contexts:
            context.close()


def test_a_hell_hound_breathes_fire_and_its_breath_is_spent(browser: Any, server: Any) -> None:
    """In the hell hound's turn the GM ticks Ada among the creatures in sight (each with its
    P(save)), sees the damage chart and breathes; the log says so and the breath shows as
    spent until a 5 or 6 at the start of the hound's turn."""
    context = new_context(browser)
    gm = context.new_page()
    errors = watch_errors(gm)
    try:
        table = ApiTable(server.url, gm, "dnd5e")
        table.send({**ADA, "position": "a1"})
        hound = {"kind": "add_monster", "id": "hound", "monster": "hell-hound", "position": "c3"}
        table.send(hound)
        table.send({"kind": "start_combat", "rolls": {"hound": 20, "ada": 1}})
        table.open()
        expect(gm.locator("#dd-ma-0-name")).to_contain_text("Fire Breath · recharge 5–6")
        gm.locator("#dd-ma-0-target-ada").check()
        expect(gm.locator("#dd-ma-0 table")).to_be_visible()  # the damage chart
        gm.locator("#dd-ma-0-use").click()
        expect(gm.locator("#log")).to_contain_text("uses Fire Breath on Ada.")
        expect(gm.locator("#dd-ma-0-name")).to_contain_text("spent (back on 5–6)")
        assert table.state()["monster_actions"][0]["spent"] is True
        assert errors == []
    finally:
        context.close()
