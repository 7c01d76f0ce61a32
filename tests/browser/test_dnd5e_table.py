"""A D&D 5e fight in three browsers: a GM and two players fight SRD monsters on the battle map
to the end — difficult terrain painted by the GM, standing up from prone, the route previewed
with its cost and a refused step with its reason, an opportunity attack offered to the GM (the
goblin's reactor) while the players wait and one offered to a player (Bo's reactor) while the other
player waits, a Ready whose trigger the GM confirms with the odds in view, a Dodge that the GM's
attack odds show as disadvantage, a saving throw with P(save) before the roll, attacks with
their odds before the roll, and a secret monster that never appears on a player's page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_helpers import join, new_context, open_table, state_of, watch_errors
from playwright.sync_api import Page, expect


def add_character(page: Page, name: str, at: str, attack: str, dex: str) -> None:
    fields = {"name": name, "hp": "30", "ac": "16", "dex": dex, "attacks": attack, "at": at}
    for key, value in fields.items():
        page.fill(f"#dd-hero-{key}", value)
    for key, value in fields.items():
        expect(page.locator(f"#dd-hero-{key}")).to_have_value(value)
    page.locator("#dd-hero-add").click()
    expect(page.locator("#dd-fighters")).to_contain_text(name)
    # The form empties once the command's answer is in (the card may show before, by the
    # socket): the next entry waits for that, or the emptying takes it away.
    expect(page.locator("#dd-hero-name")).to_have_value("")


def add_monster(page: Page, monster: str, at: str, secret: bool = False) -> None:
    page.select_option("#dd-monster", monster)
    page.fill("#dd-monster-at", at)
    if secret:
        page.check("#dd-monster-secret")
    page.locator("#dd-monster-add").click()
    expect(page.locator(f"#dd-token-{monster}")).to_have_count(1)
    # The form empties once the command's answer is in; the token may show before (by the
    # socket), so the next entry waits for the emptied form, or the emptying takes it away.
    expect(page.locator("#dd-monster-at")).to_have_value("")


def hp_of(page: Page, table: str, creature: str) -> int:
    """The hit points ``creature`` has left, from the table's state."""
    fighters = state_of(page, table)["fighters"]
    return int(next(f["hp"] for f in fighters if f["id"] == creature))


def route(page: Page, token: str, *squares: str) -> None:
    page.locator(f"#dd-token-{token}").click()
    expect(page.locator("#dd-route")).to_contain_text("Route of")
    for square in squares:
        page.locator(f"#dd-sq-{square}").click(force=True)


