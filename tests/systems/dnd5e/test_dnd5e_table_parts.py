"""What the web table needs of the rules: terrain, initiative rolled at the table, the move
preview (the odds of a move), the attack odds in the view and the end of a fight."""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Table
from spieltisch.systems.registry import get_system

from .test_dnd5e_fight import ADA, ANNA, GM, Script

NO_DICE = Script([])
"""For commands that roll nothing (a roll would fail the test)."""


def fight(dice: list[int] | None = None) -> tuple[Table, Script]:
    """Ada (dex 14) at a1 and a goblin (dex 14) at c3; Ada rolls 15, the goblin 5."""
    script = Script(dice or [])
    table = Table(get_system("dnd5e"))
    table.execute(ADA, ANNA, script.source_at)
    table.execute(
        {"kind": "add_monster", "id": "gob", "monster": "goblin", "position": "c3"},
        GM,
        script.source_at,
    )
    table.execute(
        {"kind": "terrain", "squares": ["a2", "a3"], "terrain": "difficult"}, GM, NO_DICE.source_at
    )
    table.execute({"kind": "start_combat", "rolls": {"ada": 15, "gob": 5}}, GM, script.source_at)
    return table, script


def preview(table: Table, **move: Any) -> dict[str, Any]:
    command = table.system.commands.validate_python({"kind": "move", **move})
    odds = table.system.odds(table.state, command)
    assert odds is not None and len(odds.outcomes) == 1 and odds.outcomes[0].probability == 1
    value: dict[str, Any] = odds.outcomes[0].value
    return value


def test_terrain_is_painted_and_cleared_by_the_gm_only() -> None:
    table, _ = fight()
    view = table.view(table.viewer(ANNA))
    assert view["grid"]["terrain"] == {"a2": "difficult", "a3": "difficult"}
    table.execute({"kind": "terrain", "squares": ["a3"], "terrain": None}, GM, NO_DICE.source_at)
    assert table.view(table.viewer(ANNA))["grid"]["terrain"] == {"a2": "difficult"}
    with pytest.raises(RuleError) as off:
        table.execute(
            {"kind": "terrain", "squares": ["z99"], "terrain": "wall"}, GM, NO_DICE.source_at
        )
    assert off.value.code == "toolkit.grid.off_grid"
    with pytest.raises(RuleError) as player:
        table.execute(
            {"kind": "terrain", "squares": ["b1"], "terrain": "wall"}, ANNA, NO_DICE.source_at
        )
    assert player.value.code == "rule.forbidden"


def test_initiative_rolled_at_the_table_orders_the_fight() -> None:
    table, _ = fight()
    assert table.state.encounter.order == ("ada", "gob")  # 15 + 2 = 17 against 5 + 2 = 7
    script = Script([3])
    again = Table(get_system("dnd5e"))
    again.execute(ADA, ANNA, script.source_at)
    with pytest.raises(RuleError) as unknown:
        again.execute({"kind": "start_combat", "rolls": {"nobody": 4}}, GM, script.source_at)
    assert unknown.value.code == "dnd5e.unknown_creature"


def test_the_preview_of_a_move_is_the_route_check() -> None:
    table, _ = fight()
    # a2 is difficult: 3 m; a3 too: 3 m more; 9 m walking speed leaves 3 m
    assert preview(table, creature="ada", steps=[{"to": "a2"}, {"to": "a3"}]) == {
        "legal": True,
        "cost_m": "6.0",
        "remaining_m": "3.0",
        "path": ["a1", "a2", "a3"],
        "stood_up": False,
        "checks": [],
        "opportunity_attacks": [],
        "error": None,
    }
    # a wall at b2: the legal prefix is the first step, the error names the second
    table.execute({"kind": "terrain", "squares": ["b2"], "terrain": "wall"}, GM, NO_DICE.source_at)
    walled = preview(table, creature="ada", steps=[{"to": "b1"}, {"to": "b2"}])
    assert walled["legal"] is False and walled["path"] == ["a1", "b1"]
    assert walled["cost_m"] == "1.5" and walled["remaining_m"] == "7.5"
    assert walled["error"] == {
        "code": "dnd5e.move.wall",
        "params": {"step": 1, "to": "b2"},
        "step": 1,
    }
    # nothing moved: the preview is no command
    assert str(table.state.fighters["ada"].position) == "a1"


