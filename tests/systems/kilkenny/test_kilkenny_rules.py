"""Rules of Kilkenny Cats against hand-worked positions."""

from __future__ import annotations

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.systems.kilkenny import EndReason, OutcomeKind, Position


def moves(text: str, roll: int, players: int = 2) -> set[str]:
    """The legal moves of ``text`` for ``roll`` in move notation."""
    position = Position.from_text(text)
    return {position.notation(move) for move in position.legal_moves(roll)}


# From the start of 2 players, S has (worked out square by square in the docs):
#   rank 4 (f4–i4): south, south-east, south-west for rolls 1–3 (12 moves), plus f4 west and
#   north-west, i4 east and north-east for rolls up to 5 (4 moves);
#   rank 5 (f5–i5): north for rolls 1–5 (the 5 captures on rank 10, 6 would jump), north-east
#   and north-west up to the edge, f5 west / south-west and i5 east / south-east.
START_2 = {1: 32, 2: 32, 3: 32, 4: 20, 5: 18, 6: 6}
# With 4 players the W and E cats (files d–e and j–k, ranks 6–9) cut the diagonals:
START_4 = {1: 32, 2: 30, 3: 26, 4: 12, 5: 8, 6: 0}


@pytest.mark.parametrize(("roll", "count"), sorted(START_2.items()))
def test_move_counts_from_the_two_player_start(roll: int, count: int) -> None:
    assert len(Position.start(2).legal_moves(roll)) == count


@pytest.mark.parametrize(("roll", "count"), sorted(START_4.items()))
def test_move_counts_from_the_four_player_start(roll: int, count: int) -> None:
    assert len(Position.start(4).legal_moves(roll)) == count


def test_start_moves_of_two_players_for_a_six_are_the_long_diagonals() -> None:
    assert {m for m in moves(Position.start(2).to_text(), 6)} == {
        "f5-l11",
        "g5-m11",
        "h5-n11",
        "g5-a11",
        "h5-b11",
        "i5-c11",
    }


def test_three_players_sit_south_west_north() -> None:
    position = Position.start(3)
    assert position.seats == ("S", "W", "N")
    assert position.to_text().split()[-3:] == ["S", "-", "0"]


def test_a_cat_moves_exactly_the_roll_in_eight_directions() -> None:
    found = moves("S:g7 N:a14 S - 0", 2)
    assert found == {"g7-g9", "g7-i9", "g7-i7", "g7-i5", "g7-g5", "g7-e5", "g7-e7", "g7-e9"}


def test_moves_stop_at_the_edge() -> None:
    assert moves("S:a1 N:n14 S - 0", 1) == {"a1-a2", "a1-b2", "a1-b1"}
    assert moves("S:a1 N:n14 S - 0", 6) == {"a1-a7", "a1-g7", "a1-g1"}


def test_no_jumping_over_own_or_enemy_cats() -> None:
    own = moves("S:d4,d6 N:a14 S - 0", 3)
    assert "d4-d7" not in own
    enemy = moves("S:d4 N:d6,a14 S - 0", 3)
    assert "d4-d7" not in enemy
    assert "d4-d5" in moves("S:d4,d6 N:a14 S - 0", 1)


def test_landing_on_an_enemy_cat_captures_it() -> None:
    position = Position.from_text("S:d4 N:d6,a14 S 2 0")
    move = position.find_move("d4", "d6", 2)
    assert position.notation(move) == "d4xd6"
    board = position.board()
    victim = board.make(move)
    board.end_turn()
    after = Position.from_board(board)
    assert victim == 1
    assert after.to_text() == "S:d6 N:a14 N - 1"


def test_own_cats_are_never_captured() -> None:
    assert "d4-d6" not in moves("S:d4,d6 N:a14 S - 0", 2)
    with pytest.raises(RuleError) as caught:
        Position.from_text("S:d4,d6 N:a14 S 2 0").find_move("d4", "d6", 2)
    assert caught.value.code == "kilkenny.illegal_move"
    assert caught.value.params["value"] == "d4-d6"


def test_holes_are_entered_straight_with_the_exact_roll() -> None:
    # S1 lies beyond g14, S2 beyond h14.
    assert "g11-S1" in moves("S:g11 N:a1 S - 0", 4)
    assert not any(m.endswith("S1") for m in moves("S:g11 N:a1 S - 0", 5))
    assert "g11-g14" in moves("S:g11 N:a1 S - 0", 3)


