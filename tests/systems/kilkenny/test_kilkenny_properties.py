"""Random games keep every invariant, notations round-trip, logs replay exactly."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.dice.fair import SeededSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.systems.kilkenny import Board, Position, geometry, get_layout, parse_move, playout
from spieltisch.systems.kilkenny.system import Captured, KilkennyState, MoveCommand, RollCommand
from spieltisch.systems.registry import get_system

CATS = 8


def check_invariants(state: KilkennyState, lost: list[int]) -> None:
    """8 cats per player on the board, in holes or captured; no cell holds two cats."""
    position = state.position
    cells = [cell for cats in position.cats for cell in cats]
    assert len(cells) == len(set(cells)), "a square holds two cats"
    for player in range(position.players):
        assert len(position.cats[player]) + len(position.home[player]) + lost[player] == CATS
        assert len(position.home[player]) <= 2
    assert all(position.geometry.on_board(cell) for cell in cells)
    if state.outcome is None:
        assert position.cats[position.turn], "the player to move has a cat on the board"
    assert Position.from_text(position.to_text()) == position


def play_random_game(players: int, seed: int, choices: Random) -> tuple[Table, list[int]]:
    """A human-seated game through the table, each move chosen by ``choices``."""
    system = get_system("kilkenny")
    table = Table(system, {"players": players})
    gm = Actor(id="gm", role=Role.GM)
    source = SeededSource(seed)
    lost = [0] * players
    while table.state.outcome is None and table.state.position.ply < 400:
        state: KilkennyState = table.state
        position = state.position
        if position.roll is None:
            command: Any = RollCommand()
        else:
            moves = position.legal_moves()
            move = moves[choices.randrange(len(moves))]
            geo = position.geometry
            command = MoveCommand(origin=geo.name(move[0]), target=geo.name(move[1]))
        records = table.execute(system.commands.dump_python(command), gm, lambda _: source)
        for record in records:
            for data in record.events:
                event = system.events.validate_python(data)
                if isinstance(event, Captured):
                    lost[position.seats.index(event.seat)] += 1
        check_invariants(table.state, lost)
    return table, lost


@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), pick=st.integers(0, 2**32))
def test_random_games_keep_the_invariants_and_replay(players: int, seed: int, pick: int) -> None:
    table, _ = play_random_game(players, seed, Random(pick))
    replayed = Table(table.system, table.options, table.records)
    assert replayed.state == table.state
    again, _ = play_random_game(players, seed, Random(pick))
    assert [r.events for r in again.records] == [r.events for r in table.records]


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), plies=st.integers(0, 300))
def test_playout_positions_round_trip_and_unmake(players: int, seed: int, plies: int) -> None:
    layout = get_layout("default")
    board = Board.start(geometry(layout, layout.seats_for(players)))
    playout(board, Random(seed), max_plies=plies)
    position = Position.from_board(board)
    assert Position.from_text(position.to_text()).board() == board
    for roll in range(1, 7):
        legal = board.legal_moves(roll)
        if board.squares[board.turn]:
            assert board.has_move(board.turn, 1)
        for move in legal:
            captured = board.make(move)
            board.unmake(move, captured)
        assert Position.from_board(board) == position


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="SNWEabcdfgnxz0123456789:,- ", max_size=60))
def test_any_position_text_reads_or_raises_its_own_error(text: str) -> None:
    try:
        position = Position.from_text(text)
    except RuleError as error:
        assert error.code in ("kilkenny.bad_position",)
        assert error.params["value"] == text
    else:
        assert Position.from_text(position.to_text()) == position


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=12))
def test_any_move_text_splits_or_raises_its_own_error(text: str) -> None:
    try:
        origin, target = parse_move(text)
    except RuleError as error:
        assert error.code == "kilkenny.bad_move_text"
        assert error.params["value"] == text
    else:
        assert origin and target


def test_position_notation_of_the_start() -> None:
    text = Position.start(2).to_text()
    assert text == "S:f4,f5,g4,g5,h4,h5,i4,i5 N:f10,f11,g10,g11,h10,h11,i10,i11 S - 0"
    assert Position.from_text(text) == Position.start(2)


@pytest.mark.parametrize(
    "text",
    [
        "S:f4 N:f4 S - 0",  # one square twice
        "S:f4 N:S1 S - 0",  # another player's hole
        "S:f4 W:a1 S - 0",  # seats not of the layout
        "S:f4 N:a1 X - 0",  # nobody X
        "S:f4 N:a1 S 7 0",  # no such face
        "S:f4 N:a1 S - x",  # ply not a number
        "S:o4 N:a1 S - 0",  # off the board
        "S:a1,a2,a3,a4,a5,a6,a7,a8,a9 N:b1 S - 0",  # nine cats
    ],
)
def test_bad_positions_name_the_part(text: str) -> None:
    with pytest.raises(RuleError) as caught:
        Position.from_text(text)
    assert caught.value.code == "kilkenny.bad_position"
    assert caught.value.params["value"] == text


def test_move_notation_reads_all_forms() -> None:
    assert parse_move("f4-f7") == ("f4", "f7")
    assert parse_move("f4xf7") == ("f4", "f7")
    assert parse_move(" g13 S1 ") == ("g13", "S1")
    assert parse_move("g13-S1") == ("g13", "S1")
