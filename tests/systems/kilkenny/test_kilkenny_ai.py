"""AI players: legal, deterministic, sensible; the race table solves its equation."""

from __future__ import annotations

from random import Random

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.systems.kilkenny import Board, Position, geometry, get_layout, playout
from spieltisch.systems.kilkenny.ai import PLAYER_NAMES, make_player
from spieltisch.systems.kilkenny.ai.evaluate import race_tables
from spieltisch.systems.kilkenny.ai.match import play_match, wilson
from spieltisch.systems.kilkenny.board import DIRECTIONS


def positions(count: int, seed: int = 3) -> list[tuple[Board, int]]:
    """Mid-game boards with a roll that leaves a choice."""
    layout = get_layout("default")
    found = []
    rng = Random(seed)
    for index in range(count):
        board = Board.start(geometry(layout, layout.seats_for(2 + index % 3)))
        outcome, _ = playout(board, rng, max_plies=rng.randrange(0, 60))
        if outcome.kind.value != "capped" or not board.squares[board.turn]:
            continue
        for roll in range(1, 7):
            if len(board.legal_moves(roll)) > 1:
                found.append((board, roll))
                break
    return found


@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_players_choose_a_legal_move_and_leave_the_board(name: str) -> None:
    player = make_player(name, budget=2)
    for board, roll in positions(8):
        before = Position.from_board(board)
        legal = board.legal_moves(roll)
        choice = player.choose(board, roll, legal)
        assert choice in legal
        assert Position.from_board(board) == before
        assert player.choose(board, roll, legal) == choice


@pytest.mark.parametrize("name", ["greedy", "expectimax", "strongest"])
def test_players_take_a_winning_move(name: str) -> None:
    board = Position.from_text("S:h11,c3,S1 N:a14,b14,n1 S - 4").board()
    legal = board.legal_moves(4)
    choice = make_player(name, budget=2).choose(board, 4, legal)
    assert board.geo.name(choice[1]) == "S2"


@pytest.mark.parametrize("name", ["expectimax", "strongest"])
def test_searching_players_do_not_step_next_to_a_sure_capture(name: str) -> None:
    # S must move a cat by 2; d8 would stand one step beside N's d9... with a 1 N captures.
    board = Position.from_text("S:b2,g3 N:d10,m14,n14 S - 4").board()
    legal = board.legal_moves(2)
    choice = make_player(name, budget=4).choose(board, 2, legal)
    board.make(choice)
    board.end_turn()
    threats = sum(
        1
        for roll in range(1, 7)
        if any(board.occupied & move[3] for move in board.legal_moves(roll))
    )
    assert threats <= 1


def test_unknown_ai_names_the_value() -> None:
    with pytest.raises(RuleError) as caught:
        make_player("deep-blue")
    assert caught.value.code == "kilkenny.unknown_ai"
    assert caught.value.params["value"] == "deep-blue"


def test_race_table_solves_its_equation() -> None:
    """Checked with targets computed from scratch (not from the move tables)."""
    layout = get_layout("default")
    geo = geometry(layout, ("S", "N"))
    both, _, _ = race_tables(geo)[0]
    holes = {(6, 14), (7, 14)}
    size = layout.size
    for y in range(size):
        for x in range(size):
            value = both[geo.cell(x, y)]
            total = 0.0
            for roll in range(1, 7):
                best = value
                for dx, dy in DIRECTIONS:
                    tx, ty = x + dx * roll, y + dy * roll
                    if 0 <= tx < size and 0 <= ty < size:
                        best = min(best, both[geo.cell(tx, ty)])
                    elif (tx, ty) in holes and all(
                        0 <= x + dx * s < size and 0 <= y + dy * s < size for s in range(1, roll)
                    ):
                        best = 0.0
                total += best
            assert value == pytest.approx(1 + total / 6, abs=1e-7)
    # Right below a hole only a 1 enters: six turns expected, unless a detour is faster.
    assert both[geo.cell(6, 13)] <= 6.0
    assert both[geo.cell(6, 3)] > both[geo.cell(6, 10)]


def test_greedy_beats_random_in_a_short_match() -> None:
    result = play_match(lambda: make_player("greedy"), lambda: make_player("random"), 20, seed=5)
    assert result.games == 20
    assert result.wins_a >= 17
    assert result.as_json()["wins"] == {"a": result.wins_a, "b": result.wins_b}


def test_matches_replay_exactly() -> None:
    first = play_match(lambda: make_player("random"), lambda: make_player("greedy"), 6, seed=9)
    second = play_match(lambda: make_player("random"), lambda: make_player("greedy"), 6, seed=9)
    assert first.as_json() == second.as_json()
    assert first.plies == second.plies


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
