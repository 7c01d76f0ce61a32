"""A win-chance evaluation of two-player positions, learned from self-play.

The model is logistic: the chance that the player about to roll (the *mover*) wins is
``σ(bias + w_mover · f(mover) + w_other · f(other))``, where ``f`` are the features of one
side below. Mover and other have their own weights, so the model knows what the next roll is
worth (a cat with an open entry is a chance to win *now* for the mover, only a threat for the
other). The weights are data (``data/value_model.json``);
:func:`~spieltisch.systems.kilkenny.ai.fitting.fit_value_model` fits them to the outcomes of
self-play games (``scripts/kilkenny_fit_value.py`` writes the file).

As a search evaluation, :func:`learned_scores` gives every player ``WIN`` times its chance to
win, so that :func:`~spieltisch.systems.kilkenny.ai.players.relative` of it lies between a
certain loss and a certain win, and averaging over the die averages chances. The model covers
two players; with three or four the hand-set :func:`~.evaluate.scores` stand in.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from operator import mul

from spieltisch.systems.kilkenny.ai.evaluate import (
    WIN,
    entry_tables,
    race_tables,
    scores,
)
from spieltisch.systems.kilkenny.rules import Board

__all__ = [
    "FEATURES",
    "ValueModel",
    "learned_scores",
    "side_features",
    "value_model",
]

FEATURES: tuple[str, ...] = (
    "cats",
    "home",
    "first",
    "second",
    "rest",
    "alone",
    "cover",
    "cover_cats",
    "any_cover",
    "home_cats",
    "home_first",
    "home_rest",
    "home_cover",
    "home_cover_cats",
)
"""The features of one side, in the order of :func:`side_features`:

* ``cats`` cats left (board and holes); ``home`` filled holes (0 or 1 while the game runs);
* ``first``, ``second``: the race-table turns of its best and second-best cat (``second``
  only while no hole is filled), ``rest`` the sum over all its cats (each capped at 30);
* ``alone``: 1 if fewer than two cats are left (it cannot win any more);
* ``cover``: distinct rolls that bring a cat into a free hole right now, ``cover_cats`` the
  cats that have such a roll, ``any_cover`` 1 if there is one;
* ``home_*``: ``cats``, ``first``, ``rest``, ``cover`` and ``cover_cats`` again, counted only
  when one hole is filled (the next cat home wins).
"""

_CAP = 30.0


def side_features(board: Board, player: int) -> tuple[float, ...]:
    """The features of ``player`` on ``board`` (see :data:`FEATURES`)."""
    geo = board.geo
    count = board.home_count[player]
    cells = board.squares[player]
    tables = race_tables(geo)[player]
    if count == 0:
        table = tables[0]
    else:
        table = tables[1 if board.home[player] >> geo.hole_cells[player][0] & 1 else 2]
    first = second = _CAP
    rest = 0.0
    for cell in cells:
        value = table[cell]
        if value > _CAP:
            value = _CAP
        rest += value
        if value < first:
            first, second = value, first
        elif value < second:
            second = value
    blocked = board.occupied | (board.home[player] << geo.shift)
    entries = entry_tables(geo)[player]
    rolls = 0
    cover_cats = 0
    for cell in cells:
        open_entry = 0
        for roll, key in entries[cell]:
            if not key & blocked:
                rolls |= 1 << roll
                open_entry = 1
        cover_cats += open_entry
    cover = float(bin(rolls).count("1"))
    cats = float(len(cells) + count)
    home = 1.0 if count else 0.0
    return (
        cats,
        float(count),
        first,
        0.0 if count else second,
        rest,
        1.0 if cats < 2 else 0.0,
        cover,
        float(cover_cats),
        1.0 if rolls else 0.0,
        home * cats,
        home * first,
        home * rest,
        home * cover,
        home * cover_cats,
    )


def _dot(weights: Sequence[float], features: Sequence[float]) -> float:
    total: float = sum(map(mul, weights, features))
    return total


@dataclass(frozen=True)
class ValueModel:
    """The logistic win-chance model: weights of the mover's and the other's features."""

    mover: tuple[float, ...]
    other: tuple[float, ...]
    bias: float

    def logit(self, board: Board, mover: int) -> float:
        """Log-odds that ``mover`` (about to roll) wins; two players."""
        return (
            self.bias
            + _dot(self.mover, side_features(board, mover))
            + _dot(self.other, side_features(board, 1 - mover))
        )

    def win_chance(self, board: Board, mover: int) -> float:
        """The chance that ``mover`` (about to roll) wins; two players."""
        z = max(-30.0, min(30.0, self.logit(board, mover)))
        return 1.0 / (1.0 + math.exp(-z))

    def to_dict(self) -> dict[str, object]:
        """The JSON form: weights by feature name for ``mover`` and ``other``, and ``bias``."""
        return {
            "features": list(FEATURES),
            "mover": dict(zip(FEATURES, self.mover, strict=True)),
            "other": dict(zip(FEATURES, self.other, strict=True)),
            "bias": self.bias,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> ValueModel:
        """Read the JSON form; every feature must have a weight on both sides."""
        mover, other = data["mover"], data["other"]
        if not isinstance(mover, dict) or not isinstance(other, dict):
            raise ValueError("value model: 'mover' and 'other' must map features to weights")
        missing = [f for f in FEATURES if f not in mover or f not in other]
        if missing:
            raise ValueError(f"value model: no weight for {', '.join(missing)}")
        bias = data["bias"]
        if not isinstance(bias, int | float):
            raise ValueError("value model: 'bias' must be a number")
        return cls(
            tuple(float(mover[f]) for f in FEATURES),
            tuple(float(other[f]) for f in FEATURES),
            float(bias),
        )


@cache
def value_model() -> ValueModel:
    """The shipped model (``data/value_model.json``)."""
    text = resources.files("spieltisch.systems.kilkenny").joinpath("data/value_model.json")
    return ValueModel.from_dict(json.loads(text.read_text(encoding="utf-8")))


def learned_scores(board: Board) -> list[float]:
    """Every player's ``WIN`` × chance to win, with ``board.turn`` the player who just acted.

    The next to roll is the other player (or the same one, if the other has no cat on the
    board). With more or fewer than two players this is :func:`~.evaluate.scores`.
    """
    if board.players != 2:
        return scores(board)
    mover = 1 - board.turn
    if not board.squares[mover]:
        mover = board.turn
    chance = value_model().win_chance(board, mover)
    result = [0.0, 0.0]
    result[mover] = WIN * chance
    result[1 - mover] = WIN * (1.0 - chance)
    return result
