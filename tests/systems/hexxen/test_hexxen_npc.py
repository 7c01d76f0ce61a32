"""The NSC complete (issue 23): attributes and a Bande's pool for its checks, Hex that grows,
powers costing several Handlungen or no Hex, conditions with a tag and an Abbau check, the
Ap after a fight, INI rolled at the start — hand-computed through the table."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hexxen_helpers import ADA, LoadedDice

from spieltisch.engine.errors import RuleError
from spieltisch.engine.replay import replay_log
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.systems.hexxen.decide import abbau_removed
from spieltisch.systems.registry import get_system

GM = Actor(id="gm", role=Role.GM)
ANNA = Actor(id="anna", role=Role.PLAYER)
SYSTEM = get_system("hexxen")


def at(values: list[int]) -> Any:
    """The dice of one command, whatever draw index it starts at."""
    return lambda _index: LoadedDice(values)


NONE = at([])

HAG: dict[str, Any] = {
    "kind": "create_npc",
    "id": "hag",
    "name": "Hexe",
    "npc_kind": "anfuehrer",
    "statblock": "\n".join(
        [
            "INI 9",
            "LeP 20",
            "Hex 1",
            "Hex +1 pro Jz pro Runde",
            "Handlungen 3",
            "KKR 2, ATH 3, GES 3, SIN 4, WIS 5, WIL 4",
            "(N) Kralle Angriff 3, Schaden 1",
            "Bezauberung (NN|F: 2 gegen Geistesstärke, 1 Malusstufe pro Differenzerfolg)",
            "Terrorwelle (N|F: 2 gegen Geistesstärke, 1 Malusstufe pro Differenzerfolg"
            " [Furcht], 1 Hex pro Ziel (Gruppe))",
        ]
    ),
}
RATS: dict[str, Any] = {
    "kind": "create_npc",
    "id": "rats",
    "name": "Ratten",
    "npc_kind": "bande",
    "statblock": "Bandenstufe 1\nLeP 6\nWürfelpool 3\n(N) Biss Angriff 2, Schaden 1",
}
BO: dict[str, Any] = {**ADA, "id": "bo", "name": "Bo"}


def _exact(odds: Any, value: int) -> Fraction:
    return Fraction(next(o for o in odds.outcomes if o.value == value).exact)


def _table(*extra: tuple[Actor, dict[str, Any]]) -> Table:
    table = Table(SYSTEM)
    for actor, command in ((ANNA, ADA), (ANNA, BO), (GM, HAG), (GM, RATS), *extra):
        table.execute(command, actor, NONE)
    return table


def test_the_wertekasten_gives_attributes_pool_growth_and_costs() -> None:
    hag = _table().state.npcs["hag"]
    assert hag.attributes == {"KKR": 2, "ATH": 3, "GES": 3, "SIN": 4, "WIS": 5, "WIL": 4}
    assert (hag.hex_growth, hag.hex_growth_per_jz) == (1, True)
    bezauberung = next(p for p in hag.powers if p.name == "Bezauberung")
    assert (bezauberung.hex, bezauberung.handlungen) == (0, {"N": 2})
    rats = _table().state.npcs["rats"]
    assert (rats.pool, rats.attributes) == (3, {})


def test_an_anfuehrer_rolls_an_attribute_a_bande_its_pool() -> None:
    table = _table()
    # The witch's WIL 4 M dice 1, 2, 5, 3 -> 2 against Ada's Geistesstärke WIL 2 + 3 = 5
    # H dice 1, 1, 2, 3, 4 -> 0: margin 2.
    check = {
        "kind": "npc_check",
        "npc": "hag",
        "attribute": "WIL",
        "against": "ada",
        "skill": "Geistesstärke",
    }
    odds = SYSTEM.odds(table.state, SYSTEM.commands.validate_python(check))
    assert odds is not None
    # NSC: 4 dice at 1/2; Ada: 5 dice at 1/3. P(margin 4) = (1/2)^4 (2/3)^5.
    assert _exact(odds, 4) == Fraction(1, 16) * Fraction(2, 3) ** 5
    table.execute(check, GM, at([1, 2, 5, 3, 1, 1, 2, 3, 4]))
    event = table.records[-1].events[0]
    assert (event["attribute"], event["dice"], event["roll"]["total"]) == ("WIL", 4, 2)
    assert (event["hunter_roll"]["total"], event["margin"]) == (0, 2)
    # A Bande rolls its pool of 3: 6, 6, 6 -> 3.
    table.execute({"kind": "npc_check", "npc": "rats"}, GM, at([6, 6, 6]))
    rolled = table.records[-1].events[0]
    assert (rolled["attribute"], rolled["dice"], rolled["roll"]["total"]) == (None, 3, 3)
    with pytest.raises(RuleError) as bande:
        table.execute({"kind": "npc_check", "npc": "rats", "attribute": "KKR"}, GM, NONE)
    assert bande.value.code == "hexxen.bande_uses_pool"
    with pytest.raises(RuleError) as pool:
        table.execute({**RATS, "id": "r2", "npc_kind": "anfuehrer"}, GM, NONE)
    assert pool.value.code in ("hexxen.pool_for_bande", "hexxen.wrong_level_line")


def test_an_nsc_defends_a_contest_with_the_attribute_the_hunter_rolls() -> None:
    table = _table()
    # Ada: Nahkampf 3 + KKR 3 = 6 H dice 5, 6, 1, 2, 3, 4 -> 2; the witch defends with KKR 2:
    # M dice 1, 2 -> 1. Margin 1 (before: her strongest attack, 3 dice).
    contest = {"kind": "hunter_contest", "hunter": "ada", "skill": "Nahkampf", "npc": "hag"}
    table.execute(contest, ANNA, at([5, 6, 1, 2, 3, 4, 1, 2]))
    event = table.records[-1].events[0]
    assert (event["npc_attribute"], len(event["npc_roll"]["dice"]), event["margin"]) == (
        "KKR",
        2,
        1,
    )
    # The GM may name another attribute (a GM-only field): WIS 5.
    table.execute({**contest, "npc_attribute": "WIS"}, GM, at([6] * 11))
    assert len(table.records[-1].events[0]["npc_roll"]["dice"]) == 5
    with pytest.raises(RuleError) as forbidden:
        table.execute({**contest, "npc_attribute": "WIS"}, ANNA, at([6] * 11))
    assert forbidden.value.code == "rule.forbidden_field"
    # The rats defend with their pool.
    table.execute({**contest, "npc": "rats"}, ANNA, at([6] * 9))
    assert table.records[-1].events[0]["npc_attribute"] == "pool"


def test_hex_grows_at_ini0_and_the_gm_adds_hex_any_time() -> None:
    table = _table()
    table.execute({"kind": "add_hex", "npc": "hag", "amount": 3}, GM, NONE)
    assert table.state.npcs["hag"].hex.current == 4
    table.execute({"kind": "start_fight", "combatants": ["hag", "ada", "bo"]}, GM, NONE)
    assert table.state.npcs["hag"].hex_growth == 2  # 1 per Jz, two hunters
    for _ in range(3):  # the witch, Ada, Bo: the round ends, INI 0 follows
        table.execute({"kind": "next_turn"}, GM, NONE)
    grown = [e for e in table.records[-1].events if e["kind"] == "hex_gained"]
    assert grown == [
        {"kind": "hex_gained", "npc": "hag", "amount": 2, "reason": "growth", "round": 1}
    ]
    assert table.state.npcs["hag"].hex.current == 6
    table.execute({"kind": "add_hex", "npc": "hag", "amount": -9}, GM, NONE)
    assert table.state.npcs["hag"].hex.current == 0


def test_a_power_may_cost_two_handlungen_and_no_hex() -> None:
    table = _table()
    table.execute({"kind": "start_fight", "combatants": ["hag", "ada"]}, GM, NONE)
    table.execute({"kind": "set_bound", "target": "hag", "bound": True}, GM, NONE)
    power = {"kind": "npc_power", "npc": "hag", "power": "Bezauberung", "targets": ["ada"]}
    table.execute(power, GM, at([6] * 7))
    event = table.records[-1].events[0]
    assert (event["hex"], event["handlungen"]) == (0, 2)
    assert int(table.state.budgets["hag"].left["handlungen"]) == 1
    with pytest.raises(RuleError) as refused:
        table.execute(power, GM, at([6] * 7))
    assert refused.value.code == "toolkit.economy.not_enough"


def test_a_tagged_condition_decays_by_an_abbau_check() -> None:
    table = _table()
    table.execute({"kind": "start_fight", "combatants": ["hag", "ada"]}, GM, NONE)
    # Terrorwelle: 2 M dice 6, 6 -> 2 against Ada's 5 H dice 1, 2, 2, 3, 4 -> 0: 2 Malusstufen
    # [Furcht] (kept as a condition of its own).
    wave = {"kind": "npc_power", "npc": "hag", "power": "Terrorwelle", "targets": ["ada"]}
    table.execute(wave, GM, at([6, 6, 1, 2, 2, 3, 4]))
    assert {(e.kind, e.level) for e in table.state.effects.items} == {("malus[Furcht]", 2)}
    shown = SYSTEM.view(table.state, table.viewer(GM))
    coming = shown["fight"]["ini0"]
    check = next(c for c in coming if c["effect"] == "malus[Furcht]")
    # Abbau: Geistesstärke 5 H dice, malus 2 (her Malusstufen): removed = min(2, total).
    assert (check["decay"], check["dice"], check["net"]) == ("check", 5, -2)
    assert sum(Fraction(p) for p in check["removed"].values()) == 1
    table.execute({"kind": "next_turn"}, GM, NONE)  # the witch -> Ada
    # Round end: Ada rolls 5, 6, 1, 2, 3 -> 2 successes, Janus 1, 2 -> none: both levels go.
    table.execute({"kind": "next_turn"}, ANNA, at([5, 6, 1, 2, 3, 1, 2]))
    advanced = table.records[-1].events[0]
    assert [(a["effect"], a["removed"]) for a in advanced["abbau"]] == [("malus[Furcht]", 2)]
    assert table.state.effects.items == ()
    assert replay_log(SYSTEM, {}, table.records).ok


def test_abbau_removes_a_level_per_success_or_one() -> None:
    assert abbau_removed(3, 2, True) == 2
    assert abbau_removed(1, 2, True) == 1
    assert abbau_removed(3, 2, False) == 1
    assert abbau_removed(0, 2, False) == 0


def test_an_effect_the_gm_gives_may_carry_a_tag() -> None:
    table = _table()
    give = {"kind": "apply_effect", "target": "ada", "effect": "malus", "level": 2}
    table.execute({**give, "tag": "Furcht"}, GM, NONE)
    table.execute(give, GM, NONE)
    levels = {e.kind: e.level for e in table.state.effects.items}
    assert levels == {"malus[Furcht]": 2, "malus": 2}
    remove = {"kind": "remove_effect", "target": "ada", "effect": "malus", "tag": "Furcht"}
    table.execute(remove, GM, NONE)
    assert {e.kind for e in table.state.effects.items} == {"malus"}


def test_ap_are_refilled_after_the_fight_and_ini_may_be_rolled() -> None:
    table = _table()
    table.execute({"kind": "start_fight", "combatants": ["ada", "hag"]}, GM, NONE)
    table.execute({"kind": "next_turn"}, GM, NONE)
    table.execute(
        {"kind": "hunter_check", "hunter": "ada", "skill": "Nahkampf", "ap": 4},
        ANNA,
        at([6] * 6),
    )
    table.execute({"kind": "end_fight"}, GM, NONE)
    assert table.records[-1].events[0]["refilled"] == {"ada": 6}
    assert int(table.state.budgets["ada"].left["ap"]) == 6
    with pytest.raises(RuleError) as off:
        table.execute({"kind": "start_fight", "roll_ini": True}, GM, NONE)
    assert off.value.code == "hexxen.no_ini_roll"
    rolled = Table(SYSTEM, {"ini_roll": True})
    for actor, command in ((ANNA, ADA), (GM, HAG)):
        rolled.execute(command, actor, NONE)
    # Ada INI 5 + 6 = 11 goes before the witch's 9 + 1 = 10.
    start = {"kind": "start_fight", "roll_ini": True}
    rolled.execute(start, GM, at([6, 1]))
    assert rolled.state.encounter is not None
    assert rolled.state.encounter.order == ("ada", "hag")


def test_binding_is_a_pairing_from_the_map_or_the_gm() -> None:
    table = _table()
    table.execute({"kind": "start_fight", "combatants": ["hag", "ada", "bo"]}, GM, NONE)
    claw = {"kind": "npc_attack", "npc": "hag", "attack": "Kralle", "target": "bo"}
    # Bound with Ada by the GM: the claw (melee) hits Ada only, not Bo standing free.
    table.execute({"kind": "set_bound", "target": "hag", "bound": True, "other": "ada"}, GM, NONE)
    view = SYSTEM.view(table.state, table.viewer(GM))
    assert next(n for n in view["npcs"] if n["id"] == "hag")["bound_with"] == ["ada"]
    with pytest.raises(RuleError) as refused:
        table.execute(claw, GM, at([6] * 3))
    assert (refused.value.code, refused.value.params["value"]) == ("hexxen.not_bound_with", "Bo")
    # On the map: Bo next to the witch is bound with her too.
    table.execute({"kind": "place", "target": "hag", "to": "c3"}, GM, NONE)
    table.execute({"kind": "place", "target": "bo", "to": "d4"}, ANNA, NONE)
    table.execute(claw, GM, at([6] * 3))
    assert table.records[-1].events[0]["target"] == "bo"
    # The GM's word wins over the map: Bo set free although he stands next to her.
    table.execute({"kind": "set_bound", "target": "bo", "bound": False, "other": "hag"}, GM, NONE)
    from spieltisch.systems.hexxen.sheet import bound_with

    assert bound_with(table.state, "hag") == {"ada"}
    # Moving lets the map speak again.
    table.execute({"kind": "place", "target": "bo", "to": "d3"}, ANNA, NONE)
    assert bound_with(table.state, "hag") == {"ada", "bo"}
    with pytest.raises(RuleError) as same:
        table.execute(
            {"kind": "set_bound", "target": "ada", "bound": True, "other": "bo"}, GM, NONE
        )
    assert same.value.code == "hexxen.bind_same_side"
