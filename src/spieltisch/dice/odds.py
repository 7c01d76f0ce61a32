"""Exact odds: the outcome distribution of any dice expression, computed, not sampled.

The engine works on dense probability arrays. A numeric value is a 1-D array over an
integer range; symbol counts are an N-D array with one axis per symbol key. Sums are
convolutions (numpy; FFT for large float arrays), pools are convolution powers by repeated
squaring, keep/drop uses a dynamic programme over the order statistics, a Janus malus folds
the mass below 0 successes onto 0.

Two modes share this code: float64 probabilities (fast, what :func:`distribution` returns)
and exact integer weights over a common denominator (Python integers, used by
:meth:`Distribution.exact`). Exploding dice are cut after so many explosions that the mass
left out of the whole expression is at most :data:`TAIL` and that mass is reported as
``truncated``.

Small expressions take a shortcut in both modes: a single number or symbol count without
exploding or kept dice, whose weights fit in 64 bits, is computed with integer polynomials
packed into one Python int (see :func:`_small`); its float probabilities are the exact
fractions, correctly rounded. Most game checks are such, and there the fixed cost of array
code would dominate.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from spieltisch.dice.cost import check_budget
from spieltisch.dice.errors import LimitError
from spieltisch.dice.faces import SYMBOL_DICE, VALUE_KEYS, symbol_die
from spieltisch.dice.notation import (
    BinaryOp,
    Compare,
    Constant,
    Dice,
    Expression,
    Kind,
    Limits,
    Negate,
    Pool,
    parse,
)

__all__ = [
    "MAX_CELLS",
    "TAIL",
    "Distribution",
    "clear_caches",
    "distribution",
    "janus_check",
    "success_count",
]

TAIL = 1e-12
"""Upper bound of the probability mass left out when exploding dice are cut off."""

MAX_CELLS = 4_000_000
"""Largest dense outcome array the engine builds; larger expressions raise ``dice.too_complex``."""

_MAX_EXACT_BITS = 16_000_000
# Bits of both big-int operands of one exact convolution; CPython multiplies them in
# super-linear time, so this keeps one product to a few seconds (1000d6 still fits).
_FFT_MIN = 200_000
_NUMERIC = ("",)

Array = npt.NDArray[Any]
Outcome = int | tuple[int, ...]


class _Pmf:
    """A dense distribution: axis names, the value at index 0 of each axis, the weights.

    In float mode ``weights`` are probabilities and ``denominator`` is 1; in exact mode they
    are Python integers over ``denominator``. ``missing`` is the truncated mass (float).
    """

    __slots__ = ("denominator", "keys", "missing", "offset", "weights")

    def __init__(
        self,
        keys: tuple[str, ...],
        offset: tuple[int, ...],
        weights: Array,
        denominator: int,
        missing: float,
    ) -> None:
        self.keys = keys
        self.offset = offset
        self.weights = weights
        self.denominator = denominator
        self.missing = missing

    @property
    def exact(self) -> bool:
        return bool(self.weights.dtype == object)


def _too_complex(detail: str, limit: float = MAX_CELLS) -> LimitError:
    return LimitError("dice.too_complex", value=detail, limit=f"{limit:.0e}")


def _check_cells(cells: int, what: str) -> None:
    if cells > MAX_CELLS:
        raise _too_complex(what)


def _zeros(shape: tuple[int, ...], exact: bool) -> Array:
    if exact:
        array = np.empty(shape, dtype=object)
        array.fill(0)
        return array
    return np.zeros(shape, dtype=np.float64)


def _delta(keys: tuple[str, ...], exact: bool) -> _Pmf:
    weights = _zeros((1,) * len(keys), exact)
    weights[(0,) * len(keys)] = 1 if exact else 1.0
    return _Pmf(keys, (0,) * len(keys), weights, 1, 0.0)


def _combine_missing(a: float, b: float) -> float:
    return a + b - a * b


# -- convolution ---------------------------------------------------------------------------


def _kronecker(a: Array, b: Array) -> Array:
    """Exact convolution of non-negative integer sequences by packing them into big ints."""
    top = max(max(a), 1) * max(max(b), 1) * min(len(a), len(b))
    width = (int(top).bit_length() + 8) // 8
    if (len(a) + len(b)) * width * 8 > _MAX_EXACT_BITS:
        raise LimitError("dice.exact_too_large", value=f"{len(a) + len(b)} × {width * 8} bit")
    packed_a = int.from_bytes(b"".join(int(x).to_bytes(width, "little") for x in a), "little")
    packed_b = int.from_bytes(b"".join(int(x).to_bytes(width, "little") for x in b), "little")
    size = len(a) + len(b) - 1
    raw = (packed_a * packed_b).to_bytes(size * width, "little")
    out = np.empty(size, dtype=object)
    for i in range(size):
        out[i] = int.from_bytes(raw[i * width : (i + 1) * width], "little")
    return out


def _convolve1d(a: Array, b: Array) -> Array:
    if a.dtype == object:
        if len(a) * len(b) <= 4096:
            return np.convolve(a, b)
        return _kronecker(a, b)
    if len(a) * len(b) < _FFT_MIN or min(len(a), len(b)) < 16:
        return np.convolve(a, b)
    size = len(a) + len(b) - 1
    length = 1 << (size - 1).bit_length()
    out = np.fft.irfft(np.fft.rfft(a, length) * np.fft.rfft(b, length), length)[:size]
    # FFT leaves round-off noise (~1e-17) where the true value is 0 or tiny.
    out[out < float(out.max()) * 1e-15] = 0.0
    return out


def _convolve(a: Array, b: Array) -> Array:
    if a.ndim == 1:
        return _convolve1d(a, b)
    shape = tuple(x + y - 1 for x, y in zip(a.shape, b.shape, strict=True))
    cells = math.prod(shape)
    _check_cells(cells, f"{cells} outcomes")
    if min(a.size, b.size) <= 64 or a.dtype == object:
        # Shift-and-add over the smaller array's non-zero cells.
        small, large = (a, b) if a.size <= b.size else (b, a)
        if a.dtype == object and np.count_nonzero(small) * large.size > 20_000_000:
            raise LimitError("dice.exact_too_large", value=f"{small.size} × {large.size}")
        out = _zeros(shape, a.dtype == object)
        for index in zip(*np.nonzero(small), strict=True):
            where = tuple(slice(i, i + n) for i, n in zip(index, large.shape, strict=True))
            out[where] += large * small[index]
        return out
    # Embed both in the result's grid: N-D convolution becomes 1-D convolution.
    strides = [math.prod(shape[i + 1 :]) for i in range(len(shape))]

    def flat(array: Array) -> Array:
        grid = _zeros(shape, False)
        grid[tuple(slice(0, n) for n in array.shape)] = array
        last = sum((n - 1) * s for n, s in zip(array.shape, strides, strict=True))
        return grid.reshape(-1)[: last + 1]

    line = _convolve1d(flat(a), flat(b))
    out = _zeros((cells,), False)
    out[: min(cells, len(line))] = line[:cells]
    return out.reshape(shape)


def _align(p: _Pmf, keys: tuple[str, ...]) -> _Pmf:
    """``p`` with axes for ``keys`` (missing keys become axes of size 1 at 0)."""
    if p.keys == keys:
        return p
    weights = p.weights
    offset: list[int] = []
    order: list[int] = []
    for key in keys:
        if key in p.keys:
            order.append(p.keys.index(key))
    weights = np.transpose(weights, order) if order else weights.reshape(())
    shape: list[int] = []
    source = iter(order)
    for key in keys:
        if key in p.keys:
            axis = next(source)
            shape.append(p.weights.shape[axis])
            offset.append(p.offset[axis])
        else:
            shape.append(1)
            offset.append(0)
    return _Pmf(keys, tuple(offset), weights.reshape(shape), p.denominator, p.missing)


def _add(a: _Pmf, b: _Pmf) -> _Pmf:
    if a.keys == b.keys and a.weights.ndim == 1:
        if b.weights.shape == (1,) and not b.exact and b.weights[0] == 1.0:
            # Adding a sure value (a constant, an empty pool) only shifts.
            return _Pmf(a.keys, (a.offset[0] + b.offset[0],), a.weights, a.denominator, a.missing)
        return _Pmf(
            a.keys,
            (a.offset[0] + b.offset[0],),
            _convolve1d(a.weights, b.weights),
            a.denominator * b.denominator,
            _combine_missing(a.missing, b.missing) if a.missing or b.missing else 0.0,
        )
    keys = a.keys if a.keys == b.keys else _key_union(a.keys, b.keys)
    a, b = _align(a, keys), _align(b, keys)
    return _Pmf(
        keys,
        tuple(x + y for x, y in zip(a.offset, b.offset, strict=True)),
        _convolve(a.weights, b.weights),
        a.denominator * b.denominator,
        _combine_missing(a.missing, b.missing),
    )


def _key_union(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    if a == _NUMERIC or b == _NUMERIC:
        return _NUMERIC
    return tuple(key for key in VALUE_KEYS if key in a or key in b)


def _negate(p: _Pmf) -> _Pmf:
    if p.weights.ndim == 1:
        low = -(p.offset[0] + len(p.weights) - 1)
        return _Pmf(p.keys, (low,), p.weights[::-1].copy(), p.denominator, p.missing)
    flipped = p.weights[(slice(None, None, -1),) * p.weights.ndim]
    offset = tuple(-(o + n - 1) for o, n in zip(p.offset, p.weights.shape, strict=True))
    return _Pmf(p.keys, offset, np.ascontiguousarray(flipped), p.denominator, p.missing)


def _binomial(p: _Pmf, n: int) -> _Pmf:
    """The ``n``-fold sum of a die with two adjacent outcomes, in closed form."""
    fail, hit = p.weights[0], p.weights[1]
    if p.exact:
        weights = np.empty(n + 1, dtype=object)
        weights[:] = [math.comb(n, k) * hit**k * fail ** (n - k) for k in range(n + 1)]
    elif n <= 64:
        fail, hit = float(fail), float(hit)
        weights = np.array([math.comb(n, k) * hit**k * fail ** (n - k) for k in range(n + 1)])
    else:
        k = np.arange(n + 1)
        weights = _comb_row(n) * float(hit) ** k * float(fail) ** (n - k)
    missing = 1.0 - (1.0 - p.missing) ** n if p.missing else 0.0
    return _Pmf(p.keys, (p.offset[0] * n,), weights, p.denominator**n, missing)


@lru_cache(maxsize=512)
def _comb_row(n: int) -> Array:
    return np.array([float(math.comb(n, k)) for k in range(n + 1)])


def _power(p: _Pmf, n: int) -> _Pmf:
    if n == 1:
        return p
    if 1 < n <= 300 and p.weights.shape == (2,):
        return _binomial(p, n)
    result: _Pmf | None = None
    base = p
    while n:
        if n & 1:
            result = base if result is None else _add(result, base)
        n >>= 1
        if n:
            base = _add(base, base)
    return result if result is not None else _delta(p.keys, p.exact)


def _project(p: _Pmf, key: str) -> _Pmf:
    """The marginal distribution of one symbol key (0 if the key is absent)."""
    if key not in p.keys:
        total = p.weights.sum()
        return _Pmf(
            (key,), (0,), np.array([total], dtype=p.weights.dtype), p.denominator, p.missing
        )
    axis = p.keys.index(key)
    others = tuple(i for i in range(p.weights.ndim) if i != axis)
    weights = p.weights.sum(axis=others) if others else p.weights
    return _Pmf((key,), (p.offset[axis],), weights, p.denominator, p.missing)


def _difference(a: _Pmf, b: _Pmf, clamp: bool) -> _Pmf:
    """``a - b`` of two 1-D distributions; with ``clamp`` the mass below 0 moves onto 0."""
    weights = _convolve1d(a.weights, np.ascontiguousarray(b.weights[::-1]))
    low = a.offset[0] - b.offset[0] - len(b.weights) + 1
    if clamp and low < 0:
        cut = -low
        if cut >= len(weights):
            weights = weights.sum(keepdims=True)
        else:
            head = weights[:cut].sum()
            weights = weights[cut:].copy()
            weights[0] += head
        low = 0
    missing = _combine_missing(a.missing, b.missing) if a.missing or b.missing else 0.0
    return _Pmf(a.keys, (low,), weights, a.denominator * b.denominator, missing)


def _clamp_successes(p: _Pmf) -> _Pmf:
    """Fold the mass of negative success counts onto 0 successes."""
    axis = p.keys.index("successes")
    start = p.offset[axis]
    if start >= 0:
        return p
    if p.weights.ndim == 1:
        below = -start
        if below >= len(p.weights):
            folded = p.weights.sum(keepdims=True)
        else:
            folded = p.weights[below:].copy()
            folded[0] += p.weights[:below].sum()
        return _Pmf(p.keys, (0,), folded, p.denominator, p.missing)
    weights = np.moveaxis(p.weights, axis, 0)
    below = -start
    if below >= weights.shape[0]:
        folded = weights.sum(axis=0, keepdims=True)
    else:
        folded = weights[below:].copy()
        folded[0] = folded[0] + weights[:below].sum(axis=0)
    offset = list(p.offset)
    offset[axis] = 0
    return _Pmf(p.keys, tuple(offset), np.moveaxis(folded, 0, axis), p.denominator, p.missing)


def _multiply(a: _Pmf, b: _Pmf) -> _Pmf:
    va = np.arange(len(a.weights), dtype=np.int64) + a.offset[0]
    vb = np.arange(len(b.weights), dtype=np.int64) + b.offset[0]
    ia, ib = np.nonzero(a.weights)[0], np.nonzero(b.weights)[0]
    _check_cells(len(ia) * len(ib), f"{len(ia) * len(ib)} products")
    products = np.multiply.outer(va[ia], vb[ib]).reshape(-1)
    low, high = int(products.min()), int(products.max())
    _check_cells(high - low + 1, f"{high - low + 1} values")
    weights = np.multiply.outer(a.weights[ia], b.weights[ib]).reshape(-1)
    out = _zeros((high - low + 1,), a.exact)
    np.add.at(out, products - low, weights)
    return _Pmf(
        _NUMERIC,
        (low,),
        out,
        a.denominator * b.denominator,
        _combine_missing(a.missing, b.missing),
    )


# -- dice ----------------------------------------------------------------------------------


def _depth(sides: int, dice: int, share: float) -> int:
    """Explosions kept per die so that ``dice`` dice lose at most ``share`` of the mass."""
    depth = 0
    while dice * float(sides) ** -(depth + 1) > share:
        depth += 1
    return depth


@lru_cache(maxsize=256)
def _die(sides: int, depth: int, exact: bool) -> _Pmf:
    """One numeric die; exploding dice (``depth`` ≥ 0) keep up to ``depth`` extra throws.

    With ``depth = -1`` the die does not explode. Exploding values are ``k·sides + r`` for
    ``k`` explosions then a non-maximal throw ``r``, with probability ``sides^-(k+1)``.
    """
    if depth < 0:
        weights = _zeros((sides,), exact)
        weights[:] = 1 if exact else 1.0 / sides
        return _Pmf(_NUMERIC, (1,), weights, sides if exact else 1, 0.0)
    size = depth * sides + sides - 1
    weights = _zeros((size,), exact)
    for k in range(depth + 1):
        start = k * sides  # value k*sides + 1 sits at index k*sides
        if exact:
            weights[start : start + sides - 1] = sides ** (depth - k)
        else:
            weights[start : start + sides - 1] = float(sides) ** -(k + 1)
    missing = float(sides) ** -(depth + 1)
    return _Pmf(_NUMERIC, (1,), weights, sides ** (depth + 1) if exact else 1, missing)


def _pool_power(die: _Pmf, count: int) -> _Pmf:
    if count == 1:
        return die
    if count == 0:
        return _delta(die.keys, die.exact)
    return _cached_power(die, count)


@lru_cache(maxsize=512)
def _cached_power(die: _Pmf, count: int) -> _Pmf:
    # Keyed by the (cached, so identical) per-die object and the count.
    return _power(die, count)


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
_FACE_CELLS = {letter: _face_cells(letter) for letter in SYMBOL_DICE}


def _histogram(cells: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    counts = [0] * (max(cell[0] for cell in cells) + 1)
    for cell in cells:
        counts[cell[0]] += 1
    return tuple(counts)


# For dice that count one symbol: the key, how many faces show 0, 1, 2 … of it, the sides.
_SINGLE: dict[str, tuple[tuple[str, ...], tuple[int, ...], int]] = {
    letter: (keys, _histogram(cells), len(cells))
    for letter, (keys, cells) in _FACE_CELLS.items()
    if len(keys) == 1
}


@lru_cache(maxsize=64)
def _symbol_die(letter: str, numeric: bool, exact: bool, need: tuple[str, ...] | None) -> _Pmf:
    """One symbol die: numbers (Elixier), or one axis per symbol key it counts (or per key
    of ``need``, when only those are asked for)."""
    single = _SINGLE.get(letter)
    if single is not None and not numeric and (need is None or need == single[0]):
        keys, counts, sides = single
        if exact:
            return _Pmf(keys, (0,), np.array(counts, dtype=object), sides, 0.0)
        return _Pmf(keys, (0,), np.array([count / sides for count in counts]), 1, 0.0)
    kind = symbol_die(letter)
    one = 1 if exact else 1.0 / kind.sides
    denominator = kind.sides if exact else 1
    if numeric:
        values = [face for face in kind.faces if isinstance(face, int)]
        low = min(values)
        weights = _zeros((max(values) - low + 1,), exact)
        for value in values:
            weights[value - low] += one
        return _Pmf(_NUMERIC, (low,), weights, denominator, 0.0)
    keys, cells = _FACE_CELLS[letter]
    if need is not None and len(need) == 1:
        axis = keys.index(need[0]) if need[0] in keys else -1
        counts_list = [0] * (max(cell[axis] if axis >= 0 else 0 for cell in cells) + 1)
        for cell in cells:
            counts_list[cell[axis] if axis >= 0 else 0] += 1
        if exact:
            return _Pmf(need, (0,), np.array(counts_list, dtype=object), denominator, 0.0)
        return _Pmf(need, (0,), np.array(counts_list) * one, denominator, 0.0)
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
    return _Pmf(keys, (0,) * len(keys), weights, denominator, 0.0)


def _numeric_dice(node: Dice, depth: int, exact: bool) -> _Pmf:
    """One die of ``node`` as counted: its value, or 0/1 for success counting."""
    if node.compare is not None and not node.explode:
        # A plain die: count the faces 1..sides that meet the target.
        hits = _hits(node.sides, node.compare)
        if exact:
            weights = np.array([node.sides - hits, hits], dtype=object)
            return _Pmf(_NUMERIC, (0,), weights, node.sides, 0.0)
        weights = np.array([(node.sides - hits) / node.sides, hits / node.sides])
        return _Pmf(_NUMERIC, (0,), weights, 1, 0.0)
    die = _die(node.sides, depth if node.explode else -1, exact)
    if node.compare is None:
        return die
    return _indicator(die, node.compare)


def _hits(sides: int, compare: Compare) -> int:
    """How many of the faces 1..sides meet ``compare``."""
    target, op = compare.target, compare.op
    if op == ">=":
        return min(sides, max(0, sides - target + 1))
    if op == ">":
        return min(sides, max(0, sides - target))
    if op == "<=":
        return min(sides, max(0, target))
    if op == "<":
        return min(sides, max(0, target - 1))
    return 1 if 1 <= target <= sides else 0


_TESTS: dict[str, Callable[[Array, int], Array]] = {
    ">=": np.greater_equal,
    ">": np.greater,
    "<=": np.less_equal,
    "<": np.less,
    "=": np.equal,
}


def _indicator(die: _Pmf, compare: Compare) -> _Pmf:
    """A die as 0/1: whether its value meets the target."""
    values = np.arange(die.offset[0], die.offset[0] + len(die.weights))
    hits = _TESTS[compare.op](values, compare.target)
    weights = _zeros((2,), die.exact)
    weights[0] = die.weights[~hits].sum()
    weights[1] = die.weights[hits].sum()
    return _Pmf(_NUMERIC, (0,), weights, die.denominator, die.missing)


_KEEP_BUDGET = 400_000_000
_KEEP_BUDGET_EXACT = 20_000_000


def _keep(node: Dice, depth: int, exact: bool) -> _Pmf:
    """Sum (or success count) of the kept dice: order statistics by dynamic programming.

    Die values are visited from the best kept value down. A state counts the dice already
    placed at the visited values (fewer than ``keep``) and holds the distribution of the kept
    sum so far; once ``keep`` dice are placed the others must all fall below the current
    value, which closes the state. The work grows with values × kept dice × sum range; past a
    budget the expression is refused with ``dice.too_complex``.
    """
    assert node.keep is not None
    highest, keep = node.keep.kept(node.count)
    total = node.count
    die = _die(node.sides, depth if node.explode else -1, exact)
    order = np.nonzero(die.weights)[0]
    if highest:
        order = order[::-1]
    values = [int(i) + die.offset[0] for i in order]
    probs = [die.weights[i] for i in order]
    compare = node.compare
    scores = [v if compare is None else int(compare.test(v)) for v in values]
    size = keep * max(max(scores), 0) + 1
    cost = len(values) * keep * (keep + 1) * size
    if cost > (_KEEP_BUDGET_EXACT if exact else _KEEP_BUDGET):
        budget = _KEEP_BUDGET_EXACT if exact else _KEEP_BUDGET
        raise _too_complex(f"{node}: {cost:.0e}", budget)
    belows: list[Any] = []
    running: Any = 0 if exact else 0.0
    for prob in reversed(probs):
        belows.append(running)
        running = running + prob
    belows.reverse()
    if exact:
        done = _keep_exact(scores, probs, belows, total, keep, size)
    else:
        done = _keep_float(scores, [float(p) for p in probs], belows, total, keep, size)
    return _Pmf(
        _NUMERIC,
        (0,),
        done,
        die.denominator**total if exact else 1,
        1.0 - (1.0 - die.missing) ** total,
    )


def _keep_float(
    scores: list[int], probs: list[float], belows: list[float], total: int, keep: int, size: int
) -> Array:
    """The keep DP in float64, all states at once.

    Weights carry the multinomial factor as ``p^c / c!`` per value (times ``total!`` at the
    end), so a transition does not depend on how many dice are already placed and every
    count ``c`` is one 2-D array operation.
    """
    inverse = [1.0 / math.factorial(c) for c in range(total + 1)]
    states = np.zeros((keep, size))
    states[0, 0] = 1.0
    done = np.zeros(size)
    for gain, prob, below in zip(scores, probs, belows, strict=True):
        ahead = np.array([prob**c * inverse[c] for c in range(total + 1)])
        behind = np.array([below**r * inverse[r] for r in range(total + 1)])
        fresh = states.copy()
        for c in range(1, keep):
            shift = c * gain
            if shift < size:
                fresh[c:, shift:] += states[: keep - c, : size - shift] * ahead[c]
        for placed in range(keep):
            rest = total - placed
            # all ways to place c ≥ keep - placed of the rest here and the others below
            tail = float(
                np.dot(ahead[keep - placed : rest + 1], behind[rest - keep + placed :: -1])
            )
            if tail:
                shift = (keep - placed) * gain
                done[shift:] += states[placed, : size - shift] * tail
        states = fresh
    return done * float(math.factorial(total))


def _keep_exact(
    scores: list[int], probs: list[Any], belows: list[Any], total: int, keep: int, size: int
) -> Array:
    """The keep DP with integer weights (binomial factors per state)."""
    states: list[Array | None] = [None] * keep
    first = _zeros((size,), True)
    first[0] = 1
    states[0] = first
    done = _zeros((size,), True)
    for gain, prob, below in zip(scores, probs, belows, strict=True):
        fresh: list[Array | None] = [None] * keep
        for placed, state in enumerate(states):
            if state is None:
                continue
            rest = total - placed
            power = 1
            for c in range(rest + 1):
                factor = math.comb(rest, c) * power
                power = power * prob
                shift = min(c, keep - placed) * gain
                if placed + c >= keep:
                    tail = factor * below ** (rest - c)
                    if tail:
                        done[shift:] += state[: size - shift] * tail
                else:
                    target = fresh[placed + c]
                    if target is None:
                        target = fresh[placed + c] = _zeros((size,), True)
                    target[shift:] += state[: size - shift] * factor
        states = fresh
    return done


# -- small expressions: integer polynomials in one Python int ------------------------------
#
# A one-dimensional expression without exploding or kept dice has exact integer weights
# over a denominator. While that denominator stays below 2**64 every weight does too (they
# sum to it), so a distribution packs into one Python int with one 64-bit slot per value,
# the weight of value ``low + i`` in slot ``i`` (Kronecker substitution): a pool is a power
# of its die, a sum a product, and no slot overflows. For small pools this beats array code,
# whose fixed cost per call dominates there, and it is exact: the float table is each weight
# divided by the denominator, correctly rounded.

_Small = tuple[int, int, int, int]
"""The lowest value, the packed weights, how many slots they use, the denominator."""

_SLOT_LIMIT = (1 << 64) - 1
"""Denominators (and so all weights and sums of weights) stay below this."""


def _pack(weights: list[int]) -> int:
    return int.from_bytes(array("Q", weights).tobytes(), "little")


def _slots(packed: int, size: int) -> array[int]:
    return array("Q", packed.to_bytes(size * 8, "little"))


def _small_die(low: int, weights: list[int], denominator: int) -> _Small:
    """One die: zero weights trimmed from both ends, a common factor cancelled (a smaller
    denominator lets larger pools fit)."""
    while not weights[0]:
        weights = weights[1:]
        low += 1
    while not weights[-1]:
        weights = weights[:-1]
    common = math.gcd(*weights)
    return low, _pack([w // common for w in weights]), len(weights), denominator // common


def _pool_die(letter: str, key: str) -> _Small:
    """What one symbol die adds to ``key`` (its number for ``key == ""``: the Elixier die)."""
    if key:
        keys, cells = _FACE_CELLS[letter]
        values = [cell[keys.index(key)] if key in keys else 0 for cell in cells]
    else:
        values = [face for face in symbol_die(letter).faces if isinstance(face, int)]
    low = min(values)
    weights = [0] * (max(values) - low + 1)
    for value in values:
        weights[value - low] += 1
    return _small_die(low, weights, len(values))


# Every symbol die counted by one key, or as a number (derived data, built once at import).
_POOL_DICE: dict[tuple[str, str], _Small] = {
    (letter, key): _pool_die(letter, key)
    for letter, kind in SYMBOL_DICE.items()
    for key in (("",) if all(isinstance(face, int) for face in kind.faces) else VALUE_KEYS)
}


def _small_power(die: _Small, count: int) -> _Small | None:
    if count == 1:
        return die
    low, packed, size, denominator = die
    # A denominator of 2 or more passes the limit by 64 dice (checked first: no huge powers).
    if denominator > 1 and (count >= 64 or denominator**count >= _SLOT_LIMIT):
        return None
    return low * count, packed**count, (size - 1) * count + 1, denominator**count


def _small_sum(a: _Small, b: _Small) -> _Small | None:
    denominator = a[3] * b[3]
    if denominator >= _SLOT_LIMIT:
        return None
    return a[0] + b[0], a[1] * b[1], a[2] + b[2] - 1, denominator


def _small_negate(a: _Small) -> _Small:
    low, packed, size, denominator = a
    slots = _slots(packed, size)
    slots.reverse()
    return -(low + size - 1), int.from_bytes(slots.tobytes(), "little"), size, denominator


def _small_clamp(a: _Small) -> _Small:
    """Fold the weight of values below 0 onto 0."""
    low, packed, size, denominator = a
    if low >= 0:
        return a
    if -low >= size:
        return 0, denominator, 1, denominator
    # 2**64 ≡ 1 modulo _SLOT_LIMIT, so modulo it a packed int is the sum of its slots.
    below = (packed & ((1 << -64 * low) - 1)) % _SLOT_LIMIT
    return 0, (packed >> -64 * low) + below, size + low, denominator


def _small(node: Expression, key: str) -> _Small | None:
    """The distribution of ``node``'s number (``key == ""``) or of its count of ``key``, or
    ``None`` when the expression is not small (the array engine takes it then)."""
    if isinstance(node, Pool):
        die = _POOL_DICE.get((node.die, key))
        return None if die is None else _small_power(die, node.count)
    if isinstance(node, Dice):
        if key or node.explode or node.keep is not None:
            return None
        sides = node.sides
        if node.compare is None:
            return _small_power((1, _pack([1] * sides), sides, sides), node.count)
        hits = _hits(sides, node.compare)
        if hits in (0, sides):
            return int(hits > 0) * node.count, 1, 1, 1
        common = math.gcd(sides, hits)
        die = 0, (sides - hits) // common | hits // common << 64, 2, sides // common
        return _small_power(die, node.count)
    if isinstance(node, Constant):
        return None if key else (node.value, 1, 1, 1)
    if isinstance(node, Negate):
        inner = _small(node.operand, key)
        return None if inner is None else _small_negate(inner)
    if not isinstance(node, BinaryOp) or node.op == "*":
        return None
    if (node.comparative or node.malus) and key != "successes":
        return None
    left = _small(node.left, key)
    if left is None:
        return None
    right = _small(node.right, key)
    if right is None:
        return None
    result = _small_sum(left, right if node.op == "+" else _small_negate(right))
    return _small_clamp(result) if node.malus and result is not None else result


def _small_root(node: Expression) -> tuple[tuple[str, ...] | None, int, list[int], int] | None:
    """A small expression's result keys (``None`` for a number), lowest value, integer
    weights and denominator; ``None`` unless it is small and a number or a single count."""
    keys: tuple[str, ...] | None = None
    if node.kind is Kind.NUMBER:
        result = _small(node, "")
    elif len(node.keys) == 1:
        keys = node.keys
        result = _small(node, keys[0])
    else:
        return None
    if result is None:
        return None
    low, packed, size, denominator = result
    return keys, low, _slots(packed, size).tolist(), denominator


# -- expressions ---------------------------------------------------------------------------


def _collect_exploding(node: Expression, found: list[Dice]) -> None:
    if isinstance(node, Dice):
        if node.explode:
            found.append(node)
    elif isinstance(node, BinaryOp):
        _collect_exploding(node.left, found)
        _collect_exploding(node.right, found)
    elif isinstance(node, Negate):
        _collect_exploding(node.operand, found)


def _depths(node: Expression) -> dict[int, int]:
    """Explosion depth per die size so the whole expression loses at most :data:`TAIL`."""
    exploding: list[Dice] = []
    _collect_exploding(node, exploding)
    if not exploding:
        return {}
    share = TAIL / len(exploding)
    depths: dict[int, int] = {}
    for n in exploding:
        depths[n.sides] = max(depths.get(n.sides, 0), _depth(n.sides, n.count, share))
    return depths


def _marginal(p: _Pmf, keys: tuple[str, ...]) -> _Pmf:
    """``p`` reduced to the axes ``keys`` (others summed out; absent keys fixed at 0)."""
    if p.keys == keys:
        return p
    drop = tuple(i for i, key in enumerate(p.keys) if key not in keys)
    if drop:
        kept = tuple(key for key in p.keys if key in keys)
        offset = tuple(o for key, o in zip(p.keys, p.offset, strict=True) if key in keys)
        p = _Pmf(kept, offset, p.weights.sum(axis=drop), p.denominator, p.missing)
    return _align(p, keys)


_SUCCESSES = ("successes",)


def _evaluate(
    node: Expression, depths: Mapping[int, int], exact: bool, need: tuple[str, ...] | None
) -> _Pmf:
    """The distribution of ``node``; ``need`` limits symbol results to those keys."""
    if isinstance(node, BinaryOp):
        return _evaluate_binary(node, depths, exact, need)
    if isinstance(node, Pool):
        numeric = node.kind is Kind.NUMBER
        pmf = _symbol_die(node.die, numeric, exact, None if numeric else need)
        return _pool_power(pmf, node.count)
    if isinstance(node, Dice):
        depth = depths.get(node.sides, -1)
        if node.keep is not None:
            return _keep(node, depth, exact)
        if node.explode:
            _check_cells(node.count * (depth + 1) * node.sides, str(node))
        return _pool_power(_numeric_dice(node, depth, exact), node.count)
    if isinstance(node, Constant):
        weights = _zeros((1,), exact)
        weights[0] = 1 if exact else 1.0
        return _Pmf(_NUMERIC, (node.value,), weights, 1, 0.0)
    assert isinstance(node, Negate)
    return _negate(_evaluate(node.operand, depths, exact, None))


def _evaluate_binary(
    node: BinaryOp, depths: Mapping[int, int], exact: bool, need: tuple[str, ...] | None
) -> _Pmf:
    if node.op == "*":
        return _multiply(
            _evaluate(node.left, depths, exact, None), _evaluate(node.right, depths, exact, None)
        )
    if node.comparative:
        left = _evaluate(node.left, depths, exact, _SUCCESSES)
        right = _evaluate(node.right, depths, exact, _SUCCESSES)
        return _difference(_marginal(left, _SUCCESSES), _marginal(right, _SUCCESSES), clamp=False)
    if node.malus:
        keys = node.keys if need is None else _key_union(need, _SUCCESSES)
        left = _marginal(_evaluate(node.left, depths, exact, keys), keys)
        right = _marginal(_evaluate(node.right, depths, exact, _SUCCESSES), _SUCCESSES)
        if left.keys == _SUCCESSES:
            return _difference(left, right, clamp=True)
        return _clamp_successes(_add(left, _negate(right)))
    left = _evaluate(node.left, depths, exact, need)
    right = _evaluate(node.right, depths, exact, need)
    if node.op == "+":
        return _add(left, right)
    return _add(left, _negate(right))


# -- the public value ----------------------------------------------------------------------


def _outcome_value(keys: tuple[str, ...] | None, outcome: Outcome) -> int | dict[str, int]:
    if keys is None:
        assert isinstance(outcome, int)
        return outcome
    assert isinstance(outcome, tuple)
    return dict(zip(keys, outcome, strict=True))


class Distribution:
    """The exact outcome distribution of one expression (immutable).

    Numeric expressions have int outcomes; symbol expressions have one count per key of
    :attr:`keys` (``successes``, ``stars``, ``drops``), kept as tuples in that order and shown
    as dicts by :meth:`outcomes` and :meth:`to_json`. Probabilities are float64; the
    :meth:`exact` fractions are computed on request with integer weights.
    """

    __slots__ = ("_exact", "_expression", "_keys", "_node", "_table", "_truncated")

    def __init__(
        self,
        node: Expression,
        keys: tuple[str, ...] | None,
        table: tuple[tuple[Outcome, float], ...],
        truncated: float,
    ) -> None:
        self._node = node
        self._keys = keys
        self._table = table
        self._truncated = truncated
        self._expression: str | None = None
        self._exact: tuple[tuple[Outcome, Fraction], ...] | None = None

    @property
    def expression(self) -> str:
        """The expression in canonical notation."""
        if self._expression is None:
            self._expression = str(self._node)
        return self._expression

    @property
    def node(self) -> Expression:
        """The expression tree."""
        return self._node

    @property
    def keys(self) -> tuple[str, ...] | None:
        """Symbol keys of the outcomes in order, or ``None`` for numeric outcomes."""
        return self._keys

    @property
    def table(self) -> tuple[tuple[Outcome, float], ...]:
        """Every possible outcome (int, or counts in :attr:`keys` order) with its
        probability, sorted by outcome."""
        return self._table

    @property
    def truncated(self) -> float:
        """Probability mass left out (exploding dice cut off at a tail of at most
        :data:`TAIL`)."""
        return self._truncated

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return (self._node, self._keys, self._table, self._truncated) == (
            other._node,
            other._keys,
            other._table,
            other._truncated,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Distribution({self.expression!r}, {len(self._table)} outcomes)"

    @property
    def numeric(self) -> bool:
        """Whether outcomes are numbers (``mean``/``std`` exist)."""
        return self.keys is None

    def outcomes(self) -> list[tuple[int | dict[str, int], float]]:
        """``(value, probability)`` pairs, values as ints or symbol dicts, sorted by value."""
        return [(_outcome_value(self.keys, o), p) for o, p in self.table]

    def probability(self, value: int | Mapping[str, int]) -> float:
        """The probability of one outcome (0.0 if impossible)."""
        key: Outcome
        if isinstance(value, int):
            key = value
        else:
            assert self.keys is not None
            key = tuple(int(value.get(k, 0)) for k in self.keys)
        return dict(self.table).get(key, 0.0)

    def marginal(self, key: str) -> dict[int, float]:
        """Count of one symbol key (or the number, for numeric outcomes) → probability."""
        out: dict[int, float] = {}
        for outcome, p in self.table:
            if isinstance(outcome, int):
                count = outcome
            else:
                assert self.keys is not None
                count = outcome[self.keys.index(key)] if key in self.keys else 0
            out[count] = out.get(count, 0.0) + p
        return dict(sorted(out.items()))

    @property
    def mean(self) -> float | None:
        """Expected value of a numeric expression; ``None`` for symbol outcomes."""
        if self.keys is not None:
            return None
        return self.mean_of("")

    @property
    def std(self) -> float | None:
        """Standard deviation of a numeric expression; ``None`` for symbol outcomes."""
        if self.keys is not None:
            return None
        return self.std_of("")

    def mean_of(self, key: str) -> float:
        """Expected count of one symbol key (any key name for numeric outcomes)."""
        marginal = self.marginal(key) if self.keys else self._numbers()
        return math.fsum(v * p for v, p in marginal.items())

    def std_of(self, key: str) -> float:
        """Standard deviation of one symbol key's count."""
        marginal = self.marginal(key) if self.keys else self._numbers()
        mean = math.fsum(v * p for v, p in marginal.items())
        variance = math.fsum((v - mean) ** 2 * p for v, p in marginal.items())
        return math.sqrt(max(variance, 0.0))

    def _numbers(self) -> dict[int, float]:
        return {int(o): p for o, p in self.table if isinstance(o, int)}

    def at_least(self, k: int, key: str = "successes") -> float:
        """P(value ≥ k); for symbol outcomes P(count of ``key`` ≥ k)."""
        marginal = self._numbers() if self.keys is None else self.marginal(key)
        return math.fsum(p for v, p in marginal.items() if v >= k)

    def exact(self, budget: int | None = None) -> tuple[tuple[int | dict[str, int], Fraction], ...]:
        """The outcomes with exact fractions (integer arithmetic; computed once, on request).

        Raises :class:`~spieltisch.dice.errors.LimitError`: ``dice.odds_too_costly`` when the
        estimated work exceeds ``budget`` (see :mod:`spieltisch.dice.cost`; default: the
        budget in force), ``dice.exact_too_large`` when the integers would be unreasonably large.
        """
        return tuple((_outcome_value(self.keys, o), f) for o, f in self._exact_table(budget))

    def to_json(self, exact: bool = False) -> dict[str, Any]:
        """The documented ``odds`` JSON (``exact`` adds ``"p/q"`` fractions)."""
        outcomes: list[dict[str, Any]] = [
            {"value": value, "probability": p} for value, p in self.outcomes()
        ]
        if exact:
            fractions = dict(self._exact_table(None))
            for item, (outcome, _) in zip(outcomes, self.table, strict=True):
                fraction = fractions.get(outcome, Fraction(0))
                item["exact"] = f"{fraction.numerator}/{fraction.denominator}"
        return {
            "expression": self.expression,
            "outcomes": outcomes,
            "mean": self.mean,
            "truncated": self.truncated,
        }

    def _exact_table(self, budget: int | None = None) -> tuple[tuple[Outcome, Fraction], ...]:
        if self._exact is None:
            small = _small_root(self._node)
            if small is not None:
                keys, low, weights, denominator = small
                self._exact = tuple(
                    (low + i if keys is None else (low + i,), Fraction(w, denominator))
                    for i, w in enumerate(weights)
                    if w
                )
                return self._exact
            depths = _depths(self._node)
            _check_cost(self._node, depths, True, budget)
            pmf = _evaluate(self._node, depths, True, None)
            if self.keys is not None and pmf.keys != self.keys:
                pmf = _align(pmf, self.keys)
            self._exact = tuple((o, Fraction(int(w), pmf.denominator)) for o, w in _cells(pmf))
        return self._exact


