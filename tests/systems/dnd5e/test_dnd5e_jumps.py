"""Jumps as steps of a move: each jumped metre costs a metre of movement, a run-up of 3 m or
more gives the full distance (else half), and the table rolls the DC 10 checks. Ada:
Strength 16, speed 9 m, at a1 — long jump 16 × 0.3 = 4.8 m (2.4 m standing), high jump
(3 + 3) × 0.3 = 1.8 m (0.9 m standing)."""

from __future__ import annotations

from typing import Any

from spieltisch.engine.table import Table

from .test_dnd5e_fight import ANNA, GM
from .test_dnd5e_table_parts import NO_DICE, Script, fight, preview

RUN_UP = [{"to": "b1"}, {"to": "c1"}]
"""3 m on foot along rank 1."""


def long(*squares: str) -> list[dict[str, Any]]:
    return [{"to": sq, "jump": "long"} for sq in squares]


def paint(table: Table, terrain: str, *squares: str) -> None:
    table.execute(
        {"kind": "terrain", "squares": list(squares), "terrain": terrain}, GM, NO_DICE.source_at
    )


def test_a_long_jump_after_a_run_up_costs_its_metres() -> None:
    table, _ = fight()
    # 3 m run-up, then d1, e1, f1: 4.5 m ≤ 4.8 m; 7.5 m in all, 1.5 m left
    done = preview(table, creature="ada", steps=[*RUN_UP, *long("d1", "e1", "f1")])
    assert (done["legal"], done["cost_m"], done["remaining_m"]) == (True, "7.5", "1.5")
    # a fourth square: 6 m > 4.8 m
    far = preview(table, creature="ada", steps=[*RUN_UP, *long("d1", "e1", "f1", "g1")])
    assert far["error"]["code"] == "dnd5e.move.jump_too_far" and far["error"]["step"] == 5
    assert far["error"]["params"]["limit"] == "4.8"
    assert far["path"] == ["a1", "b1", "c1", "d1", "e1", "f1"]


def test_a_standing_long_jump_reaches_half() -> None:
    table, _ = fight()
    assert preview(table, creature="ada", steps=long("b1"))["legal"] is True  # 1.5 ≤ 2.4
    standing = preview(table, creature="ada", steps=long("b1", "c1"))  # 3 > 2.4
    assert standing["error"]["code"] == "dnd5e.move.jump_too_far"
    assert standing["error"]["params"] == {"step": 1, "limit": "2.4", "length": "3.0"}
    # a run-up of 1.5 m is not enough either
    short = preview(table, creature="ada", steps=[{"to": "b1"}, *long("c1", "d1")])
    assert short["error"]["code"] == "dnd5e.move.jump_too_far"


def test_jumping_over_difficult_terrain_and_water_costs_only_the_metres() -> None:
    table, _ = fight()
    paint(table, "difficult", "d1")
    paint(table, "water", "e1")
    # walking: d1 costs 3 m, and e1 cannot be entered on foot
    walked = preview(table, creature="ada", steps=[*RUN_UP, {"to": "d1"}, {"to": "e1"}])
    assert walked["error"]["code"] == "dnd5e.move.needs_swim"
    # jumping over both, landing on f1: 3 + 4.5 = 7.5 m and no check
    jumped = preview(table, creature="ada", steps=[*RUN_UP, *long("d1", "e1", "f1")])
    assert (jumped["legal"], jumped["cost_m"], jumped["checks"]) == (True, "7.5", [])
    # landing in the water is refused
    wet = preview(table, creature="ada", steps=[*RUN_UP, *long("d1", "e1")])
    assert wet["error"]["code"] == "dnd5e.move.needs_swim" and wet["error"]["step"] == 3


def test_the_dc_10_checks_of_a_jump_come_with_their_odds() -> None:
    table, _ = fight()
    paint(table, "difficult", "e1")
    steps = [*RUN_UP, {"to": "d1", "jump": "long", "obstacle": True}, *long("e1")]
    checked = preview(table, creature="ada", steps=steps)
    assert checked["legal"] is True and checked["cost_m"] == "6.0"
    # Athletics +3 (Str 16): d20 ≥ 7, 14/20; Acrobatics +2 (Dex 14): d20 ≥ 8, 13/20
    assert checked["checks"] == [
        {
            "step": 2,
            "ability": "str",
            "skill": "athletics",
            "dc": 10,
            "reason": "obstacle",
            "p": {"p": 0.7, "exact": "7/10"},
        },
        {
            "step": 3,
            "ability": "dex",
            "skill": "acrobatics",
            "dc": 10,
            "reason": "difficult_landing",
            "p": {"p": 0.65, "exact": "13/20"},
        },
    ]


