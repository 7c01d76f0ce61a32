"""Chances before a move: what each legal move risks and what it leaves open.

For the player to move, with its roll known, every legal move gets two exact chances:

* **captured** — that the moved cat is captured before the player's next turn, if the others
  capture it whenever their roll allows. A cat moved into a hole is safe (0).
* **enter** — that the player can enter a hole on its next turn (one of its six rolls moves
  a cat into one of its free holes), if the player before it does all it can against that
  (blocks a path, captures a cat on its way, wins first).

With two players these are the exact values of the game over the other's roll and move:
the capture chance is the share of the other's rolls that can capture the cat — the most
it risks, whatever the other does — and the entry chance the least the mover can count on,
whatever the other does. With three or four players the players before the last one are
followed for their own chance to capture the cat, their other moves are not foreseen: the
chances are exact for the case that those moves leave the lines the goals are read from as
they are (a player clearing the way for another, or blocking early, is left out). A move
that ends the game has neither chance (``None``).

The search follows the others in turn order, each roll (a pass when there is no move; the
game's endings end the line) and, for the last one before the mover, each legal move. It
stays small without changing its value:

* the goals are read off lines: only a cat first on one of the eight lines through the moved
  cat, at most six squares away, can capture it; only a cat of the mover first on a line
  from one of its free holes can enter (:func:`_rays`);
* a move of the last player that touches none of those lines, captures nothing and enters no
  hole changes nothing: all such moves count as one;
* positions reached twice are valued once.

:func:`brute_force` computes the same values without these, from the legal moves alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from spieltisch.systems.kilkenny.board import DIRECTIONS, MAX_ROLL, Geometry, Move
from spieltisch.systems.kilkenny.position import Position
from spieltisch.systems.kilkenny.rules import Board

__all__ = ["MoveChances", "brute_force", "chances_json", "move_chances"]

_ZERO = Fraction(0)
_ONE = Fraction(1)

Ray = tuple[tuple[int, int], ...]
"""The squares along one line from a cell, nearest first: ``(distance, cell)``."""


@dataclass(frozen=True)
class MoveChances:
    """The chances of one legal move (``None``: the move ends the game)."""

    move: Move
    captured: Fraction | None
    """That the moved cat is captured before the mover's next turn (if the others hunt it)."""
    enter: Fraction | None
    """That the mover can enter a hole on its next turn (if the others block it)."""


@cache
def _rays(geo: Geometry, cell: int) -> tuple[Ray, ...]:
    """The eight lines from ``cell`` (a square or a hole), up to six squares of the board."""
    x, y = geo.xy(cell)
    size = geo.layout.size
    rays: list[Ray] = []
    for dx, dy in DIRECTIONS:
        ray: list[tuple[int, int]] = []
        for step in range(1, MAX_ROLL + 1):
            px, py = x + dx * step, y + dy * step
            if not (0 <= px < size and 0 <= py < size):
                break
            ray.append((step, geo.cell(px, py)))
        if ray:
            rays.append(tuple(ray))
    return tuple(rays)


@cache
def _region(geo: Geometry, cell: int) -> int:
    """The squares of :func:`_rays` of ``cell`` as a bit set."""
    found = 0
    for ray in _rays(geo, cell):
        for _, square in ray:
            found |= 1 << square
    return found


def _reach(board: Board, target: int, player: int) -> int:
    """The rolls (a bit per roll) with which ``player``'s cats reach ``target`` over free
    squares: the first cat on each line from it, if it is ``player``'s."""
    cats = board.cats[player]
    occupied = board.occupied
    rolls = 0
    for ray in _rays(board.geo, target):
        for distance, square in ray:
            bit = 1 << square
            if occupied & bit:
                if cats & bit:
                    rolls |= 1 << distance
                break
    return rolls


def _entry_rolls(board: Board, player: int) -> int:
    """How many rolls let ``player`` move a cat into one of its free holes."""
    rolls = 0
    home = board.home[player]
    for hole in board.geo.hole_cells[player]:
        if not home >> hole & 1:
            rolls |= _reach(board, hole, player)
    return bin(rolls).count("1")