def _cells(p: _Pmf) -> Iterator[tuple[Outcome, Any]]:
    if p.keys == _NUMERIC:
        for index in np.nonzero(p.weights)[0]:
            yield int(index) + p.offset[0], p.weights[index]
        return
    nonzero = np.nonzero(p.weights)
    for cell in zip(*nonzero, strict=True):
        outcome = tuple(int(i) + o for i, o in zip(cell, p.offset, strict=True))
        yield outcome, p.weights[cell]


def _check_cost(
    node: Expression, depths: Mapping[int, int], exact: bool, budget: int | None
) -> None:
    keep = _KEEP_BUDGET_EXACT if exact else _KEEP_BUDGET
    check_budget(node, depths, exact=exact, budget=budget, max_cells=MAX_CELLS, keep_budget=keep)


def _build(node: Expression, budget: int | None) -> Distribution:
    small = _small_root(node)
    if small is not None:
        keys, low, weights, denominator = small
        table: tuple[tuple[Outcome, float], ...]
        if keys is None:
            table = tuple((low + i, w / denominator) for i, w in enumerate(weights) if w)
        else:
            table = tuple(((low + i,), w / denominator) for i, w in enumerate(weights) if w)
        return Distribution(node, keys, table, 0.0)
    depths = _depths(node)
    _check_cost(node, depths, False, budget)
    pmf = _evaluate(node, depths, False, None)
    keys = None if pmf.keys == _NUMERIC else pmf.keys
    if keys is not None and keys != node.keys:
        pmf = _align(pmf, node.keys)
        keys = node.keys
    return Distribution(node, keys, _table(pmf), float(pmf.missing))


