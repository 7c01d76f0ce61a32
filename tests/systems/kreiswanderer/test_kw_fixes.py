"""The rules issue 24 found wrong, against hand-computed cases; and the first edition's
tables, which keep their rules: their logs load, undo and verify as they were recorded."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from kw_helpers import SEED_RULES, goblin, hero, source_at, table_of
from typer.testing import CliRunner

from spieltisch.cli.app import app
from spieltisch.engine.errors import RuleError
from spieltisch.engine.replay import replay_log
from spieltisch.engine.table import Record, Table
from spieltisch.engine.visibility import Actor, Role, Viewer
from spieltisch.systems.kreiswanderer import Kreiswanderer, odds, rules

GM = Actor(id="gm", role=Role.GM)
FIRST_EDITION = Path(__file__).parent / "data" / "first_edition_log.json"
# Kept faces of one exploding d10 (10·k + r with probability 10^-(k+1)), for enumeration.
FACES = {10 * k + r: Fraction(1, 10 ** (k + 1)) for k in range(odds.LEVELS) for r in range(1, 10)}


def _run(table: Table, command: dict, dice: list[int]) -> list[dict]:
    (record,) = table.execute(command, GM, source_at(dice))
    return record.events


def _odds(table: Table, command: dict) -> Any:
    system = Kreiswanderer()
    return system.odds(table.state, system.commands.validate_python(command))


def _fight(table: Table) -> None:
    """Ada (dodge 6, initiative 9) and the goblin (dodge 10, initiative 3); Ada's turn."""
    _run(table, {"kind": "start_combat", "combatants": ["ada", "gob"]}, [7, 4, 2, 9])
    _run(table, {"kind": "assign_dice", "being": "ada", "dodge": 1}, [])
    _run(table, {"kind": "assign_dice", "being": "gob", "dodge": 1}, [])


# -- accumulated checks: the Talentwert counts once -------------------------------------------

SCHWERTER = {"being": "ada", "attribute": "geschick", "skill": "schwerter"}  # TW 3 × 2 + 4 = 10


def test_an_accumulated_check_counts_the_talent_value_once() -> None:
    table = table_of(hero(), goblin())
    _run(table, {"kind": "accumulate_start", "id": "a", **SCHWERTER, "rolls": 2}, [])
    (first,) = _run(table, {"kind": "accumulate_roll", "id": "a"}, [1])
    assert (first["result"], first["total"], first["finished"]) == (11, 11, False)
    (last,) = _run(table, {"kind": "accumulate_roll", "id": "a"}, [1])
    # TW 10 + dice 1 + 1 = 12 against 10: quality 2, no critical on the worst dice.
    assert (last["result"], last["total"], last["quality"]) == (1, 12, 2)
    assert last["finished"] and last.get("critical") is None


def test_every_roll_adding_the_talent_value_stays_a_table_option() -> None:
    options = {**SEED_RULES, "accumulation": "every_roll"}
    table = table_of(hero(), goblin(), options=options)
    _run(table, {"kind": "accumulate_start", "id": "a", **SCHWERTER, "rolls": 2}, [])
    _run(table, {"kind": "accumulate_roll", "id": "a"}, [1])
    (last,) = _run(table, {"kind": "accumulate_roll", "id": "a"}, [1])
    assert (last["total"], last["quality"], last["critical"]) == (22, 12, "success")


@pytest.mark.parametrize(("reading", "adds"), [("dice", 1), ("every_roll", 2)])
def test_accumulated_odds_follow_the_reading(reading: str, adds: int) -> None:
    # TW 10, two rolls, target 10, quality 9: the dice must bring 19 − 10·adds.
    need = 10 + 9 - 10 * adds
    kept = sum(FACES[x] * FACES[y] for x in FACES for y in FACES if x + y >= need)
    # A die in its cut-off tail (12 tens first) brings at least 121: the goal is reached.
    tails = 1 - (1 - odds.TAIL) ** 2
    found = odds.accumulated_odds(10, 10, 9, 2, reading)["reach"]
    assert found == kept + tails
    assert found == (Fraction(18, 25) if reading == "dice" else 1)  # 1 − P(x + y ≤ 8) = 0.72
    # With every roll adding 10 the goal is certain: exactly 1, the cut-off tails included.
    assert (found == 1) == (reading == "every_roll")


