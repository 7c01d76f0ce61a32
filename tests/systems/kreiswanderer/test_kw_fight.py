"""A scripted fight and an accumulated crafting check, played at a table and replayed."""

from __future__ import annotations

from decimal import Decimal

import pytest
from kw_helpers import goblin, hero, source_at

from spieltisch.engine.errors import RuleError
from spieltisch.engine.replay import replay_log
from spieltisch.engine.table import Table
from spieltisch.engine.visibility import Actor, Role, Viewer
from spieltisch.systems.kreiswanderer import Kreiswanderer

GM = Actor(id="gm", role=Role.GM)


def _table() -> Table:
    table = Table(Kreiswanderer())
    table.execute(hero(), GM, source_at([]))
    table.execute(goblin(), GM, source_at([]))
    return table


def test_scripted_fight_replays_from_its_events() -> None:
    table = _table()
    # Ada rolls 7 and 4, the goblin 2 and 9.
    table.execute(
        {"kind": "start_combat", "combatants": ["ada", "gob"]}, GM, source_at([7, 4, 2, 9])
    )
    table.execute({"kind": "assign_dice", "being": "ada", "dodge": 1}, GM, source_at([]))
    table.execute({"kind": "assign_dice", "being": "gob", "dodge": 1}, GM, source_at([]))
    fight = table.state.fight
    # Ada: dodge 4 + 2 = 6, initiative 7 + 2 = 9; goblin: dodge 9 + 1 = 10, initiative 3.
    assert fight.dodge == {"ada": 6, "gob": 10}
    assert fight.initiative == {"ada": 9, "gob": 3}
    assert fight.encounter.current == "ada"
    # Ada attacks: TW = 3 × 2 + 4 = 10; target = 10 + defensive 1 + 0 thresholds − 0 = 11.
    # Roll 10, 10, 3 → 33: quality 22 (critical), damage 22 + 2 − PH 2 = 22 → goblin at 0.
    attack = {"kind": "attack", "being": "ada", "target": "gob", "weapon": "Schwert"}
    (record,) = table.execute(attack, GM, source_at([10, 10, 3]))
    hit = record.events[-1]
    assert (hit["talent_value"], hit["target_value"], hit["result"]) == (10, 11, 33)
    assert (hit["quality"], hit["critical"], hit["damage"]) == (22, "success", 22)
    assert table.state.beings["gob"].creature.tracks["tp"].current == 0
    # A second attack in the same round: no Ap left.
    with pytest.raises(RuleError) as refused:
        table.execute(attack, GM, source_at([5]))
    assert refused.value.code == "toolkit.economy.nothing_left"
    table.execute({"kind": "end_turn"}, GM, source_at([]))
    # The goblin dodges as its action: bonus = Agilität 1 × 1 + Akrobatik 0 = 1.
    table.execute({"kind": "dodge", "being": "gob"}, GM, source_at([]))
    assert table.state.fight.dodge_bonus == {"gob": 1}
    table.execute({"kind": "end_turn"}, GM, source_at([]))
    # Round 2: Ap refreshed, bonus gone. Ada swings a 3-Ap technique with the torch: begun.
    assert table.state.fight.encounter.round == 2
    assert table.state.fight.dodge_bonus == {}
    torch = {"kind": "attack", "being": "ada", "target": "gob", "weapon": "Fackel", "cost": 3}
    (begun,) = table.execute(torch, GM, source_at([]))
    assert begun.events[0]["kind"] == "action_begun"
    for _ in range(4):  # rounds 3 and 4 pay the rest
        table.execute({"kind": "end_turn"}, GM, source_at([]))
    ready = table.state.fight.ready["ada"]
    assert [a.action for a in ready] == ["attack"]
    assert table.state.fight.encounter.round == 4
    # TW 10 vs 11; roll 4 → 14, quality 3, damage 3 + 0 − BR 1 = 2, and the goblin burns.
    table.execute(
        {"kind": "adjust_track", "being": "gob", "track": "tp", "value": 12}, GM, source_at([])
    )
    (carried,) = table.execute(
        {"kind": "carry_out", "being": "ada", "action": ready[0].id}, GM, source_at([4])
    )
    assert carried.events[0]["damage"] == 2 and carried.events[0]["ignites"]
    assert table.state.beings["gob"].creature.tracks["tp"].current == 10
    table.execute({"kind": "end_turn"}, GM, source_at([]))
    table.execute({"kind": "end_turn"}, GM, source_at([]))
    # Round end: burning deals 2 − BR 1 = 1.
    assert table.state.fight.last_ticks == (("gob", 1),)
    assert table.state.beings["gob"].creature.tracks["tp"].current == 9
    table.execute({"kind": "end_turn"}, GM, source_at([]))  # Ada passes
    table.execute({"kind": "extinguish", "being": "gob"}, GM, source_at([]))
    table.execute({"kind": "end_turn"}, GM, source_at([]))
    assert table.state.fight.last_ticks == ()
    assert table.state.beings["gob"].creature.tracks["tp"].current == 9
    result = replay_log(Kreiswanderer(), {}, table.records)
    assert result.mismatch is None and result.records == len(table.records)
    folded = Table(Kreiswanderer(), {}, table.records)
    assert folded.state == table.state


