"""The D&D 5e page's checks and contests, end to end: the GM's ability check with its exact
odds before the roll (the roll mode, a bad DC refused by name), Help on a check, grapple and
shove against a creature clicked on the map (the contest's odds, a push that provokes
nothing), escaping a grapple, Hide (a player's odds and log know nothing of a secret
watcher) and a jump's rolled Athletics check. The odds are checked against an enumeration of
the d20s written here; where the dice decide, the test reads the roll from the record and
checks its consequence in the page and in the state.

Heroes have Str 14 and Dex 14 (Athletics and Acrobatics +2); Gob has Str 10 and Dex 14
(Athletics +0, Acrobatics +2)."""

from __future__ import annotations

import itertools
import json
import urllib.request
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_helpers import ApiTable, join, new_context, open_table, post, watch_errors
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

D20 = range(1, 21)


def hero(id_: str, position: str, **extra: Any) -> dict[str, Any]:
    """A player character (AC 15, 40 HP, walk 9 m, a longsword)."""
    return {
        "kind": "add_character",
        "id": id_,
        "name": id_.title(),
        "ac": 15,
        "hp": 40,
        "abilities": {"str": 14, "dex": 14, "con": 12, "wis": 12},
        "attacks": ["Longsword: +5, 7 (1d8+3) slashing"],
        "position": position,
        **extra,
    }


def foe(id_: str, position: str, **extra: Any) -> dict[str, Any]:
    """A typed-in monster (AC 13, 60 HP, Str 10, Dex 14, Wis 8: passive Perception 9)."""
    sheet = {
        "id": id_,
        "name": id_.title(),
        "ac": 13,
        "hp": 60,
        "abilities": {"str": 10, "dex": 14, "wis": 8},
        "attacks": ["Claw: +4, 5 (1d6+2) slashing"],
        **extra,
    }
    return {"kind": "add_monster", "id": id_, "sheet": sheet, "position": position}