def test_the_preview_names_opportunity_attacks_and_standing_up() -> None:
    table, _ = fight()
    table.execute(
        {"kind": "condition", "target": "ada", "condition": "prone"}, GM, NO_DICE.source_at
    )
    # stand up (half of 9 m: 4 m), then b2 (next to the goblin) 1.5 m, a3 (difficult) 3 m,
    # a4 1.5 m: 4 + 1.5 + 3 + 1.5 = 10 m > 9 m, so the last step is refused
    steps = [{"to": "b2"}, {"to": "a3"}, {"to": "a4"}]
    too_far = preview(table, creature="ada", stand_up=True, steps=steps)
    assert too_far["stood_up"] is True and too_far["legal"] is False
    assert too_far["error"]["code"] == "dnd5e.move.too_far" and too_far["error"]["step"] == 2
    assert too_far["cost_m"] == "8.5" and too_far["remaining_m"] == "0.5"
    leaving = preview(table, creature="ada", stand_up=True, steps=[{"to": "b2"}, {"to": "a2"}])
    # a2 is difficult (3 m) and outside the goblin's reach: 4 + 1.5 + 3 = 8.5 m
    assert leaving["legal"] is True and leaving["cost_m"] == "8.5"
    assert leaving["opportunity_attacks"] == ["gob"]
    crawling = preview(table, creature="ada", steps=[{"to": "b1"}])
    assert crawling["error"]["code"] == "dnd5e.move.prone_crawl"


def test_a_preview_out_of_turn_is_refused() -> None:
    table, _ = fight()
    command = table.system.commands.validate_python(
        {"kind": "move", "creature": "gob", "steps": [{"to": "c4"}]}
    )
    with pytest.raises(RuleError) as refused:
        table.system.odds(table.state, command)
    assert refused.value.code == "dnd5e.not_your_turn"


def test_the_view_offers_the_attacks_of_the_current_creature_with_their_odds() -> None:
    table, _ = fight()
    view = table.view(table.viewer(ANNA))
    (option,) = view["attack_options"]
    # Ada at a1, goblin at c3: 3 m apart, the longsword reaches 1.5 m
    assert option["attack"] == "Longsword" and option["target"] == "gob"
    assert option["in_reach"] is False and option["distance_m"] == "3.0"
    # +5 against AC 15: a hit on 10-20 (11/20), a critical on 20
    assert option["hit"]["exact"] == "11/20" and option["critical"]["exact"] == "1/20"
    assert option["mode"] == "normal"
    table.execute({"kind": "end_turn"}, ANNA, NO_DICE.source_at)
    table.execute({"kind": "action", "creature": "gob", "action": "dodge"}, GM, NO_DICE.source_at)
    table.execute({"kind": "end_turn"}, GM, NO_DICE.source_at)
    dodged = table.view(table.viewer(ANNA))["attack_options"][0]
    # Dodge: disadvantage, a hit needs both d20 at 10 or more: (11/20)² = 121/400
    assert dodged["mode"] == "disadvantage"
    assert dodged["hit"]["exact"] == "121/400" and dodged["critical"]["exact"] == "1/400"


def test_the_pending_reaction_offers_the_reactor_its_melee_attacks() -> None:
    table, script = fight([2])
    table.execute(
        {"kind": "move", "creature": "ada", "steps": [{"to": "b2"}, {"to": "a2"}]},
        ANNA,
        script.source_at,
    )
    pending = table.view(table.viewer(ANNA))["pending_reaction"]
    assert pending["mover"] == "ada" and pending["reactors"] == ["gob"]
    (offer,) = pending["attacks"]  # the scimitar; the shortbow is ranged
    # +4 against AC 16: a hit on 12-20, 9/20
    assert offer["attack"] == "Scimitar" and offer["hit"]["exact"] == "9/20"
    assert table.view(table.viewer(ANNA))["attack_options"] == []  # nobody attacks meanwhile