def test_dodging_with_another_skill_adds_its_talent_value() -> None:
    table = _table()
    table.execute(
        {"kind": "start_combat", "combatants": ["ada", "gob"]}, GM, source_at([7, 4, 2, 9])
    )
    table.execute({"kind": "assign_dice", "being": "ada", "dodge": 1}, GM, source_at([]))
    table.execute({"kind": "assign_dice", "being": "gob", "dodge": 1}, GM, source_at([]))
    # Agilität 2: Akrobatik 2 × 1 + 3 = 5, Schwerter 2 × 2 + 4 = 8, Schmieden 2 × 3 + 2 = 8,
    # Klettern 2 × 1 + 0 = 2; Reiten (depth 2 at 0) cannot be used.
    (ada,) = [
        c
        for c in Kreiswanderer().view(table.state, Viewer(role=Role.GM))["fight"]["combatants"]
        if c["id"] == "ada"
    ]
    assert ada["dodge_choices"] == [
        {"skill": "akrobatik", "bonus": 5},
        {"skill": "schwerter", "bonus": 8},
        {"skill": "schmieden", "bonus": 8},
        {"skill": "klettern", "bonus": 2},
    ]
    with pytest.raises(RuleError) as untrained:
        table.execute({"kind": "dodge", "being": "ada", "skill": "reiten"}, GM, source_at([]))
    assert untrained.value.code == "kreiswanderer.untrained"
    (dodged,) = table.execute(
        {"kind": "dodge", "being": "ada", "skill": "schwerter"}, GM, source_at([])
    )
    assert dodged.events[-1] == {"kind": "dodged", "being": "ada", "bonus": 8, "skill": "schwerter"}
    # Dodge 4 + 2 = 6, now 6 + 8 = 14 for attacks on Ada until the next round.
    assert table.state.fight.dodge_bonus == {"ada": 8}
    (ada,) = [
        c
        for c in Kreiswanderer().view(table.state, Viewer(role=Role.GM))["fight"]["combatants"]
        if c["id"] == "ada"
    ]
    assert ada["defense"]["dodge"] == 14


def test_haltung_costs_half_an_ap_and_a_magic_point_and_overload_hurts() -> None:
    table = _table()
    table.execute(
        {"kind": "start_combat", "combatants": ["ada", "gob"]}, GM, source_at([7, 4, 2, 9])
    )
    table.execute({"kind": "assign_dice", "being": "ada", "dodge": 1}, GM, source_at([]))
    table.execute({"kind": "assign_dice", "being": "gob", "dodge": 1}, GM, source_at([]))
    switch = {"kind": "switch_haltung", "being": "ada", "haltung": "sturm", "active": True}
    table.execute(switch, GM, source_at([]))
    ada = table.state.beings["ada"]
    assert ada.creature.tracks["mp"].current == 1
    assert table.state.fight.budgets["ada"].left["ap"] == Decimal("0.5")
    assert ada.haltung_modifier("schwerter") == 2
    table.execute(
        {"kind": "use_begabung", "being": "ada", "begabung": "lichtfunke"}, GM, source_at([])
    )
    # 0 MP now: the next act overloads, 1d10 = 7 damage, the PH resistance does not count.
    table.execute(
        {"kind": "use_begabung", "being": "ada", "begabung": "lichtfunke"}, GM, source_at([7])
    )
    ada = table.state.beings["ada"]
    assert ada.creature.tracks["mp"].current == 0
    assert ada.creature.tracks["tp"].current == 13


def test_accumulated_crafting_keeps_progress_across_evenings() -> None:
    table = _table()
    # Schmieden depth 3, value 2, Geschick 3: TW = 3 × 3 + 2 = 11; target 30, quality 5.
    start = {
        "kind": "accumulate_start",
        "id": "klinge",
        "being": "ada",
        "attribute": "geschick",
        "skill": "schmieden",
        "quality": 5,
        "target": 30,
    }
    table.execute(start, GM, source_at([]))
    with pytest.raises(RuleError) as again:
        table.execute({**start, "quality": 1}, GM, source_at([]))
    assert again.value.code == "kreiswanderer.duplicate_accumulation"
    (first,) = table.execute({"kind": "accumulate_roll", "id": "klinge"}, GM, source_at([3]))
    assert (first.events[0]["total"], first.events[0]["finished"]) == (14, False)
    # The next evening: the table is folded from its log, the progress is there.
    evening = Table(Kreiswanderer(), {}, table.records)
    assert evening.state.accumulations["klinge"].total == 14
    # 10 explodes without using up a roll: 11 + 10 + 2 = 23 → total 37, quality 7 ≥ 5.
    (second,) = evening.execute({"kind": "accumulate_roll", "id": "klinge"}, GM, source_at([10, 2]))
    assert second.events[0]["rolls"] == [10, 2]
    assert (second.events[0]["total"], second.events[0]["quality"]) == (37, 7)
    assert evening.state.accumulations["klinge"].finished
    assert evening.state.accumulations["klinge"].done_rolls == 2
    result = replay_log(Kreiswanderer(), {}, evening.records)
    assert result.mismatch is None


def test_refusals_name_beings_by_their_names() -> None:
    table = _table()
    table.execute(
        {"kind": "start_combat", "combatants": ["ada", "gob"]}, GM, source_at([7, 4, 2, 9])
    )
    table.execute({"kind": "assign_dice", "being": "ada", "dodge": 1}, GM, source_at([]))
    table.execute({"kind": "assign_dice", "being": "gob", "dodge": 1}, GM, source_at([]))
    knife = {"kind": "attack", "being": "gob", "target": "ada", "weapon": "Messer"}
    with pytest.raises(RuleError) as out_of_turn:
        table.execute(knife, GM, source_at([5]))
    assert out_of_turn.value.code == "kreiswanderer.not_your_turn"
    assert (out_of_turn.value.params["value"], out_of_turn.value.params["current"]) == (
        "Goblin",
        "Ada",
    )
    with pytest.raises(RuleError) as resting:
        table.execute({"kind": "rest", "being": "ada"}, GM, source_at([]))
    assert (resting.value.code, resting.value.params["value"]) == (
        "kreiswanderer.resting_in_fight",
        "Ada",
    )
