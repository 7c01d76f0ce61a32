"""Fitting the learned win-chance model (:mod:`.learned`) to self-play games.

Self-play uses the one-ply greedy player, so this module sits above :mod:`.players` (which
searches on the learned model) and nothing below imports it: ``scripts/kilkenny_fit_value.py``
and the tests do.
"""

from __future__ import annotations

from random import Random

import numpy as np

from spieltisch.systems.kilkenny.ai.evaluate import DEFAULT_WEIGHTS
from spieltisch.systems.kilkenny.ai.learned import FEATURES, ValueModel, side_features
from spieltisch.systems.kilkenny.ai.players import GreedyPlayer
from spieltisch.systems.kilkenny.board import MAX_ROLL, Geometry
from spieltisch.systems.kilkenny.rules import Board, OutcomeKind

__all__ = ["fit_logistic", "fit_value_model", "self_play_samples"]


def self_play_samples(
    geo: Geometry, games: int, seed: int | str, epsilon: float = 0.1
) -> tuple[np.ndarray, np.ndarray]:
    """Features and outcomes of two-player self-play positions.

    The games are played by one-ply players on the full hand-set evaluation that pick a random
    move with chance ``epsilon`` (for variety). Each position before a roll gives one row: the
    mover's features, the other's, and 1.0 if the mover went on to win. Games without a winner
    are left out. Game ``i`` uses ``Random(f"{seed}:{i}")``.
    """
    if len(geo.seats) != 2:
        raise ValueError("the value model is fitted on two-player games")
    greedy = GreedyPlayer(DEFAULT_WEIGHTS)
    rows: list[tuple[float, ...]] = []
    outcomes: list[float] = []
    for index in range(games):
        rng = Random(f"{seed}:{index}")
        board = Board.start(geo)
        seen: list[tuple[tuple[float, ...], int]] = []
        winner: int | None = None
        while board.ply < 1000:
            mover = board.turn
            seen.append((side_features(board, mover) + side_features(board, 1 - mover), mover))
            roll = rng.randint(1, MAX_ROLL)
            moves = board.legal_moves(roll)
            if not moves:
                board.end_turn()
                continue
            if len(moves) == 1:
                move = moves[0]
            elif rng.random() < epsilon:
                move = moves[rng.randrange(len(moves))]
            else:
                move = greedy.choose(board, roll, moves)
            captured = board.make(move)
            ending = board.outcome_after(move, captured)
            board.end_turn()
            if ending is not None:
                if ending.kind is OutcomeKind.WIN:
                    winner = ending.winner
                break
        if winner is None:
            continue
        for features, mover in seen:
            rows.append(features)
            outcomes.append(1.0 if mover == winner else 0.0)
    width = 2 * len(FEATURES)
    return np.array(rows, dtype=float).reshape(-1, width), np.array(outcomes, dtype=float)


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1e-3) -> tuple[np.ndarray, float]:
    """Weights and bias of a logistic regression of ``y`` (0/1) on the columns of ``x``.

    Newton's method on standardized columns with a small ridge ``l2`` (which also keeps
    constant or collinear columns harmless); the weights are returned on the original scale.
    """
    mean = x.mean(axis=0)
    spread = x.std(axis=0)
    spread[spread == 0] = 1.0
    design = np.column_stack([(x - mean) / spread, np.ones(len(x))])
    weights = np.zeros(design.shape[1])
    ridge = l2 * np.eye(design.shape[1])
    for _ in range(50):
        chance = 1.0 / (1.0 + np.exp(-np.clip(design @ weights, -30, 30)))
        gradient = design.T @ (chance - y) + l2 * weights
        hessian = (design * (chance * (1 - chance))[:, None]).T @ design + ridge
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    raw = weights[:-1] / spread
    return raw, float(weights[-1] - np.sum(raw * mean))


def fit_value_model(x: np.ndarray, y: np.ndarray) -> ValueModel:
    """The :class:`ValueModel` fitted to rows of :func:`self_play_samples`."""
    raw, bias = fit_logistic(x, y)
    size = len(FEATURES)
    return ValueModel(
        tuple(float(w) for w in raw[:size]), tuple(float(w) for w in raw[size:]), bias
    )
