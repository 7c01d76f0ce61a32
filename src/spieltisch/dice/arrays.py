"""Dense distributions and the array operations of the exact-odds engine.

A :class:`Pmf` is a dense array of weights over an integer range per axis: one axis for a
number (key ``""``), one per symbol key (``successes``, ``stars``, ``drops``) for symbol
counts. Two modes share every operation: float64 probabilities, and exact Python-integer
weights over a common ``denominator`` (object arrays). Sums are convolutions (numpy, an FFT
for long float arrays, big-integer packing for long exact ones), pools are convolution powers
by repeated squaring (a die with two outcomes in closed binomial form).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from spieltisch.dice.errors import LimitError
from spieltisch.dice.faces import VALUE_KEYS

MAX_CELLS = 4_000_000
"""Largest dense outcome array the engine builds; larger expressions raise ``dice.too_complex``."""

_MAX_EXACT_BITS = 16_000_000
# Bits of both big-int operands of one exact convolution; CPython multiplies them in
# super-linear time, so this keeps one product to a few seconds (1000d6 still fits).
_FFT_MIN = 200_000
NUMERIC = ("",)

Array = npt.NDArray[Any]
Outcome = int | tuple[int, ...]


class Pmf:
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


def too_complex(detail: str, limit: float = MAX_CELLS) -> LimitError:
    return LimitError("dice.too_complex", value=detail, limit=f"{limit:.0e}")


def check_cells(cells: int, what: str) -> None:
    if cells > MAX_CELLS:
        raise too_complex(what)


def zeros(shape: tuple[int, ...], exact: bool) -> Array:
    if exact:
        array = np.empty(shape, dtype=object)
        array.fill(0)
        return array
    return np.zeros(shape, dtype=np.float64)


def delta(keys: tuple[str, ...], exact: bool) -> Pmf:
    weights = zeros((1,) * len(keys), exact)
    weights[(0,) * len(keys)] = 1 if exact else 1.0
    return Pmf(keys, (0,) * len(keys), weights, 1, 0.0)


def combine_missing(a: float, b: float) -> float:
    return a + b - a * b


# -- convolution ---------------------------------------------------------------------------


def kronecker(a: Array, b: Array) -> Array:
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


def convolve1d(a: Array, b: Array) -> Array:
    if a.dtype == object:
        if len(a) * len(b) <= 4096:
            return np.convolve(a, b)
        return kronecker(a, b)
    if len(a) * len(b) < _FFT_MIN or min(len(a), len(b)) < 16:
        return np.convolve(a, b)
    size = len(a) + len(b) - 1
    length = 1 << (size - 1).bit_length()
    out = np.fft.irfft(np.fft.rfft(a, length) * np.fft.rfft(b, length), length)[:size]
    # FFT leaves round-off noise (~1e-17) where the true value is 0 or tiny.
    out[out < float(out.max()) * 1e-15] = 0.0
    return out


def convolve(a: Array, b: Array) -> Array:
    if a.ndim == 1:
        return convolve1d(a, b)
    shape = tuple(x + y - 1 for x, y in zip(a.shape, b.shape, strict=True))
    cells = math.prod(shape)
    check_cells(cells, f"{cells} outcomes")
    if min(a.size, b.size) <= 64 or a.dtype == object:
        # Shift-and-add over the smaller array's non-zero cells.
        small, large = (a, b) if a.size <= b.size else (b, a)
        if a.dtype == object and np.count_nonzero(small) * large.size > 20_000_000:
            raise LimitError("dice.exact_too_large", value=f"{small.size} × {large.size}")
        out = zeros(shape, a.dtype == object)
        for index in zip(*np.nonzero(small), strict=True):
            where = tuple(slice(i, i + n) for i, n in zip(index, large.shape, strict=True))
            out[where] += large * small[index]
        return out
    # Embed both in the result's grid: N-D convolution becomes 1-D convolution.
    strides = [math.prod(shape[i + 1 :]) for i in range(len(shape))]

    def flat(array: Array) -> Array:
        grid = zeros(shape, False)
        grid[tuple(slice(0, n) for n in array.shape)] = array
        last = sum((n - 1) * s for n, s in zip(array.shape, strides, strict=True))
        return grid.reshape(-1)[: last + 1]

    line = convolve1d(flat(a), flat(b))
    out = zeros((cells,), False)
    out[: min(cells, len(line))] = line[:cells]
    return out.reshape(shape)


def align(p: Pmf, keys: tuple[str, ...]) -> Pmf:
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
    return Pmf(keys, tuple(offset), weights.reshape(shape), p.denominator, p.missing)


def add(a: Pmf, b: Pmf) -> Pmf:
    if a.keys == b.keys and a.weights.ndim == 1:
        if b.weights.shape == (1,) and not b.exact and b.weights[0] == 1.0:
            # Adding a sure value (a constant, an empty pool) only shifts.
            return Pmf(a.keys, (a.offset[0] + b.offset[0],), a.weights, a.denominator, a.missing)
        return Pmf(
            a.keys,
            (a.offset[0] + b.offset[0],),
            convolve1d(a.weights, b.weights),
            a.denominator * b.denominator,
            combine_missing(a.missing, b.missing) if a.missing or b.missing else 0.0,
        )
    keys = a.keys if a.keys == b.keys else key_union(a.keys, b.keys)
    a, b = align(a, keys), align(b, keys)
    return Pmf(
        keys,
        tuple(x + y for x, y in zip(a.offset, b.offset, strict=True)),
        convolve(a.weights, b.weights),
        a.denominator * b.denominator,
        combine_missing(a.missing, b.missing),
    )


def key_union(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    if a == NUMERIC or b == NUMERIC:
        return NUMERIC
    return tuple(key for key in VALUE_KEYS if key in a or key in b)


def negate(p: Pmf) -> Pmf:
    if p.weights.ndim == 1:
        low = -(p.offset[0] + len(p.weights) - 1)
        return Pmf(p.keys, (low,), p.weights[::-1].copy(), p.denominator, p.missing)
    flipped = p.weights[(slice(None, None, -1),) * p.weights.ndim]
    offset = tuple(-(o + n - 1) for o, n in zip(p.offset, p.weights.shape, strict=True))
    return Pmf(p.keys, offset, np.ascontiguousarray(flipped), p.denominator, p.missing)


def binomial(p: Pmf, n: int) -> Pmf:
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
        weights = comb_row(n) * float(hit) ** k * float(fail) ** (n - k)
    missing = 1.0 - (1.0 - p.missing) ** n if p.missing else 0.0
    return Pmf(p.keys, (p.offset[0] * n,), weights, p.denominator**n, missing)


@lru_cache(maxsize=512)
def comb_row(n: int) -> Array:
    return np.array([float(math.comb(n, k)) for k in range(n + 1)])


def power(p: Pmf, n: int) -> Pmf:
    if n == 1:
        return p
    if 1 < n <= 300 and p.weights.shape == (2,):
        return binomial(p, n)
    result: Pmf | None = None
    base = p
    while n:
        if n & 1:
            result = base if result is None else add(result, base)
        n >>= 1
        if n:
            base = add(base, base)
    return result if result is not None else delta(p.keys, p.exact)


def difference(a: Pmf, b: Pmf, clamp: bool) -> Pmf:
    """``a - b`` of two 1-D distributions; with ``clamp`` the mass below 0 moves onto 0."""
    weights = convolve1d(a.weights, np.ascontiguousarray(b.weights[::-1]))
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
    missing = combine_missing(a.missing, b.missing) if a.missing or b.missing else 0.0
    return Pmf(a.keys, (low,), weights, a.denominator * b.denominator, missing)


def clamp_successes(p: Pmf) -> Pmf:
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
        return Pmf(p.keys, (0,), folded, p.denominator, p.missing)
    weights = np.moveaxis(p.weights, axis, 0)
    below = -start
    if below >= weights.shape[0]:
        folded = weights.sum(axis=0, keepdims=True)
    else:
        folded = weights[below:].copy()
        folded[0] = folded[0] + weights[:below].sum(axis=0)
    offset = list(p.offset)
    offset[axis] = 0
    return Pmf(p.keys, tuple(offset), np.moveaxis(folded, 0, axis), p.denominator, p.missing)


def multiply(a: Pmf, b: Pmf) -> Pmf:
    va = np.arange(len(a.weights), dtype=np.int64) + a.offset[0]
    vb = np.arange(len(b.weights), dtype=np.int64) + b.offset[0]
    ia, ib = np.nonzero(a.weights)[0], np.nonzero(b.weights)[0]
    check_cells(len(ia) * len(ib), f"{len(ia) * len(ib)} products")
    products = np.multiply.outer(va[ia], vb[ib]).reshape(-1)
    low, high = int(products.min()), int(products.max())
    check_cells(high - low + 1, f"{high - low + 1} values")
    weights = np.multiply.outer(a.weights[ia], b.weights[ib]).reshape(-1)
    out = zeros((high - low + 1,), a.exact)
    np.add.at(out, products - low, weights)
    return Pmf(
        NUMERIC,
        (low,),
        out,
        a.denominator * b.denominator,
        combine_missing(a.missing, b.missing),
    )


def marginal(p: Pmf, keys: tuple[str, ...]) -> Pmf:
    """``p`` reduced to the axes ``keys`` (others summed out; absent keys fixed at 0)."""
    if p.keys == keys:
        return p
    drop = tuple(i for i, key in enumerate(p.keys) if key not in keys)
    if drop:
        kept = tuple(key for key in p.keys if key in keys)
        offset = tuple(o for key, o in zip(p.keys, p.offset, strict=True) if key in keys)
        p = Pmf(kept, offset, p.weights.sum(axis=drop), p.denominator, p.missing)
    return align(p, keys)


def cells_of(p: Pmf) -> Iterator[tuple[Outcome, Any]]:
    if p.keys == NUMERIC:
        for index in np.nonzero(p.weights)[0]:
            yield int(index) + p.offset[0], p.weights[index]
        return
    nonzero = np.nonzero(p.weights)
    for cell in zip(*nonzero, strict=True):
        outcome = tuple(int(i) + o for i, o in zip(cell, p.offset, strict=True))
        yield outcome, p.weights[cell]


def table_of(p: Pmf) -> tuple[tuple[Outcome, float], ...]:
    """Non-zero cells in ascending order (C order of the array is lexicographic order)."""
    if p.weights.ndim == 1 and len(p.weights) <= 64:
        low = p.offset[0]
        if p.keys == NUMERIC:
            return tuple((i + low, q) for i, q in enumerate(p.weights.tolist()) if q)
        return tuple(((i + low,), q) for i, q in enumerate(p.weights.tolist()) if q)
    nonzero = np.nonzero(p.weights)
    probabilities = p.weights[nonzero].tolist()
    if p.keys == NUMERIC:
        values = (nonzero[0] + p.offset[0]).tolist()
        return tuple(zip(values, probabilities, strict=True))
    if len(nonzero) == 1:
        values = (nonzero[0] + p.offset[0]).tolist()
        return tuple(((value,), q) for value, q in zip(values, probabilities, strict=True))
    columns = [(axis + o).tolist() for axis, o in zip(nonzero, p.offset, strict=True)]
    return tuple(zip(zip(*columns, strict=True), probabilities, strict=True))
