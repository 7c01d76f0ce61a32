"""The Ready action: a trigger and a reaction, fired when the GM confirms the trigger, lapsing
at the readier's next turn start. Ada (Longsword +5, 1d8+3) at a1, a goblin (AC 15, 7 HP,
Scimitar +4, 1d6+2) at c3, 3 m away; Ada's turn first."""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Table

from .test_dnd5e_fight import ANNA, GM
from .test_dnd5e_table_parts import NO_DICE, fight

READY: dict[str, Any] = {
    "kind": "ready",
    "creature": "ada",
    "trigger": "the goblin comes within reach",
    "attack": "Longsword",
    "target": "gob",
}


def fighter(table: Table, who: str) -> dict[str, Any]:
    view = table.view(table.viewer(GM))
    found: dict[str, Any] = next(f for f in view["fighters"] if f["id"] == who)
    return found


def refused(table: Table, command: dict[str, Any], actor: Any = GM) -> str:
    before = table.state
    with pytest.raises(RuleError) as error:
        table.execute(command, actor, NO_DICE.source_at)
    assert table.state == before
    return error.value.code


def ready_and_pass(table: Table) -> None:
    table.execute(READY, ANNA, NO_DICE.source_at)
    table.execute({"kind": "end_turn"}, ANNA, NO_DICE.source_at)


def trigger_odds(table: Table) -> dict[Any, str]:
    command = table.system.commands.validate_python({"kind": "trigger", "creature": "ada"})
    odds = table.system.odds(table.state, command)
    assert odds is not None
    return {o.value: o.exact for o in odds.outcomes}


def test_a_readied_attack_fires_when_the_gm_confirms_the_trigger() -> None:
    # Ada's d20 10 + 5 = 15 hits AC 15; the d8 rolls 3: 6 slashing, the goblin keeps 1 HP.
    table, script = fight([10, 3])
    ready_and_pass(table)
    ada = fighter(table, "ada")
    assert ada["budgets"]["action"] == "0" and ada["budgets"]["reaction"] == "1"
    assert ada["readied"]["trigger"] == "the goblin comes within reach"
    assert (ada["readied"]["attack"], ada["readied"]["target"]) == ("Longsword", "gob")
    assert "readied" in ada["conditions"]
    # the goblin walks c3 → b2, into Ada's reach (entering a reach provokes nothing)
    table.execute(
        {"kind": "move", "creature": "gob", "steps": [{"to": "b2"}]}, GM, NO_DICE.source_at
    )
    # +5 against AC 15 hits on 10-20: 11/20; the odds before the GM confirms
    assert fighter(table, "ada")["readied"]["odds"]["hit"]["exact"] == "11/20"
    odds = trigger_odds(table)
    # a miss 9/20; 7 damage: a plain hit (10/20) rolling 4 on the d8 (1/8), or a critical
    # (1/20) rolling 4 on two d8 (3/64): 1/16 + 3/1280 = 83/1280
    assert odds[0] == "9/20" and odds[7] == "83/1280"
    assert refused(table, {"kind": "trigger", "creature": "ada"}, ANNA) == "rule.forbidden"
    table.execute({"kind": "trigger", "creature": "ada"}, GM, script.source_at)
    ada = fighter(table, "ada")
    assert ada["budgets"]["reaction"] == "0" and ada["readied"] is None
    assert "readied" not in ada["conditions"]
    assert fighter(table, "gob")["hp"] == 1
    last = table.view(table.viewer(ANNA))["last_attack"]
    assert (last["attacker"], last["natural"], last["total"], last["outcome"]) == (
        "ada",
        10,
        15,
        "hit",
    )
    assert last["damage"] == 6
    # the goblin's turn goes on: its action is still there
    assert fighter(table, "gob")["budgets"]["action"] == "1"
    assert refused(table, {"kind": "trigger", "creature": "ada"}) == "dnd5e.nothing_readied"


def test_a_readied_attack_out_of_reach_is_refused() -> None:
    table, _ = fight()
    ready_and_pass(table)
    assert refused(table, {"kind": "trigger", "creature": "ada"}) == "dnd5e.out_of_reach"


def test_a_readied_action_lapses_at_the_readiers_next_turn() -> None:
    table, _ = fight()
    ready_and_pass(table)
    table.execute({"kind": "end_turn"}, GM, NO_DICE.source_at)
    ada = fighter(table, "ada")
    assert ada["readied"] is None and "readied" not in ada["conditions"]
    assert refused(table, {"kind": "trigger", "creature": "ada"}) == "dnd5e.nothing_readied"


def test_another_readied_action_spends_the_reaction_without_a_roll() -> None:
    table, _ = fight()
    table.execute(
        {"kind": "ready", "creature": "ada", "trigger": "the door opens", "action": "shout"},
        ANNA,
        NO_DICE.source_at,
    )
    assert fighter(table, "ada")["readied"] == {
        "trigger": "the door opens",
        "attack": None,
        "target": None,
        "action": "shout",
        "odds": None,
    }
    command = table.system.commands.validate_python({"kind": "trigger", "creature": "ada"})
    assert table.system.odds(table.state, command) is None
    table.execute({"kind": "trigger", "creature": "ada"}, GM, NO_DICE.source_at)
    assert fighter(table, "ada")["budgets"]["reaction"] == "0"
    assert fighter(table, "ada")["readied"] is None


def test_a_reaction_spent_on_an_opportunity_attack_cannot_fire_the_readied_action() -> None:
    # the goblin steps in (b2) and out again (c3): Ada's opportunity attack rolls a 1, a miss
    table, script = fight([1])
    ready_and_pass(table)
    table.execute(
        {"kind": "move", "creature": "gob", "steps": [{"to": "b2"}, {"to": "c3"}]},
        GM,
        NO_DICE.source_at,
    )
    assert refused(table, {"kind": "trigger", "creature": "ada"}) == "dnd5e.reaction_pending"
    table.execute(
        {"kind": "react", "creature": "ada", "attack": "Longsword"}, ANNA, script.source_at
    )
    assert fighter(table, "ada")["budgets"]["reaction"] == "0"
    assert refused(table, {"kind": "trigger", "creature": "ada"}) == "dnd5e.no_reaction_left"


def test_ready_needs_one_attack_with_a_target_or_another_action() -> None:
    table, _ = fight()
    base = {"kind": "ready", "creature": "ada", "trigger": "x"}
    assert refused(table, base, ANNA) == "dnd5e.ready_attack_or_action"
    both = {**base, "attack": "Longsword", "target": "gob", "action": "shout"}
    assert refused(table, both, ANNA) == "dnd5e.ready_attack_or_action"
    assert refused(table, {**base, "attack": "Longsword"}, ANNA) == "dnd5e.ready_needs_target"
    wrong = {**base, "attack": "Bow", "target": "gob"}
    assert refused(table, wrong, ANNA) == "dnd5e.unknown_attack"
    assert refused(table, {**base, "attack": "Longsword", "target": "ada"}, ANNA) == (
        "dnd5e.bad_target"
    )
    table.execute({"kind": "action", "creature": "ada", "action": "dodge"}, ANNA, NO_DICE.source_at)
    assert refused(table, {**base, "action": "shout"}, ANNA) == "toolkit.economy.not_enough"
