"""The two folds of a table, on the toy system of ``tests/conftest.py``.

For any interleaving of hidden and visible commands and undos: the shared fold is the fold
of the visible records alone, a player's view is what a table that never had the hidden
records shows, and undo keeps both folds right. ``Table.replay`` decides a record again with
its own draws and gets the same record.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltisch.dice.fair import DiceSource, SeededSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Actor, Record, Role, Table
from spieltisch.engine.visibility import GM_VIEWER, Viewer

GM = Actor(id="gm", role=Role.GM)
PLAYER = Actor(id="p1", role=Role.PLAYER)
PLAYER_VIEWER = Viewer(Role.PLAYER, "p1")
SPECTATOR_VIEWER = Viewer(Role.SPECTATOR, "s1")


class Fours:
    """A die that shows 4 (or its top face): the same roll wherever the draw index is."""

    def roll(self, sides: int) -> int:
        return min(4, sides)


def fours(_index: int) -> DiceSource:
    return Fours()


PIECES = st.sampled_from(["cat", "rat", "owl"])
COMMANDS = st.one_of(
    st.builds(lambda p: {"kind": "join", "piece": p}, PIECES),
    st.builds(lambda p: {"kind": "roll", "piece": p, "sides": 6}, PIECES),
    st.builds(lambda p, a: {"kind": "damage", "piece": p, "amount": a}, PIECES, st.integers(1, 9)),
    st.just({"kind": "count"}),
    st.builds(lambda t: {"kind": "note", "text": t}, st.sampled_from(["a", "b"])),
)
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("gm"), COMMANDS, st.booleans()),
        st.tuples(st.just("player"), COMMANDS, st.just(False)),
        st.tuples(st.just("undo"), st.integers(1, 30), st.booleans()),
    ),
    max_size=25,
)


def redacted(records: list[Record]) -> list[Record]:
    """The log as a player's export after the reveal has it: hidden records without content."""
    return [
        r.model_copy(update={"command": None, "events": [], "claims": None}) if r.hidden else r
        for r in records
    ]


def check_folds(toy: Any, table: Table) -> None:
    """Both folds are the fold of their records; the shared one ignores hidden records."""
    again = Table(toy, table.options, table.records)
    assert (again.state, again.shared_state) == (table.state, table.shared_state)
    alone = Table(toy, table.options, redacted(table.records))
    assert alone.state == alone.shared_state == table.shared_state
    for viewer in (PLAYER_VIEWER, SPECTATOR_VIEWER):
        assert table.view(viewer) == toy.view(table.shared_state, viewer)
    assert table.view(GM_VIEWER) == toy.view(table.state, GM_VIEWER)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_players_see_the_fold_of_the_visible_records_alone(toy: Any, steps: list[Any]) -> None:
    table = Table(toy)
    twin = Table(toy)  # the same game without the hidden records
    in_twin: dict[int, int] = {}  # seq at the table -> seq at the twin
    for who, arg, hidden in steps:
        before = (list(table.records), table.state, table.shared_state)
        try:
            if who == "undo":
                record = table.undo(arg, GM)
                if not record.hidden:
                    in_twin[record.seq] = twin.undo(in_twin[arg], GM).seq
            else:
                actor = GM if who == "gm" else PLAYER
                records = table.execute(arg, actor, fours, hidden=hidden)
                if not hidden:
                    [done] = twin.execute(arg, actor, fours)
                    assert done.events == records[0].events
                    in_twin[records[0].seq] = done.seq
        except RuleError as error:
            assert (list(table.records), table.state, table.shared_state) == before
            if who != "undo" and not hidden and error.code != "table.hidden_conflict":
                # Refused on the shared fold: refused just so without any hidden record.
                with pytest.raises(RuleError) as twin_error:
                    twin.execute(arg, GM if who == "gm" else PLAYER, fours)
                assert (twin_error.value.code, twin_error.value.params) == (
                    error.code,
                    error.params,
                )
        check_folds(toy, table)
        assert table.shared_state == twin.state
        assert table.view(PLAYER_VIEWER) == twin.view(PLAYER_VIEWER)
        assert table.owners(Role.PLAYER) == twin.owners(Role.PLAYER)


def test_a_hidden_record_changes_nothing_players_see_and_undo_restores_the_gm_fold(
    toy: Any,
) -> None:
    table = Table(toy)
    table.execute({"kind": "join", "piece": "cat"}, PLAYER, fours)
    shared = table.view(PLAYER_VIEWER)
    [secret] = table.execute({"kind": "join", "piece": "rat"}, GM, fours, hidden=True)
    table.execute({"kind": "damage", "piece": "cat", "amount": 2}, GM, fours, hidden=True)
    assert table.view(PLAYER_VIEWER) == shared
    assert table.owners(Role.PLAYER) == {"cat": "p1"}
    assert table.owners() == {"cat": "p1", "rat": "gm"}
    assert table.view(GM_VIEWER)["pieces"] == {"cat": -2, "rat": 0}
    undo = table.undo(secret.seq + 1, GM)
    assert undo.hidden
    assert table.view(GM_VIEWER)["pieces"] == {"cat": 0, "rat": 0}
    assert table.view(PLAYER_VIEWER) == shared
    check_folds(toy, table)


def test_a_visible_record_on_a_hidden_piece_gets_the_unknown_piece_error(toy: Any) -> None:
    table = Table(toy)
    table.execute({"kind": "join", "piece": "rat"}, GM, fours, hidden=True)
    with pytest.raises(RuleError) as hidden_piece:
        table.execute({"kind": "damage", "piece": "rat", "amount": 1}, PLAYER, fours)
    with pytest.raises(RuleError) as unknown_piece:
        table.execute({"kind": "damage", "piece": "owl", "amount": 1}, PLAYER, fours)
    assert hidden_piece.value.code == unknown_piece.value.code == "rule.forbidden"
    # The GM is told why his open command is refused: it would build on his hidden record.
    with pytest.raises(RuleError) as conflict:
        table.execute({"kind": "damage", "piece": "rat", "amount": 1}, GM, fours)
    assert (conflict.value.code, conflict.value.params) == ("table.hidden_conflict", {})
    assert table.seq == 1


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS, seed=st.integers(0, 2**32))
def test_replay_with_the_same_draws_gives_the_same_records(
    toy: Any, steps: list[Any], seed: int
) -> None:
    table = Table(toy)
    for who, arg, hidden in steps:
        try:
            if who == "undo":
                table.undo(arg, GM)
            else:
                actor = GM if who == "gm" else PLAYER
                table.execute(arg, actor, lambda i: SeededSource(seed + i), hidden=hidden)
        except RuleError:
            pass
    actors = {"gm": GM, "p1": PLAYER}
    again = Table(toy)
    for record in table.records:
        assert again.replay(record, actors[record.actor]) == record
    assert (again.state, again.shared_state) == (table.state, table.shared_state)
    # A player's export after the reveal replays too: hidden records are kept as they are.
    redone = Table(toy)
    for record in redacted(table.records):
        assert redone.replay(record, actors[record.actor]) == record
    assert redone.state == redone.shared_state == table.shared_state