def test_the_odds_of_the_next_roll_follow_the_table() -> None:
    table = table_of(hero(), goblin())
    _run(table, {"kind": "accumulate_start", "id": "a", **SCHWERTER, "quality": 5}, [])
    _run(table, {"kind": "accumulate_roll", "id": "a"}, [2])  # total 12, needs 15: 3 more
    found = _odds(table, {"kind": "accumulate_roll", "id": "a"})
    reach = next(o for o in found.outcomes if o.value == "reach")
    assert reach.exact == "4/5"  # a d10 of 3 or more (no Talentwert on the second roll)


# -- skills that need learning ---------------------------------------------------------------


def test_a_specialisation_at_zero_is_refused_like_an_everyday_skill() -> None:
    sheet = {**hero()["sheet"], "skills": {"alchemie": {"depth": 3, "value": 0}}}
    table = table_of(hero("ada", **sheet), goblin())
    with pytest.raises(RuleError) as refused:
        _run(table, {"kind": "check", **SCHWERTER, "skill": "alchemie"}, [5])
    assert refused.value.code == "kreiswanderer.untrained"
    _fight(table)
    view = Kreiswanderer().view(table.state, Viewer(role=Role.GM))
    ada = next(c for c in view["fight"]["combatants"] if c["id"] == "ada")
    assert "alchemie" not in [c["skill"] for c in ada["dodge_choices"]]
    with pytest.raises(RuleError):
        rules.talent_value(2, 3, 0)
    assert rules.talent_value(2, 3, 0, first_edition=True) == 6  # the first edition's reading


# -- sleep over several rests ----------------------------------------------------------------


def test_sleep_split_over_rests_accumulates() -> None:
    table = table_of(hero(), goblin())
    _run(table, {"kind": "adjust_track", "being": "ada", "track": "tp", "value": 5}, [])
    _run(table, {"kind": "adjust_track", "being": "ada", "track": "mp", "value": 0}, [])
    nap = {"kind": "rest", "being": "ada", "sleep_halfhours": 1}
    # Below half (5 of 20): a point per hour. The first half hour is carried.
    (first,) = _run(table, nap, [])
    assert (first["tp"], first["sleep_carry"], first["mp"], first["rest_carry"]) == (5, 1, 0, 1)
    (second,) = _run(table, nap, [])
    assert (second["tp"], second["sleep_carry"], second["mp"], second["rest_carry"]) == (6, 0, 1, 0)
    ada = table.state.beings["ada"].creature
    assert (ada.track("tp").current, ada.track("mp").current) == (6, 1)
    assert rules.regenerate_carry(19, 20, 3, 1) == (20, 0)  # nothing carried at the maximum


# -- a certain pass --------------------------------------------------------------------------


def test_a_certain_pass_is_exactly_one() -> None:
    found = odds.check_odds(10, 10)
    assert found["pass"] == 1 and found["critical_failure"] == 0
    result = CliRunner().invoke(
        app, ["kreiswanderer", "odds", "--value", "10", "--target", "10", "--json"]
    )
    assert json.loads(result.stdout)["pass"] == 1.0
    # The cut-off tail also counts where it surely is a critical success.
    assert odds.check_odds(30, 10)["critical_success"] == 1


# -- no self-attack ----------------------------------------------------------------------------


def test_a_being_cannot_attack_itself() -> None:
    table = table_of(hero(), goblin())
    _fight(table)
    attack = {"kind": "attack", "being": "ada", "target": "ada", "weapon": "Schwert"}
    with pytest.raises(RuleError) as refused:
        _run(table, attack, [5])
    assert refused.value.code == "kreiswanderer.self_attack"
    assert refused.value.params["value"] == "Ada"
    with pytest.raises(RuleError):
        _odds(table, attack)


# -- burning outlasts the fight ----------------------------------------------------------------


