"""Blut- and Elixierwürfel that act, and NSC properties (Eigenschaften) applied — every case
hand-computed through the table; the odds of the special dice against icepool."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest
from hexxen_helpers import ADA, LoadedDice

from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.systems.hexxen import odds as hexxen_odds
from spieltisch.systems.hexxen.commands import COMMANDS
from spieltisch.systems.hexxen.sheet import trait_of
from spieltisch.systems.registry import get_system

GM = Actor(id="gm", role=Role.GM)
ANNA = Actor(id="anna", role=Role.PLAYER)
SYSTEM = get_system("hexxen")
BO: dict[str, Any] = {**ADA, "id": "bo", "name": "Bo"}


def at(values: list[int]) -> Any:
    """The dice of one command, whatever draw index it starts at."""
    return lambda _index: LoadedDice(values)


NONE = at([])


def _npc(block: str, npc_id: str = "spider", **extra: Any) -> dict[str, Any]:
    return {
        "kind": "create_npc",
        "id": npc_id,
        "name": "Spinne",
        "npc_kind": "anfuehrer",
        "statblock": "INI 9\nLeP 20\n" + block,
        **extra,
    }


def _fight(block: str, options: dict[str, Any] | None = None) -> Table:
    """Ada and the spider, bound as a pair, in a fight; the spider acts first (INI 9 > 5)."""
    table = Table(SYSTEM, options or {})
    table.execute(ADA, ANNA, NONE)
    table.execute(_npc(block), GM, NONE)
    table.execute({"kind": "start_fight", "combatants": ["spider", "ada"]}, GM, NONE)
    table.execute(
        {"kind": "set_bound", "target": "ada", "other": "spider", "bound": True}, GM, NONE
    )
    return table


BITE = {"kind": "npc_attack", "npc": "spider", "attack": "Biss", "target": "ada"}


def test_an_attacks_dice_add_damage_and_give_levels_of_an_effect() -> None:
    table = _fight(
        "(N) Biss Angriff 2, Schaden 1, 1 Blutwürfel innerer Schaden [Gift], 1 Elixierwürfel"
    )
    # 2 M dice 6, 6: 2 successes, no defence: margin 2, a hit. Then the bare Elixierwürfel
    # (a 4: +4 damage), then the Blutwürfel of the poison (a 6: 3 drops, 3 levels).
    table.execute(BITE, GM, at([6, 6, 4, 6]))
    event = table.records[-1].events[0]
    assert event["special"] == [
        {"die": "elixir", "dice": [4], "value": 4, "effect": "lep", "source": None},
        {"die": "blood", "dice": [6], "value": 3, "effect": "inner_damage[Gift]", "source": None},
    ]
    assert event["lep_lost"] == 1 + 2 + 4 - 1  # Schaden + margin + Elixier − armour
    assert table.state.hunters["ada"].lep.current == 12 - 6
    assert [(e.kind, e.level) for e in table.state.effects.items] == [("inner_damage[Gift]", 3)]


def test_a_miss_rolls_no_special_dice() -> None:
    table = _fight("(N) Biss Angriff 2, Schaden 1, 1 Blutwürfel innerer Schaden")
    table.execute(BITE, GM, at([2, 3]))  # no symbol: a miss, nothing more is drawn
    event = table.records[-1].events[0]
    assert (event["hit"], "special" in event) == (False, False)
    assert len(table.records[-1].draws) == 2
    assert not table.state.effects.items


def test_levels_from_dice_stop_at_the_cap() -> None:
    table = _fight("(N) Biss Angriff 1, Schaden 0, 2 Elixierwürfel Malusstufen")
    table.execute(BITE, GM, at([6, 5, 4]))  # a hit; Elixier 5 + 4 = 9 levels, capped at 5
    assert table.records[-1].events[0]["special"][0]["value"] == 9
    assert [(e.kind, e.level) for e in table.state.effects.items] == [("malus", 5)]


def test_edition_2_only_reports_the_elixier_value() -> None:
    table = _fight("(N) Biss Angriff 2, Schaden 1, 1 Elixierwürfel", {"edition": 2})
    table.execute(BITE, GM, at([6, 6, 4]))
    event = table.records[-1].events[0]
    assert (event["elixir"], event["lep_lost"]) == ([4], 1 + 2 - 1)
    assert "special" not in event
    assert table.state.npcs["spider"].traits == ()


def test_a_dice_effect_the_table_cannot_apply_is_refused() -> None:
    table = Table(SYSTEM)
    with pytest.raises(RuleError) as refused:
        table.execute(_npc("(N) Biss Angriff 2, Schaden 1, 1 Blutwürfel Pest"), GM, NONE)
    assert refused.value.code == "hexxen.unknown_dice_effect"
    assert refused.value.params == {"npc": "Spinne", "line": "Biss", "value": "Pest"}
    assert not table.records and not table.state.npcs


CURSE = (
    "Fluch (F: 2 gegen Geistesstärke, 1 Elixierwürfel Malusstufen [Fluch], 1 Hex pro Ziel"
    " (Gruppe))\nHex 4"
)


def test_a_power_whose_effect_is_the_elixier_value() -> None:
    table = Table(SYSTEM)
    table.execute(ADA, ANNA, NONE)
    table.execute(BO, ANNA, NONE)
    table.execute(_npc(CURSE), GM, NONE)
    table.execute({"kind": "start_fight"}, GM, NONE)
    power = {"kind": "npc_power", "npc": "spider", "power": "Fluch", "targets": ["ada", "bo"]}
    # The spider: 2 M dice 6, 6 = 2. Ada: 5 H dice 2, 2, 2, 2, 2 = 0, behind by 2: her
    # Elixierwürfel shows 5 (a 5) -> 5 levels. Bo: 6, 6, 6, 2, 2 = 3, ahead: no dice.
    table.execute(power, GM, at([6, 6, 2, 2, 2, 2, 2, 5, 6, 6, 6, 2, 2]))
    results = table.records[-1].events[0]["results"]
    assert [(r["margin"], r["amount"], r.get("dice", [])) for r in results] == [
        (2, 5, [5]),
        (-1, 0, []),
    ]
    assert [(e.target, e.kind, e.level) for e in table.state.effects.items] == [
        ("ada", "malus[Fluch]", 5)
    ]
    odds = SYSTEM.odds(table.state, COMMANDS.validate_python(power))
    assert odds is not None
    part = next(p for p in odds.parts if p.key == "elixir:malus[Fluch]")
    assert {o.value: Fraction(o.exact) for o in part.odds.outcomes if o.probability} == {
        1: Fraction(1, 6),
        2: Fraction(1, 6),
        3: Fraction(1, 3),
        4: Fraction(1, 6),
        5: Fraction(1, 6),
    }


def test_regeneration_heals_at_ini0_never_above_the_maximum() -> None:
    table = _fight("Eigenschaften: Regeneration, Rudeltier")
    table.execute({"kind": "change_lep", "target": "spider", "amount": -3}, GM, NONE)
    table.execute({"kind": "next_turn"}, GM, NONE)  # the spider's turn ends
    table.execute({"kind": "next_turn"}, ANNA, at([5]))  # Ada's: INI 0, Elixier 5
    healed = [e for e in table.records[-1].events if e["kind"] == "regenerated"]
    assert healed == [
        {
            "kind": "regenerated",
            "npc": "spider",
            "property": "Regeneration",
            "die": "elixir",
            "dice": [5],
            "value": 5,
            "lep": 3,
            "round": 1,
        }
    ]
    assert table.state.npcs["spider"].lep.current == 20
    view = table.view(table.viewer(GM))
    spider = next(n for n in view["npcs"] if n["id"] == "spider")
    assert [(t["name"], t["applied"]) for t in spider["traits"]] == [
        ("Regeneration", True),
        ("Rudeltier", False),
    ]
    (coming,) = view["fight"]["healing"]
    assert coming["chances"] == {"1": "1/6", "2": "1/6", "3": "1/3", "4": "1/6", "5": "1/6"}


def test_poison_and_extra_damage_from_properties() -> None:
    table = _fight("(N) Biss Angriff 1, Schaden 2\nEigenschaften: Giftig, Zusatzschaden 2")
    # A hit with margin 1; Giftig's Blutwürfel 4 (2 drops: 2 levels of Gift), then the two
    # Blutwürfel of Zusatzschaden 2: 6 and 1 (3 + 0 drops: +3 damage).
    table.execute(BITE, GM, at([5, 4, 6, 1]))
    event = table.records[-1].events[0]
    assert [(s["value"], s["effect"], s.get("source")) for s in event["special"]] == [
        (2, "inner_damage[Gift]", "Giftig"),
        (3, "lep", "Zusatzschaden"),
    ]
    assert event["lep_lost"] == 2 + 1 + 3 - 1


def test_immunity_bonus_and_hex_growth_from_properties() -> None:
    table = _fight("KKR 2\nEigenschaften: Furchtlos, Entschlossen 2, Hexenquell")
    furcht = {"kind": "apply_effect", "target": "spider", "effect": "malus", "tag": "Furcht"}
    with pytest.raises(RuleError) as refused:
        table.execute(furcht, GM, NONE)
    assert refused.value.code == "hexxen.immune"
    assert refused.value.params["value"] == "Furchtlos"
    table.execute({"kind": "apply_effect", "target": "spider", "effect": "malus"}, GM, NONE)
    # Bonus 2 against Malusstufe 1: net +1, one Janus die along.
    table.execute({"kind": "npc_check", "npc": "spider", "attribute": "KKR"}, GM, at([6, 1, 4]))
    roll = table.records[-1].events[0]["roll"]
    assert (roll["bonus"], roll["malus"], roll["net"], roll["total"]) == (2, 1, 1, 3)
    table.execute({"kind": "next_turn"}, GM, NONE)
    table.execute({"kind": "next_turn"}, ANNA, NONE)
    grown = [e for e in table.records[-1].events if e["kind"] == "hex_gained"]
    assert [e["amount"] for e in grown] == [1]


def test_unbeirrbar_refuses_every_malus() -> None:
    table = _fight("Eigenschaften: Unbeirrbar")
    for tag in (None, "Furcht"):
        command = {"kind": "apply_effect", "target": "spider", "effect": "malus", "tag": tag}
        with pytest.raises(RuleError):
            table.execute({k: v for k, v in command.items() if v is not None}, GM, NONE)
    table.execute({"kind": "apply_effect", "target": "spider", "effect": "outer_damage"}, GM, NONE)


def test_a_secret_nsc_keeps_its_properties_hidden() -> None:
    table = Table(SYSTEM)
    table.execute(ADA, ANNA, NONE)
    table.execute(_npc("Eigenschaften: Regeneration", "ghost", secret=True), GM, NONE, hidden=True)
    shown = table.view(table.viewer(ANNA))
    assert shown["npcs"] == [] and "Regeneration" not in str(shown)


def test_a_property_reads_its_number_and_keeps_unknown_ones_as_text() -> None:
    assert trait_of("regeneration 3").model_dump() == {
        "text": "regeneration 3",
        "name": "Regeneration",
        "does": "heal",
        "count": 3,
        "die": "elixir",
        "effect": None,
        "tag": None,
    }
    unknown = trait_of("Rudeltier (Bande)")
    assert (unknown.name, unknown.does) == ("Rudeltier", None)


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_the_numbers_of_the_special_dice_match_icepool(count: int) -> None:
    faces = {"B": [0, 1, 1, 2, 2, 3], "E": [1, 2, 3, 4, 5, 3]}
    for letter, numbers in faces.items():
        oracle = (count @ icepool.Die(numbers)).probabilities()
        outcomes = (count @ icepool.Die(numbers)).outcomes()
        expected = {int(o): Fraction(p) for o, p in zip(outcomes, oracle, strict=True)}
        ours = hexxen_odds.special(letter, count)
        assert {k: p for k, p in enumerate(ours) if p} == expected


def test_attack_odds_show_what_the_dice_give() -> None:
    table = _fight("(N) Biss Angriff 2, Schaden 1, 2 Blutwürfel innerer Schaden [Gift]")
    odds = SYSTEM.odds(table.state, COMMANDS.validate_python(BITE))
    assert odds is not None
    (part,) = odds.parts
    assert part.key == "blood:inner_damage[Gift]"
    # Two Blutwürfel: 0 drops only when both are blank.
    assert Fraction(part.odds.outcomes[0].exact) == Fraction(1, 36)


def test_an_nsc_the_ini0_damage_defeats_does_not_regenerate() -> None:
    table = _fight("Eigenschaften: Regeneration")
    table.execute({"kind": "change_lep", "target": "spider", "amount": -15}, GM, NONE)
    table.execute(
        {"kind": "apply_effect", "target": "spider", "effect": "outer_damage", "level": 5}, GM, NONE
    )
    table.execute({"kind": "next_turn"}, GM, NONE)
    table.execute({"kind": "next_turn"}, ANNA, NONE)  # 10 LeP of damage, no die is drawn
    kinds = [e["kind"] for e in table.records[-1].events]
    assert "regenerated" not in kinds and "effect_ticked" in kinds
    assert table.state.npcs["spider"].lep.current == 0  # an NSC stops at 0
