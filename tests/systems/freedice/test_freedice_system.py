"""The free-dice system through the real table: execute, undo, replay, odds, errors."""

from __future__ import annotations

import pytest

from spieltisch.dice.dice import roll
from spieltisch.dice.fair import DiceSource, FairDice, RecordingSource, SeededSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Actor, Role, Table, draws_of
from spieltisch.engine.visibility import GM_VIEWER
from spieltisch.systems.freedice.view import ROLLS_SHOWN
from spieltisch.systems.registry import get_system, system_ids

GM = Actor(id="gm", role=Role.GM)
ANNA = Actor(id="anna", role=Role.PLAYER)
BEN = Actor(id="ben", role=Role.PLAYER)
WATCHER = Actor(id="watcher", role=Role.SPECTATOR)
DICE = FairDice(b"free dice test seed".ljust(32, b"!"), "tisch-frei")


def source_at(index: int) -> DiceSource:
    return DICE.source_at(index)


def test_is_registered() -> None:
    assert "free-dice" in system_ids()
    assert get_system("free-dice").id == "free-dice"


def test_roll_records_every_die_and_the_result() -> None:
    table = Table(get_system("free-dice"))
    (record,) = table.execute(
        {"kind": "roll", "expression": "4W6kh3", "label": "Stärke"}, ANNA, source_at
    )
    (event,) = record.events
    assert event["kind"] == "rolled"
    assert event["expression"] == "4d6kh3"
    assert event["label"] == "Stärke"
    assert len(event["dice"]) == len(record.draws) == 4
    assert [d["face"] for d in event["dice"]] == [draw.value for draw in record.draws]
    kept = sorted((d["face"] for d in event["dice"]), reverse=True)[:3]
    assert event["result"] == sum(kept)
    assert sum(1 for d in event["dice"] if not d["kept"]) == 1


def test_events_match_rolling_the_same_draws_directly() -> None:
    table = Table(get_system("free-dice"))
    table.execute({"kind": "roll", "expression": "10H+3J"}, BEN, source_at)
    table.execute({"kind": "roll", "expression": "8M - 5H"}, GM, source_at)
    first, second = table.state.rolls
    assert first.result == roll("10H+3J", DICE.source_at(0)).value
    assert second.result == roll("8M - 5H", DICE.source_at(13)).value
    assert [d.index for d in draws_of(table.records)] == list(range(26))


def test_undo_and_replay_give_the_same_state() -> None:
    system = get_system("free-dice")
    table = Table(system)
    for text in ("3W6", "1W10!", "5W6>=4"):
        table.execute({"kind": "roll", "expression": text}, ANNA, source_at)
    table.undo(2, GM)
    assert [r.expression for r in table.state.rolls] == ["3d6", "5d6>=4"]
    replayed = Table(system, records=[r.model_copy() for r in table.records])
    assert replayed.state == table.state
    assert system.view(replayed.state, GM_VIEWER) == system.view(table.state, GM_VIEWER)
    assert [r["expression"] for r in system.view(table.state, GM_VIEWER)["rolls"]] == [
        "3d6",
        "5d6>=4",
    ]


def test_a_view_lists_only_the_latest_rolls() -> None:
    """The log keeps every roll; the state and the view the last ROLLS_SHOWN, oldest first."""
    system = get_system("free-dice")
    table = Table(system)
    for n in range(ROLLS_SHOWN + 3):
        table.execute({"kind": "roll", "expression": f"{n + 1}d6"}, ANNA, source_at)
    assert len(table.records) == ROLLS_SHOWN + 3
    assert len(table.state.rolls) == ROLLS_SHOWN  # the state does not grow with the log
    assert table.state.rolls[0].expression == "4d6"
    shown = system.view(table.state, GM_VIEWER)["rolls"]
    assert [r["expression"] for r in shown] == [f"{n + 1}d6" for n in range(3, ROLLS_SHOWN + 3)]


def test_undoing_a_roll_brings_back_the_one_before_the_kept_ones() -> None:
    """An undo re-folds the log, so the kept rolls are again the latest ROLLS_SHOWN of those
    not undone."""
    system = get_system("free-dice")
    table = Table(system)
    for n in range(ROLLS_SHOWN + 2):
        table.execute({"kind": "roll", "expression": f"{n + 1}d6"}, ANNA, source_at)
    table.undo(ROLLS_SHOWN + 2, GM)
    expressions = [r.expression for r in table.state.rolls]
    assert expressions == [f"{n + 1}d6" for n in range(1, ROLLS_SHOWN + 1)]


def test_bad_notation_is_a_rule_error_and_changes_nothing() -> None:
    table = Table(get_system("free-dice"))
    table.execute({"kind": "roll", "expression": "2d6"}, ANNA, source_at)
    before = (list(table.records), table.state)
    with pytest.raises(RuleError) as caught:
        table.execute({"kind": "roll", "expression": "3d6+2H"}, ANNA, source_at)
    assert caught.value.code == "dice.mixed_types"
    assert caught.value.params["value"] == "3d6+2H"
    with pytest.raises(RuleError) as caught:
        table.execute({"kind": "roll", "expression": "3x6"}, ANNA, source_at)
    assert caught.value.code == "dice.notation.unexpected"
    with pytest.raises(RuleError) as caught:
        table.execute({"kind": "roll"}, ANNA, source_at)
    assert caught.value.code == "rule.bad_command"
    assert (list(table.records), table.state) == before


def test_anyone_may_roll_but_spectators() -> None:
    table = Table(get_system("free-dice"))
    for actor in (ANNA, BEN, GM):
        table.execute({"kind": "roll", "expression": "1d20"}, actor, source_at)
    with pytest.raises(RuleError):
        table.execute({"kind": "roll", "expression": "1d20"}, WATCHER, source_at)
    assert len(table.state.rolls) == 3


def test_odds_come_from_the_exact_engine() -> None:
    system = get_system("free-dice")
    state = system.new_state({})
    odds = system.odds(
        state, system.commands.validate_python({"kind": "roll", "expression": "2W6"})
    )
    assert odds is not None
    assert [o.value for o in odds.outcomes] == list(range(2, 13))
    assert odds.outcomes[5].exact == "1/6"
    assert odds.mean == pytest.approx(7.0)
    malus = system.odds(
        state, system.commands.validate_python({"kind": "roll", "expression": "10M-3J"})
    )
    assert malus is not None and malus.mean is None
    assert malus.outcomes[0].value == {"successes": 0}
    exploding = system.odds(
        state, system.commands.validate_python({"kind": "roll", "expression": "2d10!"})
    )
    assert exploding is not None and 0 < exploding.truncated <= 1e-12


def test_decide_is_pure_and_automatic_is_none() -> None:
    system = get_system("free-dice")
    state = system.new_state({})
    command = system.commands.validate_python({"kind": "roll", "expression": "3d6"})
    recorder = RecordingSource(SeededSource(3))
    events = system.decide(state, command, recorder)
    assert state.rolls == ()
    assert len(recorder.draws) == 3
    assert system.evolve(state, events[0]).rolls == (events[0],)
    assert system.automatic(state) is None
    assert system.access(state, command).gm_only is False
    with pytest.raises(RuleError):
        system.new_state({"unknown": 1})
