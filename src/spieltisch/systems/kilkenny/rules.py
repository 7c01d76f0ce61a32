"""The rules of Kilkenny Cats on a fast, mutable board: move generation, make/unmake, endings.

:class:`Board` is the working representation for search and simulation (bitboards as Python
ints, per-player square lists, make/unmake). The immutable
:class:`~spieltisch.systems.kilkenny.position.Position` is what the game system stores; the two
convert into each other.

Rules as implemented (see ``docs/games/kilkenny.md``):

* a turn is one roll and then one move of one own cat exactly that far in a straight line in
  one of 8 directions, never over another cat, never onto an own cat; landing on an enemy cat
  captures it for good;
* a cat enters one of its owner's two holes (just beyond the board) only by an exact roll,
  along a path on the board; a hole holds one cat, which is safe and never moves again;
* if no move exists for the roll, the turn passes; players without cats on the board are
  skipped;
* endings, checked after every move: the 2nd cat in a hole wins; if all but one player have no
  cats left at all, that one wins (last standing); if no player has two cats left, the game is
  drawn; at a pass, if no player has a move for any roll, the game is drawn (blocked).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from random import Random

from spieltisch.systems.kilkenny.board import MAX_ROLL, Geometry, Move

__all__ = ["Board", "EndReason", "Outcome", "OutcomeKind", "playout"]


class OutcomeKind(StrEnum):
    """How a game ended."""

    WIN = "win"
    DRAW = "draw"
    CAPPED = "capped"
    """Stopped by the optional ply cap of AI matches; not a result of the rules."""


class EndReason(StrEnum):
    """Why a game ended."""

    HOME = "home"
    """A player brought a second cat into its holes."""
    LAST_STANDING = "last_standing"
    """All other players have no cats left."""
    NO_CATS = "no_cats"
    """No player has two cats left to fill both holes."""
    BLOCKED = "blocked"
    """No player has a legal move for any roll."""
    PLY_CAP = "ply_cap"
    """The ply cap of the match was reached."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game: its kind, the winner's player index (wins only) and the reason."""

    kind: OutcomeKind
    reason: EndReason
    winner: int | None = None


