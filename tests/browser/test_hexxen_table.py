"""A HeXXen 1733 fight in two browsers, the GM in German and a player in English: the player
creates a hunter, the GM pastes the Wertekästen of an Anführer and a Bande (a bad line first,
shown with its position) and a secret NSC; the Anführer attacks, the player sees the odds of
each defence and parries, the Bande uses a Handlungskraft (a comparative check), ongoing
damage ticks in the INI-0 phase, both NSC go down and the fight ends. The secret NSC never
reaches the player's page."""

from __future__ import annotations

import re
from fractions import Fraction
from math import comb
from typing import Any

from browser_helpers import join, new_context, open_table, watch_errors
from playwright.sync_api import Page, expect

WOLF = "\n".join(
    [
        "INI 8",
        "LeP 12",
        "Handlungen 1",
        "(N) Klauenhieb Angriff 4, Schaden 3",
    ]
)
GHOULS = "\n".join(
    [
        "INI 4",
        "LeP 8",
        "Hex 2",
        "(N) Biss Angriff 3, Schaden 2",
        "Terrorwelle (N|F: 3 gegen Geistesstärke, 1 Malusstufe pro Differenzerfolg [Furcht],"
        " 1 Hex pro Ziel (Gruppe))",
    ]
)
SHADOW = "INI 1\nLeP 5\n(F) Schattenpfeil Angriff 2, Schaden 1"


def hit_chance(npc_dice: int, hunter_dice: int) -> Fraction:
    """P(NSC successes − hunter successes ≥ 1), from the two binomial counts: each NSC d6
    counts on 1, 5 and 6 (every symbol, 1/2), each hunter d6 on 5 and 6 (1/3)."""

    def binomial(n: int, p: Fraction) -> list[Fraction]:
        return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]

    npc, hunter = binomial(npc_dice, Fraction(1, 2)), binomial(hunter_dice, Fraction(1, 3))
    return sum(
        (pa * pb for a, pa in enumerate(npc) for b, pb in enumerate(hunter) if a - b >= 1),
        Fraction(0),
    )


def percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f} %"


def lep(page: Page, who: str) -> int:
    text = page.locator(f"#hx-facts-{who}").inner_text()
    found = re.search(r"LeP (-?\d+)/", text)
    assert found, text
    return int(found.group(1))


def create_npc(
    gm: Page, name: str, kind: str, level: str, block: str, secret: bool = False
) -> None:
    # The form empties once the last NSC's answer is in (its card may show before, by the
    # socket): typed before that, the emptying would take the new entry away.
    expect(gm.locator("#hx-npc-name")).to_have_value("")
    gm.fill("#hx-npc-name", name)
    gm.select_option("#hx-npc-kind", kind)
    gm.fill("#hx-npc-level", level)
    gm.fill("#hx-npc-block", block)
    if secret:
        gm.check("#hx-npc-secret")
    gm.locator("#hx-npc-submit").click()


