"""Board geometry compiled into lookup tables for fast move generation.

The board is embedded in a grid one cell wider on every side, so the holes (which lie just
outside the board) are cells too. A cell's index is ``(y + 1) * width + (x + 1)`` and a set of
cells is a Python ``int`` used as a bit set (a bitboard).

For every player, roll and square the :class:`Geometry` lists the straight moves that stay on
the board or end in one of that player's holes. Each entry is ``(key, move)``: ``move`` is a
:data:`Move` tuple, ``key`` packs the squares the cat passes over (low half) and the target
(high half), so one ``&`` against ``occupied | own << shift`` tells whether the move is legal.
"""

from __future__ import annotations

from dataclasses import dataclass

from spieltisch.engine.errors import RuleError
from spieltisch.systems.kilkenny.layout import Layout, parse_square, square_name

__all__ = ["DIRECTIONS", "MAX_ROLL", "Geometry", "Move", "MoveTable", "geometry"]

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
)
"""The eight straight directions (dx, dy): N, NE, E, SE, S, SW, W, NW."""

MAX_ROLL = 6
"""Faces of the one die."""

Move = tuple[int, int, int, int, int]
"""A move as ``(from, to, from_bit, to_bit, hole)``: cell indices, their bits, and the hole
number (0 or 1) when ``to`` is one of the mover's holes, else -1."""

MoveTable = tuple[tuple[tuple[int, Move], ...], ...]
"""Per cell index: the ``(key, move)`` pairs of one player and one roll."""


@dataclass(frozen=True, eq=False)
class Geometry:
    """The compiled board of one layout and seating (turn order of the seats playing)."""

    layout: Layout
    seats: tuple[str, ...]
    width: int
    shift: int
    board_mask: int
    hole_cells: tuple[tuple[int, ...], ...]
    moves: tuple[tuple[MoveTable, ...], ...]
    """``moves[player][roll][cell]``; ``roll`` from 1 to 6 (index 0 is empty)."""

    @classmethod
    def build(cls, layout: Layout, seats: tuple[str, ...]) -> Geometry:
        """Compile ``layout`` for the players sitting at ``seats`` (in turn order)."""
        size = layout.size
        width = size + 2
        shift = width * width
        board_mask = 0
        for y in range(size):
            for x in range(size):
                board_mask |= 1 << ((y + 1) * width + x + 1)
        hole_cells = tuple(
            tuple((y + 1) * width + x + 1 for x, y in layout.seats[seat].holes) for seat in seats
        )
        moves: list[tuple[MoveTable, ...]] = []
        for player in range(len(seats)):
            own_holes = {cell: number for number, cell in enumerate(hole_cells[player])}
            per_roll: list[MoveTable] = [()]
            for roll in range(1, MAX_ROLL + 1):
                table: list[tuple[tuple[int, Move], ...]] = [() for _ in range(shift)]
                for y in range(size):
                    for x in range(size):
                        start = (y + 1) * width + x + 1
                        entries: list[tuple[int, Move]] = []
                        for dx, dy in DIRECTIONS:
                            path = 0
                            on_board = True
                            for step in range(1, roll):
                                px, py = x + dx * step, y + dy * step
                                if not (0 <= px < size and 0 <= py < size):
                                    on_board = False
                                    break
                                path |= 1 << ((py + 1) * width + px + 1)
                            if not on_board:
                                continue
                            tx, ty = x + dx * roll, y + dy * roll
                            if not (-1 <= tx <= size and -1 <= ty <= size):
                                continue
                            target = (ty + 1) * width + tx + 1
                            if 0 <= tx < size and 0 <= ty < size:
                                hole = -1
                            elif target in own_holes:
                                hole = own_holes[target]
                            else:
                                continue
                            move: Move = (start, target, 1 << start, 1 << target, hole)
                            entries.append((path | (1 << (target + shift)), move))
                        table[start] = tuple(entries)
                per_roll.append(tuple(table))
            moves.append(tuple(per_roll))
        return cls(layout, seats, width, shift, board_mask, hole_cells, tuple(moves))

    # -- names -----------------------------------------------------------------------------

    def cell(self, x: int, y: int) -> int:
        """The cell index of column ``x``, row ``y`` (-1 and ``size`` are beside the board)."""
        return (y + 1) * self.width + x + 1

    def xy(self, cell: int) -> tuple[int, int]:
        """Column and row of a cell index."""
        return cell % self.width - 1, cell // self.width - 1

    def on_board(self, cell: int) -> bool:
        """Whether ``cell`` is a square of the board (not a hole, not outside)."""
        return bool(self.board_mask >> cell & 1) if cell >= 0 else False

    def hole_owner(self, cell: int) -> tuple[int, int] | None:
        """``(player, hole number)`` if ``cell`` is a hole of a player at this table."""
        for player, cells in enumerate(self.hole_cells):
            if cell in cells:
                return player, cells.index(cell)
        return None

    def hole_name(self, player: int, number: int) -> str:
        """The name of a hole: seat letter and number from 1, e.g. ``S1``."""
        return f"{self.seats[player]}{number + 1}"

    def name(self, cell: int) -> str:
        """The name of a cell: a square such as ``f4`` or a hole such as ``S1``."""
        owner = self.hole_owner(cell)
        if owner is not None:
            return self.hole_name(*owner)
        x, y = self.xy(cell)
        return square_name(x, y)

    def parse_cell(self, text: str) -> int:
        """The cell index of a square name (``f4``) or hole name (``S1``).

        Raises :class:`RuleError` ``kilkenny.bad_square`` naming the value otherwise.
        """
        name = text.strip()
        if len(name) == 2 and name[0].isupper() and name[1] in "12":
            seat = name[0]
            if seat in self.seats:
                return self.hole_cells[self.seats.index(seat)][int(name[1]) - 1]
            raise RuleError("kilkenny.bad_square", value=text)
        x, y = parse_square(name, self.layout.size)
        return self.cell(x, y)


_CACHE: dict[tuple[int, str, tuple[str, ...]], Geometry] = {}


def geometry(layout: Layout, seats: tuple[str, ...]) -> Geometry:
    """The compiled geometry of ``layout`` for ``seats``, built once and cached."""
    key = (id(layout), layout.id, seats)
    found = _CACHE.get(key)
    if found is None or found.layout is not layout:
        found = Geometry.build(layout, seats)
        _CACHE[key] = found
    return found
