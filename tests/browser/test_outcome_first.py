"""The log and the dice notice say what happened, outcome first, in every game: an attack's hit
or miss and its damage (not the points paid before it), a death save's result, a HeXXen hit's
LeP, a Kitties check's tier, a Kilkenny turn's move, a free roll's result.

The tables are set up through the API (the GM's token in this browser, as joining leaves it)
and each expectation is worked out from the events the server answers, whatever the dice were.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import ApiTable as Table
from browser_helpers import notice_of, record_notices
from playwright.sync_api import Page, expect

from spieltisch.i18n import translate, translate_plural

pytestmark = pytest.mark.browser


def en(key: str, **params: Any) -> str:
    return translate(key, "en", **params)


@pytest.fixture
def gm_page(gm_page: Page) -> Page:
    """The GM's page, its dice notices recorded (they go away by themselves after a while)."""
    record_notices(gm_page)
    return gm_page


def outcome_line(table: Table, seq: int, text: str) -> None:
    """The entry's first line and the notice both say ``text``."""
    expect(table.entry(seq).locator(".log-text").first).to_have_text(text)
    notice = notice_of(table.page, seq)
    assert (notice["text"], notice["shown"]) == (text, True), notice


def test_a_dnd5e_attack_says_hit_or_miss_and_damage_and_a_death_save_its_result(
    server: Any, gm_page: Page
) -> None:
    table = Table(server.url, gm_page, "dnd5e")
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
    table.open()

    (record,) = table.play(
        {"kind": "attack", "creature": "ada", "target": "goblin", "attack": "Club"}
    )
    (attack,) = [e for e in record["events"] if e["kind"] == "attacked"]
    natural = attack["d20"][0]
    damage = max(sum(attack["dice"][0]) + 2, 0) if attack["dice"] else 0
    if natural == 20:
        text = f"Critical hit: Ada hits Goblin with Club for {damage} damage (natural 20)."
    elif natural == 1 or natural + 4 < 15:  # the goblin's AC 15
        text = f"Ada misses Goblin with Club (d20 {natural}, total {natural + 4})."
    else:
        total = natural + 4
        text = f"Ada hits Goblin with Club for {damage} damage (d20 {natural}, total {total})."
    outcome_line(table, record["seq"], text)
    # What was asked follows the outcome.
    expect(table.entry(record["seq"]).locator(".log-command")).to_be_visible()

    # Ada drops to 0 HP; at her next turn she rolls a death save, which says what it did.
    table.play({"kind": "damage", "target": "ada", "amount": 9, "type": "bludgeoning"})
    table.play({"kind": "end_turn"})
    table.play({"kind": "end_turn"})
    (saved,) = table.play({"kind": "death_save", "creature": "ada"})
    d20 = saved["events"][-1]["d20"]
    expected = {
        20: "Ada is back: a natural 20 on the death save, 1 HP.",
        1: "Ada fails a death save twice: a natural 1.",
    }.get(d20, f"Ada {'succeeds on' if d20 >= 10 else 'fails'} a death save ({d20}).")
    outcome_line(table, saved["seq"], expected)


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


def being(being_id: str, name: str, side: str, weapon: str, skill: str) -> dict[str, Any]:
    return {
        "kind": "create_being",
        "id": being_id,
        "sheet": {
            "name": name,
            "side": side,
            "attributes": ATTRIBUTES,
            "skills": {skill: {"depth": 2, "value": 4}},
            "hp": 30,
            "weapons": [{"name": weapon, "skill": skill, "damage_bonus": 2}],
        },
    }


def test_a_kreiswanderer_attack_is_told_by_its_hit_and_damage_not_by_the_ap_paid(
    server: Any, gm_page: Page
) -> None:
    table = Table(server.url, gm_page, "kreiswanderer")
    table.send(being("ada", "Ada", "party", "Schwert", "schwerter"))
    table.send(being("gob", "Goblin", "foes", "Messer", "messer"))
    table.send({"kind": "start_combat", "combatants": ["ada", "gob"]})
    table.send({"kind": "assign_dice", "being": "ada", "dodge": 1})
    table.send({"kind": "assign_dice", "being": "gob", "dodge": 1})
    table.open()
    current = table.state()["fight"]["current"]
    attacker, target, weapon = (
        ("Ada", "Goblin", "Schwert") if current == "ada" else ("Goblin", "Ada", "Messer")
    )
    (record,) = table.play(
        {
            "kind": "attack",
            "being": current,
            "target": "gob" if current == "ada" else "ada",
            "weapon": weapon,
        }
    )
    kinds = [e["kind"] for e in record["events"]]
    assert kinds[0] == "ap_spent", kinds  # what the notice told first until now
    (hit,) = [e for e in record["events"] if e["kind"] == "attacked"]
    verb = "hits" if hit["passed"] else "misses"
    told = notice_of(table.page, record["seq"])["text"]
    assert f"{attacker} {verb} {target} with {weapon}" in told, told
    if hit["passed"]:
        assert f"{hit['damage']} damage" in told, told
    assert "Ap" not in told, told
    expect(table.entry(record["seq"]).locator(".log-text").first).to_have_text(told)


