"""Fast simulated games for the strongest player's optional check: a cheap greedy policy.

The policy of both sides in a simulation: enter a hole when the roll allows; otherwise the
move that saves the most expected turns by the race table of the mover's free holes, with a
bonus for a capture; with probability ``epsilon`` a uniformly random legal move instead. It
costs about a table look-up per legal move, so a whole game takes well under a millisecond.
"""

from __future__ import annotations

from random import Random

from spieltisch.systems.kilkenny.ai.evaluate import race_tables, scores
from spieltisch.systems.kilkenny.board import MAX_ROLL
from spieltisch.systems.kilkenny.rules import Board

__all__ = ["CAPTURE_TURNS", "simulate"]

CAPTURE_TURNS = 4.0
"""A capture is worth this many expected turns to the policy."""


def simulate(
    board: Board,
    rng: Random,
    epsilon: float = 0.1,
    max_plies: int = 80,
) -> tuple[int, int]:
    """Play ``board`` (changed in place) to the end with the rollout policy.

    Returns the winner's index (-1 for a draw) and the plies played. After ``max_plies``
    plies the leader by the static evaluation counts as the winner.
    """
    rand = rng.random
    geo = board.geo
    shift = geo.shift
    moves_table = geo.moves
    races = race_tables(geo)
    hole0 = [1 << cells[0] for cells in geo.hole_cells]
    squares = board.squares
    cats = board.cats
    home = board.home
    home_count = board.home_count
    players = board.players
    occupied = board.occupied
    player = board.turn
    plies = 0
    winner = -2
    while plies < max_plies:
        table = moves_table[player][int(rand() * MAX_ROLL) + 1]
        blocked = occupied | ((cats[player] | home[player]) << shift)
        moves = [move for cell in squares[player] for key, move in table[cell] if not key & blocked]
        plies += 1
        if moves:
            if len(moves) == 1:
                chosen = moves[0]
            elif rand() < epsilon:
                chosen = moves[int(rand() * len(moves))]
            else:
                count = home_count[player]
                race = races[player][0 if not count else 1 if home[player] & hole0[player] else 2]
                chosen = moves[0]
                best = -1.0e9
                for move in moves:
                    if move[4] >= 0:
                        chosen = move
                        break
                    gain = race[move[0]] - race[move[1]]
                    if occupied & move[3]:
                        gain += CAPTURE_TURNS
                    if gain > best:
                        best, chosen = gain, move
            start, target, start_bit, target_bit, hole = chosen
            cells = squares[player]
            if hole >= 0:
                occupied ^= start_bit
                cats[player] ^= start_bit
                cells.remove(start)
                home[player] |= target_bit
                home_count[player] += 1
                if home_count[player] >= 2:
                    winner = player
                    break
            else:
                cats[player] ^= start_bit | target_bit
                cells[cells.index(start)] = target
                if occupied & target_bit:
                    occupied ^= start_bit
                    for victim in range(players):
                        if victim != player and cats[victim] & target_bit:
                            cats[victim] ^= target_bit
                            squares[victim].remove(target)
                            break
                    board.occupied = occupied
                    ending = board.material_outcome()
                    if ending is not None:
                        winner = -1 if ending.winner is None else ending.winner
                        break
                else:
                    occupied ^= start_bit | target_bit
        else:
            board.occupied = occupied
            if board.is_blocked():
                winner = -1
                break
        for _ in range(players):
            player = player + 1 if player + 1 < players else 0
            if squares[player]:
                break
    board.occupied = occupied
    board.turn = player
    board.ply += plies
    if winner == -2:
        values = scores(board)
        winner = max(range(players), key=lambda p: values[p])
    return winner, plies
