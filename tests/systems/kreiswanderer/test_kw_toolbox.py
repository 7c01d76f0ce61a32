"""The GM's toolbox: the fallen, joining and leaving a running fight, damage and healing
outside an attack, named multi-Ap actions, Ap per being, the skill catalogue, abandoning an
accumulated check, tools on every check, the Führungsschwelle reading."""

from __future__ import annotations

from typing import Any

import pytest
from kw_helpers import SEED_RULES, goblin, hero, source_at, table_of

from spieltisch.engine.errors import RuleError
from spieltisch.engine.replay import replay_log
from spieltisch.engine.table import Table
from spieltisch.engine.visibility import Actor, Role, Viewer
from spieltisch.systems.kreiswanderer import Kreiswanderer

GM = Actor(id="gm", role=Role.GM)


def _run(table: Table, command: dict[str, Any], dice: list[int] | None = None) -> list[dict]:
    (record,) = table.execute(command, GM, source_at(dice or []))
    return record.events


def _fight(table: Table, *extra: str) -> None:
    """Ada (dodge 6, initiative 9) and the goblin (dodge 10, initiative 3); Ada's turn."""
    _run(table, {"kind": "start_combat", "combatants": ["ada", "gob"]}, [7, 4, 2, 9])
    _run(table, {"kind": "assign_dice", "being": "ada", "dodge": 1})
    _run(table, {"kind": "assign_dice", "being": "gob", "dodge": 1})


def _view(table: Table) -> dict[str, Any]:
    return Kreiswanderer().view(table.state, Viewer(role=Role.GM))


def _replays(table: Table) -> None:
    assert replay_log(Kreiswanderer(), SEED_RULES, table.records).mismatch is None
    assert Table(Kreiswanderer(), SEED_RULES, table.records).state == table.state


def test_the_fallen_cannot_act_and_leave_the_order() -> None:
    table = table_of(hero(), goblin(), hero("bo", name="Bo"))
    _run(table, {"kind": "start_combat", "combatants": ["ada", "gob", "bo"]}, [7, 4, 2, 9, 1, 1])
    for who in ("ada", "gob", "bo"):
        _run(table, {"kind": "assign_dice", "being": who, "dodge": 1})
    # Initiative: Ada 9, goblin 3, Bo 1 + 2 = 3 (entered after the goblin).
    assert table.state.fight.encounter.order == ("ada", "gob", "bo")
    _run(table, {"kind": "adjust_track", "being": "gob", "track": "tp", "value": 0})
    assert _view(table)["fight"]["order"] == ["ada", "bo"]
    assert _view(table)["fight"]["fallen"] == ["gob"]
    with pytest.raises(RuleError) as refused:
        _run(table, {"kind": "check", "being": "gob", "attribute": "geschick", "skill": "messer"})
    assert (refused.value.code, refused.value.params["value"]) == ("kreiswanderer.fallen", "Goblin")
    _run(table, {"kind": "end_turn"})  # the goblin's turn is skipped: Bo acts
    assert table.state.fight.encounter.current == "bo"
    _run(table, {"kind": "end_turn"})  # round 2: Ada
    assert (table.state.fight.encounter.round, table.state.fight.encounter.current) == (2, "ada")
    # Healed, it acts again from its next turn.
    _run(table, {"kind": "heal", "being": "gob", "amount": 3, "reason": "Heiltrank"})
    _run(table, {"kind": "end_turn"})
    assert table.state.fight.encounter.current == "gob"
    # The GM removes a being from the fight.
    (left,) = _run(table, {"kind": "leave_fight", "being": "bo", "how": "remove"})
    assert left == {"kind": "fight_left", "being": "bo", "how": "remove"}
    assert "bo" not in table.state.fight.encounter.ids
    _replays(table)


def test_reinforcements_join_a_running_fight_and_take_their_place() -> None:
    table = table_of(hero(), goblin(), goblin("gob2"))
    _fight(table)
    (joined,) = _run(table, {"kind": "join_fight", "being": "gob2"}, [8, 5])
    assert joined == {"kind": "fight_joined", "being": "gob2", "dice": [8, 5]}
    # It chooses: dodge 5 + 1 = 6, initiative 8 + 1 = 9 — after Ada (entered first), this round.
    _run(table, {"kind": "assign_dice", "being": "gob2", "dodge": 1})
    assert table.state.fight.encounter.order == ("ada", "gob2", "gob")
    assert table.state.fight.budgets["gob2"].left["ap"] == 1
    _run(table, {"kind": "end_turn"})
    assert table.state.fight.encounter.current == "gob2"
    # It flees: its turn passes to the goblin.
    _run(table, {"kind": "leave_fight", "being": "gob2"})
    assert table.state.fight.encounter.current == "gob"
    assert "gob2" not in table.state.fight.dice
    with pytest.raises(RuleError) as twice:
        _run(table, {"kind": "join_fight", "being": "gob"}, [1, 1])
    assert twice.value.code == "kreiswanderer.duplicate_combatant"
    _replays(table)


