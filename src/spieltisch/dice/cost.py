"""The cost of an exact-odds computation, estimated before any of it is done.

:mod:`spieltisch.dice.odds` asks :func:`check_budget` before it builds a distribution (and
again before the exact fractions). The estimate walks the expression tree the way the engine
evaluates it and adds up the work of each step in *units* of roughly one nanosecond of one core
(the constants below were measured on the engine's operations):

* a sum is a convolution: direct (``la·lb``) for short arrays, an FFT (``L log L``) for long
  float arrays, and in exact mode a product of two big integers packing the weights
  (Kronecker; CPython multiplies ``n``-bit integers in about ``n^1.585``), plus the packing;
* a pool of ``n`` dice is ``n``-fold convolution by repeated squaring (simulated step by step;
  a die with two outcomes takes the closed binomial form);
* exploding dice are as wide as the explosion depth the engine chose (``depths``);
* keep/drop is the order-statistics programme: values × kept × (kept + 1) × sum range (a
  group of unlike members runs it once per member);
* a die that is rerolled, bounded or explodes on other faces than its highest is built as
  integer polynomials, one per explosion followed;
* a division, ``abs`` and a comparison of a total map every value once;
* a product of two numbers touches every pair of values;
* exact weights grow by the bits of each die's denominator, and every operation on them costs
  in proportion to their size.

Where the engine refuses an expression cheaply by its own structural limits (more than
``max_cells`` outcomes, a keep past its budget), the estimate stops there and lets the engine
say so; the work before that point still counts. An estimate past the budget raises
:class:`~spieltisch.dice.errors.LimitError` ``dice.odds_too_costly`` naming the expression,
the estimate and the budget.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping
from dataclasses import dataclass

from spieltisch.dice.errors import LimitError
from spieltisch.dice.faces import VALUE_KEYS, symbol_die
from spieltisch.dice.notation import (
    Abs,
    BinaryOp,
    Constant,
    Dice,
    DieSpec,
    Divide,
    Explode,
    Expression,
    Group,
    Negate,
    Pool,
    Test,
)
from spieltisch.dice.tree import Visitor

__all__ = [
    "ODDS_BUDGET",
    "check_budget",
    "convolution_cost",
    "default_budget",
    "estimate",
    "set_default_budget",
    "too_costly",
]

ODDS_BUDGET = 500_000_000
"""Default budget in cost units (about one nanosecond of one core each): about half a second."""

_budget = ODDS_BUDGET

_STEP = 2_000.0  # fixed cost of one array operation (Python and numpy overhead)
_DIRECT = 1.4  # one multiply-add of a direct float convolution
_FFT = 3.0  # per L·log2(L) of a float FFT convolution
_FFT_MIN = 200_000  # the engine's switch to FFT (arrays._FFT_MIN)
_CELL = 3.0  # one cell of a float array operation
_OBJECT = 30.0  # one Python-integer operation in an object array, besides its size
_PACK = 250.0  # packing or unpacking one weight of an exact convolution
_BIG = 21.0  # per (bits/64)^1.585 of a big-integer product
_PAIR = 150.0  # one pair of values of a product of two numbers
_SPREAD = 10.0  # standard deviations either side that survive the FFT's zeroing of noise
_PYTHON = 300.0  # one value mapped by a Python function (a division, abs, a comparison)


@dataclass(frozen=True)
class _Shape:
    """What the engine holds for a node: cells per axis, the value range, weight bits, and
    for numbers the mean and variance (a float FFT zeroes the far tails, see :meth:`width`)."""

    axes: tuple[int, ...]
    low: int = 0
    high: int = 0
    bits: float = 0.0
    mean: float = 0.0
    var: float = 0.0
    fft: bool = False

    @property
    def cells(self) -> int:
        return math.prod(self.axes)

    def span(self) -> tuple[int, int]:
        """The values with non-zero weight: all of them, or about ±10σ after a float FFT."""
        if not self.fft:
            return self.low, self.high
        spread = _SPREAD * math.sqrt(self.var)
        return max(self.low, math.floor(self.mean - spread)), min(
            self.high, math.ceil(self.mean + spread)
        )


class _Refused(Exception):
    """The engine refuses the expression by a structural limit at this point (cheaply)."""


@dataclass
class _Walk(Visitor[None, _Shape]):
    depths: Mapping[DieSpec, int]
    exact: bool
    max_cells: int
    keep_budget: float
    cost: float = 0.0

    # -- primitive costs -------------------------------------------------------------------

    def product(self, bits_a: float, bits_b: float) -> float:
        """One product of two big integers (Karatsuba; unbalanced operands in slices)."""
        large = max(bits_a, bits_b, 64.0) / 64
        small = max(min(bits_a, bits_b), 64.0) / 64
        return float(_BIG * large * small**0.585)

    def convolve(self, la: int, lb: int, bits_a: float, bits_b: float) -> float:
        """One 1-D convolution of arrays of ``la`` and ``lb`` cells."""
        if not self.exact:
            if la * lb < _FFT_MIN or min(la, lb) < 16:
                return _STEP + _DIRECT * la * lb
            length = 1 << (la + lb - 2).bit_length()
            # never below the dearest direct one: the estimate stays monotone in the sizes
            return _STEP + max(_FFT * length * math.log2(length), _DIRECT * _FFT_MIN)
        if la * lb <= 4096:
            return _STEP + la * lb * (_OBJECT + self.product(bits_a, bits_b))
        width = bits_a + bits_b + math.log2(min(la, lb)) + 16
        cells = 2 * (la + lb)
        return (
            _STEP
            + cells * (_PACK + width / 8)
            + float(_BIG * (la * width / 64) * (lb * width / 64) ** 0.585)
        )

    def operate(self, cells: int, bits: float) -> float:
        """One element-wise pass over ``cells`` weights."""
        if self.exact:
            return _STEP + cells * (_OBJECT + bits / 64)
        return _STEP + cells * _CELL

    # -- the walk --------------------------------------------------------------------------

    def add(self, a: _Shape, b: _Shape) -> _Shape:
        if len(a.axes) != len(b.axes):
            size = max(len(a.axes), len(b.axes))
            a = _Shape(a.axes + (1,) * (size - len(a.axes)), a.low, a.high, a.bits)
            b = _Shape(b.axes + (1,) * (size - len(b.axes)), b.low, b.high, b.bits)
        axes = tuple(x + y - 1 for x, y in zip(a.axes, b.axes, strict=True))
        cells = math.prod(axes)
        bits = a.bits + b.bits
        mean, var = a.mean + b.mean, a.var + b.var
        if len(axes) == 1:
            self.cost += self.convolve(a.cells, b.cells, a.bits, b.bits)
            fft = not self.exact and a.cells * b.cells >= _FFT_MIN and min(a.cells, b.cells) >= 16
            shape = _Shape(
                axes, a.low + b.low, a.high + b.high, bits, mean, var, fft or a.fft or b.fft
            )
            return shape
        else:
            if cells > self.max_cells:
                raise _Refused
            small, large = sorted((a.cells, b.cells))
            if small <= 64 or self.exact:
                self.cost += _STEP * small + small * self.operate(large, bits)
            else:
                self.cost += self.convolve(cells, cells, 0, 0)
        return _Shape(axes, a.low + b.low, a.high + b.high, bits, mean, var)

    def power(self, die: _Shape, count: int) -> _Shape:
        if count <= 1:
            return die if count == 1 else _Shape((1,) * len(die.axes))
        if die.axes == (2,) and count <= 300:
            bits = count * die.bits
            self.cost += count * (_STEP / 4 + (self.product(bits, bits) if self.exact else 0))
            return _Shape(
                (count + 1,),
                die.low * count,
                die.high * count,
                bits,
                die.mean * count,
                die.var * count,
            )
        # The engine squares and adds by the bits of ``count``; all bits set is the dearest
        # count of that length, which keeps the estimate monotone in the pool size.
        result: _Shape | None = None
        base = die
        rest = (1 << count.bit_length()) - 1
        while rest:
            result = base if result is None else self.add(result, base)
            rest >>= 1
            if rest:
                base = self.add(base, base)
        assert result is not None
        return _Shape(
            tuple(count * (x - 1) + 1 for x in die.axes),
            die.low * count,
            die.high * count,
            die.bits * count,
            die.mean * count,
            die.var * count,
            result.fft,
        )

    def depth(self, node: Dice) -> int:
        """The explosions the engine follows per die (``-1``: none, or one at most)."""
        return self.depths.get(node.spec, -1)

    def die_bits(self, node: Dice) -> float:
        """Bits of the denominator of one die's exact weights."""
        if not self.exact:
            return 0.0
        spec = node.spec
        throws = 2 if spec.explode is not None and spec.explode.mode == "once" else 1
        return math.log2(spec.denominator) * (max(self.depth(node), 0) + throws)

    def width(self, node: Dice) -> int:
        """How many values one die's total spans."""
        depth, sides = self.depth(node), node.sides
        if depth >= 0:
            return depth * sides + sides - 1
        if node.explode is not None:
            return 2 * sides
        return sides

    def build(self, node: Dice) -> None:
        """The work of one die's weights when they are not the closed forms: the throws
        after the reroll rule, and each explosion followed (integer polynomials)."""
        spec = node.spec
        if spec == DieSpec(node.sides) or (
            spec.explode == Explode() and spec == DieSpec(node.sides, explode=Explode())
        ):
            return
        steps = max(self.depth(node), 1) * self.width(node) * node.sides
        self.cost += _STEP + node.sides * node.sides + steps * (_OBJECT + self.die_bits(node) / 64)

    def die(self, node: Dice) -> _Shape:
        depth = self.depth(node)
        bits = self.die_bits(node)
        self.build(node)
        if node.counting:
            if node.compare is not None and node.failure is not None:
                return _Shape((3,), -1, 1, bits, 0.0, 0.5)
            return _Shape((2,), 0, 1, bits, 0.5, 0.25)
        sides = node.sides
        size = self.width(node)
        if depth < 0:
            return _Shape((size,), 1, size, bits, (size + 1) / 2, (size * size - 1) / 12)
        # k explosions, then r in 1..sides-1, each with probability sides^-(k+1)
        first = second = 0.0
        for k in range(depth + 1):
            p = float(sides) ** -(k + 1)
            base = k * sides
            first += p * ((sides - 1) * base + sides * (sides - 1) / 2)
            second += p * (
                (sides - 1) * base * base
                + base * sides * (sides - 1)
                + (sides - 1) * sides * (2 * sides - 1) / 6
            )
        return _Shape((size,), 1, size, bits, first, max(second - first * first, 0.0))

    def keep(self, node: Dice) -> _Shape:
        assert node.keep is not None
        self.build(node)
        _, kept = node.keep.kept(node.count)
        values = self.width(node)
        top = 2 if node.compare is not None and node.failure is not None else values
        top = 1 if node.counting and top == values else top
        bits = self.die_bits(node) * node.count
        return self.order_statistics(values, node.count, kept, top, bits)

    def order_statistics(
        self, values: int, count: int, kept: int, top: int, bits: float, members: int = 1
    ) -> _Shape:
        """The keep programme: ``values`` die values, ``kept`` of ``count``, scores spanning
        ``top`` (the mixed programme of a group runs it once per member: ``members``)."""
        size = kept * top + 1
        work = values * kept * (kept + 1) * size * members
        if work > self.keep_budget:
            raise _Refused
        if self.exact:
            steps = values * kept * (count + 1) * members
            self.cost += steps * (_STEP / 4 + self.operate(size, bits))
        else:
            self.cost += _CELL / 4 * work + values * kept * 2 * _STEP * members
        return _Shape((size,), 0, size - 1, bits, (size - 1) / 2, (size - 1) ** 2 / 4)

    def mapped(self, inner: _Shape, low: int, high: int) -> _Shape:
        """A number mapped value by value (a division, ``abs``, a comparison)."""
        self.cost += self.operate(inner.cells, inner.bits) + _PYTHON * inner.cells
        mean = (low + high) / 2
        return _Shape((high - low + 1,), low, high, inner.bits, mean, (high - low) ** 2 / 4)

    def divide(self, node: Divide, context: None) -> _Shape:
        inner = self.visit(node.operand)
        return self.mapped(inner, node.apply(inner.low), node.apply(inner.high))

    def absolute(self, node: Abs, context: None) -> _Shape:
        inner = self.visit(node.operand)
        high = max(abs(inner.low), abs(inner.high))
        low = 0 if inner.low <= 0 <= inner.high else min(abs(inner.low), abs(inner.high))
        return self.mapped(inner, low, high)

    def test(self, node: Test, context: None) -> _Shape:
        return self.mapped(self.visit(node.operand), 0, 1)

    def group(self, node: Group, context: None) -> _Shape:
        shapes = [self.visit(member) for member in node.members]
        if node.keep is not None:
            _, kept = node.keep.kept(len(shapes))
            values = max(shape.cells for shape in shapes)
            top = (2 if node.failure is not None else 1) if node.counting else values
            bits = sum(shape.bits for shape in shapes)
            same = all(member == node.members[0] for member in node.members)
            members = 1 if same else len(shapes)
            return self.order_statistics(values, len(shapes), kept, top, bits, members)
        result: _Shape | None = None
        for shape in shapes:
            if node.counting:
                shape = self.mapped(shape, -1 if node.failure is not None else 0, 1)
            result = shape if result is None else self.add(result, shape)
        assert result is not None
        return result

    def pool(self, node: Pool, context: None) -> _Shape:
        kind = symbol_die(node.die)
        bits = math.log2(kind.sides) if self.exact else 0.0
        if kind.numeric:
            values = [face for face in kind.faces if isinstance(face, int)]
            low, high = min(values), max(values)
            mean = sum(values) / len(values)
            var = sum((v - mean) ** 2 for v in values) / len(values)
            die = _Shape((high - low + 1,), low, high, bits, mean, var)
            return self.power(die, node.count)
        axes = []
        for key in VALUE_KEYS:
            counts = [
                0
                if isinstance(face, int)
                else face.get(key, 0) + face.get("janus", 0) * (key == "successes")
                for face in kind.faces
            ]
            if key in node.keys:
                axes.append(max(counts) + 1)
        return self.power(_Shape(tuple(axes) or (1,), 0, 0, bits), node.count)

    # -- the nodes (the walk is a visitor: the same dispatch as the engine's) -------------

    def visit(self, node: Expression, context: None = None) -> _Shape:
        """The shape of ``node``, adding its work (and a fixed step per node) to the cost."""
        self.cost += _STEP
        return super().visit(node, context)

    def constant(self, node: Constant, context: None) -> _Shape:
        return _Shape((1,), node.value, node.value, 0.0, node.value)

    def negate(self, node: Negate, context: None) -> _Shape:
        inner = self.visit(node.operand)
        self.cost += self.operate(inner.cells, inner.bits)
        return _Shape(
            inner.axes, -inner.high, -inner.low, inner.bits, -inner.mean, inner.var, inner.fft
        )

    def dice(self, node: Dice, context: None) -> _Shape:
        if node.keep is not None:
            return self.keep(node)
        die = self.die(node)
        if self.depth(node) >= 0 and node.count * die.cells > self.max_cells:
            raise _Refused
        return self.power(die, node.count)

    def binary(self, node: BinaryOp, context: None) -> _Shape:
        left, right = self.visit(node.left), self.visit(node.right)
        if node.op != "*":
            return self.add(left, right)
        return self.multiply(left, right)

    def multiply(self, left: _Shape, right: _Shape) -> _Shape:
        """A product of two numbers: every pair of values."""
        (a_low, a_high), (b_low, b_high) = left.span(), right.span()
        pairs = (a_high - a_low + 1) * (b_high - b_low + 1)
        corners = [x * y for x in (a_low, a_high) for y in (b_low, b_high)]
        span = max(corners) - min(corners) + 1
        if pairs > self.max_cells or span > self.max_cells:
            raise _Refused
        self.cost += _STEP + pairs * (_PAIR + (left.bits + right.bits) / 64 * self.exact)
        mean = left.mean * right.mean
        var = (
            left.var * right.var
            + left.var * right.mean * right.mean
            + right.var * left.mean * left.mean
        )
        bits = left.bits + right.bits
        return _Shape((span,), min(corners), max(corners), bits, mean, var)