class _Search:
    """The game tree of the others' turns up to the mover's next turn, for one goal."""

    def __init__(self, me: int, cell: int | None, prune: bool) -> None:
        self.me = me
        self.cell = cell
        """The moved cat's square (the capture goal); ``None``: the entry goal."""
        self.prune = prune
        self.memo: dict[tuple[object, ...], Fraction] = {}

    def goal(self, board: Board) -> int:
        """The squares the goal is read from (see the module)."""
        geo = board.geo
        if self.cell is not None:
            return _region(geo, self.cell)
        found = 0
        for hole in geo.hole_cells[self.me]:
            if not board.home[self.me] >> hole & 1:
                found |= _region(geo, hole)
        return found

    def last(self, board: Board) -> bool:
        """Whether the player to move is the last before the mover's turn."""
        turn, ply = board.turn, board.ply
        board.end_turn()
        following = board.turn
        board.turn, board.ply = turn, ply
        return following == self.me

    def value(self, board: Board) -> Fraction:
        """The value with ``board.turn`` to roll (an other player, or the mover: done)."""
        me = self.me
        if not board.squares[me]:
            return _ZERO  # the mover has no cat on the board: no turn, no entry
        if board.turn == me:
            if self.cell is not None:
                return _ZERO
            if not self.prune:  # the plain way: every legal move of every roll
                rolls = [any(m[4] >= 0 for m in board.legal_moves(r)) for r in range(1, 7)]
                return Fraction(sum(rolls), MAX_ROLL)
            return Fraction(_entry_rolls(board, me), MAX_ROLL)
        key = (board.turn, tuple(board.cats), tuple(board.home))
        found = self.memo.get(key)
        if found is not None:
            return found
        region = self.goal(board) if self.prune else -1
        total = _ZERO
        for roll in range(1, MAX_ROLL + 1):
            total += self.roll(board, roll, region)
        result = total / MAX_ROLL
        if self.prune:
            self.memo[key] = result
        return result

    def roll(self, board: Board, roll: int, region: int) -> Fraction:
        moves = board.legal_moves(roll)
        if self.cell is not None:
            if self.prune:
                captures = bool(_reach(board, self.cell, board.turn) >> roll & 1)
            else:
                captures = any(move[1] == self.cell for move in moves)
            if captures:
                return _ONE  # the roll captures the cat
        if not self.last(board):
            # a player before the last: its other moves are not foreseen (see the module)
            return self.passed(board)
        if not moves:
            if board.is_blocked():
                return _ZERO  # a draw: the game ends
            return self.passed(board)
        best: Fraction | None = None
        quiet = False
        occupied = board.occupied
        for move in moves:
            if (
                region >= 0
                and not (move[2] | move[3]) & region
                and move[4] < 0
                and not occupied & move[3]
            ):
                quiet = True  # changes nothing the value depends on
                continue
            best = self.better(best, self.after(board, move))
        if quiet:
            best = self.better(best, self.passed(board))
        assert best is not None
        return best

    def better(self, best: Fraction | None, value: Fraction) -> Fraction:
        if best is None:
            return value
        return max(best, value) if self.cell is not None else min(best, value)

    def passed(self, board: Board) -> Fraction:
        turn, ply = board.turn, board.ply
        board.end_turn()
        value = self.value(board)
        board.turn, board.ply = turn, ply
        return value

    def after(self, board: Board, move: Move) -> Fraction:
        captured = board.make(move)
        ends = board.outcome_after(move, captured) is not None
        value = _ZERO if ends else self.passed(board)  # an ending: no turn for the mover
        board.unmake(move, captured)
        return value


def _chances(position: Position, prune: bool) -> list[MoveChances]:
    if position.roll is None:
        return []
    board = position.board()
    me = board.turn
    entry = _Search(me, None, prune)
    found: list[MoveChances] = []
    for move in position.legal_moves():
        captured = board.make(move)
        if board.outcome_after(move, captured) is not None:
            found.append(MoveChances(move, None, None))
            board.unmake(move, captured)
            continue
        turn, ply = board.turn, board.ply
        board.end_turn()
        risk = _ZERO
        if move[4] < 0:
            risk = _Search(me, move[1], prune).value(board)
        chance = entry.value(board)
        board.turn, board.ply = turn, ply
        board.unmake(move, captured)
        found.append(MoveChances(move, risk, chance))
    return found


@lru_cache(maxsize=64)
def move_chances(position: Position) -> tuple[MoveChances, ...]:
    """The chances of every legal move for the pending roll, in the order of
    :meth:`Position.legal_moves` (empty when no roll is pending). Positions are immutable,
    so a table asking again (every viewer's view) gets the same answer at once."""
    return tuple(_chances(position, prune=True))


def _share(value: Fraction | None) -> dict[str, Any] | None:
    if value is None:
        return None
    return {"probability": float(value), "exact": str(value)}


def chances_json(position: Position) -> list[dict[str, Any]]:
    """Every legal move of the pending roll with its chances:
    ``{"from", "to", "captured": {"probability", "exact"}, "enter": {…}}`` (``exact`` a
    fraction such as ``"1/6"``, or ``"0"``; ``null`` for a move that ends the game)."""
    geo = position.geometry
    return [
        {
            "from": geo.name(found.move[0]),
            "to": geo.name(found.move[1]),
            "captured": _share(found.captured),
            "enter": _share(found.enter),
        }
        for found in move_chances(position)
    ]


def brute_force(position: Position) -> list[MoveChances]:
    """The same chances by plain enumeration of every roll and every move of the others
    (no move counted as quiet, no position remembered), for the tests."""
    return _chances(position, prune=False)