def test_the_fight_is_over_when_one_side_stands() -> None:
    table, _ = fight()
    assert table.view(table.viewer(ANNA))["combat"]["over"] is None
    table.execute(
        {"kind": "damage", "target": "gob", "amount": 7, "type": "fire"}, GM, NO_DICE.source_at
    )
    view = table.view(table.viewer(ANNA))
    assert view["combat"]["over"] == {"winner": "party"}
    gob = next(f for f in view["fighters"] if f["id"] == "gob")
    assert gob["down"] is True and gob["dead"] is True


def test_the_last_attack_says_what_came_of_the_roll() -> None:
    # Ada's longsword: a 9 misses AC 15 (9 + 5 = 14); then a 12 hits for 6 + 3 = 9
    table, script = fight([9, 12, 6])
    table.execute(
        {"kind": "move", "creature": "ada", "steps": [{"to": "b2"}]}, ANNA, NO_DICE.source_at
    )
    attack = {"kind": "attack", "creature": "ada", "target": "gob", "attack": "Longsword"}
    table.execute(attack, ANNA, script.source_at)
    last = table.view(table.viewer(ANNA))["last_attack"]
    assert last["outcome"] == "miss" and last["natural"] == 9 and last["total"] == 14
    assert last["damage"] == 0
    table.execute({"kind": "end_turn"}, ANNA, NO_DICE.source_at)
    table.execute({"kind": "end_turn"}, GM, NO_DICE.source_at)
    table.execute(attack, ANNA, script.source_at)
    last = table.view(table.viewer(ANNA))["last_attack"]
    assert last["outcome"] == "hit" and last["total"] == 17 and last["damage"] == 9
    assert table.state.fighters["gob"].dead


def save_odds_of(table: Table, **save: Any) -> dict[str, str]:
    command = table.system.commands.validate_python({"kind": "save", **save})
    odds = table.system.odds(table.state, command)
    assert odds is not None
    return {o.value: o.exact or "" for o in odds.outcomes}


def test_saving_throws_rolled_by_the_table_against_a_dc() -> None:
    # Dexterity 14: +2; DC 13 needs 11-20 on the d20: 1/2
    table, script = fight([12, 3, 9])
    assert save_odds_of(table, creature="ada", ability="dex", dc=13) == {
        "save": "1/2",
        "fail": "1/2",
    }
    table.execute({"kind": "action", "creature": "ada", "action": "dodge"}, ANNA, NO_DICE.source_at)
    # Dodge: advantage on Dexterity saves, 1 - (1/2)² = 3/4;
    # Strength 16 stays at +3: 10-20 against 13, 11/20
    assert save_odds_of(table, creature="ada", ability="dex", dc=13)["save"] == "3/4"
    assert save_odds_of(table, creature="ada", ability="str", dc=13)["save"] == "11/20"
    table.execute(
        {"kind": "save", "creature": "ada", "ability": "dex", "dc": 13}, GM, script.source_at
    )
    last = table.view(table.viewer(ANNA))["last_save"]
    # advantage: 12 and 3, the 12 counts: 14 ≥ 13
    assert last["d20"] == [12, 3] and last["mode"] == "advantage" and last["succeeded"] is True
    # a bonus of its own, and a paralyzed creature fails Dexterity saves by itself
    table.execute(
        {"kind": "condition", "target": "gob", "condition": "paralyzed"}, GM, NO_DICE.source_at
    )
    assert save_odds_of(table, creature="gob", ability="dex", dc=5) == {
        "save": "0/1",
        "fail": "1/1",
    }
    table.execute(
        {"kind": "save", "creature": "gob", "ability": "dex", "dc": 5}, GM, NO_DICE.source_at
    )
    assert table.view(table.viewer(ANNA))["last_save"]["d20"] == []
    assert save_odds_of(table, creature="gob", ability="wis", dc=10, bonus=4)["save"] == "3/4"
    with pytest.raises(RuleError) as player:
        table.execute(
            {"kind": "save", "creature": "ada", "ability": "dex", "dc": 13}, ANNA, script.source_at
        )
    assert player.value.code == "rule.forbidden"