def estimate(
    node: Expression,
    depths: Mapping[DieSpec, int],
    *,
    exact: bool,
    max_cells: int,
    keep_budget: float,
) -> float:
    """The estimated cost of computing ``node`` (float, or ``exact`` integer weights).

    ``depths`` are the explosions kept per kind of die, as the engine chose them. When the engine
    will refuse the expression by a structural limit (``max_cells`` outcomes, a keep past
    ``keep_budget``), the cost counts the work up to that point only.
    """
    walk = _Walk(depths, exact, max_cells, keep_budget)
    with contextlib.suppress(_Refused):
        walk.visit(node)
    return walk.cost


def convolution_cost(la: int, lb: int, bits_a: float, bits_b: float, *, exact: bool) -> float:
    """The estimated work of one 1-D convolution of ``la`` and ``lb`` weights (of ``bits``
    each, in exact mode), as the engine does it: composed odds charge their sums with this."""
    return _Walk({}, exact, 0, 0.0).convolve(la, lb, bits_a, bits_b)


def set_default_budget(budget: int) -> None:
    """Set the budget that applies when a caller passes none (a server's setting)."""
    global _budget
    if budget < 1:
        raise ValueError(f"odds budget must be positive, not {budget}")
    _budget = budget


def default_budget() -> int:
    """The budget in force when a caller passes none."""
    return _budget


def check_budget(
    node: Expression,
    depths: Mapping[DieSpec, int],
    *,
    exact: bool,
    budget: int | None,
    max_cells: int,
    keep_budget: float,
) -> None:
    """Refuse ``node`` with ``dice.odds_too_costly`` when its estimate exceeds ``budget``
    (the default budget when ``None``)."""
    limit = _budget if budget is None else budget
    cost = estimate(node, depths, exact=exact, max_cells=max_cells, keep_budget=keep_budget)
    if cost > limit:
        raise too_costly(str(node), cost, limit)


def too_costly(what: str, cost: float, budget: int) -> LimitError:
    """``dice.odds_too_costly`` for ``what``: the estimate, the budget, and what the exact
    answer would take (seconds, and the budget that allows it)."""
    return LimitError(
        "dice.odds_too_costly",
        value=what,
        cost=f"{cost:.1e}",
        budget=f"{budget:.1e}",
        seconds=f"{cost / 1e9:.1f}",
        units=math.ceil(cost),
    )
