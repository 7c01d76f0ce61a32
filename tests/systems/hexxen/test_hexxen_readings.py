"""The rules an audit found read wrong (issue 23), against hand-computed cases, and the tables
made before: they keep the reading they were played with and replay as recorded."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hexxen_helpers import ADA, WOLF, Script

from spieltisch.engine.errors import RuleError
from spieltisch.engine.replay import replay_log
from spieltisch.engine.system import stamp_options, upgrade_options
from spieltisch.engine.table import Actor, Record, Role, Table
from spieltisch.systems.hexxen.sheet import HexxenState
from spieltisch.systems.registry import get_system

GM = Actor(id="gm", role=Role.GM)
ANNA = Actor(id="anna", role=Role.PLAYER)
SYSTEM = get_system("hexxen")
NONE = Script([]).source_at

# KKR 1 + Nahkampf 2: three HeXXen dice.
THREE: dict[str, Any] = {
    "kind": "create_hunter",
    "id": "cleo",
    "name": "Cleo",
    "attributes": {"KKR": 1, "ATH": 1, "GES": 1, "SIN": 1, "WIS": 1, "WIL": 1},
    "skills": {"Nahkampf": 2, "Geistesstärke": 1},
}


MALUS_5 = {"kind": "apply_effect", "target": "cleo", "effect": "malus", "level": 5}


def _exact(odds: Any, value: int) -> Fraction:
    outcome = next(o for o in odds.outcomes if o.value == value)
    return Fraction(outcome.exact)


def test_each_side_is_capped_before_netting() -> None:
    # 5 Malusstufen + a lasting malus 3 = 8, capped at 5; the check's bonus 4: net -1.
    # Three H dice (a success on 5, 6) and one Janus die as malus: P(0) = (2/3)^3 +
    # 3 (1/3)(2/3)^2 (1/2) = 8/27 + 6/27 = 14/27 (netting first gave -4 and 379/432).
    table = Table(SYSTEM)
    table.execute(THREE, ANNA, NONE)
    table.execute(MALUS_5, GM, NONE)
    table.execute({"kind": "set_modifier", "target": "cleo", "malus": 3}, GM, NONE)
    check = {"kind": "hunter_check", "hunter": "cleo", "skill": "Nahkampf", "bonus": 4}
    odds = SYSTEM.odds(table.state, SYSTEM.commands.validate_python(check))
    assert odds is not None and _exact(odds, 0) == Fraction(14, 27)
    # Dice 5, 6, 2 -> 2 successes; one Janus die 4 -> one symbol removed: 1.
    table.execute(check, ANNA, Script([5, 6, 2, 4]).source_at)
    roll = table.records[-1].events[0]["roll"]
    assert (roll["net"], roll["janus"], roll["total"]) == (-1, [4], 1)
    assert (roll["bonus"], roll["malus"]) == (4, 8)


def test_the_old_reading_nets_first_as_an_option() -> None:
    table = Table(SYSTEM, {"modifier_cap": "net"})
    table.execute(THREE, ANNA, NONE)
    table.execute(MALUS_5, GM, NONE)
    table.execute({"kind": "set_modifier", "target": "cleo", "malus": 3}, GM, NONE)
    check = {"kind": "hunter_check", "hunter": "cleo", "skill": "Nahkampf", "bonus": 4}
    odds = SYSTEM.odds(table.state, SYSTEM.commands.validate_python(check))
    assert odds is not None and _exact(odds, 0) == Fraction(379, 432)


def _wolf_fight(options: dict[str, Any] | None = None) -> Table:
    table = Table(SYSTEM, options or {})
    for actor, command in (
        (ANNA, ADA),
        (GM, WOLF),
        (GM, {"kind": "start_fight"}),
        (GM, {"kind": "set_bound", "target": "wolf", "bound": True, "other": "ada"}),
    ):
        table.execute(command, actor, NONE)
    return table


@pytest.mark.parametrize(("options", "lost"), [({}, 4), ({"damage_offset": -1}, 3)])
def test_damage_adds_the_net_successes(options: dict[str, Any], lost: int) -> None:
    # Wolf: 4 M dice 1, 5, 2, 6 -> 3; no defence: margin 3 -> Schaden 3 + 3 - armour 1 = 5
    # (the old reading: one less). With a parry of 5 H dice 5,1,2,3,4 -> 1: margin 2 -> 4.
    table = _wolf_fight(options)
    attack = {
        "kind": "npc_attack",
        "npc": "wolf",
        "attack": "Klauenhieb",
        "target": "ada",
        "defense": "parry",
    }
    table.execute(attack, GM, Script([1, 5, 2, 6, 5, 1, 2, 3, 4]).source_at)
    event = table.records[-1].events[0]
    assert (event["margin"], event["lep_lost"]) == (2, lost)


def _npc(block: str, kind: str = "anfuehrer", **extra: Any) -> dict[str, Any]:
    return {
        "kind": "create_npc",
        "id": "ghoul",
        "name": "Ghul",
        "npc_kind": kind,
        "statblock": block,
        **extra,
    }


def test_an_effect_the_table_cannot_apply_is_refused() -> None:
    table = Table(SYSTEM)
    bann = "Bann (N|F: 3 gegen Geistesstärke, 1 Verzauberung pro Differenzerfolg, 1 Hex)"
    with pytest.raises(RuleError) as refused:
        table.execute(_npc(bann), GM, NONE)
    assert refused.value.code == "hexxen.unknown_effect"
    assert refused.value.params["value"] == "Verzauberung"
    assert refused.value.params["power"] == "Bann"
    assert table.seq == 0


def test_inner_damage_levels_are_applied() -> None:
    # Würgen: 4 M dice 6, 6, 1, 2 -> 3; Ada WIL 2 + Geistesstärke 3 = 5 H dice 1,2,3,4,5 -> 1.
    # Margin 2 -> 2 levels of inner damage (today: parsed, then silently not applied).
    block = (
        "INI 9\nHex 3\n(N) Biss Angriff 3, Schaden 2\n"
        "Würgen (N|F: 4 gegen Geistesstärke, 1 innere Schadensstufe pro Differenzerfolg, 1 Hex)"
    )
    table = Table(SYSTEM)
    table.execute(ADA, ANNA, NONE)
    table.execute(_npc(block), GM, NONE)
    table.execute({"kind": "start_fight", "combatants": ["ghoul", "ada"]}, GM, NONE)
    power = {"kind": "npc_power", "npc": "ghoul", "power": "Würgen", "targets": ["ada"]}
    table.execute(power, GM, Script([6, 6, 1, 2, 1, 2, 3, 4, 5]).source_at)
    result = table.records[-1].events[0]["results"][0]
    assert (result["margin"], result["effect"], result["amount"]) == (2, "inner_damage", 2)
    levels = {(e.kind, e.target): e.level for e in table.state.effects.items}
    assert levels == {("inner_damage", "ada"): 2}


@pytest.mark.parametrize(
    ("kind", "line", "value"),
    [("anfuehrer", "Bandenstufe 2", "Bandenstufe"), ("bande", "Anführerstufe 2", "Anführerstufe")],
)
def test_a_level_line_of_the_other_kind_is_refused(kind: str, line: str, value: str) -> None:
    table = Table(SYSTEM)
    with pytest.raises(RuleError) as refused:
        table.execute(_npc(f"LeP 9\n{line}", kind), GM, NONE)
    assert refused.value.code == "hexxen.wrong_level_line"
    assert refused.value.params["value"] == value
    table.execute(_npc("LeP 9\nBandenstufe 3", "bande"), GM, NONE)
    assert table.state.npcs["ghoul"].level == 3
    with pytest.raises(RuleError) as high:
        table.execute({**_npc("LeP 9\nBandenstufe 4", "bande"), "id": "g2"}, GM, NONE)
    assert high.value.code == "hexxen.bad_value"


BO: dict[str, Any] = {**ADA, "id": "bo", "name": "Bo", "skills": {"Geistesstärke": 1}}
"""WIL 2 + Geistesstärke 1: three dice."""


def _two_hunters() -> Table:
    table = Table(SYSTEM)
    for actor, command in (
        (ANNA, ADA),
        (ANNA, BO),
        (GM, WOLF),
        (GM, {"kind": "start_fight"}),
    ):
        table.execute(command, actor, NONE)
    return table


def _binomial(n: int, p: Fraction) -> list[Fraction]:
    from math import comb

    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def test_a_power_shows_the_odds_of_every_target() -> None:
    # Terrorwelle: 3 M dice (1/2 each) against Ada's 5 H dice and Bo's 3 H dice (1/3 each).
    table = _two_hunters()
    command = {"kind": "npc_power", "npc": "wolf", "power": "Terrorwelle", "targets": ["ada", "bo"]}
    odds = SYSTEM.odds(table.state, SYSTEM.commands.validate_python(command))
    assert odds is not None
    npc = _binomial(3, Fraction(1, 2))
    ada, bo = _binomial(5, Fraction(1, 3)), _binomial(3, Fraction(1, 3))

    def ahead(hunter: list[Fraction], margin: int) -> Fraction:
        return sum(
            (npc[a] * hunter[h] for a in range(4) for h in range(len(hunter)) if a - h == margin),
            Fraction(0),
        )

    parts = {part.key: part.odds for part in odds.parts}
    assert set(parts) == {"ada", "bo"}
    for key, hunter in (("ada", ada), ("bo", bo)):
        for margin in (1, 2, 3):
            assert _exact(parts[key], margin) == ahead(hunter, margin)
    # The NSC rolls once: both affected needs both below the same total.
    both = sum(
        (npc[a] * sum(ada[:a], Fraction(0)) * sum(bo[:a], Fraction(0)) for a in range(4)),
        Fraction(0),
    )
    assert _exact(odds, 2) == both
    assert sum(Fraction(o.exact) for o in odds.outcomes) == 1


def test_a_power_takes_the_targets_its_line_allows() -> None:
    table = _two_hunters()
    block = (
        "INI 9\nHex 4\n"
        "Blick (N|F: 3 gegen Geistesstärke, 1 Malusstufe pro Differenzerfolg, 1 Hex pro Ziel)\n"
        "Netz (N|F: 3 gegen Geistesstärke, 1 Lähmungsstufe pro Differenzerfolg, 1 Hex pro Ziel"
        " (1–2 Ziele))"
    )
    table.execute({**_npc(block), "id": "hag", "name": "Hexe"}, GM, NONE)
    table.execute({"kind": "end_fight"}, GM, NONE)
    table.execute({"kind": "start_fight", "combatants": ["hag", "ada", "bo"]}, GM, NONE)
    two = {"kind": "npc_power", "npc": "hag", "power": "Blick", "targets": ["ada", "bo"]}
    with pytest.raises(RuleError) as refused:
        table.execute(two, GM, Script([6] * 20).source_at)
    assert refused.value.code == "hexxen.too_many_targets"
    assert refused.value.params["count"] == 1
    table.execute({**two, "power": "Netz"}, GM, Script([6] * 20).source_at)
    assert table.records[-1].events[0]["hex"] == 2  # 1 Hex per target


def test_old_tables_keep_their_reading() -> None:
    assert upgrade_options(SYSTEM, {}) == {
        "edition": 1,
        "modifier_cap": "net",
        "damage_offset": -1,
        "binding_from_map": False,
    }
    assert upgrade_options(SYSTEM, {"damage_offset": 0}) == {
        "edition": 1,
        "modifier_cap": "net",
        "damage_offset": 0,
        "binding_from_map": False,
    }
    assert upgrade_options(SYSTEM, {"edition": 2}) == {"edition": 2}
    assert stamp_options(SYSTEM, {"max_pool": 8}) == {"edition": 3, "max_pool": 8}
    assert SYSTEM.new_state({}).options.edition == 3


def test_a_table_made_before_replays_as_recorded() -> None:
    # Recorded with the code before issue 23 (options stored as {}): an attack that lost
    # Schaden + net - 1, a check whose malus 8 was netted before the cap, a group power, a
    # Bandenstufe in an Anführer's block, effects that were only reported, a contest the
    # NSC defended with its strongest attack.
    document = json.loads((Path(__file__).parent / "data" / "edition1_table.json").read_text())
    records = [Record.model_validate(r) for r in document["records"]]
    options = upgrade_options(SYSTEM, document["options"])
    assert replay_log(SYSTEM, options, records).ok
    # Read as edition 2 it would not: the attack lost one LeP less then.
    mismatch = replay_log(SYSTEM, {"edition": 2}, records).mismatch
    assert mismatch is not None and mismatch.seq == 4
    # Read as edition 3 even its NSC would differ: its properties become traits.
    mismatch = replay_log(SYSTEM, {}, records).mismatch
    assert mismatch is not None and mismatch.seq == 3


def test_a_snapshot_from_before_the_edition_is_folded_again() -> None:
    state = SYSTEM.new_state({})
    data = state.model_dump(mode="json")
    assert HexxenState.model_validate(data) == state
    del data["options"]["edition"]
    with pytest.raises(ValueError):
        HexxenState.model_validate(data)


def test_the_store_stamps_new_tables_and_reads_old_ones_as_made(tmp_path: Path) -> None:
    from sqlalchemy import text

    from spieltisch.store import EventStore

    url = f"sqlite:///{tmp_path / 'hx.db'}"
    store = EventStore(url)
    try:
        created = store.create_table("hexxen")
        assert store.info(created.table).options == {"edition": 3}
        with store._writer.begin() as conn:  # a row written before the edition existed
            conn.execute(text("UPDATE tables SET options = '{}'"))
    finally:
        store.close()
    fresh = EventStore(url)
    try:
        info = fresh.info(created.table)
        assert info.options == {
            "edition": 1,
            "modifier_cap": "net",
            "damage_offset": -1,
            "binding_from_map": False,
        }
        assert fresh.table(created.table).state.options.damage_offset == -1
    finally:
        fresh.close()


def test_a_table_of_edition_2_replays_as_recorded() -> None:
    # Recorded with the code of edition 2: a bare Elixierwürfel on a hit only reported (Schaden
    # 1 + 2 successes + 3 drops − armour 1 = 5 LeP), properties that were names (Regeneration,
    # Entschlossen, Furchtlos did nothing: no bonus, [Furcht] given, no healing at INI 0).
    document = json.loads((Path(__file__).parent / "data" / "edition2_table.json").read_text())
    records = [Record.model_validate(r) for r in document["records"]]
    assert document["options"] == {"edition": 2}
    assert replay_log(SYSTEM, upgrade_options(SYSTEM, document["options"]), records).ok
    attack = records[4].events[0]
    assert (attack["elixir"], attack["lep_lost"]) == ([4], 5)
    # Read as edition 3 the NSC would already differ: its properties become traits.
    mismatch = replay_log(SYSTEM, {"edition": 3}, records).mismatch
    assert mismatch is not None and mismatch.seq == 2