def test_a_hexxen_hit_says_the_lep_lost_first(server: Any, gm_page: Page) -> None:
    table = Table(server.url, gm_page, "hexxen")
    table.send(
        {
            "kind": "create_hunter",
            "id": "ada",
            "name": "Ada",
            "attributes": {"KKR": 3, "ATH": 2, "GES": 3, "SIN": 2, "WIS": 1, "WIL": 2},
            "skills": {"Parieren": 2, "Geistesstärke": 3, "Nahkampf": 3},
            "armour": 1,
            "ideen": 2,
            "coups": 1,
        }
    )
    table.send(
        {
            "kind": "create_npc",
            "id": "wolf",
            "name": "Werwolf",
            "npc_kind": "anfuehrer",
            "level": 2,
            "statblock": "INI 7\nLeP 20\nHex 2 pro Jz\nHandlungen 2\n"
            "(N) Klauenhieb Angriff 4, Schaden 3",
        }
    )
    table.send({"kind": "start_fight"})
    table.send({"kind": "set_bound", "target": "wolf", "bound": True, "other": "ada"})
    table.open()
    (record,) = table.play(
        {
            "kind": "npc_attack",
            "npc": "wolf",
            "attack": "Klauenhieb",
            "target": "ada",
            "defense": "parry",
        }
    )
    (rolled,) = [e for e in record["events"] if e["kind"] == "attack_rolled"]
    total, defence = rolled["roll"]["total"], rolled["defense_roll"]["total"]
    parry = en("web.hexxen.defense.parry")
    if rolled["hit"]:
        expected = (
            f"Ada loses {rolled['lep_lost']} LeP: Werwolf hits with Klauenhieb "
            f"({total} against {parry} {defence})."
        )
    else:
        expected = f"Werwolf misses Ada with Klauenhieb ({total} against {parry} {defence})."
    outcome_line(table, record["seq"], expected)
    # The notice shows each die's symbols as the log does (not pips 1-6).
    labels = "dice => dice.map((d) => d.getAttribute('aria-label'))"
    logged = table.entry(record["seq"]).locator(".die").evaluate_all(labels)
    shown = notice_of(gm_page, record["seq"])["faces"]
    assert shown == logged, (shown, logged)
    assert not any(label.startswith("d6") for label in shown), shown


def test_a_kitties_check_says_its_tier_first_with_one_success_in_the_singular(
    server: Any, gm_page: Page
) -> None:
    table = Table(server.url, gm_page, "magical-kitties")
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
    table.open()
    (record,) = table.play({"kind": "check", "kitty": "mia", "attribute": "cute"})
    (check,) = [e for e in record["events"] if e["kind"] == "check_rolled"]
    hits = sum(1 for value in check["dice"] if value >= check["difficulty"])
    tier = en(f"web.kitties.tier.{min(hits, 4)}")
    noun = "success" if hits == 1 else "successes"
    expected = f"{tier}: Mia rolls Cute against {check['difficulty']}, {hits} {noun}."
    outcome_line(table, record["seq"], expected)
    assert translate_plural("web.kitties.ev.check_rolled", 1, "de").endswith("1 Erfolg.")


def test_a_kilkenny_turn_of_the_ai_says_its_move_before_its_roll(
    server: Any, gm_page: Page
) -> None:
    table = Table(
        server.url,
        gm_page,
        "kilkenny",
        {"players": 2, "seats": [{"player": "human"}, {"player": "greedy"}]},
    )
    table.open()
    state = table.state()
    human = state["seats"][0]["seat"]
    table.play({"kind": "sit", "seat": human})
    records = table.play({"kind": "roll"})
    if not any(r["actor"] == "auto" for r in records):
        moves = table.state()["moves"]
        records = table.play({"kind": "move", **moves[0]})
    # The AI rolls (a record), then moves (another record, without dice) or passes.
    autos = [r for r in records if r["actor"] == "auto"]
    rolled = next(e for r in autos for e in r["events"] if e["kind"] == "rolled")
    turn = next(r for r in autos if any(e["kind"] != "rolled" for e in r["events"]))

    def told(event: dict[str, Any]) -> str:
        seat = en("web.kilkenny.seat." + event["seat"])
        if event["kind"] == "captured":
            by = en("web.kilkenny.seat." + event["by"])
            return en("web.kilkenny.ev.captured", seat=by, victim=seat, square=event["square"])
        if event["kind"] == "passed":
            return en("web.kilkenny.ev.passed", seat=seat, roll=event["roll"])
        where = {"from": event["from"], "to": event.get("to"), "hole": event.get("hole")}
        return en("web.kilkenny.ev." + event["kind"], seat=seat, **where)

    events = [e for e in turn["events"] if e["kind"] not in ("rolled", "game_over")]
    lead = " ".join(told(e) for e in events)
    if not any(e["kind"] == "passed" for e in events):
        lead += f" (rolled {rolled['value']})"
    first = table.entry(turn["seq"]).locator(".log-text").first
    expect(first).to_have_class("log-text log-outcome")
    expect(first).to_have_text(lead)
    # The notice tells the move (with its roll), not only the roll before it.
    assert notice_of(gm_page, turn["seq"])["text"] == lead


def test_a_free_roll_says_its_result_before_its_notation(server: Any, gm_page: Page) -> None:
    table = Table(server.url, gm_page, "free-dice")
    table.open()
    (record,) = table.play({"kind": "roll", "expression": "3d6"})
    (rolled,) = [e for e in record["events"] if e["kind"] == "rolled"]
    outcome_line(table, record["seq"], f"{rolled['result']} (3d6)")