def test_only_the_gm_removes_and_brings_in() -> None:
    system = Kreiswanderer()
    state = table_of(hero(), goblin()).state
    parse = system.commands.validate_python
    assert system.access(state, parse({"kind": "join_fight", "being": "ada"})).gm_only
    flee = parse({"kind": "leave_fight", "being": "ada"})
    assert system.access(state, flee).piece == "ada"
    assert system.access(state, parse({**flee.model_dump(), "how": "remove"})).gm_only


def test_typed_damage_outside_an_attack_with_resistance_markings_and_a_reason() -> None:
    table = table_of(hero(), goblin())
    # A fire trap: 6 BR, Zusatzschaden 2 TR, sets the goblin burning; it resists BR 1.
    trap = {
        "kind": "deal_damage",
        "being": "gob",
        "amount": 6,
        "damage_type": "BR",
        "markings": [
            {"name": "zusatzschaden", "value": 2, "detail": "TR"},
            {"name": "langzeiteffekt", "detail": "feuer"},
        ],
        "reason": "Feuerfalle",
    }
    (hurt,) = _run(table, trap)
    assert (hurt["resistance"], hurt["damage"], hurt["ignites"]) == (1, 5 + 2, True)
    assert hurt["reason"] == "Feuerfalle"
    assert table.state.beings["gob"].creature.track("tp").current == 12 - 7
    assert _view(table)["beings"][1]["burning"]
    # A fall: 3 PH against PH resistance 2 → 1.
    (fall,) = _run(table, {"kind": "deal_damage", "being": "gob", "amount": 3, "reason": "Sturz"})
    assert fall["damage"] == 1
    (healed,) = _run(table, {"kind": "heal", "being": "gob", "amount": 50, "reason": "Trank"})
    assert (healed["value"], healed["reason"]) == (12, "Trank")
    (magic,) = _run(
        table, {"kind": "heal", "being": "ada", "amount": 1, "track": "mp", "reason": "x"}
    )
    assert magic["value"] == 2  # at most the maximum
    _replays(table)


def test_a_ritual_of_two_ap_is_begun_and_done_a_round_later() -> None:
    table = table_of(hero(), goblin())
    _fight(table)
    ritual = {"kind": "act", "being": "ada", "name": "Bannkreis", "cost": 2, "magical": True}
    (begun,) = _run(table, ritual)
    assert begun["kind"] == "action_begun" and begun["detail"] == {
        "name": "Bannkreis",
        "magical": 1,
    }
    _run(table, {"kind": "end_turn"})
    _run(table, {"kind": "end_turn"})  # round 2 pays the second Ap
    ready = table.state.fight.ready["ada"]
    assert [a.action for a in ready] == ["act"]
    magic, done = _run(table, {"kind": "carry_out", "being": "ada", "action": ready[0].id})
    assert magic["kind"] == "magic_used" and magic["cost"] == 1
    assert done == {
        "kind": "action_done",
        "being": "ada",
        "name": "Bannkreis",
        "cost": 2,
        "magical": True,
        "action": ready[0].id,
    }
    assert table.state.fight.ready["ada"] == ()
    # A one-Ap action is done at once.
    _run(table, {"kind": "end_turn"})
    _run(table, {"kind": "end_turn"})
    spent, now = _run(table, {"kind": "act", "being": "ada", "name": "Ruf"})
    assert (spent["amount"], now["name"], now.get("action")) == ("1", "Ruf", None)
    _replays(table)


def test_ap_per_round_per_being() -> None:
    table = table_of(hero(ap=2), goblin())
    _fight(table)
    assert table.state.fight.budgets["ada"].left["ap"] == 2
    assert table.state.fight.budgets["gob"].left["ap"] == 1
    attack = {"kind": "attack", "being": "ada", "target": "gob", "weapon": "Schwert"}
    _run(table, attack, [1])
    _run(table, attack, [1])  # two attacks in one round
    with pytest.raises(RuleError):
        _run(table, attack, [1])
    _run(table, {"kind": "end_turn"})
    _run(table, {"kind": "end_turn"})
    assert table.state.fight.budgets["ada"].left["ap"] == 2


