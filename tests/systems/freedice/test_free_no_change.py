"""Damage to a track at its floor, or healing of a full track, changes nothing and is refused
(so that the page can disable those buttons with the reason); the turn buttons outside a
fight are refused by the existing rules, and Table.check gives the same answers."""

from __future__ import annotations

import pytest

from spieltisch.dice.fair import DiceSource, FairDice
from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.i18n import error_message
from spieltisch.systems.registry import get_system

GM = Actor(id="gm", role=Role.GM)
DICE = FairDice(b"no change test seed".ljust(32, b"!"), "tisch-kampf")
CHANGE = {"kind": "change_track", "combatant": "mia", "track": "LeP", "amount": 1}


def _fair(index: int) -> DiceSource:
    return DICE.source_at(index)


def _table(current: int) -> Table:
    table = Table(get_system("free-dice"))
    track = {"name": "LeP", "maximum": 10, "current": current}
    table.execute(
        {"kind": "add_combatant", "id": "mia", "name": "Mia", "tracks": [track]}, GM, _fair
    )
    return table


def _refused(table: Table, command: dict[str, object]) -> RuleError:
    seq = len(table.records)
    assert table.check(command, GM) is not None
    with pytest.raises(RuleError) as caught:
        table.execute(command, GM, _fair)
    assert len(table.records) == seq  # nothing was written
    return caught.value


def test_damage_at_the_floor_is_refused_with_the_track_named() -> None:
    table = _table(0)
    error = _refused(table, {**CHANGE, "change": "damage"})
    assert error.code == "freedice.track_at_floor"
    assert error_message(error, "en") == "Mia: LeP is already at 0, damage would change nothing."
    assert error_message(error, "de") == "Mia: LeP steht schon auf 0, Schaden änderte nichts."
    # Healing works, and then damage again: 0 + 1 = 1, 1 − 1 = 0.
    assert table.check({**CHANGE, "change": "heal"}, GM) is None
    table.execute({**CHANGE, "change": "heal"}, GM, _fair)
    table.execute({**CHANGE, "change": "damage"}, GM, _fair)


def test_healing_a_full_track_is_refused() -> None:
    table = _table(10)
    error = _refused(table, {**CHANGE, "change": "heal"})
    assert error.code == "freedice.track_full" and error.params["maximum"] == 10
    assert table.check({**CHANGE, "change": "damage"}, GM) is None
    # A new maximum in the same command is a change: 10 → 12, healed by 1 to 11.
    table.execute({**CHANGE, "change": "heal", "maximum": 12}, GM, _fair)
    assert table.check({**CHANGE, "change": "heal"}, GM) is None


@pytest.mark.parametrize("kind", ["next_turn", "next_round", "end_fight"])
def test_turn_commands_outside_a_fight_are_refused(kind: str) -> None:
    table = _table(5)
    error = table.check({"kind": kind}, GM)
    assert error is not None and error.code == "freedice.no_fight"