def _jump(dice: list[int]) -> Table:
    table, _ = fight()
    paint(table, "difficult", "e1")
    steps = [*RUN_UP, {"to": "d1", "jump": "long", "obstacle": True}, *long("e1")]
    table.execute({"kind": "move", "creature": "ada", "steps": steps}, ANNA, Script(dice).source_at)
    return table


def _prone(table: Table) -> bool:
    return "prone" in {x.kind for x in table.state.effects.on("ada")}


def test_both_jump_checks_made_the_jump_lands() -> None:
    table = _jump([7, 8])  # 7 + 3 = 10 and 8 + 2 = 10: both reach DC 10
    moved = table.records[-1].events[-1]
    assert [(r["total"], r["succeeded"]) for r in moved["rolls"]] == [(10, True), (10, True)]
    assert str(table.state.fighters["ada"].position) == "e1" and not _prone(table)
    assert table.state.movement["ada"].spent == 6


def test_a_failed_landing_leaves_the_jumper_prone_where_it_landed() -> None:
    table = _jump([12, 7])  # the obstacle 15: cleared; the landing 7 + 2 = 9 < 10
    moved = table.records[-1].events[-1]
    assert [r["succeeded"] for r in moved["rolls"]] == [True, False]
    assert str(table.state.fighters["ada"].position) == "e1" and _prone(table)


def test_a_failed_obstacle_check_stops_the_jumper_before_it_prone() -> None:
    table = _jump([6])  # 6 + 3 = 9 < 10: it does not clear the obstacle; no landing roll
    moved = table.records[-1].events[-1]
    assert [r["succeeded"] for r in moved["rolls"]] == [False]
    assert str(table.state.fighters["ada"].position) == "c1" and _prone(table)
    assert table.state.movement["ada"].spent == 3


def test_a_high_jump_costs_its_height_on_top_of_the_step() -> None:
    table, _ = fight()
    # standing: 0.9 m at most; 0.9 m up on the way to b1 costs 1.5 + 0.9 = 2.4 m
    up = preview(table, creature="ada", steps=[{"to": "b1", "jump": "high", "height_m": "0.9"}])
    assert (up["legal"], up["cost_m"], up["remaining_m"]) == (True, "2.4", "6.6")
    high = preview(table, creature="ada", steps=[{"to": "b1", "jump": "high", "height_m": "1.2"}])
    assert high["error"]["code"] == "dnd5e.move.jump_too_high"
    assert high["error"]["params"] == {"step": 0, "limit": "0.9", "height": "1.2"}
    # after a 3 m run-up: 1.8 m
    run = [*RUN_UP, {"to": "d1", "jump": "high", "height_m": "1.8"}]
    assert preview(table, creature="ada", steps=run)["cost_m"] == "6.3"
    missing = preview(table, creature="ada", steps=[{"to": "b1", "jump": "high"}])
    assert missing["error"]["code"] == "dnd5e.move.jump_height_missing"


def test_a_jump_is_made_on_foot_and_within_the_budget() -> None:
    table, _ = fight()
    flown = preview(table, creature="ada", steps=[{"to": "b1", "jump": "long", "mode": "climb"}])
    assert flown["error"]["code"] == "dnd5e.move.jump_on_foot"
    # 7.5 m walked (b1 … f1), then a 1.5 m jump leaves 0; one more jumped square is too far
    walk = [{"to": sq} for sq in ("b1", "c1", "d1", "e1", "f1")]
    assert preview(table, creature="ada", steps=[*walk, *long("g1")])["remaining_m"] == "0.0"
    over = preview(table, creature="ada", steps=[*walk, *long("g1", "h1")])
    assert over["error"]["code"] == "dnd5e.move.no_movement_left"