def test_burning_does_not_vanish_when_the_fight_ends() -> None:
    table = table_of(hero(), goblin())
    _fight(table)
    torch = {"kind": "attack", "being": "ada", "target": "gob", "weapon": "Fackel"}
    (_, hit) = _run(table, torch, [9])
    assert hit["ignites"]
    _run(table, {"kind": "end_combat"}, [])
    view = Kreiswanderer().view(table.state, Viewer(role=Role.GM))
    assert next(b for b in view["beings"] if b["id"] == "gob")["burning"]
    # Outside a fight it deals nothing by itself; a new fight: it burns at the round end.
    tp = table.state.beings["gob"].creature.track("tp").current
    _fight(table)
    _run(table, {"kind": "end_turn"}, [])
    _run(table, {"kind": "end_turn"}, [])
    assert table.state.beings["gob"].creature.track("tp").current == tp - 1  # 2 − BR 1
    _run(table, {"kind": "end_combat"}, [])
    # Put out outside a fight: no Ap needed.
    (out,) = _run(table, {"kind": "extinguish", "being": "gob"}, [])
    assert out == {"kind": "extinguished", "being": "gob"}
    assert not table.state.effects.items


# -- critical comparative and accumulated results ----------------------------------------------


def test_comparative_and_accumulated_results_carry_the_critical_flag() -> None:
    table = table_of(hero(), goblin())
    contest = {
        "kind": "comparative",
        **SCHWERTER,
        "opponent": "gob",
        "opponent_attribute": "geschick",
        "opponent_skill": "messer",
    }
    # Ada 10 + 10 + 6 = 26 against the goblin's 3 × 1 + 2 + 3 = 8: quality 18, critical.
    (event,) = _run(table, contest, [10, 6, 3])
    assert (event["winner"], event["quality"], event["critical"]) == ("active", 18, "success")
    (close,) = _run(table, contest, [5, 9])  # 15 against 14: no critical
    assert "critical" not in close
    _run(table, {"kind": "accumulate_start", "id": "hi", **SCHWERTER, "rolls": 1}, [])
    (high,) = _run(table, {"kind": "accumulate_roll", "id": "hi"}, [10, 5])
    assert (high["quality"], high["critical"]) == (15, "success")
    start = {"kind": "accumulate_start", "id": "lo", **SCHWERTER, "rolls": 1, "target": 30}
    _run(table, start, [])
    (low,) = _run(table, {"kind": "accumulate_roll", "id": "lo"}, [2])
    assert (low["quality"], low["critical"]) == (-18, "failure")


# -- the first edition's tables ----------------------------------------------------------------


def _first_edition() -> tuple[list[Record], dict]:
    data = json.loads(FIRST_EDITION.read_text("utf-8"))
    return [Record.model_validate(r) for r in data["records"]], data["state"]


def test_a_first_edition_log_verifies_loads_and_undoes() -> None:
    records, state = _first_edition()
    # Stored without "edition": the rules it was recorded with, every record decided again.
    result = replay_log(Kreiswanderer(), {}, records)
    assert result.mismatch is None and result.records == len(records)
    table = Table(Kreiswanderer(), {}, records)
    folded = table.state.model_dump(mode="json")
    for key in ("beings", "accumulations", "checks"):
        assert folded[key] == state[key], key
    # The old readings: every roll added the Talentwert (11 + 1 twice), a self-attack hit.
    assert table.state.accumulations["a"].total == 24
    kinds = [e["kind"] for r in records for e in r.events]
    assert "attacked" in kinds
    # Undoing the last record and the accumulated roll refolds by the same rules.
    table.undo(len(records), GM)
    rolled = next(r.seq for r in records if r.command and r.command["kind"] == "accumulate_roll")
    table.undo(rolled, GM)
    assert table.state.accumulations["a"].done_rolls == 1
    assert replay_log(Kreiswanderer(), {}, table.records).mismatch is None


def test_a_new_table_is_stored_with_the_current_edition() -> None:
    assert Kreiswanderer().stamp_options({}) == {"edition": 2}
    assert Kreiswanderer().stamp_options({"edition": 1}) == {"edition": 1}
    assert Kreiswanderer().new_state({}).options.accumulation == "every_roll"
    assert Kreiswanderer().new_state(SEED_RULES).options.accumulation == "dice"


def test_the_store_makes_new_tables_with_the_current_edition(tmp_path: Path) -> None:
    from spieltisch.store import EventStore

    store = EventStore(f"sqlite:///{tmp_path / 'kw.sqlite3'}")
    try:
        made = store.create_table("kreiswanderer", options={"tie_goes_to": "active"})
        assert store.info(made.table).options == {"edition": 2, "tie_goes_to": "active"}
        assert store.table(made.table).state.options.accumulation == "dice"
    finally:
        store.close()