def _table(p: _Pmf) -> tuple[tuple[Outcome, float], ...]:
    """Non-zero cells in ascending order (C order of the array is lexicographic order)."""
    if p.weights.ndim == 1 and len(p.weights) <= 64:
        low = p.offset[0]
        if p.keys == _NUMERIC:
            return tuple((i + low, q) for i, q in enumerate(p.weights.tolist()) if q)
        return tuple(((i + low,), q) for i, q in enumerate(p.weights.tolist()) if q)
    nonzero = np.nonzero(p.weights)
    probabilities = p.weights[nonzero].tolist()
    if p.keys == _NUMERIC:
        values = (nonzero[0] + p.offset[0]).tolist()
        return tuple(zip(values, probabilities, strict=True))
    if len(nonzero) == 1:
        values = (nonzero[0] + p.offset[0]).tolist()
        return tuple(((value,), q) for value, q in zip(values, probabilities, strict=True))
    columns = [(axis + o).tolist() for axis, o in zip(nonzero, p.offset, strict=True)]
    return tuple(zip(zip(*columns, strict=True), probabilities, strict=True))


@cache
def _parsed(text: str) -> Expression:
    return parse(text, Limits())


def distribution(expr: Expression | str, budget: int | None = None) -> Distribution:
    """The exact outcome distribution of ``expr`` (a parsed expression or notation).

    Raises :class:`~spieltisch.dice.errors.NotationError` for bad notation and
    :class:`~spieltisch.dice.errors.LimitError`: ``dice.odds_too_costly`` when the estimated
    work exceeds ``budget`` (see :mod:`spieltisch.dice.cost`; default: the budget in force),
    ``dice.too_complex`` when the outcome space would exceed :data:`MAX_CELLS`.
    """
    node = _parsed(expr) if isinstance(expr, str) else expr
    return _build(node, budget)


def success_count(dice: int, sides: int, target: int, op: str = ">=") -> Distribution:
    """How many of ``dice`` d``sides`` meet ``op target`` (``5d6>=4`` and friends)."""
    return distribution(f"{dice}d{sides}{op}{target}")


def janus_check(dice: int, net: int, *, gm: bool = False) -> Distribution:
    """A HeXXen check: ``dice`` HeXXen dice (``M`` when ``gm``: every symbol a success) and
    ``|net|`` Janus dice as bonus (net > 0) or malus (net < 0, never below 0 successes)."""
    pool = f"{dice}{'M' if gm else 'H'}"
    if net > 0:
        return distribution(f"{pool} + {net}J")
    if net < 0:
        return distribution(f"{pool} - {-net}J")
    return distribution(pool)


def clear_caches(dice: bool = True) -> None:
    """Forget cached results (for benchmarks): pool powers and parsed texts, and with
    ``dice`` also the per-die distributions (single dice, plain or exploding)."""
    _cached_power.cache_clear()
    _comb_row.cache_clear()
    _parsed.cache_clear()
    if dice:
        _die.cache_clear()
        _symbol_die.cache_clear()