def test_a_hexxen_fight(browser: Any, server: Any, screenshots: Any) -> None:
    gm_context, player_context = new_context(browser), new_context(browser)
    gm, player = gm_context.new_page(), player_context.new_page()
    gm_errors, player_errors = watch_errors(gm), watch_errors(player)
    try:
        links = open_table(gm, server.url, "hexxen", "Hexenjagd", "Greta", language="de")
        table = links["table"]
        gm.goto(f"{server.url}/t/{table}?lang=de")
        expect(gm.locator("#conn")).to_have_attribute("data-state", "live")
        join(player, links["player"], "Pia")
        expect(gm.locator("#hx-round")).to_have_text("Kein Kampf läuft.")
        expect(player.locator("#hx-round")).to_have_text("No fight is running.")

        # The player creates Ada: SIN 3 + GES 3 = INI 6, LeP 7 + KKR 3 + WIL 2 = 12.
        player.fill("#hx-create-name", "Ada")
        for attribute, value in {
            "KKR": 3,
            "ATH": 2,
            "GES": 3,
            "SIN": 3,
            "WIS": 1,
            "WIL": 2,
        }.items():
            player.fill(f"#hx-create-{attribute}", str(value))
        player.fill("#hx-create-skill-parieren", "3")
        player.fill("#hx-create-skill-nahkampf", "3")
        player.fill("#hx-create-skill-geistesstarke", "2")
        player.locator("#hx-create-submit").click()
        expect(player.locator("#hx-fact-ada-lep")).to_have_text("12 / 12")
        expect(player.locator("#hx-fact-ada-ini")).to_have_text("6")
        expect(gm.locator("#hx-hunter-ada")).to_contain_text("Ada")
        # The sheet is edited: armour 1.
        player.locator("#hx-edit-ada > summary").click()
        player.fill("#hx-edit-ada-armour", "1")
        player.locator("#hx-edit-ada-save").click()
        expect(gm.locator("#hx-fact-ada-armour")).to_have_text("1")

        # A bad Wertekasten: refused with the place of the error, nothing created.
        create_npc(
            gm, "Werwolf", "anfuehrer", "2", "LeP 12\n(N) Klauenhieb Angriff zehn, Schaden 3"
        )
        expect(gm.locator("#hx-npc-error")).to_contain_text("Zeile 2")
        position = gm.evaluate("document.getElementById('hx-npc-block').selectionStart")
        assert position == len("LeP 12\n(N) Klauenhieb Angriff ")
        expect(gm.locator("#hx-npcs .hx-npc")).to_have_count(0)
        gm.fill("#hx-npc-block", WOLF)
        gm.locator("#hx-npc-submit").click()
        expect(gm.locator("#hx-npc-werwolf")).to_contain_text("Klauenhieb: Angriff 4, Schaden 3")
        expect(player.locator("#hx-npc-werwolf")).to_contain_text("Anführer, As 2")
        create_npc(gm, "Ghule", "bande", "2", GHOULS)
        expect(player.locator("#hx-npc-ghule")).to_contain_text("Bande, level 2")
        expect(player.locator("#hx-npc-ghule")).to_contain_text("Terrorwelle")
        # A secret NSC: the GM's alone.
        create_npc(gm, "Schattenmann", "anfuehrer", "1", SHADOW, secret=True)
        expect(gm.locator("#hx-npc-schattenmann")).to_contain_text("geheim")

        # Tokens on the map.
        player.locator("#hx-pick-ada").click()
        player.locator("#hx-sq-c2").click()
        expect(gm.locator("#hx-token-ada")).to_have_attribute("data-square", "c2")
        gm.locator("#hx-pick-werwolf").click()
        gm.locator("#hx-sq-e2").click()  # not next to Ada: the map does not bind them
        gm.locator("#hx-pick-ghule").click()
        gm.locator("#hx-sq-f4").click()
        gm.locator("#hx-pick-schattenmann").click()
        gm.locator("#hx-sq-h6").click()
        expect(gm.locator("#hx-token-schattenmann")).to_have_count(1)
        expect(player.locator("#hx-token-ghule")).to_have_attribute("data-square", "f4")

        # The fight: INI order Werwolf 8, Ada 6, Ghule 4.
        gm.locator("#hx-start-fight").click()
        expect(player.locator("#hx-round")).to_have_text("Round 1 · Werwolf's turn")
        expect(gm.locator("#hx-order > li.hx-combatant")).to_have_count(3)
        order = gm.locator("#hx-order > li.hx-combatant").evaluate_all("els => els.map(e => e.id)")
        assert order == ["hx-c-werwolf", "hx-c-ada", "hx-c-ghule"]
        expect(player.locator("#hx-facts-ada")).to_contain_text("Ap 6/6")

        # Melee needs the wolf bound: the button says why (and how the map binds) until the
        # GM binds it.
        expect(gm.locator("#hx-declare-0")).to_be_disabled()
        expect(gm.locator("#hx-declare-0")).to_have_attribute(
            "title",
            "Nahkampf: Werwolf steht frei. Auf der Karte neben einen Jäger ziehen, dann ist"
            " Werwolf gebunden.",
        )
        gm.locator("#hx-toggle-bound-werwolf").click()
        expect(player.locator("#hx-bound-werwolf")).to_have_text("bound (gebunden)")
        expect(player.locator("#hx-token-werwolf")).to_have_class(re.compile("is-bound"))
        # Binding is a pair: the GM bound the wolf with Ada, so Ada is bound too.
        expect(player.locator("#hx-token-ada")).to_have_class(re.compile("is-bound"))
        expect(player.locator("#hx-facts-werwolf")).to_contain_text("bound with Ada")

        # The wolf attacks; the player sees the odds of each choice and parries.
        gm.select_option("#hx-att-target", "ada")
        gm.locator("#hx-declare-0").click()
        expect(gm.locator("#hx-pending-wait")).to_contain_text("Ada")
        expect(gm.locator("#hx-next-turn")).to_be_disabled()
        expect(player.locator("#hx-pending-text")).to_contain_text(
            "Werwolf attacks Ada: Klauenhieb"
        )
        for choice, dice in (("none", 0), ("parry", 6), ("dodge", 2)):
            expect(player.locator(f"#hx-choice-odds-{choice}")).to_have_text(
                f"Chance to be hit: {percent(hit_chance(4, dice))}"
            )
        player.locator("#hx-defend-parry").click()
        expect(player.locator("#hx-pending")).to_have_count(0)
        expect(player.locator("#hx-last-defense")).to_contain_text("Ada · Parry")
        expect(gm.locator("#hx-last-text")).to_contain_text("Werwolf")
        expect(player.locator("#hx-facts-ada")).to_contain_text("Ap 5/6")
        player.screenshot(path=str(screenshots / "hexxen-parry.png"), full_page=True)

        # Ongoing outer damage on Ada, visible in the INI-0 row before it acts.
        gm.select_option("#hx-gm-target", "ada")
        gm.select_option("#hx-gm-effect", "outer_damage")
        gm.fill("#hx-gm-level", "2")
        gm.locator("#hx-gm-apply").click()
        expect(player.locator("#hx-effects-ada")).to_contain_text("outer damage 2")
        expect(player.locator("#hx-ini0-coming")).to_contain_text(
            "Ada: outer damage 2 – costs 4 LeP, then level −1"
        )
        gm.locator("#hx-next-turn").click()
        expect(player.locator("#hx-round")).to_have_text("Round 1 · Ada's turn")

        # Ada's turn: a Nahkampf check for 1 Ap with a bonus (Janus dice as bonus).
        player.select_option("#hx-check-skill", "Nahkampf")
        player.fill("#hx-check-bonus", "2")
        player.fill("#hx-check-ap", "1")
        expect(player.locator("#hx-check-odds table")).to_be_visible()
        player.locator("#hx-roll").click()
        expect(player.locator("#hx-last")).to_be_focused()
        expect(player.locator("#hx-last-roll .hx-janus")).to_have_attribute("data-kind", "bonus")
        expect(gm.locator("#hx-last-roll .hx-janus")).to_contain_text("Bonus: 2 Januswürfel")
        player.locator("#hx-end-turn").click()
        expect(gm.locator("#hx-round")).to_have_text("Runde 1 · Ghule ist am Zug")

        # The Bande's Handlungskraft: a comparative check against Ada's Geistesstärke.
        expect(gm.locator("#hx-power-chart-0 table")).to_be_visible()
        gm.locator("#hx-power-0").click()
        expect(player.locator("#hx-last-text")).to_contain_text("Ghule uses Terrorwelle (1 Hex)")
        expect(player.locator("#hx-last-target-ada")).to_be_visible()
        expect(gm.locator("#hx-facts-ghule")).to_contain_text("Hex 1/2")

        # Round end: INI 0, the outer damage costs 4 LeP and falls to level 1.
        before = lep(player, "ada")
        gm.locator("#hx-next-turn").click()
        expect(player.locator("#hx-round")).to_have_text("Round 2 · Werwolf's turn")
        expect(player.locator("#hx-effects-ada")).to_contain_text("outer damage 1")
        expect(player.locator("#hx-ini0-last")).to_contain_text("Ada lost 4 LeP (outer damage 2)")
        expect(player.locator("#log")).to_contain_text(
            "Ada loses 4 LeP to outer damage (level 2; INI 0, round 1)"
        )
        expect(gm.locator("#log")).to_contain_text(
            "Ada verliert 4 LeP – äußerer Schaden (Stufe 2; INI 0, Runde 1)"
        )
        assert lep(player, "ada") == before - 4
        gm.screenshot(path=str(screenshots / "hexxen-gm.png"), full_page=True)

        # Both NSC go down; the fight ends.
        for who in ("werwolf", "ghule"):
            gm.select_option("#hx-gm-target", who)
            gm.fill("#hx-gm-lep", "20")
            gm.locator("#hx-gm-damage").click()
            expect(player.locator(f"#hx-down-{who}")).to_have_text("defeated")
        gm.locator("#hx-end-fight").click()
        expect(player.locator("#hx-round")).to_have_text("No fight is running.")
        expect(gm.locator("#hx-round")).to_have_text("Kein Kampf läuft.")

        # The secret NSC never reached the player: not on the page, not in the state.
        player.reload()
        expect(player.locator("#conn")).to_have_attribute("data-state", "live")
        expect(player.locator("#hx-npc-werwolf")).to_be_visible()
        assert "Schattenmann" not in player.content()
        expect(player.locator("#hx-token-schattenmann")).to_have_count(0)
        expect(gm.locator("#hx-token-schattenmann")).to_have_count(1)
        assert not gm_errors and not player_errors, (gm_errors, player_errors)
    finally:
        gm_context.close()
        player_context.close()