def test_the_catalogue_refuses_unlearned_skills_and_holds_the_basic_ones() -> None:
    catalogue = {
        "kind": "set_catalogue",
        "skills": {
            "reiten": {"depth": 2, "attribute": "agilitaet"},
            "schwimmen": {"depth": 1},
            "nachtsicht": {"depth": 1, "species": ["elf"]},
            "elfisch": {"depth": 2},
        },
    }
    elf = hero("ada", species="elf", native_language="elfisch")
    table = table_of(elf, goblin(), catalogue)
    check = {"kind": "check", "being": "gob", "attribute": "geschick"}
    with pytest.raises(RuleError) as everyday:
        _run(table, {**check, "skill": "reiten"}, [5])
    assert everyday.value.code == "kreiswanderer.untrained"
    (swim,) = _run(table, {**check, "skill": "schwimmen"}, [5])
    assert swim["talent_value"] == 3  # basic at 0: Geschick 3 × 1
    with pytest.raises(RuleError) as other:
        _run(table, {**check, "skill": "nachtsicht"}, [5])
    assert other.value.code == "kreiswanderer.no_access"
    (sight,) = _run(table, {**check, "being": "ada", "skill": "nachtsicht"}, [5])
    (tongue,) = _run(table, {**check, "being": "ada", "skill": "elfisch"}, [5])
    assert (sight["talent_value"], tongue["talent_value"]) == (3, 3)
    ada, gob = _view(table)["beings"]
    assert {"elfisch", "schwimmen", "nachtsicht"} <= set(ada["held_skills"])
    assert set(gob["held_skills"]) == {"messer", "schwimmen"}
    assert _view(table)["catalogue"]["reiten"] == {
        "depth": 2,
        "attribute": "agilitaet",
        "species": [],
    }


def test_an_accumulated_check_is_abandoned_and_begun_anew() -> None:
    table = table_of(hero(), goblin())
    start = {"kind": "accumulate_start", "id": "a", "being": "ada", "attribute": "geschick"}
    _run(table, {**start, "skill": "schwerter", "rolls": 3})
    _run(table, {"kind": "accumulate_roll", "id": "a"}, [4])
    (closed,) = _run(table, {"kind": "accumulate_abandon", "id": "a"})
    assert closed == {"kind": "accumulation_abandoned", "id": "a"}
    for command in (
        {"kind": "accumulate_roll", "id": "a"},
        {"kind": "accumulate_abandon", "id": "a"},
    ):
        with pytest.raises(RuleError) as refused:
            _run(table, command, [4])
        assert refused.value.code == "kreiswanderer.unknown_accumulation"
    _run(table, {**start, "id": "b", "skill": "schwerter", "quality": 2})
    assert [a["abandoned"] for a in _view(table)["accumulations"]] == [True, False]
    _replays(table)


def test_tools_and_time_count_on_every_kind_of_check() -> None:
    table = table_of(hero(), goblin())
    combined = {"kind": "combined_check", "being": "ada", "attribute": "geschick"}
    (event,) = _run(table, {**combined, "skills": ["schwerter", "schmieden"], "tools": 2}, [5])
    assert event["talent_value"] == 10 + 2  # min(10, 11) + 2
    contest = {
        "kind": "comparative",
        "being": "ada",
        "attribute": "geschick",
        "skill": "schwerter",
        "opponent": "gob",
        "opponent_attribute": "geschick",
        "opponent_skill": "messer",
        "tools": 1,
        "opponent_tools": -2,
    }
    (event,) = _run(table, contest, [5, 5])
    assert (event["active"]["talent_value"], event["passive"]["talent_value"]) == (11, 3)
    _fight(table)
    attack = {"kind": "attack", "being": "ada", "target": "gob", "weapon": "Schwert", "tools": 3}
    assert _run(table, attack, [1])[-1]["talent_value"] == 13


@pytest.mark.parametrize(("reading", "target"), [("defender", 11), ("attacker", 12), ("both", 12)])
def test_whose_fuehrungsschwellen_count_is_a_table_option(reading: str, target: int) -> None:
    # The goblin's knife has none, Ada's sword 1; goblin: dodge 10 + defensive 1.
    table = table_of(hero(), goblin(), options={**SEED_RULES, "fuehrungsschwelle": reading})
    _fight(table)
    attack = {"kind": "attack", "being": "ada", "target": "gob", "weapon": "Schwert"}
    assert _run(table, attack, [1])[-1]["target_value"] == target
