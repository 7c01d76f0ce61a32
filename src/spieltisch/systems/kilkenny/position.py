"""The immutable position of a Kilkenny Cats game and its one-line notations.

Position notation (one line, like chess FEN)::

    S:f4,f5,g4,g5,h4,h5,i4,i5 N:f10,f11,g10,g11,h10,h11,i10,i11 S - 0

One field per seat in turn order, ``<seat>:<cats>`` with the squares of its cats on the board
and its filled holes (``S1``, ``S2``), comma-separated, sorted, or ``-`` when it has none;
then the seat to move, the pending roll (``1``–``6``) or ``-``, and the number of plies played.

Move notation: ``f4-f7`` (a move), ``f4xf7`` (a capture), ``g13-S1`` (entering hole S1).
When reading, ``-``, ``x`` and a space all separate the two squares.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spieltisch.engine.errors import RuleError
from spieltisch.engine.text import Label
from spieltisch.systems.kilkenny.board import MAX_ROLL, Geometry, Move, geometry
from spieltisch.systems.kilkenny.layout import Layout, get_layout
from spieltisch.systems.kilkenny.rules import Board

__all__ = ["Position", "move_text", "parse_move"]


def move_text(geo: Geometry, move: Move, capture: bool = False) -> str:
    """A move in notation: ``f4-f7``, ``f4xf7`` when it captures, ``g13-S1`` into a hole."""
    return f"{geo.name(move[0])}{'x' if capture else '-'}{geo.name(move[1])}"


def parse_move(text: str) -> tuple[str, str]:
    """Split a move such as ``f4-f7``, ``f4xf7`` or ``f4 f7`` into its two square names.

    Raises :class:`RuleError` ``kilkenny.bad_move_text`` naming the value if it has no such form.
    """
    cleaned = text.strip()
    for separator in ("-", "x", "X", " "):
        if separator in cleaned:
            left, _, right = cleaned.partition(separator)
            if left.strip() and right.strip() and len(left.strip()) <= 3:
                return left.strip(), right.strip()
    raise RuleError("kilkenny.bad_move_text", value=text)


@dataclass(frozen=True)
class Position:
    """Where every cat stands, which holes are filled, whose turn, the pending roll, the ply.

    ``cats[p]`` are the sorted cell indices of seat ``p``'s cats on the board (see
    :class:`~spieltisch.systems.kilkenny.board.Geometry`), ``home[p]`` the numbers (0, 1) of
    its filled holes.
    """

    layout: Layout = field(compare=False, repr=False)
    seats: tuple[str, ...]
    cats: tuple[tuple[int, ...], ...]
    home: tuple[tuple[int, ...], ...]
    turn: int = 0
    roll: int | None = None
    ply: int = 0
    layout_id: str = "default"

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def start(cls, players: int = 2, layout: Layout | None = None) -> Position:
        """The start position for ``players`` players on ``layout`` (the default layout)."""
        layout = layout or get_layout("default")
        seats = layout.seats_for(players)
        return cls.from_board(Board.start(geometry(layout, seats)))

    @classmethod
    def from_board(cls, board: Board, roll: int | None = None) -> Position:
        """The position a :class:`Board` stands in (``roll`` pending, if given)."""
        geo = board.geo
        home = tuple(
            tuple(n for n, cell in enumerate(geo.hole_cells[p]) if board.home[p] >> cell & 1)
            for p in range(board.players)
        )
        return cls(
            geo.layout,
            geo.seats,
            tuple(tuple(sorted(cells)) for cells in board.squares),
            home,
            board.turn,
            roll,
            board.ply,
            geo.layout.id,
        )

    @property
    def geometry(self) -> Geometry:
        """The compiled board of this position's layout and seats."""
        return geometry(self.layout, self.seats)

    def board(self) -> Board:
        """A fresh mutable :class:`Board` in this position."""
        geo = self.geometry
        home = [
            sum(1 << geo.hole_cells[p][n] for n in numbers) for p, numbers in enumerate(self.home)
        ]
        return Board(geo, [list(cells) for cells in self.cats], home, self.turn, self.ply)

    # -- reading ---------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """The number of players."""
        return len(self.seats)

    @property
    def seat(self) -> str:
        """The seat to move."""
        return self.seats[self.turn]

    def legal_moves(self, roll: int | None = None) -> list[Move]:
        """The legal moves for ``roll`` (default: the pending roll), sorted by notation."""
        value = self.roll if roll is None else roll
        if value is None:
            return []
        geo = self.geometry
        moves = self.board().legal_moves(value)
        return sorted(moves, key=lambda m: (geo.name(m[0]), geo.name(m[1])))

    def occupant(self, cell: int) -> int | None:
        """The player whose cat stands on ``cell`` (a square), or ``None``."""
        for player, cells in enumerate(self.cats):
            if cell in cells:
                return player
        return None

    def find_move(self, origin: str, target: str, roll: int) -> Move:
        """The legal move from ``origin`` to ``target`` for ``roll``.

        Raises :class:`RuleError`: ``kilkenny.bad_square`` for a name that is no square,
        ``kilkenny.illegal_move`` naming the move when the rules do not allow it.
        """
        geo = self.geometry
        start = geo.parse_cell(origin)
        end = geo.parse_cell(target)
        for move in self.board().legal_moves(roll):
            if move[0] == start and move[1] == end:
                return move
        raise RuleError(
            "kilkenny.illegal_move",
            value=f"{origin}-{target}",
            roll=roll,
            seat=Label(f"kilkenny.seat.{self.seat}"),
        )

    def is_capture(self, move: Move) -> bool:
        """Whether ``move`` lands on an enemy cat."""
        return move[4] < 0 and self.occupant(move[1]) is not None

    def notation(self, move: Move) -> str:
        """``move`` in move notation, marking captures with ``x``."""
        return move_text(self.geometry, move, self.is_capture(move))

    # -- notation --------------------------------------------------------------------------

    def to_text(self) -> str:
        """The one-line position notation (see the module docstring)."""
        geo = self.geometry
        fields = []
        for player, seat in enumerate(self.seats):
            names = [geo.name(cell) for cell in sorted(self.cats[player], key=geo.xy)]
            names += [geo.hole_name(player, n) for n in sorted(self.home[player])]
            fields.append(f"{seat}:{','.join(names) if names else '-'}")
        roll = "-" if self.roll is None else str(self.roll)
        return f"{' '.join(fields)} {self.seat} {roll} {self.ply}"

    @classmethod
    def from_text(cls, text: str, layout: Layout | None = None) -> Position:
        """Read the one-line notation; ``kilkenny.bad_position`` names the part that is wrong."""
        layout = layout or get_layout("default")
        parts = text.split()
        if len(parts) < 5:
            raise RuleError("kilkenny.bad_position", value=text, part=text)
        seat_parts, (turn_part, roll_part, ply_part) = parts[:-3], parts[-3:]
        seats = tuple(part.partition(":")[0] for part in seat_parts)
        if layout.seating.get(len(seats)) != seats:
            raise RuleError("kilkenny.bad_position", value=text, part=" ".join(seat_parts))
        geo = geometry(layout, seats)
        limits = {seat: len(layout.seats[seat].start) for seat in seats}
        cats: list[tuple[int, ...]] = []
        home: list[tuple[int, ...]] = []
        seen: set[int] = set()
        for player, part in enumerate(seat_parts):
            body = part.partition(":")[2]
            on_board: list[int] = []
            holes: list[int] = []
            for name in [] if body == "-" else body.split(","):
                try:
                    cell = geo.parse_cell(name)
                except RuleError:
                    raise RuleError("kilkenny.bad_position", value=text, part=name) from None
                if cell in seen:
                    raise RuleError("kilkenny.bad_position", value=text, part=name)
                seen.add(cell)
                owner = geo.hole_owner(cell)
                if owner is None:
                    on_board.append(cell)
                elif owner[0] == player:
                    holes.append(owner[1])
                else:
                    raise RuleError("kilkenny.bad_position", value=text, part=name)
            if not body or len(on_board) + len(holes) > limits[seats[player]]:
                raise RuleError("kilkenny.bad_position", value=text, part=part)
            cats.append(tuple(sorted(on_board)))
            home.append(tuple(sorted(holes)))
        if turn_part not in seats:
            raise RuleError("kilkenny.bad_position", value=text, part=turn_part)
        roll: int | None = None
        if roll_part != "-":
            if not (roll_part.isdigit() and 1 <= int(roll_part) <= MAX_ROLL):
                raise RuleError("kilkenny.bad_position", value=text, part=roll_part)
            roll = int(roll_part)
        if not (ply_part.isdigit() and len(ply_part) < 10):
            raise RuleError("kilkenny.bad_position", value=text, part=ply_part)
        return cls(
            layout,
            seats,
            tuple(cats),
            tuple(home),
            seats.index(turn_part),
            roll,
            int(ply_part),
            layout.id,
        )

    def __str__(self) -> str:
        return self.to_text()
