"""The AI players of graded strength: random, greedy (one ply), expectimax (two plies), strongest.

A player chooses one of the legal moves for the rolled value; it is only asked when there is
a choice. Choices are deterministic functions of the position: ties go to the first move in
the order given, and the random player seeds itself from the position.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from random import Random
from typing import Protocol

from spieltisch.systems.kilkenny.ai.evaluate import (
    BASIC_WEIGHTS,
    DEFAULT_WEIGHTS,
    WIN,
    Evaluation,
    Weights,
    hand_evaluation,
    outcome_value,
)
from spieltisch.systems.kilkenny.ai.learned import learned_scores
from spieltisch.systems.kilkenny.board import MAX_ROLL, Move
from spieltisch.systems.kilkenny.rules import Board

__all__ = [
    "DeepExpectimaxPlayer",
    "ExpectimaxPlayer",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "deep_value",
    "position_seed",
    "relative",
    "reply_value",
]


class Player(Protocol):
    """An AI player: picks one of ``moves`` (all legal for ``roll``) on ``board``."""

    name: str

    def choose(self, board: Board, roll: int, moves: Sequence[Move]) -> Move:
        """The chosen move; ``board`` is left as it was."""
        ...


def position_seed(board: Board, roll: int, salt: int = 0) -> int:
    """A seed derived from the position alone (the same in every process)."""
    return hash((tuple(board.cats), tuple(board.home), board.turn, board.ply, roll, salt))


def relative(values: Sequence[float], player: int) -> float:
    """``player``'s score minus the best score of the others."""
    best = max(v for p, v in enumerate(values) if p != player) if len(values) > 1 else 0.0
    return values[player] - best


class RandomPlayer:
    """Picks a uniformly random legal move, seeded from the position (replays exactly)."""

    name = "random"

    def __init__(self, salt: int = 0) -> None:
        self.salt = salt

    def choose(self, board: Board, roll: int, moves: Sequence[Move]) -> Move:
        """A uniformly random legal move."""
        return moves[Random(position_seed(board, roll, self.salt)).randrange(len(moves))]


def _after(board: Board, move: Move, player: int, evaluation: Evaluation) -> float:
    """Make ``move``, value it for ``player`` (evaluation, or a finished game), take it back."""
    captured = board.make(move)
    ending = board.outcome_after(move, captured)
    if ending is not None:
        board.unmake(move, captured)
        return outcome_value(ending, player)
    values = evaluation(board)
    board.unmake(move, captured)
    return relative(values, player)


class GreedyPlayer:
    """One-ply heuristic: the move after which the static evaluation is best.

    By default it uses the plain heuristic (:data:`BASIC_WEIGHTS`: cats, holes, race); the
    searching players add the count of rolls that would enter a hole right now.
    """

    name = "greedy"

    def __init__(self, weights: Weights = BASIC_WEIGHTS) -> None:
        self.evaluation = hand_evaluation(weights)

    def choose(self, board: Board, roll: int, moves: Sequence[Move]) -> Move:
        """The move with the best evaluation right after it."""
        player = board.turn
        best_move = moves[0]
        best = -float("inf")
        for move in moves:
            value = _after(board, move, player, self.evaluation)
            if value > best:
                best, best_move = value, move
        return best_move


def reply_value(board: Board, player: int, evaluation: Evaluation) -> float:
    """Expected value for ``player`` after the next player answers every roll greedily.

    ``board`` has the move of ``player`` made (turn not yet passed). The next player picks,
    for each roll, the reply best by its own evaluation; the result is averaged over the die.
    """
    saved_turn, saved_ply = board.turn, board.ply
    board.end_turn()
    mover = board.turn
    total = 0.0
    for roll in range(1, MAX_ROLL + 1):
        replies = board.legal_moves(roll)
        if not replies:
            total += relative(evaluation(board), player)
            continue
        best_for_mover = -float("inf")
        value_for_player = 0.0
        for reply in replies:
            captured = board.make(reply)
            ending = board.outcome_after(reply, captured)
            if ending is not None:
                mine, theirs = outcome_value(ending, player), outcome_value(ending, mover)
            else:
                values = evaluation(board)
                mine, theirs = relative(values, player), relative(values, mover)
            board.unmake(reply, captured)
            if theirs > best_for_mover:
                best_for_mover, value_for_player = theirs, mine
        total += value_for_player
    board.turn, board.ply = saved_turn, saved_ply
    return total / MAX_ROLL