def test_holes_are_entered_diagonally_with_the_exact_roll() -> None:
    assert "c11-S1" in moves("S:c11 N:a1 S - 0", 4)
    assert "j12-S1" in moves("S:j12 N:a1 S - 0", 3)
    assert "j13-S2" in moves("S:j13 N:a1 S - 0", 2)
    assert "i14-S2" in moves("S:i14 N:a1 S - 0", 1)
    assert "i14-S2" not in moves("S:i14 N:a1 S - 0", 2)
    assert not any("S" in m.split("-")[1] for m in moves("S:c11 N:a1 S - 0", 3))


def test_the_path_to_a_hole_must_be_free() -> None:
    assert "g11-S1" not in moves("S:g11 N:g13,a1 S - 0", 4)


def test_nobody_enters_another_players_hole() -> None:
    found = moves("S:a1 N:g11 N - 0", 4)
    assert all(not m.endswith(("S1", "S2")) for m in found)
    assert "g11-g7" in found


def test_a_hole_holds_one_cat() -> None:
    assert "g11-S1" not in moves("S:g11,S1 N:a1 S - 0", 4)


def test_no_move_out_of_a_hole() -> None:
    position = Position.from_text("S:a1,S1 N:n14 S - 0")
    for roll in range(1, 7):
        assert all(position.geometry.name(m[0]) == "a1" for m in position.legal_moves(roll))


def test_forced_pass_when_nothing_fits() -> None:
    # From the start of four players, a 6 leaves S without a move.
    assert Position.start(4).legal_moves(6) == []
    # A lone cat in the corner with a 6 blocked by a cat on every line.
    assert moves("S:a1 N:a4,d4,d1 S - 0", 6) == set()


def test_a_cat_on_the_board_always_has_a_move_for_a_one() -> None:
    # The king graph of the board is connected, so some neighbour is free or an enemy.
    board = Position.from_text("S:a1,a2,b1,b2 N:a3,b3,c3,c2,c1 S - 0").board()
    assert board.has_move(0, 1)
    assert not board.is_blocked()


def test_second_cat_home_wins() -> None:
    board = Position.from_text("S:h11,S1 N:a1,b1 S - 4").board()
    move = next(m for m in board.legal_moves(4) if board.geo.name(m[1]) == "S2")
    captured = board.make(move)
    outcome = board.outcome_after(move, captured)
    assert outcome is not None
    assert (outcome.kind, outcome.reason, outcome.winner) == (OutcomeKind.WIN, EndReason.HOME, 0)


def test_first_cat_home_does_not_end_the_game() -> None:
    board = Position.from_text("S:h11,g5 N:a1,b1 S - 4").board()
    move = next(m for m in board.legal_moves(4) if board.geo.name(m[1]) == "S2")
    assert board.outcome_after(move, board.make(move)) is None


def test_last_standing_wins() -> None:
    board = Position.from_text("S:d4,d5 N:d7 S - 5").board()
    move = next(m for m in board.legal_moves(2) if board.geo.name(m[1]) == "d7")
    outcome = board.outcome_after(move, board.make(move))
    assert outcome is not None
    assert (outcome.kind, outcome.reason, outcome.winner) == (
        OutcomeKind.WIN,
        EndReason.LAST_STANDING,
        0,
    )


def test_cats_in_holes_are_not_lost() -> None:
    # N has no cat on the board but one in a hole: not last standing, and S still has two.
    board = Position.from_text("S:d4,d5,a1 N:d7,N1 S - 5").board()
    move = next(m for m in board.legal_moves(2) if board.geo.name(m[1]) == "d7")
    assert board.outcome_after(move, board.make(move)) is None


def test_draw_when_nobody_can_fill_both_holes() -> None:
    board = Position.from_text("S:d5 N:d7,N1 S - 5").board()
    move = next(m for m in board.legal_moves(2) if board.geo.name(m[1]) == "d7")
    outcome = board.outcome_after(move, board.make(move))
    assert outcome is not None
    assert (outcome.kind, outcome.reason, outcome.winner) == (
        OutcomeKind.DRAW,
        EndReason.NO_CATS,
        None,
    )


def test_players_without_cats_on_the_board_are_skipped() -> None:
    four = Position.from_text("S:d4,d5 W:W1 N:a14,b14 E:n1,n2 S - 0").board()
    four.end_turn()
    assert four.geo.seats[four.turn] == "N"


def test_make_and_unmake_restore_the_board() -> None:
    position = Position.from_text("S:d4,d5,S1 N:d7,g12 S - 3")
    board = position.board()
    for roll in range(1, 7):
        for move in board.legal_moves(roll):
            captured = board.make(move)
            board.unmake(move, captured)
            assert Position.from_board(board).to_text() == position.to_text()
