"""Pools of dice: single dice (numeric, symbol, counted against a target) and their powers."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np

from spieltisch.dice.arrays import NUMERIC, Array, Pmf, delta, power, zeros
from spieltisch.dice.exploding import die_pmf
from spieltisch.dice.faces import SYMBOL_DICE, VALUE_KEYS, symbol_die
from spieltisch.dice.notation import Compare, Dice


def pool_power(die: Pmf, count: int) -> Pmf:
    if count == 1:
        return die
    if count == 0:
        return delta(die.keys, die.exact)
    return cached_power(die, count)


@lru_cache(maxsize=512)
def cached_power(die: Pmf, count: int) -> Pmf:
    # Keyed by the (cached, so identical) per-die object and the count.
    return power(die, count)


def _face_cells(letter: str) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]:
    """The face table of a symbol die as (keys, one count tuple per face); Janus → successes."""
    rows: list[dict[str, int]] = []
    for face in symbol_die(letter).faces:
        row: dict[str, int] = {}
        if not isinstance(face, int):
            for key, count in face.items():
                target = "successes" if key == "janus" else key
                row[target] = row.get(target, 0) + count
        rows.append(row)
    keys = tuple(key for key in VALUE_KEYS if any(key in row for row in rows))
    return keys, tuple(tuple(row.get(key, 0) for key in keys) for row in rows)


# The face tables of faces.py in the engine's form (derived data, built once at import).
FACE_CELLS = {letter: _face_cells(letter) for letter in SYMBOL_DICE}


def _histogram(cells: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    counts = [0] * (max(cell[0] for cell in cells) + 1)
    for cell in cells:
        counts[cell[0]] += 1
    return tuple(counts)


# For dice that count one symbol: the key, how many faces show 0, 1, 2 … of it, the sides.
_SINGLE: dict[str, tuple[tuple[str, ...], tuple[int, ...], int]] = {
    letter: (keys, _histogram(cells), len(cells))
    for letter, (keys, cells) in FACE_CELLS.items()
    if len(keys) == 1
}


@lru_cache(maxsize=64)
def symbol_die_pmf(letter: str, numeric: bool, exact: bool, need: tuple[str, ...] | None) -> Pmf:
    """One symbol die: numbers (Elixier), or one axis per symbol key it counts (or per key
    of ``need``, when only those are asked for)."""
    single = _SINGLE.get(letter)
    if single is not None and not numeric and (need is None or need == single[0]):
        keys, counts, sides = single
        if exact:
            return Pmf(keys, (0,), np.array(counts, dtype=object), sides, 0.0)
        return Pmf(keys, (0,), np.array([count / sides for count in counts]), 1, 0.0)
    kind = symbol_die(letter)
    one = 1 if exact else 1.0 / kind.sides
    denominator = kind.sides if exact else 1
    if numeric:
        values = [face for face in kind.faces if isinstance(face, int)]
        low = min(values)
        weights = zeros((max(values) - low + 1,), exact)
        for value in values:
            weights[value - low] += one
        return Pmf(NUMERIC, (low,), weights, denominator, 0.0)
    keys, cells = FACE_CELLS[letter]
    if need is not None and len(need) == 1:
        axis = keys.index(need[0]) if need[0] in keys else -1
        counts_list = [0] * (max(cell[axis] if axis >= 0 else 0 for cell in cells) + 1)
        for cell in cells:
            counts_list[cell[axis] if axis >= 0 else 0] += 1
        if exact:
            return Pmf(need, (0,), np.array(counts_list, dtype=object), denominator, 0.0)
        return Pmf(need, (0,), np.array(counts_list) * one, denominator, 0.0)
    if need is not None and need != keys:
        cells = tuple(
            tuple(cell[keys.index(key)] if key in keys else 0 for key in need) for cell in cells
        )
        keys = need
    shape = tuple(max(column) + 1 for column in zip(*cells, strict=True))
    flat: list[Any] = [0] * math.prod(shape)
    for cell in cells:
        index = 0
        for axis, size in zip(cell, shape, strict=True):
            index = index * size + axis
        flat[index] += one
    weights = np.array(flat, dtype=object if exact else np.float64).reshape(shape)
    return Pmf(keys, (0,) * len(keys), weights, denominator, 0.0)


def numeric_dice(node: Dice, depth: int, exact: bool) -> Pmf:
    """One die of ``node`` as counted: its total, or its score when the term counts
    successes (1) and failures (−1; +1 when only failures are counted)."""
    if node.compare is not None and node.failure is None and node.plain:
        # A plain die: count the faces 1..sides that meet the target.
        hits = node.compare.hits(node.sides)
        if exact:
            weights = np.array([node.sides - hits, hits], dtype=object)
            return Pmf(NUMERIC, (0,), weights, node.sides, 0.0)
        weights = np.array([(node.sides - hits) / node.sides, hits / node.sides])
        return Pmf(NUMERIC, (0,), weights, 1, 0.0)
    die = die_pmf(node.spec, depth, exact)
    if not node.counting:
        return die
    return scored(die, node.score)


def scored(die: Pmf, score: Callable[[int], int]) -> Pmf:
    """A 1-D distribution mapped through ``score`` (outcomes with one score add up)."""
    values = np.arange(die.offset[0], die.offset[0] + len(die.weights))
    mapped = [score(int(v)) for v in values]
    low, high = min(mapped), max(mapped)
    weights = zeros((high - low + 1,), die.exact)
    for value, weight in zip(mapped, die.weights, strict=True):
        if weight:
            weights[value - low] += weight
    return Pmf(NUMERIC, (low,), weights, die.denominator, die.missing)


_TESTS: dict[str, Callable[[Array, int], Array]] = {
    ">=": np.greater_equal,
    ">": np.greater,
    "<=": np.less_equal,
    "<": np.less,
    "=": np.equal,
}


def indicator(die: Pmf, compare: Compare) -> Pmf:
    """A die as 0/1: whether its value meets the target."""
    values = np.arange(die.offset[0], die.offset[0] + len(die.weights))
    hits = _TESTS[compare.op](values, compare.target)
    weights = zeros((2,), die.exact)
    weights[0] = die.weights[~hits].sum()
    weights[1] = die.weights[hits].sum()
    return Pmf(NUMERIC, (0,), weights, die.denominator, die.missing)