class ExpectimaxPlayer:
    """Expectimax of depth 2 over the die: own move, every roll of the next player, its reply.

    The next player is assumed to reply with its best move by the static evaluation (in a
    two-player game that is the minimum of ours).
    """

    name = "expectimax"

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.evaluation = hand_evaluation(weights)

    def choose(self, board: Board, roll: int, moves: Sequence[Move]) -> Move:
        """The move with the best expected value after the next player's reply."""
        player = board.turn
        best_move = moves[0]
        best = -float("inf")
        for move in moves:
            captured = board.make(move)
            ending = board.outcome_after(move, captured)
            value = (
                outcome_value(ending, player)
                if ending is not None
                else reply_value(board, player, self.evaluation)
            )
            board.unmake(move, captured)
            if value > best:
                best, best_move = value, move
        return best_move


def _own_reply_value(board: Board, player: int, evaluation: Evaluation) -> float:
    """Expected value of ``player``'s best reply by static evaluation over its next roll.

    ``board`` has the turn of ``player`` (after an opponent's move, turn already passed).
    """
    total = 0.0
    for roll in range(1, MAX_ROLL + 1):
        moves = board.legal_moves(roll)
        if not moves:
            total += relative(evaluation(board), player)
            continue
        best = -float("inf")
        for move in moves:
            value = _after(board, move, player, evaluation)
            if value > best:
                best = value
        total += best
    return total / MAX_ROLL


def deep_value(board: Board, player: int, evaluation: Evaluation) -> float:
    """Depth-3 expectimax value for ``player`` after its move (already made, turn not passed).

    For every roll of the next player its best reply by its own evaluation is played; then, if
    the turn comes back to ``player``, its best answer for every roll is averaged in.
    """
    saved_turn, saved_ply = board.turn, board.ply
    board.end_turn()
    mover = board.turn
    total = 0.0
    for roll in range(1, MAX_ROLL + 1):
        replies = board.legal_moves(roll)
        chosen: Move | None = None
        best_for_mover = -float("inf")
        final: float | None = None
        for reply in replies:
            captured = board.make(reply)
            ending = board.outcome_after(reply, captured)
            if ending is not None:
                theirs = outcome_value(ending, mover)
                if theirs > best_for_mover:
                    best_for_mover, chosen, final = theirs, reply, outcome_value(ending, player)
            else:
                theirs = relative(evaluation(board), mover)
                if theirs > best_for_mover:
                    best_for_mover, chosen, final = theirs, reply, None
            board.unmake(reply, captured)
        if chosen is not None and final is not None:
            total += final
            continue
        inner_turn, inner_ply = board.turn, board.ply
        captured = board.make(chosen) if chosen is not None else -1
        board.end_turn()
        if board.turn == player:
            total += _own_reply_value(board, player, evaluation)
        else:
            total += relative(evaluation(board), player)
        board.turn, board.ply = inner_turn, inner_ply
        if chosen is not None:
            board.unmake(chosen, captured)
    board.turn, board.ply = saved_turn, saved_ply
    return total / MAX_ROLL


class DeepExpectimaxPlayer:
    """The strongest player: expectimax to depth 3 over the die with forward pruning.

    Every move is first valued by the depth-2 search of :class:`ExpectimaxPlayer`; the best
    ``budget`` of them are then searched one chance layer deeper (:func:`deep_value`: the next
    player's greedy reply to each roll, then our own best answer to each of our rolls) and the
    best of those is played. ``seconds``, if given, also stops the deeper search when the time
    is up (the choice then depends on the machine's speed; tables use ``budget`` only).
    Positions are valued by ``evaluation``, by default the win-chance model learned from
    self-play (:func:`~spieltisch.systems.kilkenny.ai.learned.learned_scores`; with three or
    four players the hand-set scores).
    """

    name = "strongest"

    def __init__(
        self,
        budget: int = 6,
        seconds: float | None = None,
        evaluation: Evaluation = learned_scores,
    ) -> None:
        self.budget = max(1, budget)
        self.seconds = seconds
        self.evaluation = evaluation

    def choose(self, board: Board, roll: int, moves: Sequence[Move]) -> Move:
        """The move with the best depth-3 value among the best depth-2 candidates."""
        began = time.perf_counter()
        player = board.turn
        ranked: list[tuple[float, int, Move]] = []
        for index, move in enumerate(moves):
            captured = board.make(move)
            ending = board.outcome_after(move, captured)
            if ending is not None:
                value = outcome_value(ending, player)
            else:
                value = reply_value(board, player, self.evaluation)
            board.unmake(move, captured)
            ranked.append((value, index, move))
        ranked.sort(key=lambda item: (-item[0], item[1]))
        if ranked[0][0] >= WIN or len(ranked) == 1:
            return ranked[0][2]
        best_move = ranked[0][2]
        best = -float("inf")
        for _, _, move in ranked[: self.budget]:
            if self.seconds is not None and time.perf_counter() - began > self.seconds:
                break
            captured = board.make(move)
            ending = board.outcome_after(move, captured)
            if ending is not None:
                value = outcome_value(ending, player)
            else:
                value = deep_value(board, player, self.evaluation)
            board.unmake(move, captured)
            if value > best:
                best, best_move = value, move
        return best_move