def records(base: str, table: str, token: str) -> list[dict[str, Any]]:
    """Every record of the table the holder of ``token`` sees (through the API)."""
    request = urllib.request.Request(
        f"{base}/api/tables/{table}/records", headers={"Authorization": "Bearer " + token}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return list(json.load(answer)["records"])


def state_for(base: str, table: str, token: str) -> Any:
    """The table's state as the holder of ``token`` sees it."""
    request = urllib.request.Request(
        f"{base}/api/tables/{table}", headers={"Authorization": "Bearer " + token}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)["state"]


def last_event(table: ApiTable, kind: str) -> dict[str, Any]:
    """The latest event of ``kind`` in the GM's records."""
    found = [e for r in records(table.base, table.id, table.token) for e in r["events"]]
    return [e for e in found if e["kind"] == kind][-1]


def fighter(table: ApiTable, id_: str) -> dict[str, Any]:
    return next(f for f in table.state()["fighters"] if f["id"] == id_)


def pct(p: Fraction) -> str:
    """A chance as the English page writes it, with its exact fraction."""
    shown = (100 * Decimal(p.numerator) / p.denominator).quantize(Decimal("0.1"), ROUND_HALF_UP)
    return f"{shown} % ({p.numerator}/{p.denominator})"


def p_check(bonus: int, dc: int, dice: int = 1, pick: Any = max) -> Fraction:
    """P(d20 + bonus >= dc), the kept d20 of ``dice`` picked by ``pick``, by enumeration."""
    rolls = list(itertools.product(D20, repeat=dice))
    return Fraction(sum(pick(r) + bonus >= dc for r in rolls), len(rolls))


def p_contest(active: int, passive: int) -> Fraction:
    """P(d20 + active > d20 + passive), by enumeration: a tie is no win."""
    return Fraction(sum(a + active > b + passive for a in D20 for b in D20), 400)


def blocking(page: Page) -> list[str]:
    """The serious and critical accessibility violations axe finds on the page."""
    found = Axe().run(page).response["violations"]
    return [v["id"] for v in found if v["impact"] in ("serious", "critical")]


OVERFLOWING = """(selectors) => {
  const out = [];
  for (const c of document.querySelectorAll(selectors)) {
    const region = c.closest('.region');
    if (!region) continue;
    const r = c.getBoundingClientRect(), box = region.getBoundingClientRect();
    if (!r.width || !box.width) continue;
    if (r.left < box.left - 1 || r.right > box.right + 1) out.push(c.id || c.tagName);
  }
  return out;
}"""

CONTROLS = ", ".join(
    f"{form} {kind}"
    for form in ("#dd-check-form", "#dd-contest-box", ".dd-actions-other")
    for kind in ("input", "select", "button", "p")
)


def click_logged(page: Page, selector: str) -> None:
    """Click ``selector`` and wait until the log has the record it makes."""
    entries = page.locator("#log > li")
    before = entries.count()
    page.locator(selector).click()
    expect(entries).to_have_count(before + 1)


def outcome(page: Page) -> str:
    """The outcome line of the newest log entry."""
    return page.locator("#log > li").first.locator(".log-outcome").first.inner_text()


def test_the_gm_calls_an_ability_check_with_its_odds_after_help(browser: Any, server: Any) -> None:
    """Bo helps Ada on a check; the GM calls for her Athletics (+2) against DC 12: with the
    Help's advantage P = 1 - (9/20)^2; imposing disadvantage cancels it to 11/20. A DC of 45
    is refused by name and nothing is sent. The rolled check's line comes outcome first."""
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e", {"width": 10, "height": 10})
        table.send(hero("bo", "b2"))
        table.send(hero("ada", "b3"))
        table.send(foe("gob", "h8"))
        table.send({"kind": "start_combat", "rolls": {"bo": 20, "ada": 15, "gob": 1}})
        table.open()
        # Bo's turn: Help, on a check, for Ada
        page.select_option("#dd-action", "help")
        page.select_option("#dd-help-kind", "check")
        expect(page.locator("#dd-help-foe")).to_have_count(0)
        page.select_option("#dd-help-ally", "ada")
        expect(page.locator("#dd-action-fx")).to_have_text(
            "The ally's next ability check has advantage."
        )
        click_logged(page, "#dd-action-go")
        expect(page.locator("#log")).to_contain_text(
            "Bo helps Ada: advantage on Ada's next ability check."
        )
        assert "helped_check" in fighter(table, "ada")["conditions"]

        # the check form starts with the creature whose turn it is
        expect(page.locator("#dd-check-creature")).to_have_value("bo")
        page.select_option("#dd-check-creature", "ada")
        page.select_option("#dd-check-what", "skill:athletics")
        expect(page.locator("#dd-check-roll")).to_be_disabled()
        expect(page.locator("#dd-check-why")).to_have_text("Give the check's DC (1 to 40).")
        seen = len(records(table.base, table.id, table.token))
        page.fill("#dd-check-dc", "45")
        bad = "“45” is no DC: give a whole number from 1 to 40."
        expect(page.locator("#dd-check-why")).to_have_text(bad)
        page.locator("#dd-check-roll").click()
        expect(page.locator("#alert")).to_contain_text(bad)
        expect(page.locator("#dd-check-dc")).to_be_focused()
        assert len(records(table.base, table.id, table.token)) == seen
        page.fill("#dd-check-dc", "12")
        page.fill("#dd-check-modifier", "x")
        expect(page.locator("#dd-check-why")).to_contain_text("“x” is no modifier")
        expect(page.locator("#dd-check-odds")).to_have_count(0)
        page.fill("#dd-check-modifier", "")
        helped = p_check(2, 12, dice=2, pick=max)
        assert helped == 1 - Fraction(9, 20) ** 2
        expect(page.locator("#dd-check-odds")).to_have_text(f"P(success) {pct(helped)}")
        page.select_option("#dd-check-mode", "disadvantage")
        expect(page.locator("#dd-check-odds")).to_have_text(f"P(success) {pct(p_check(2, 12))}")
        page.select_option("#dd-check-mode", "normal")
        expect(page.locator("#dd-check-odds")).to_have_text(f"P(success) {pct(helped)}")
        assert blocking(page) == []
        problems = page.evaluate(OVERFLOWING, CONTROLS)
        assert problems == [], problems

        click_logged(page, "#dd-check-roll")
        expect(page.locator("#dd-check-result")).to_be_focused()
        rolled = last_event(table, "check_rolled")
        roll = rolled["roll"]
        assert (roll["skill"], roll["dc"], roll["mode"], rolled["helped"]) == (
            "athletics",
            12,
            "advantage",
            True,
        )
        assert roll["total"] == max(roll["d20"]) + 2
        assert roll["succeeded"] == (roll["total"] >= 12)
        word = "Success" if roll["succeeded"] else "Failure"
        line = (
            f"{word}: Ada's Athletics check against DC 12, {max(roll['d20'])} on the d20, "
            f"with advantage, {roll['total']} in all. The Help on it is used up."
        )
        expect(page.locator("#dd-check-result")).to_have_text(line)
        assert outcome(page) == line
        expect(page.locator("#log > li").first).to_contain_text("calls for an ability check")
        assert "helped_check" not in fighter(table, "ada")["conditions"]
        # the Help is used up: the odds are plain again
        expect(page.locator("#dd-check-odds")).to_have_text(f"P(success) {pct(p_check(2, 12))}")
        assert errors == []
    finally:
        context.close()


def test_help_keyed_to_a_task_shows_in_the_odds_of_that_task_only(
    browser: Any, server: Any
) -> None:
    """Bo helps Ada on the task of Athletics: the log names the task, her Athletics odds
    count the advantage and her Stealth odds do not."""
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e", {"width": 10, "height": 10})
        table.send(hero("bo", "b2"))
        table.send(hero("ada", "b3"))
        table.send(foe("gob", "h8"))
        table.send({"kind": "start_combat", "rolls": {"bo": 20, "ada": 15, "gob": 1}})
        table.open()
        page.select_option("#dd-action", "help")
        page.select_option("#dd-help-kind", "check")
        page.select_option("#dd-help-ally", "ada")
        page.select_option("#dd-help-task", "athletics")
        expect(page.locator("#dd-action-fx")).to_have_text(
            "The ally's next check of this task has advantage, no other check."
        )
        click_logged(page, "#dd-action-go")
        expect(page.locator("#log")).to_contain_text(
            "Bo helps Ada: advantage on Ada's next check of Athletics (Strength)."
        )
        assert "helped_task" in fighter(table, "ada")["conditions"]
        page.select_option("#dd-check-creature", "ada")
        page.fill("#dd-check-dc", "12")
        page.select_option("#dd-check-what", "skill:athletics")
        helped = p_check(2, 12, dice=2, pick=max)
        expect(page.locator("#dd-check-odds")).to_have_text(f"P(success) {pct(helped)}")
        page.select_option("#dd-check-what", "skill:stealth")
        expect(page.locator("#dd-check-odds")).to_have_text(f"P(success) {pct(p_check(2, 12))}")
        assert errors == []
    finally:
        context.close()


def test_a_player_spends_a_hit_die_with_its_healing_odds(browser: Any, server: Any) -> None:
    """Outside a fight Bo (3d10 hit dice, Con 12: +1) shows his dice left and, before the
    roll, what one die heals (2 to 11, 6.5 on average); spending it logs the roll and the
    hit points regained, and one die fewer is left."""
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e", {"width": 10, "height": 10})
        table.send(hero("bo", "b2", hit_dice={"count": 3, "sides": 10}))
        table.send({"kind": "damage", "target": "bo", "amount": 30})
        table.open()
        expect(page.locator("#dd-f-bo-hit-dice")).to_have_text("Hit dice: 3 of 3 d10 left")
        expect(page.locator("#dd-f-bo-hit-dice-odds")).to_contain_text(
            "Heals 2 to 11, 6.5 on average"
        )
        click_logged(page, "#dd-f-bo-hit-dice-go")
        expect(page.locator("#dd-f-bo-hit-dice")).to_have_text("Hit dice: 2 of 3 d10 left")
        spent = last_event(table, "hit_dice_spent")
        (roll,) = spent["rolls"]
        assert spent["healed"] == roll + 1
        expect(page.locator("#log")).to_contain_text(
            f"Bo spends 1 hit die ({roll}) and regains {roll + 1} hit points."
        )
        assert fighter(table, "bo")["hp"] == 10 + roll + 1
        assert errors == []
    finally:
        context.close()


def test_grapple_shove_and_escape_from_the_turn_panel(browser: Any, server: Any) -> None:
    """Gob holds Ada (c3) at d3: escaping is her better +2 against his Athletics +0. In the
    next round she grapples Gob, clicked on the map (an orc far away is out of reach), and
    shoves him 1.5 m away: +2 against his Acrobatics +2. Each result is read from the record
    and its consequence checked."""
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e", {"width": 10, "height": 10})
        table.send(hero("ada", "c3", attacks_per_action=2))
        table.send(foe("gob", "d3"))
        table.send(foe("orc", "h8"))
        table.send({"kind": "start_combat", "rolls": {"ada": 20, "gob": 10, "orc": 1}})
        grappled = {"kind": "condition", "target": "ada", "condition": "grappled"}
        table.send({**grappled, "source": "gob"})
        table.open()

        escape = p_contest(2, 0)
        expect(page.locator("#dd-escape-odds")).to_have_text(f"P(escape) {pct(escape)}")
        assert blocking(page) == []
        click_logged(page, "#dd-escape")
        freed = last_event(table, "contested")
        assert (freed["action"], freed["creature"], freed["target"]) == ("escape", "ada", "gob")
        total, against = freed["active"]["total"], freed["passive"]["total"]
        assert freed["won"] == (total > against)
        if freed["won"]:
            line = f"Ada wins the escape against Gob: {total} against {against}. Ada is free."
        elif total == against:
            line = f"Ada and Gob tie in the escape at {total}: nothing changes."
        else:
            line = f"Ada loses the escape against Gob: {total} against {against}."
        expect(page.locator("#log > li").first.locator(".log-outcome").first).to_contain_text(line)
        held = "grappled" in fighter(table, "ada")["conditions"]
        assert held != freed["won"]
        expect(page.locator("#dd-escape-box")).to_have_count(1 if held else 0)
        if held:  # the action is spent: no second try
            expect(page.locator("#dd-escape")).to_be_disabled()
        for _ in range(3):
            table.send({"kind": "end_turn"})
        expect(page.locator("#dd-round")).to_contain_text("Round 2")

        # the orc clicked on the map is the contest's target, out of reach
        page.locator("#dd-token-orc").click()
        expect(page.locator("#dd-contest-target")).to_have_value("orc")
        expect(page.locator("#dd-contest-why")).to_contain_text("Orc")
        expect(page.locator("#dd-contest-go")).to_be_disabled()
        page.locator("#dd-token-gob").click()
        expect(page.locator("#dd-contest-target")).to_have_value("gob")
        page.select_option("#dd-contest-action", "grapple")
        win = p_contest(2, 2)
        assert win == Fraction(19, 40)
        expect(page.locator("#dd-contest-odds")).to_have_text(f"P(win) {pct(win)}")
        expect(page.locator("#dd-contest-how")).to_contain_text("a tie changes nothing")
        click_logged(page, "#dd-contest-go")
        grab = last_event(table, "contested")
        assert (grab["action"], grab["passive"]["skill"]) == ("grapple", "acrobatics")
        assert ("grappled" in fighter(table, "gob")["conditions"]) == grab["won"]
        if grab["won"]:
            expect(page.locator("#log")).to_contain_text("Gob is grappled (speed 0).")

        page.select_option("#dd-contest-action", "shove_push")
        expect(page.locator("#dd-contest-odds")).to_have_text(f"P(win) {pct(win)}")
        problems = page.evaluate(OVERFLOWING, CONTROLS)
        assert problems == [], problems
        click_logged(page, "#dd-contest-go")
        push = last_event(table, "contested")
        assert push["action"] == "shove_push"
        where = "e3" if push["won"] else "d3"
        assert push["push_to"] == ("e3" if push["won"] else None)
        expect(page.locator("#dd-token-gob")).to_have_attribute("data-square", where)
        assert fighter(table, "gob")["position"] == where
        assert table.state()["pending_reaction"] is None  # forced movement provokes nothing
        if push["won"]:
            expect(page.locator("#log > li").first.locator(".log-outcome").first).to_contain_text(
                "Gob is pushed to e3 (forced movement: no opportunity attacks)."
            )
        # both attacks of the Attack action are spent
        expect(page.locator("#dd-contest-go")).to_be_disabled()
        assert errors == []
    finally:
        context.close()


def test_a_player_hides_and_learns_nothing_of_a_secret_watcher(browser: Any, server: Any) -> None:
    """Pia's Ada (Stealth +6) hides from Gob (passive Perception 9) while the GM's secret spy
    (passive Perception 17) watches: Pia's odds and her log count Gob alone — d20 + 6 >= 9 —
    and her page never names the spy; the GM's odds for Ada count the spy — d20 + 6 >= 17."""
    contexts = [new_context(browser) for _ in range(2)]
    gm, pia = (c.new_page() for c in contexts)
    errors = watch_errors(gm) + watch_errors(pia)
    try:
        links = open_table(gm, server.url, "dnd5e", "Crypt", "Greta")
        gm.locator("#open-table").click()
        join(pia, links["player"], "Pia")
        table = links["table"]
        token = pia.evaluate(
            "(id) => JSON.parse(localStorage.getItem('spieltisch.tables'))[id].token", table
        )
        gm_token = gm.evaluate(
            "(id) => JSON.parse(localStorage.getItem('spieltisch.tables'))[id].token", table
        )
        base = server.url + f"/api/tables/{table}/commands"

        def send(who: str, command: dict[str, Any], hidden: bool = False) -> None:
            body = {"command": command, "hidden": hidden, "expected_seq": None}
            post(base, body, token if who == "pia" else gm_token)

        send("pia", hero("ada", "b2", skills={"stealth": 6}))
        send("gm", foe("gob", "f6"))
        spy = foe("spy", "j10", passive_perception=17)
        send("gm", {**spy, "secret": True}, hidden=True)
        send("gm", {"kind": "start_combat", "rolls": {"ada": 20, "gob": 1}})
        expect(pia.locator("#dd-turn")).to_be_visible()
        pia.select_option("#dd-action", "hide")
        odds = p_check(6, 9)
        assert odds == Fraction(9, 10)
        expect(pia.locator("#dd-hide-odds")).to_have_text(f"P(hidden) {pct(odds)}")
        expect(pia.locator("#dd-hide-how")).to_have_text(
            "Stealth against the highest passive Perception of the foes."
        )
        expect(pia.locator("#dd-action-fx")).to_contain_text("A Stealth check")
        assert blocking(pia) == []
        # The GM sees the spy: his odds count its passive Perception 17 — d20 + 6 >= 17 —
        # while Pia's stay those of Gob alone.
        gm.select_option("#dd-action", "hide")
        expect(gm.locator("#dd-hide-odds")).to_have_text(f"P(hidden) {pct(p_check(6, 17))}")
        expect(pia.locator("#dd-hide-odds")).to_have_text(f"P(hidden) {pct(odds)}")
        click_logged(pia, "#dd-action-go")
        mine = [e for r in records(server.url, table, token) for e in r["events"]]
        hide = [e for e in mine if e["kind"] == "action_taken"][-1]
        check = hide["check"]
        assert (check["skill"], check["dc"], check["total"]) == ("stealth", 9, check["d20"][0] + 6)
        assert check["succeeded"] == (check["total"] >= 9)
        said = "is hidden" if check["succeeded"] else "is not hidden"
        line = f"Ada {said}: Stealth {check['total']} against passive Perception 9."
        expect(pia.locator("#log > li").first.locator(".log-outcome").first).to_have_text(line)
        expect(gm.locator("#log")).to_contain_text(line)
        hidden = "hidden" in state_for(server.url, table, token)["fighters"][0]["conditions"]
        assert hidden == check["succeeded"]
        assert "Spy" not in pia.locator("body").inner_text()
        assert errors == []
    finally:
        for context in contexts:
            context.close()


def test_a_jump_over_an_obstacle_rolls_its_athletics_check_in_german(
    browser: Any, server: Any
) -> None:
    """Ada jumps from a1 over a low obstacle to b1 (a standing long jump of 1.5 m of her
    2.1 m): the route shows the DC 10 Athletics check with P(d20 + 2 >= 10); the move rolls
    it, the log says its result first, and a failure leaves her prone on a1."""
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        table = ApiTable(server.url, page, "dnd5e", {"width": 8, "height": 8}, language="de")
        table.send(hero("ada", "a1"))
        table.send(foe("gob", "h8"))
        table.send({"kind": "start_combat", "rolls": {"ada": 20, "gob": 1}})
        table.open()
        page.locator("#dd-token-ada").click()
        page.select_option("#dd-jump", "long")
        page.locator("#dd-jump-obstacle").check()
        page.locator("#dd-sq-b1").click(force=True)
        made = p_check(2, 10)
        assert made == Fraction(13, 20)
        expect(page.locator("#dd-route-check-0")).to_contain_text(
            "P(gelingt) " + pct(made).replace(".", ",")
        )
        click_logged(page, "#dd-move")
        moved = last_event(table, "moved")
        (roll,) = moved["rolls"]
        assert (roll["skill"], roll["dc"], roll["total"]) == ("athletics", 10, roll["d20"][0] + 2)
        if roll["succeeded"]:
            line = f"Probe auf Athletik {roll['total']} gegen SG 10: geschafft."
            where, prone = "b1", False
        else:
            line = (
                f"Probe auf Athletik {roll['total']} gegen SG 10: misslungen, "
                "die springende Kreatur liegt am Boden."
            )
            where, prone = "a1", True
        expect(page.locator("#log > li").first.locator(".log-outcome").first).to_contain_text(line)
        expect(page.locator("#dd-token-ada")).to_have_attribute("data-square", where)
        assert ("prone" in fighter(table, "ada")["conditions"]) == prone
        assert errors == []
    finally:
        context.close()
