"""A static evaluation of Kilkenny Cats positions for the AI players.

The core is a race table: for every player, square and set of free holes, the expected number
of turns a lone cat needs to get into a hole on an empty board when it may also wait (another
cat moves). It solves ``V(c) = 1 + 1/6 · Σ_r min(V(c), min_t V(t))`` over the squares ``t``
reachable with roll ``r`` (``V`` of a free hole is 0) by value iteration with numpy. A player's
score counts its cats, its filled holes and the race of its best cats for the holes still free;
the value of a position for a player is its score minus the best score among the others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np

from spieltisch.systems.kilkenny.board import MAX_ROLL, Geometry
from spieltisch.systems.kilkenny.rules import Board, Outcome, OutcomeKind

__all__ = [
    "DEFAULT_WEIGHTS",
    "LOSS",
    "WIN",
    "Evaluation",
    "Weights",
    "evaluate",
    "hand_evaluation",
    "outcome_value",
    "race_tables",
    "scores",
]

WIN = 100_000.0
"""Value of a won game (for the winner)."""

LOSS = -WIN
"""Value of a lost game."""

_UNREACHABLE = 1.0e6


@dataclass(frozen=True)
class Weights:
    """The weights of the score (per cat, per filled hole, per expected turn of the race)."""

    cat: float = 40.0
    home: float = 30.0
    race: float = 12.0
    spare: float = 1.0
    alone: float = 10.0
    """Expected turns charged for the missing second cat when only one is left."""
    cover: float = 20.0
    """Per distinct roll that would bring a cat into a free hole right now."""


DEFAULT_WEIGHTS = Weights()
"""The full evaluation of the searching players."""

BASIC_WEIGHTS = Weights(cover=0.0)
"""The greedy player's plain heuristic: cats, holes and the race, no look at open paths."""


@cache
def _tables(
    geo: Geometry, player: int
) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    size = geo.shift
    hole_cells = geo.hole_cells[player]
    result = []
    for free in ((0, 1), (1,), (0,)):
        targets: list[np.ndarray] = []
        for roll in range(1, MAX_ROLL + 1):
            table = geo.moves[player][roll]
            rows = np.full((size, 8), size, dtype=np.int64)
            for cell in range(size):
                entries = [m[1] for _, m in table[cell] if m[4] < 0 or m[4] in free]
                rows[cell, : len(entries)] = entries
            targets.append(rows)
        value = np.full(size + 1, _UNREACHABLE)
        for number in free:
            value[hole_cells[number]] = 0.0
        board = np.array([geo.on_board(c) for c in range(size)], dtype=bool)
        ks = np.arange(1, MAX_ROLL + 1, dtype=float)
        for _ in range(1000):
            best = np.stack([value[rows].min(axis=1) for rows in targets], axis=1)
            best.sort(axis=1)
            candidates = (MAX_ROLL + np.cumsum(best, axis=1)) / ks
            new = np.minimum(candidates.min(axis=1), _UNREACHABLE)
            updated = value.copy()
            updated[:size][board] = new[board]
            if np.array_equal(updated, value) or np.max(np.abs(updated - value)) < 1e-12:
                break
            value = updated
        result.append(tuple(float(v) for v in value[:size]))
    return result[0], result[1], result[2]


@cache
def entry_tables(geo: Geometry) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
    """Per player and cell: ``(roll, key)`` of each hole entry (key as in the move tables)."""
    result = []
    for player in range(len(geo.seats)):
        per_cell = []
        for cell in range(geo.shift):
            per_cell.append(
                tuple(
                    (roll, key)
                    for roll in range(1, MAX_ROLL + 1)
                    for key, move in geo.moves[player][roll][cell]
                    if move[4] >= 0
                )
            )
        result.append(tuple(per_cell))
    return tuple(result)


def race_tables(
    geo: Geometry,
) -> list[tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]]:
    """Per player: expected turns home from each cell with both holes free, only hole 1 (the
    second) free, only hole 0 free."""
    return [_tables(geo, player) for player in range(len(geo.seats))]


def scores(board: Board, weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """Every player's score: cats, filled holes and the race of its best cats."""
    geo = board.geo
    tables = race_tables(geo)
    result = []
    for player in range(board.players):
        count = board.home_count[player]
        cells = board.squares[player]
        base = weights.cat * (len(cells) + count) + weights.home * count
        if not cells:
            result.append(base)
            continue
        if count == 0:
            table = tables[player][0]
        else:
            table = tables[player][1 if board.home[player] >> geo.hole_cells[player][0] & 1 else 2]
        first = second = _UNREACHABLE
        rest = 0.0
        for cell in cells:
            value = table[cell]
            rest += value
            if value < first:
                first, second = value, first
            elif value < second:
                second = value
        race = first if count else first + (second if len(cells) > 1 else 2 * weights.alone)
        value = base - weights.race * race - weights.spare * rest
        if weights.cover:
            blocked = board.occupied | (board.home[player] << geo.shift)
            entries = entry_tables(geo)[player]
            rolls = 0
            for cell in cells:
                for roll, key in entries[cell]:
                    if not key & blocked:
                        rolls |= 1 << roll
            value += weights.cover * bin(rolls).count("1")
        result.append(value)
    return result


Evaluation = Callable[[Board], list[float]]
"""A search evaluation: every player's value on a board, comparable with each other and with
:data:`WIN` and :data:`LOSS` (the player who just acted is ``board.turn``)."""


def hand_evaluation(weights: Weights = DEFAULT_WEIGHTS) -> Evaluation:
    """The hand-set :func:`scores` with ``weights`` as an :data:`Evaluation`."""

    def evaluation(board: Board) -> list[float]:
        return scores(board, weights)

    return evaluation


def evaluate(board: Board, player: int) -> float:
    """The value of ``board`` for ``player``: its score minus the best other score."""
    values = scores(board)
    own = values[player]
    return own - max(v for p, v in enumerate(values) if p != player)


def outcome_value(outcome: Outcome, player: int) -> float:
    """The value of a finished game for ``player``: win, loss, or 0 for a draw or cap."""
    if outcome.kind is OutcomeKind.WIN:
        return WIN if outcome.winner == player else LOSS
    return 0.0