def test_a_dnd5e_fight_on_the_map(browser: Any, server: Any, screenshots: Path) -> None:
    contexts = [new_context(browser) for _ in range(3)]
    gm, pia, ben = (c.new_page() for c in contexts)
    errors = watch_errors(gm) + watch_errors(pia) + watch_errors(ben)
    players = (pia, ben)
    try:
        links = open_table(gm, server.url, "dnd5e", "Crypt", "Greta")
        gm.locator("#open-table").click()
        join(pia, links["player"], "Pia")
        join(ben, links["player"], "Ben")
        expect(gm.locator("#dd-map")).to_be_visible()

        # The GM paints difficult terrain; both players see it.
        gm.select_option("#dd-paint", "difficult")
        gm.locator("#dd-sq-b3").click(force=True)
        for page in players:
            expect(page.locator("#dd-sq-b3")).to_have_class("map-square terrain-difficult")
        gm.select_option("#dd-paint", "")

        # The players enter their characters, the GM two SRD monsters and a secret ogre.
        add_character(pia, "Ada", "b2", "Longsword: +5, 7 (1d8+3) slashing", "14")
        expect(ben.locator("#dd-fighters")).to_contain_text("Ada")  # typed after the redraw
        add_character(ben, "Bo", "e2", "Mace: +4, 5 (1d6+2) bludgeoning", "12")
        expect(gm.locator("#dd-fighters")).to_contain_text("Bo")
        add_monster(gm, "goblin", "c2")
        add_monster(gm, "rat", "e3")
        add_monster(gm, "ogre", "p15", secret=True)
        expect(gm.locator("#dd-token-ogre")).to_have_count(1)
        expect(gm.locator("#dd-f-ogre")).to_contain_text("secret")
        for page in players:
            expect(page.locator("#dd-token-rat")).to_have_count(1)
            expect(page.locator("#dd-f-bo-hp")).to_have_text("HP 30/30")
        # Tokens by size: the large ogre covers 2 × 2 squares on the GM's map.
        assert gm.locator("#dd-token-ogre rect").get_attribute("width") == "74"
        assert gm.locator("#dd-token-rat rect").get_attribute("width") == "34"

        # The GM knocks Ada prone; her badge names the condition and its effect.
        gm.select_option("#dd-f-ada-cond", "prone")
        gm.locator("#dd-f-ada-cond-add").click()
        badge = pia.locator("#dd-f-ada-conditions [data-condition=prone]")
        expect(badge).to_have_text("prone")
        assert "standing up costs half the speed" in (badge.get_attribute("title") or "")

        # Initiative d20s rolled at the table: Ada 20+2, Bo 15+1, goblin 10+2, rat 2+0.
        for who, roll in (("ada", "20"), ("bo", "15"), ("goblin", "10"), ("rat", "2")):
            gm.fill(f"#dd-ini-{who}", roll)
        expect(gm.locator("#dd-ini-ogre")).to_have_count(0)
        gm.locator("#dd-start").click()
        for page in (gm, *players):
            expect(page.locator("#dd-round")).to_have_text("Round 1 · Ada's turn")
        expect(pia.locator("#dd-f-ada-economy")).to_contain_text("Movement 9 of 9 m left")

        # The GM calls for a saving throw: the goblin's Dexterity (14, +2) against DC 12
        # succeeds on a d20 of 10 or more, 11/20, shown before the roll; the result is logged.
        expect(pia.locator("#dd-save-form")).to_have_count(0)
        expect(gm.locator("#dd-save-roll")).to_be_disabled()
        gm.select_option("#dd-save-creature", "goblin")
        gm.select_option("#dd-save-ability", "dex")
        gm.fill("#dd-save-dc", "12")
        expect(gm.locator("#dd-save-odds")).to_have_text("P(save) 55.0 % (11/20)")
        gm.fill("#dd-save-bonus", "5")
        expect(gm.locator("#dd-save-odds")).to_have_text("P(save) 70.0 % (7/10)")
        gm.fill("#dd-save-bonus", "")
        expect(gm.locator("#dd-save-odds")).to_have_text("P(save) 55.0 % (11/20)")
        gm.locator("#dd-save-roll").click()
        expect(gm.locator("#dd-save-result")).to_be_focused()
        expect(gm.locator("#dd-save-result")).to_contain_text(
            "Goblin's Dexterity save against DC 12"
        )
        for page in players:
            expect(page.locator("#log")).to_contain_text(
                "Goblin rolls a Dexterity save against DC 12"
            )

        # Ada stands up (4 m) and plans b3 (difficult, 3 m) and a4 (1.5 m): 8.5 m, leaving
        # the goblin's reach; one more step is refused with the reason.
        route(pia, "ada", "b3")
        expect(pia.locator("#dd-route-error")).to_contain_text("only crawl")
        pia.check("#dd-stand-up")
        pia.locator("#dd-sq-a4").click(force=True)
        expect(pia.locator("#dd-route-cost")).to_have_text("b2 → b3 → a4: costs 8.5 m, 0.5 m left.")
        expect(pia.locator("#dd-route-oa")).to_contain_text("Leaves the reach of Goblin")
        pia.locator("#dd-sq-a5").click(force=True)
        expect(pia.locator("#dd-route-error")).to_have_text(
            "Step 3 costs 1.5 m, but only 0.5 m of the walking speed are left."
        )
        expect(pia.locator("#dd-sq-a5")).to_have_class("map-square is-refused")
        pia.locator("#dd-route-back").click()
        expect(pia.locator("#dd-route-error")).to_have_count(0)
        screenshot_route = screenshots / "dnd5e-route.png"
        pia.screenshot(path=str(screenshot_route), full_page=True)
        pia.locator("#dd-move").click()

        # The move stops before it leaves the reach: the GM is offered the opportunity attack
        # with its odds, the players wait.
        expect(gm.locator("#dd-react-goblin")).to_contain_text(
            "Ada leaves the reach of Goblin: Goblin may make an opportunity attack."
        )
        # +4 against AC 16: a hit on 12-20 (9/20), with the damage distribution
        expect(gm.locator("#dd-react-goblin")).to_contain_text("P(hit) 45.0 %")
        expect(gm.locator("#dd-react-goblin .odds-chart")).to_be_visible()
        for page in players:
            expect(page.locator("#dd-react-goblin-wait")).to_contain_text(
                "Waiting for Goblin's decision."
            )
            expect(page.locator("#dd-react-goblin-attack")).to_have_count(0)
        expect(pia.locator("#dd-token-ada")).to_have_attribute("data-square", "b3")
        expect(pia.locator("#dd-end-turn")).to_be_disabled()
        gm.screenshot(path=str(screenshots / "dnd5e-opportunity-attack.png"), full_page=True)
        gm.locator("#dd-react-goblin-attack").click()
        expect(gm.locator("#dd-last")).to_be_focused()
        for page in (gm, *players):
            expect(page.locator("#dd-last")).to_contain_text("Goblin attacks Ada with Scimitar")
            expect(page.locator("#dd-token-ada")).to_have_attribute("data-square", "a4")
        expect(pia.locator("#dd-f-ada-conditions [data-condition=prone]")).to_have_count(0)
        expect(pia.locator("#dd-f-ada-economy [data-slot=reaction]")).to_contain_text("available")
        expect(gm.locator("#dd-f-goblin-economy [data-slot=reaction]")).to_contain_text("used")

        # Ada dodges; everyone sees the badge, and her action is used.
        pia.select_option("#dd-action", "dodge")
        pia.locator("#dd-action-go").click()
        for page in (gm, ben):
            expect(page.locator("#dd-f-ada-conditions [data-condition=dodging]")).to_be_visible()
        expect(pia.locator("#dd-f-ada-economy [data-slot=action]")).to_contain_text("used")
        expect(pia.locator("#dd-action-go")).to_be_disabled()
        pia.locator("#dd-end-turn").click()

        # Bo readies his mace against the rat next to him, triggered when it moves; everyone
        # reads the readied action, only the GM may confirm the trigger.
        expect(ben.locator("#dd-round")).to_have_text("Round 1 · Bo's turn")
        expect(pia.locator("#dd-turn")).to_have_count(0)
        expect(ben.locator("#dd-ready-go")).to_be_disabled()
        ben.fill("#dd-ready-trigger", "the rat moves")
        ben.select_option("#dd-ready-attack", "Mace")
        ben.select_option("#dd-ready-target", "rat")
        ben.locator("#dd-ready-go").click()
        for page in (gm, *players):
            expect(page.locator("#dd-ready-bo-text")).to_have_text(
                "Bo readies Mace against Rat — when: the rat moves"
            )
        for page in players:
            expect(page.locator("#dd-ready-bo-fire")).to_have_count(0)
        expect(ben.locator("#dd-f-bo-economy [data-slot=action]")).to_contain_text("used")
        ben.locator("#dd-end-turn").click()

        # The goblin steps into Bo's reach and out again: the opportunity attack is offered
        # to Bo's player, with its odds (+4 against AC 15: 11-20, 1/2); Pia waits; Bo passes.
        expect(gm.locator("#dd-round")).to_have_text("Round 1 · Goblin's turn")
        route(gm, "goblin", "d1", "c1")
        expect(gm.locator("#dd-route-oa")).to_contain_text("Leaves the reach of Bo")
        gm.locator("#dd-move").click()
        expect(ben.locator("#dd-react-bo")).to_contain_text(
            "Goblin leaves the reach of Bo: Bo may make an opportunity attack."
        )
        expect(ben.locator("#dd-react-bo")).to_contain_text("P(hit) 50.0 %")
        expect(ben.locator("#dd-react-bo-attack")).to_be_visible()
        expect(pia.locator("#dd-react-bo-wait")).to_contain_text("Waiting for Bo's decision.")
        expect(pia.locator("#dd-react-bo-attack")).to_have_count(0)
        ben.locator("#dd-react-bo-pass").click()
        for page in (gm, *players):
            expect(page.locator("#dd-token-goblin")).to_have_attribute("data-square", "c1")
        expect(ben.locator("#dd-f-bo-economy [data-slot=reaction]")).to_contain_text("available")

        # The goblin's turn: Ada is out of the scimitar's reach, and the shortbow is at
        # disadvantage against the dodging Ada: both d20 at 12 or more, (9/20)² = 81/400.
        gm.select_option("#dd-attack-target", "ada")
        gm.select_option("#dd-attack-name", "Scimitar")
        expect(gm.locator("#dd-attack")).to_be_disabled()
        expect(gm.locator("#dd-attack-why")).to_have_text(
            "Ada is 4.5 m away; this attack reaches 1.5 m."
        )
        gm.select_option("#dd-attack-name", "Shortbow")
        expect(gm.locator("#dd-attack-odds")).to_contain_text("with disadvantage")
        expect(gm.locator("#dd-attack-odds")).to_contain_text("(81/400, 1/400)")
        gm.locator("#dd-attack").click()
        expect(pia.locator("#dd-last")).to_contain_text("Goblin attacks Ada with Shortbow")
        gm.locator("#dd-end-turn").click()

        # The rat's turn: it moves, the GM confirms Bo's trigger with the odds in view
        # (+4 against AC 10 hits on 6-20, 75 %); Bo's reaction is spent on the readied attack.
        expect(gm.locator("#dd-round")).to_have_text("Round 1 · Rat's turn")
        expect(gm.locator("#dd-ready-bo-odds")).to_contain_text("P(hit) 75.0 %")
        expect(gm.locator("#dd-ready-bo-odds")).to_contain_text("(3/4, 1/20)")
        expect(gm.locator("#dd-ready-bo .odds-chart")).to_be_visible()
        gm.locator("#dd-ready-bo-fire").click()
        expect(gm.locator("#dd-last")).to_be_focused()
        for page in (gm, *players):
            expect(page.locator("#dd-last")).to_contain_text("Bo attacks Rat with Mace")
            expect(page.locator("#dd-ready-bo")).to_have_count(0)
        # The log says the outcome first, whatever the d20 was.
        expect(ben.locator("#log .log-outcome").first).to_have_text(
            re.compile(r"^(Critical hit: )?Bo (hits|misses) Rat with Mace.*, a readied attack\.$")
        )
        expect(ben.locator("#dd-f-bo-economy [data-slot=reaction]")).to_contain_text("used")
        # A hit kills the rat (1 HP, at least 3 damage); after a miss the GM finishes it. What
        # the d20 showed is read from the table's state, not from a page that may lag behind.
        if hp_of(gm, links["table"], "rat") > 0:
            gm.fill("#dd-f-rat-amount", "1")
            gm.locator("#dd-f-rat-damage").click()
        for page in (gm, *players):
            expect(page.locator("#dd-token-rat")).to_have_count(0)
            expect(page.locator("#dd-f-rat-hp")).to_have_text("dead")
        gm.locator("#dd-end-turn").click()

        # Round 2: Ada's Dodge ends; she walks back into reach and attacks the goblin.
        expect(pia.locator("#dd-round")).to_have_text("Round 2 · Ada's turn")
        expect(pia.locator("#dd-f-ada-conditions [data-condition=dodging]")).to_have_count(0)
        route(pia, "ada", "b3", "b2")
        expect(pia.locator("#dd-route-cost")).to_have_text("a4 → b3 → b2: costs 4.5 m, 4.5 m left.")
        pia.locator("#dd-move").click()
        expect(ben.locator("#dd-token-ada")).to_have_attribute("data-square", "b2")
        pia.select_option("#dd-attack-target", "goblin")
        expect(pia.locator("#dd-attack-odds")).to_contain_text("P(hit) 55.0 %")
        pia.locator("#dd-attack").click()
        expect(pia.locator("#dd-last")).to_contain_text("Ada attacks Goblin with Longsword")
        expect(gm.locator("#dd-last")).to_contain_text("Ada attacks Goblin with Longsword")
        # A miss or a small hit leaves the goblin (7 HP) standing: the GM deals what it has left.
        left = hp_of(gm, links["table"], "goblin")
        if left > 0:
            gm.fill("#dd-f-goblin-amount", str(left))
            gm.locator("#dd-f-goblin-damage").click()
        for page in (gm, *players):
            expect(page.locator("#dd-round")).to_have_text("The fight is over; the winner: party.")
        gm.screenshot(path=str(screenshots / "dnd5e-fight-over.png"), full_page=True)

        # The secret ogre stood on the GM's map all along, never on a player's page.
        expect(gm.locator("#dd-token-ogre")).to_have_count(1)
        for page in players:
            expect(page.locator("#dd-token-ogre")).to_have_count(0)
            assert "Ogre" not in page.content()
            page.reload()
            expect(page.locator("#dd-round")).to_have_text("The fight is over; the winner: party.")
            assert "Ogre" not in page.content()
        assert errors == []
    finally:
        for context in contexts:
            context.close()
