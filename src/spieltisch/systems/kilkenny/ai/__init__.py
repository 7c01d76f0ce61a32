"""AI players for Kilkenny Cats and the registry that builds them by name.

``random`` < ``greedy`` (one ply, static evaluation) < ``expectimax`` (depth 2 over the die)
< ``strongest`` (depth-3 expectimax with forward pruning on a win-chance model learned from
self-play; its budget is the number of candidate moves searched deeper).
"""

from __future__ import annotations

from spieltisch.engine.errors import RuleError
from spieltisch.systems.kilkenny.ai.players import (
    DeepExpectimaxPlayer,
    ExpectimaxPlayer,
    GreedyPlayer,
    Player,
    RandomPlayer,
)

__all__ = [
    "PLAYER_NAMES",
    "DeepExpectimaxPlayer",
    "ExpectimaxPlayer",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "make_player",
]

PLAYER_NAMES: tuple[str, ...] = ("random", "greedy", "expectimax", "strongest")
"""The AI players by name, weakest first."""


def make_player(name: str, budget: int | None = None, seconds: float | None = None) -> Player:
    """The AI player called ``name``; ``kilkenny.unknown_ai`` naming it if there is none.

    ``budget`` (candidate moves searched deeper) and ``seconds`` (a time limit per move)
    concern the strongest player only.
    """
    if name == "random":
        return RandomPlayer()
    if name == "greedy":
        return GreedyPlayer()
    if name == "expectimax":
        return ExpectimaxPlayer()
    if name == "strongest":
        return DeepExpectimaxPlayer(budget or 6, seconds)
    raise RuleError("kilkenny.unknown_ai", value=name, known=", ".join(PLAYER_NAMES))