HAG = "\n".join(
    [
        "INI 9",
        "LeP 20",
        "Hex 1",
        "Hex +1 pro Runde",
        "Handlungen 2",
        "KKR 3, WIL 4",
        "Bezauberung (NN|F: 3 gegen Geistesstärke, 1 Malusstufe pro Differenzerfolg [Furcht],"
        " 1 Hex pro Ziel (Gruppe))",
        "(N) Kralle Angriff 3, Schaden 1, 1 Blutwürfel innerer Schaden [Gift]",
        "Eigenschaften: Regeneration, Rudeltier",
    ]
)
RATS = "Bandenstufe 1\nINI 2\nLeP 6\nWürfelpool 3\n(N) Biss Angriff 2, Schaden 1"


def create_hunter(gm: Page, name: str) -> None:
    expect(gm.locator("#hx-create-name")).to_have_value("")  # the last answer emptied it
    gm.fill("#hx-create-name", name)
    gm.fill("#hx-create-skill-geistesstarke", "2")
    gm.locator("#hx-create-submit").click()
    expect(gm.locator(f"#hx-hunter-{name.lower()}")).to_be_visible()


def test_the_gms_side_of_a_fight(browser: Any, server: Any) -> None:
    # Two hunters against an Anführer with attributes and growing Hex and a Bande with a
    # fixed pool: a two-Handlungen power against both, an Abbau check at INI 0; the witch's
    # poison (a Blutwürfel) with its chances, her Regeneration (an Elixierwürfel) at INI 0.
    gm_context = new_context(browser)
    gm = gm_context.new_page()
    gm_errors = watch_errors(gm)
    try:
        links = open_table(gm, server.url, "hexxen", "Hexennacht", "Greta", language="de")
        gm.goto(f"{server.url}/t/{links['table']}?lang=de")
        expect(gm.locator("#conn")).to_have_attribute("data-state", "live")
        gm.locator("#hx-create-details > summary").click()
        create_hunter(gm, "Ada")
        create_hunter(gm, "Bo")
        create_npc(gm, "Hexe", "anfuehrer", "2", HAG)
        expect(gm.locator("#hx-npc-hexe")).to_contain_text("Attribute: KKR 3, WIL 4")
        expect(gm.locator("#hx-npc-hexe")).to_contain_text("+1 Hex pro Runde")
        expect(gm.locator("#hx-npc-hexe")).to_contain_text(
            "1 Blutwürfel für innerer Schaden [Gift]"
        )
        expect(gm.locator("#hx-traits-hexe")).to_contain_text("Regeneration – wirkt")
        expect(gm.locator("#hx-traits-hexe")).to_contain_text("Rudeltier – nur angezeigt")
        create_npc(gm, "Ratten", "bande", "1", RATS)
        expect(gm.locator("#hx-npc-ratten")).to_contain_text("Würfelpool 3")

        gm.locator("#hx-start-fight").click()
        expect(gm.locator("#hx-round")).to_have_text("Runde 1 · Hexe ist am Zug")
        # The GM adds Hex; the witch binds with Ada (melee: Bezauberung costs NN).
        gm.select_option("#hx-gm-target", "hexe")
        gm.fill("#hx-gm-hex", "3")
        gm.locator("#hx-gm-add-hex").click()
        expect(gm.locator("#hx-facts-hexe")).to_contain_text("Hex 4/4")
        gm.select_option("#hx-bind-with-hexe", "ada")
        gm.locator("#hx-toggle-bound-hexe").click()
        expect(gm.locator("#hx-facts-hexe")).to_contain_text("gebunden mit Ada")
        # The claw's Blutwürfel before the roll: 0, 1, 1, 2, 2, 3 drops as levels of poison.
        gm.locator("#hx-declare-odds-0 > summary").click()
        expect(gm.locator("#hx-declare-chart-0 .hx-dice-odds")).to_have_text(
            "Bei einem Treffer – Blutwürfel für innerer Schaden [Gift]: "
            "0: 16,7 % · 1: 33,3 % · 2: 33,3 % · 3: 16,7 %"
        )
        # A group power with nothing ticked takes both hunters: 2 Hex, each one's odds.
        expect(gm.locator("#hx-power-cost-0")).to_have_text("kostet 2 Hex für 2 Ziel(e)")
        expect(gm.locator("#hx-power-count-0 table")).to_be_visible()
        expect(gm.locator("#hx-power-chart-0-ada table")).to_be_visible()
        expect(gm.locator("#hx-power-chart-0-bo table")).to_be_visible()
        gm.locator("#hx-power-0").click()
        expect(gm.locator("#hx-last-target-ada")).to_be_visible()
        expect(gm.locator("#hx-last-target-bo")).to_be_visible()
        expect(gm.locator("#hx-facts-hexe")).to_contain_text("Handlungen 0/2")
        expect(gm.locator("#hx-facts-hexe")).to_contain_text("Hex 2/4")

        # The witch's own check: her WIL against Ada's Geistesstärke, with its odds.
        gm.locator("#hx-npc-check > summary").click()
        gm.select_option("#hx-npc-check-attr", "WIL")
        gm.select_option("#hx-npc-check-against", "ada")
        expect(gm.locator("#hx-npc-check-odds table")).to_be_visible()
        gm.locator("#hx-npc-check-roll").click()
        expect(gm.locator("#log")).to_contain_text("Hexe (WIL)")

        # Bo's fear decays by an Abbau check at INI 0; the row says so before.
        gm.select_option("#hx-gm-target", "bo")
        gm.select_option("#hx-gm-effect", "malus")
        gm.fill("#hx-gm-level", "2")
        gm.fill("#hx-gm-tag", "Furcht")
        gm.locator("#hx-gm-apply").click()
        expect(gm.locator("#hx-effects-bo")).to_contain_text("Malusstufe [Furcht]")
        # Two levels more than the power left him (its dice decide whether it frightened him).
        expect(gm.locator("#hx-ini0-coming")).to_contain_text(
            re.compile(r"Bo: Malusstufe \[Furcht\] [2-9] – Abbauprobe mit 4 Würfeln")
        )
        expect(gm.locator("#hx-ini0-coming")).to_contain_text(
            "Hexe: Regeneration – 1 Elixierwürfel, heilt 1 bis 5 LeP"
        )
        gm.locator("#hx-next-turn").click()  # Ada
        gm.locator("#hx-next-turn").click()  # Bo
        gm.locator("#hx-next-turn").click()  # the rats
        expect(gm.locator("#hx-round")).to_have_text("Runde 1 · Ratten ist am Zug")
        # The Bande rolls its fixed pool (the form kept Ada as the one it is against).
        expect(gm.locator("#hx-npc-actions")).to_contain_text("Würfelpool 3")
        if gm.locator("#hx-npc-check").get_attribute("open") is None:
            gm.locator("#hx-npc-check > summary").click()
        gm.locator("#hx-npc-check-roll").click()
        expect(gm.locator("#log")).to_contain_text("Ratten (Pool)")  # still against Ada
        gm.locator("#hx-next-turn").click()  # INI 0, round 2
        expect(gm.locator("#hx-round")).to_have_text("Runde 2 · Hexe ist am Zug")
        expect(gm.locator("#log")).to_contain_text("INI 0: Hexe gewinnt 1 Hex.")
        # Whatever the Elixierwürfel showed, the witch at full LeP regains none.
        expect(gm.locator("#log")).to_contain_text(
            re.compile(r"INI 0: Hexe heilt 0 LeP durch Regeneration \(Elixierwürfel: [1-5]\)\.")
        )
        expect(gm.locator("#log")).to_contain_text("Abbauprobe Bo gegen Malusstufe [Furcht]")
        expect(gm.locator("#hx-facts-hexe")).to_contain_text("Hex 3/4")
        assert not gm_errors, gm_errors
    finally:
        gm_context.close()