class Board:
    """A mutable position for search: whose turn, every cat, the filled holes, the ply count.

    ``squares[p]`` lists the cells of player ``p``'s cats on the board; ``cats[p]`` is the same
    as a bitboard, ``occupied`` the union over all players; ``home[p]`` has the bits of
    ``p``'s filled holes and ``home_count[p]`` their number.
    """

    __slots__ = (
        "cats",
        "geo",
        "home",
        "home_count",
        "occupied",
        "players",
        "ply",
        "squares",
        "turn",
    )

    def __init__(
        self,
        geo: Geometry,
        squares: list[list[int]],
        home: list[int],
        turn: int = 0,
        ply: int = 0,
    ) -> None:
        self.geo = geo
        self.players = len(geo.seats)
        self.squares = [sorted(cells) for cells in squares]
        self.cats = [sum(1 << cell for cell in cells) for cells in self.squares]
        self.home = list(home)
        self.home_count = [bin(bits).count("1") for bits in self.home]
        self.occupied = 0
        for bits in self.cats:
            self.occupied |= bits
        self.turn = turn
        self.ply = ply

    @classmethod
    def start(cls, geo: Geometry) -> Board:
        """The start position of ``geo``: every seat's cats on its start squares, S to move."""
        squares = [[geo.cell(x, y) for x, y in geo.layout.seats[seat].start] for seat in geo.seats]
        return cls(geo, squares, [0] * len(geo.seats))

    def copy(self) -> Board:
        """An independent copy."""
        other = Board.__new__(Board)
        other.geo = self.geo
        other.players = self.players
        other.squares = [list(cells) for cells in self.squares]
        other.cats = list(self.cats)
        other.home = list(self.home)
        other.home_count = list(self.home_count)
        other.occupied = self.occupied
        other.turn = self.turn
        other.ply = self.ply
        return other

    # -- moves -----------------------------------------------------------------------------

    def legal_moves(self, roll: int) -> list[Move]:
        """Every legal move of the player to move for ``roll`` (empty: the turn passes)."""
        player = self.turn
        blocked = self.occupied | ((self.cats[player] | self.home[player]) << self.geo.shift)
        table = self.geo.moves[player][roll]
        return [
            move for cell in self.squares[player] for key, move in table[cell] if not key & blocked
        ]

    def has_move(self, player: int, roll: int) -> bool:
        """Whether ``player`` would have a legal move for ``roll`` in this position."""
        blocked = self.occupied | ((self.cats[player] | self.home[player]) << self.geo.shift)
        table = self.geo.moves[player][roll]
        return any(not key & blocked for cell in self.squares[player] for key, _ in table[cell])

    def is_blocked(self) -> bool:
        """No player has a legal move for any roll.

        A move of *n* > 1 squares passes over an empty square one step away, so a player with
        a move for some roll also has one for a roll of 1: checking rolls of 1 suffices.
        """
        return not any(self.has_move(player, 1) for player in range(self.players))

    def make(self, move: Move) -> int:
        """Play ``move`` for the player to move (the turn does not pass).

        Returns the index of the player whose cat was captured, or -1.
        """
        start, target, start_bit, target_bit, hole = move
        player = self.turn
        cells = self.squares[player]
        if hole >= 0:
            self.occupied ^= start_bit
            self.cats[player] ^= start_bit
            cells.remove(start)
            self.home[player] |= target_bit
            self.home_count[player] += 1
            return -1
        self.cats[player] ^= start_bit | target_bit
        cells[cells.index(start)] = target
        if self.occupied & target_bit:
            self.occupied ^= start_bit
            for victim in range(self.players):
                if victim != player and self.cats[victim] & target_bit:
                    self.cats[victim] ^= target_bit
                    self.squares[victim].remove(target)
                    return victim
        self.occupied ^= start_bit | target_bit
        return -1

    def unmake(self, move: Move, captured: int) -> None:
        """Take back ``move`` made by the player to move; ``captured`` as :meth:`make` returned."""
        start, target, start_bit, target_bit, hole = move
        player = self.turn
        cells = self.squares[player]
        if hole >= 0:
            self.occupied ^= start_bit
            self.cats[player] ^= start_bit
            cells.append(start)
            self.home[player] ^= target_bit
            self.home_count[player] -= 1
            return
        self.cats[player] ^= start_bit | target_bit
        cells[cells.index(target)] = start
        if captured >= 0:
            self.occupied ^= start_bit
            self.cats[captured] ^= target_bit
            self.squares[captured].append(target)
        else:
            self.occupied ^= start_bit | target_bit

    def end_turn(self) -> None:
        """Count the ply and pass the turn to the next player with a cat on the board."""
        self.ply += 1
        players = self.players
        turn = self.turn
        for _ in range(players):
            turn = turn + 1 if turn + 1 < players else 0
            if self.squares[turn]:
                break
        self.turn = turn

    # -- endings ---------------------------------------------------------------------------

    def outcome_after(self, move: Move, captured: int) -> Outcome | None:
        """The ending caused by ``move`` (just made by the player to move), if any."""
        if move[4] >= 0:
            if self.home_count[self.turn] >= 2:
                return Outcome(OutcomeKind.WIN, EndReason.HOME, self.turn)
            return None
        if captured < 0:
            return None
        return self.material_outcome()

    def material_outcome(self) -> Outcome | None:
        """Last standing or the draw for lack of cats, judged on the cats left."""
        totals = [len(self.squares[p]) + self.home_count[p] for p in range(self.players)]
        alive = [p for p in range(self.players) if totals[p] > 0]
        if len(alive) == 1:
            return Outcome(OutcomeKind.WIN, EndReason.LAST_STANDING, alive[0])
        if all(total < 2 for total in totals):
            return Outcome(OutcomeKind.DRAW, EndReason.NO_CATS)
        return None

    def home_outcome(self) -> Outcome | None:
        """A win by two cats home, judged on the holes."""
        for player in range(self.players):
            if self.home_count[player] >= 2:
                return Outcome(OutcomeKind.WIN, EndReason.HOME, player)
        return None

    def static_outcome(self) -> Outcome | None:
        """The ending of this position as it stands (for positions read from text)."""
        return self.home_outcome() or self.material_outcome()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self.geo is other.geo
            and self.cats == other.cats
            and self.home == other.home
            and self.turn == other.turn
            and self.ply == other.ply
        )

    __hash__ = None  # type: ignore[assignment]


def playout(board: Board, rng: Random, max_plies: int = 100_000) -> tuple[Outcome, int]:
    """Play uniformly random legal moves from ``board`` (changed in place) to the end.

    Returns the outcome and the number of plies played. Each ply is a roll of the die and a
    uniformly chosen legal move, or a pass when there is none. Stops with
    :attr:`OutcomeKind.CAPPED` after ``max_plies`` plies. This is the hot loop of simulations
    and benchmarks, so :meth:`Board.make` and :meth:`Board.end_turn` are inlined here.
    """
    rand = rng.random
    geo = board.geo
    shift = geo.shift
    tables = geo.moves
    squares = board.squares
    cats = board.cats
    home = board.home
    home_count = board.home_count
    players = board.players
    occupied = board.occupied
    player = board.turn
    plies = 0
    ending: Outcome | None = None
    while plies < max_plies:
        table = tables[player][int(rand() * MAX_ROLL) + 1]
        blocked = occupied | ((cats[player] | home[player]) << shift)
        moves = [move for cell in squares[player] for key, move in table[cell] if not key & blocked]
        plies += 1
        if moves:
            start, target, start_bit, target_bit, hole = moves[int(rand() * len(moves))]
            cells = squares[player]
            if hole >= 0:
                occupied ^= start_bit
                cats[player] ^= start_bit
                cells.remove(start)
                home[player] |= target_bit
                home_count[player] += 1
                if home_count[player] >= 2:
                    ending = Outcome(OutcomeKind.WIN, EndReason.HOME, player)
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
                        break
                else:
                    occupied ^= start_bit | target_bit
        else:
            board.occupied = occupied
            if board.is_blocked():
                ending = Outcome(OutcomeKind.DRAW, EndReason.BLOCKED)
                break
        for _ in range(players):
            player = player + 1 if player + 1 < players else 0
            if squares[player]:
                break
    board.occupied = occupied
    board.turn = player
    board.ply += plies
    if ending is None:
        ending = Outcome(OutcomeKind.CAPPED, EndReason.PLY_CAP)
    return ending, plies
