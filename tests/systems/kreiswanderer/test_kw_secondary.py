"""Secondary effects of effect markings: Zusatzschaden, Schutz against a Waffenklasse, fire."""

from __future__ import annotations

from typing import Any

from kw_helpers import ATTRS, hero, source_at

from spieltisch.engine.replay import replay_log
from spieltisch.engine.table import Table
from spieltisch.engine.visibility import Actor, Role, Viewer
from spieltisch.systems.kreiswanderer import Kreiswanderer, rules, secondary
from spieltisch.systems.kreiswanderer.commands import COMMANDS
from spieltisch.systems.kreiswanderer.sheet import Weapon

GM = Actor(id="gm", role=Role.GM)

KLINGE = {
    "name": "Klinge",
    "skill": "schwerter",
    "damage_bonus": 2,
    "markings": [
        {"name": "waffenklasse", "detail": "klinge"},
        {"name": "zusatzschaden", "value": 3, "detail": "TR"},
        {"name": "zusatzschaden", "value": 2},
    ],
}


def _foe() -> dict[str, Any]:
    """A guard: PH 2 and TR 1 resistance, defensive 1, Schutz 1 against blades."""
    return {
        "kind": "create_being",
        "id": "wache",
        "sheet": {
            "name": "Wache",
            "side": "foes",
            "attributes": {**ATTRS, "agilitaet": 1},
            "hp": 12,
            "resistances": {"PH": 2, "TR": 1},
            "markings": [
                {"name": "defensive", "value": 1},
                {"name": "schutz", "value": 1, "detail": "klinge"},
                {"name": "schutz", "value": 5, "detail": "wucht"},
            ],
        },
    }


def _fight() -> Table:
    table = Table(Kreiswanderer())
    table.execute(hero(weapons=[KLINGE]), GM, source_at([]))
    table.execute(_foe(), GM, source_at([]))
    table.execute(
        {"kind": "start_combat", "combatants": ["ada", "wache"]}, GM, source_at([7, 4, 2, 9])
    )
    table.execute({"kind": "assign_dice", "being": "ada", "dodge": 1}, GM, source_at([]))
    table.execute({"kind": "assign_dice", "being": "wache", "dodge": 1}, GM, source_at([]))
    return table


def test_the_rules_of_extra_damage_and_protection() -> None:
    assert rules.extra_damage(3, 1) == 2
    assert rules.extra_damage(2, 5) == 0
    assert rules.damage_after_resistance(4, 2, 2, 1) == 3
    assert rules.damage_after_resistance(1, 0, 2, 1) == 0


def test_a_hit_deals_extra_damage_and_the_class_protection_counts() -> None:
    table = _fight()
    # Ada: TW 3 × 2 + 4 = 10; target = dodge 9 + 1 + defensive 1 = 11. Roll 5 → 15, quality 4.
    # The blade: 4 + 2 − PH 2 − Schutz (klinge) 1 = 3 (Schutz against "wucht" does not count);
    # Zusatzschaden 3 TR − TR 1 = 2; Zusatzschaden 2 of the weapon's type PH − PH 2 = 0.
    attack = {"kind": "attack", "being": "ada", "target": "wache", "weapon": "Klinge"}
    (record,) = table.execute(attack, GM, source_at([5]))
    hit = record.events[-1]
    assert (hit["quality"], hit["protection"], hit["damage"]) == (4, 1, 5)
    assert hit["extra"] == [
        {"damage_type": "TR", "value": 3, "damage": 2},
        {"damage_type": "PH", "value": 2, "damage": 0},
    ]
    assert table.state.beings["wache"].creature.tracks["tp"].current == 7
    result = replay_log(Kreiswanderer(), {}, table.records)
    assert result.mismatch is None
    assert Table(Kreiswanderer(), {}, table.records).state == table.state


def test_a_miss_has_no_secondary_effects() -> None:
    table = _fight()
    # With the GM's hardship −2: TW 8 + roll 1 = 9 against 11, a miss.
    attack = {
        "kind": "attack",
        "being": "ada",
        "target": "wache",
        "weapon": "Klinge",
        "modifier": -2,
    }
    (record,) = table.execute(attack, GM, source_at([1]))
    hit = record.events[-1]
    assert (hit["passed"], hit["damage"], hit["extra"], hit["protection"]) == (False, 0, [], 0)


def test_the_attack_odds_count_the_secondary_effects() -> None:
    table = _fight()
    command = COMMANDS.validate_python(
        {"kind": "attack", "being": "ada", "target": "wache", "weapon": "Klinge"}
    )
    found = Kreiswanderer().odds(table.state, command)
    assert found is not None
    chances = {o.value: o.exact for o in found.outcomes}
    # Margin = d10 − 1 (never a miss); damage = max(0, margin + 2 − 2 − 1) + 2 extra:
    # d10 1 or 2 → 2, d10 3 → 3, …, d10 9 → 9; 10 explodes: 10 + r − 1 − 1 + 2 = 10 + r.
    assert "miss" not in chances
    assert chances["2"] == "1/5"
    assert chances["3"] == "1/10" and chances["9"] == "1/10"
    assert chances["11"] == "1/100"


def test_the_view_shows_each_hit_s_parts_and_the_known_markings() -> None:
    table = _fight()
    shown = Kreiswanderer().view(table.state, Viewer(role=Role.GM))
    (ada,) = [c for c in shown["fight"]["combatants"] if c["id"] == "ada"]
    assert ada["hits"] == [
        {
            "weapon": "Klinge",
            "target": "wache",
            "thresholds": 0,
            "resistance": 2,
            "protection": 1,
            "extra": [
                {"damage_type": "TR", "value": 3, "damage": 2},
                {"damage_type": "PH", "value": 2, "damage": 0},
            ],
            "ignites": False,
        }
    ]
    assert "zusatzschaden" in shown["known_markings"]["names"]
    assert secondary.known_markings() == shown["known_markings"]


def test_fire_comes_from_the_table() -> None:
    torch = hero()["sheet"]["weapons"][1]
    assert secondary.lasting(Weapon.model_validate(torch)) == ("langzeiteffekt_feuer",)
    assert secondary.lasting(Weapon.model_validate(KLINGE)) == ()
