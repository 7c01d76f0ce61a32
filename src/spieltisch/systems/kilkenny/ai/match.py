"""AI-versus-AI games and matches with seeded dice, for the CLI and the benchmarks."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random

from spieltisch.systems.kilkenny.ai.players import Player
from spieltisch.systems.kilkenny.board import MAX_ROLL, Geometry, geometry
from spieltisch.systems.kilkenny.layout import Layout, get_layout
from spieltisch.systems.kilkenny.rules import Board, EndReason, Outcome, OutcomeKind

__all__ = ["GameRecord", "MatchResult", "play_game", "play_match", "wilson"]


@dataclass(frozen=True)
class GameRecord:
    """One finished game: its outcome, plies, and the thinking time per seat."""

    outcome: Outcome
    plies: int
    seconds: tuple[float, ...]
    decisions: tuple[int, ...]


def play_game(
    geo: Geometry,
    players: Sequence[Player],
    rng: Random,
    max_plies: int | None = None,
) -> GameRecord:
    """Play one game from the start of ``geo``; ``players[p]`` plays seat ``p``.

    Dice come from ``rng``; a player is asked only when it has a choice of moves.
    """
    board = Board.start(geo)
    seconds = [0.0] * board.players
    decisions = [0] * board.players
    while True:
        if max_plies is not None and board.ply >= max_plies:
            return GameRecord(
                Outcome(OutcomeKind.CAPPED, EndReason.PLY_CAP),
                board.ply,
                tuple(seconds),
                tuple(decisions),
            )
        player = board.turn
        roll = rng.randint(1, MAX_ROLL)
        moves = board.legal_moves(roll)
        if not moves:
            if board.is_blocked():
                board.end_turn()
                blocked = Outcome(OutcomeKind.DRAW, EndReason.BLOCKED)
                return GameRecord(blocked, board.ply, tuple(seconds), tuple(decisions))
            board.end_turn()
            continue
        if len(moves) == 1:
            move = moves[0]
        else:
            began = time.perf_counter()
            move = players[player].choose(board, roll, moves)
            seconds[player] += time.perf_counter() - began
            decisions[player] += 1
        captured = board.make(move)
        ending = board.outcome_after(move, captured)
        board.end_turn()
        if ending is not None:
            return GameRecord(ending, board.ply, tuple(seconds), tuple(decisions))


def wilson(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - spread), min(1.0, centre + spread)


@dataclass
class MatchResult:
    """The tally of a match of A against B."""

    games: int = 0
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0
    capped: int = 0
    plies: int = 0
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    decisions: list[int] = field(default_factory=lambda: [0, 0])

    @property
    def score_a(self) -> float:
        """A's score: wins plus half the draws and capped games, per game."""
        if not self.games:
            return 0.0
        return (self.wins_a + 0.5 * (self.draws + self.capped)) / self.games

    def interval_a(self) -> tuple[float, float]:
        """95% Wilson interval of A's score."""
        return wilson(self.wins_a + 0.5 * (self.draws + self.capped), self.games)

    def seconds_per_move(self, side: int) -> float:
        """Mean thinking time per decision of side 0 (A) or 1 (B)."""
        return self.seconds[side] / self.decisions[side] if self.decisions[side] else 0.0

    def merge(self, other: MatchResult) -> None:
        """Add the tally of ``other`` (a part of the same match) to this one."""
        self.games += other.games
        self.wins_a += other.wins_a
        self.wins_b += other.wins_b
        self.draws += other.draws
        self.capped += other.capped
        self.plies += other.plies
        for side in (0, 1):
            self.seconds[side] += other.seconds[side]
            self.decisions[side] += other.decisions[side]

    def as_json(self) -> dict[str, object]:
        """The documented JSON form: games, wins of a and b, draws, capped."""
        return {
            "games": self.games,
            "wins": {"a": self.wins_a, "b": self.wins_b},
            "draws": self.draws,
            "capped": self.capped,
        }


def play_match(
    make_a: Callable[[], Player],
    make_b: Callable[[], Player],
    games: int,
    seed: int = 0,
    players: int = 2,
    layout: Layout | None = None,
    max_plies: int | None = 2000,
    progress: Callable[[int, MatchResult], None] | None = None,
    first: int = 0,
) -> MatchResult:
    """Play ``games`` games of A against B, alternating who starts.

    With more than two players, A takes one seat (rotating) and B all the others. Game ``i``
    rolls its dice from ``Random(f"{seed}:{i}")``, so a match replays exactly; ``first`` is the
    number of the first game (to split a match over processes).
    """
    layout = layout or get_layout("default")
    geo = geometry(layout, layout.seats_for(players))
    result = MatchResult()
    a, b = make_a(), make_b()
    for index in range(first, first + games):
        seat_a = index % players
        seated = [a if p == seat_a else b for p in range(players)]
        record = play_game(geo, seated, Random(f"{seed}:{index}"), max_plies)
        result.games += 1
        result.plies += record.plies
        result.seconds[0] += record.seconds[seat_a]
        result.decisions[0] += record.decisions[seat_a]
        for p in range(players):
            if p != seat_a:
                result.seconds[1] += record.seconds[p]
                result.decisions[1] += record.decisions[p]
        outcome = record.outcome
        if outcome.kind is OutcomeKind.WIN:
            if outcome.winner == seat_a:
                result.wins_a += 1
            else:
                result.wins_b += 1
        elif outcome.kind is OutcomeKind.DRAW:
            result.draws += 1
        else:
            result.capped += 1
        if progress is not None:
            progress(result.games, result)
    return result
