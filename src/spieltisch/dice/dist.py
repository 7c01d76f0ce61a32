"""Composable exact odds: a numeric distribution that adds, maps, mixes and compares.

Games need odds built from parts — the successes of one pool minus another's, a d10 that
explodes against a target, d20 + bonus against an armour class with advantage, damage with a
critical hit mixed in. :class:`Dist` is that value, on the engine's own arrays
(:class:`~spieltisch.dice.arrays.Pmf`): built from notation (:meth:`Dist.of`), from one die
(:meth:`Dist.die`) or from explicit outcomes (:meth:`Dist.from_outcomes`), it is float64 or
exact (integer weights over a common denominator) and carries the mass cut off from exploding
dice (``truncated``) through every operation.

Every operation honours the odds budget (:mod:`spieltisch.dice.cost`): a distribution keeps
the estimated work that built it, and an operation that would take the total past the budget
is refused with ``dice.odds_too_costly`` before it is done; an outcome range past
:data:`~spieltisch.dice.arrays.MAX_CELLS` is ``dice.too_complex``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from spieltisch.dice.arrays import (
    NUMERIC,
    Array,
    Pmf,
    add,
    cells_of,
    check_cells,
    difference,
    marginal,
    multiply,
    negate,
    power,
    zeros,
)
from spieltisch.dice.cost import convolution_cost, default_budget, too_costly
from spieltisch.dice.evaluate import check_cost, evaluate
from spieltisch.dice.exploding import TAIL as TAIL
from spieltisch.dice.exploding import depths_of, die_pmf, explosion_depth
from spieltisch.dice.notation import DieSpec, Explode, Expression, parse

__all__ = ["Contest", "Dist"]

Weight = float | Fraction | int


def _exact_weight(weight: Weight) -> bool:
    return isinstance(weight, Fraction | int) and not isinstance(weight, bool)


class Dist:
    """A distribution over whole numbers (immutable); float64 or exact.

    Operators: ``a + b``, ``a - b``, ``-a``, ``a * k`` (scales the outcomes), ``a * b`` (the
    product of two numbers), also with plain ints; ``a >= k``, ``a > k``, ``a <= k``,
    ``a < k`` give the 0/1 distribution of the comparison (its :attr:`mean` is the chance);
    ``==`` compares distributions. Mixing an exact with a float distribution gives a float one.
    """

    __slots__ = ("_cost", "_pmf")

    def __init__(self, pmf: Pmf, cost: float = 0.0) -> None:
        if pmf.keys != NUMERIC:
            raise ValueError("Dist holds numbers; project symbol counts first (Dist.of(…, key=…))")
        self._pmf = pmf
        self._cost = cost

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def of(
        cls,
        expr: Expression | str,
        *,
        key: str | Callable[[Mapping[str, int]], int] = "successes",
        exact: bool = False,
        budget: int | None = None,
    ) -> Dist:
        """The distribution of a notation expression; for symbol results, of the count of
        ``key`` (``successes`` unless told), or of ``key(counts)`` when ``key`` is a function
        of all the symbol counts (e.g. ``lambda c: c["successes"] + c["stars"] // 2``).
        Checked against the odds budget first."""
        node = parse(expr) if isinstance(expr, str) else expr
        depths = depths_of(node)
        check_cost(node, depths, exact, budget)
        pmf = evaluate(node, depths, exact, None)
        if pmf.keys != NUMERIC:
            if callable(key):
                return cls._project(pmf, key)
            pmf = marginal(pmf, (key,))
            pmf = Pmf(NUMERIC, pmf.offset, pmf.weights, pmf.denominator, pmf.missing)
        return cls(pmf, _STEP * len(pmf.weights))

    @classmethod
    def _project(cls, pmf: Pmf, key: Callable[[Mapping[str, int]], int]) -> Dist:
        cells = [
            (key(dict(zip(pmf.keys, counts, strict=True))), weight)
            for counts, weight in cells_of(pmf)
            if isinstance(counts, tuple)
        ]
        low = min(v for v, _ in cells)
        high = max(v for v, _ in cells)
        check_cells(high - low + 1, f"{high - low + 1} values")
        out = zeros((high - low + 1,), pmf.exact)
        for value, weight in cells:
            out[value - low] += weight
        cost = _STEP * (1 + pmf.weights.size) + 3.0 * len(cells)
        _check_spent(cost, "of")
        return cls(Pmf(NUMERIC, (low,), out, pmf.denominator, pmf.missing), cost)

    @classmethod
    def die(cls, sides: int, *, explode: bool = False, exact: bool = False) -> Dist:
        """One die with faces 1…``sides``; exploding dice are cut at :data:`TAIL`."""
        if sides < 2:
            raise ValueError(f"a die needs at least 2 sides, not {sides}")
        depth = explosion_depth(sides, 1, TAIL) if explode else -1
        spec = DieSpec(sides, explode=Explode() if explode else None)
        return cls(die_pmf(spec, depth, exact))

    @classmethod
    def constant(cls, value: int, *, exact: bool = True) -> Dist:
        """A sure value."""
        weights = zeros((1,), exact)
        weights[0] = 1 if exact else 1.0
        return cls(Pmf(NUMERIC, (value,), weights, 1, 0.0))

    @classmethod
    def from_outcomes(cls, outcomes: Mapping[int, Weight], *, truncated: float = 0.0) -> Dist:
        """Explicit outcomes → probabilities (exact when every probability is a Fraction or
        int). They must be non-negative and sum to ``1 - truncated`` (within 1e-9 for floats,
        exactly for fractions)."""
        if not outcomes:
            raise ValueError("a distribution needs at least one outcome")
        values = sorted(outcomes)
        low, high = values[0], values[-1]
        check_cells(high - low + 1, f"{high - low + 1} values")
        probabilities = [outcomes[v] for v in values]
        if any(p < 0 for p in probabilities):
            raise ValueError("probabilities must not be negative")
        if all(_exact_weight(p) for p in probabilities):
            fractions = [Fraction(p) for p in probabilities]
            denominator = math.lcm(*(f.denominator for f in fractions))
            weights = zeros((high - low + 1,), True)
            for value, fraction in zip(values, fractions, strict=True):
                weights[value - low] = fraction.numerator * (denominator // fraction.denominator)
            total = Fraction(int(weights.sum()), denominator)
            if truncated == 0.0 and total != 1:
                raise ValueError(f"probabilities sum to {total}, not 1")
        else:
            weights = np.zeros(high - low + 1)
            for value, p in zip(values, probabilities, strict=True):
                weights[value - low] = float(p)
            denominator = 1
            if abs(float(weights.sum()) + truncated - 1.0) > 1e-9:
                raise ValueError(f"probabilities sum to {weights.sum()}, not {1 - truncated}")
        return cls(Pmf(NUMERIC, (low,), weights, denominator, truncated))

    # -- reading ---------------------------------------------------------------------------

    @property
    def exact(self) -> bool:
        """Whether the weights are exact integers (:meth:`fractions` available)."""
        return self._pmf.exact

    @property
    def truncated(self) -> float:
        """Probability mass left out (exploding dice cut off); the outcomes sum to 1 − this."""
        return float(self._pmf.missing)

    def exact_truncated(self) -> Fraction:
        """The mass left out as an exact fraction, ``1 −`` the sum of :meth:`fractions`
        (exact distributions only)."""
        pmf = self._pmf
        if not pmf.exact:
            raise ValueError("a float distribution has no exact fractions (build it exact=True)")
        return 1 - Fraction(int(pmf.weights.sum()), pmf.denominator)

    @property
    def cost(self) -> float:
        """The estimated work that built this distribution (odds-budget units)."""
        return self._cost

    @property
    def low(self) -> int:
        """The lowest possible outcome."""
        return self._nonzero()[0]

    @property
    def high(self) -> int:
        """The highest possible outcome."""
        return self._nonzero()[-1]

    def _nonzero(self) -> list[int]:
        return (np.nonzero(self._pmf.weights)[0] + self._pmf.offset[0]).tolist()

    def table(self) -> dict[int, float]:
        """Every possible outcome → its probability (float), in ascending order."""
        pmf = self._pmf
        low = pmf.offset[0]
        if pmf.exact:
            # int / int is correctly rounded in Python, however large the integers
            denominator = pmf.denominator
            return {low + i: w / denominator for i, w in enumerate(pmf.weights.tolist()) if w}
        return {low + i: w for i, w in enumerate(pmf.weights.tolist()) if w}

    def fractions(self) -> dict[int, Fraction]:
        """Every possible outcome → its exact probability (exact distributions only)."""
        pmf = self._pmf
        if not pmf.exact:
            raise ValueError("a float distribution has no exact fractions (build it exact=True)")
        low = pmf.offset[0]
        return {
            low + i: Fraction(int(w), pmf.denominator)
            for i, w in enumerate(pmf.weights.tolist())
            if w
        }

    def probability(self, value: int) -> float:
        """P(outcome = ``value``)."""
        return self._mass(lambda values: values == value)

    def at_least(self, k: int) -> float:
        """P(outcome ≥ ``k``)."""
        return self._mass(lambda values: values >= k)

    def at_most(self, k: int) -> float:
        """P(outcome ≤ ``k``)."""
        return self._mass(lambda values: values <= k)

    def _mass(self, test: Callable[[Array], Array]) -> float:
        pmf = self._pmf
        values = np.arange(len(pmf.weights)) + pmf.offset[0]
        chosen = pmf.weights[test(values)]
        if pmf.exact:
            return int(chosen.sum()) / pmf.denominator
        return math.fsum(chosen.tolist())

    @property
    def mean(self) -> float:
        """The expected outcome (of the mass that is not truncated)."""
        table = self.table()
        return math.fsum(v * p for v, p in table.items()) / math.fsum(table.values())

    def exact_mean(self) -> Fraction:
        """The expected outcome as an exact fraction (exact distributions only)."""
        table = self.fractions()
        return sum((v * p for v, p in table.items()), Fraction(0)) / sum(table.values())

    @property
    def std(self) -> float:
        """The standard deviation of the outcome."""
        table = self.table()
        total = math.fsum(table.values())
        mean = math.fsum(v * p for v, p in table.items()) / total
        return math.sqrt(max(math.fsum((v - mean) ** 2 * p for v, p in table.items()) / total, 0))

    def __repr__(self) -> str:
        mode = "exact" if self.exact else "float"
        return f"Dist({mode}, {self.low}…{self.high}, truncated={self.truncated:.1e})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        if self.exact and other.exact:
            return self.fractions() == other.fractions() and self.truncated == other.truncated
        return self.table() == other.table() and self.truncated == other.truncated

    __hash__ = None  # type: ignore[assignment]

    # -- arithmetic ------------------------------------------------------------------------

    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, int):
            pmf = self._pmf
            return Dist(
                Pmf(NUMERIC, (pmf.offset[0] + other,), pmf.weights, pmf.denominator, pmf.missing),
                self._cost,
            )
        a, b = _same_mode(self, other)
        return Dist(add(a._pmf, b._pmf), a._charge(b, "+"))

    __radd__ = __add__

    def __neg__(self) -> Dist:
        return Dist(negate(self._pmf), self._cost)

    def __sub__(self, other: Dist | int) -> Dist:
        if isinstance(other, int):
            return self + (-other)
        a, b = _same_mode(self, other)
        return Dist(difference(a._pmf, b._pmf, clamp=False), a._charge(b, "-"))

    def __rsub__(self, other: int) -> Dist:
        return -self + other

    def __mul__(self, other: Dist | int) -> Dist:
        if isinstance(other, int):
            return self.map(lambda value: value * other)
        a, b = _same_mode(self, other)
        pairs = len(a._pmf.weights) * len(b._pmf.weights)
        return Dist(multiply(a._pmf, b._pmf), a._spend(b._cost + _STEP + 150.0 * pairs, "*"))

    __rmul__ = __mul__

    def repeat(self, times: int) -> Dist:
        """The sum of ``times`` independent copies (``0``: the sure 0), by repeated squaring,
        e.g. ``Dist.die(6).repeat(3)`` is 3d6."""
        if times < 0:
            raise ValueError(f"cannot repeat a distribution {times} times")
        pmf = self._pmf
        size = (len(pmf.weights) - 1) * times + 1
        check_cells(size, f"{size} values")
        bits = pmf.denominator.bit_length() * times if pmf.exact else 0
        steps = max(times.bit_length(), 1)
        step = convolution_cost(size, size, bits, bits, exact=pmf.exact)
        cost = self._spend(_STEP + steps * step, "repeat")
        return Dist(power(pmf, times), cost)

    def map(self, function: Callable[[int], int]) -> Dist:
        """The distribution of ``function(outcome)`` (any function of the outcome, e.g.
        ``lambda n: max(n, 0)``; outcomes that map to one value add up)."""
        pmf = self._pmf
        values = [function(pmf.offset[0] + i) for i in np.nonzero(pmf.weights)[0].tolist()]
        weights = pmf.weights[np.nonzero(pmf.weights)[0]]
        low, high = min(values), max(values)
        check_cells(high - low + 1, f"{high - low + 1} values")
        out = zeros((high - low + 1,), pmf.exact)
        np.add.at(out, np.array(values, dtype=np.int64) - low, weights)
        cost = self._spend(_STEP + 3.0 * len(values), "map")
        return Dist(Pmf(NUMERIC, (low,), out, pmf.denominator, pmf.missing), cost)

    def clamp(self, low: int | None = None, high: int | None = None) -> Dist:
        """Outcomes below ``low`` count as ``low``, above ``high`` as ``high``."""
        lo = -math.inf if low is None else low
        hi = math.inf if high is None else high
        return self.map(lambda value: int(min(max(value, lo), hi)))

    def then(self, branch: Callable[[int], Dist | int]) -> Dist:
        """A mixture chosen by this outcome: for each outcome ``v`` with probability ``p``,
        ``branch(v)`` (a distribution or a sure number) with weight ``p``. E.g. an attack
        roll's outcome choosing no damage, damage, or critical damage."""
        parts = [
            (p, Dist.constant(d, exact=self.exact) if isinstance(d, int) else d)
            for p, d in self._weighted(branch)
        ]
        return Dist._mix(parts, self.truncated, self._cost)

    def _weighted(self, branch: Callable[[int], Dist | int]) -> Iterable[tuple[Weight, Dist | int]]:
        if self.exact:
            for value, fraction in self.fractions().items():
                yield fraction, branch(value)
        else:
            for value, p in self.table().items():
                yield p, branch(value)

    @staticmethod
    def mixture(parts: Iterable[tuple[Weight, Dist | int]]) -> Dist:
        """A weighted mixture: with probability ``w`` the outcome is drawn from that part.
        The weights must sum to 1 (exact when they are Fractions and every part is exact)."""
        chosen = [(w, Dist.constant(d) if isinstance(d, int) else d) for w, d in parts]
        total = sum(w for w, _ in chosen)
        if any(w < 0 for w, _ in chosen) or abs(float(total) - 1.0) > 1e-9:
            raise ValueError(f"mixture weights must be non-negative and sum to 1, not {total}")
        return Dist._mix(chosen, 0.0, 0.0)

    @staticmethod
    def _mix(parts: list[tuple[Weight, Dist]], missing: float, cost: float) -> Dist:
        parts = [(w, d) for w, d in parts if w]
        if not parts:
            raise ValueError("a mixture needs a part with positive weight")
        low = min(d._pmf.offset[0] for _, d in parts)
        high = max(d._pmf.offset[0] + len(d._pmf.weights) - 1 for _, d in parts)
        check_cells(high - low + 1, f"{high - low + 1} values")
        truncated = missing + math.fsum(float(w) * d.truncated for w, d in parts)
        spent = cost + math.fsum(d._cost for _, d in parts) + _STEP * len(parts)
        spent += 3.0 * (high - low + 1) * len(parts)
        _check_spent(spent, "mixture")
        if all(_exact_weight(w) and d.exact for w, d in parts):
            shares = [Fraction(w) / d._pmf.denominator for w, d in parts]
            denominator = math.lcm(*(s.denominator for s in shares))
            out = zeros((high - low + 1,), True)
            for share, (_, d) in zip(shares, parts, strict=True):
                start = d._pmf.offset[0] - low
                factor = share.numerator * (denominator // share.denominator)
                out[start : start + len(d._pmf.weights)] += d._pmf.weights * factor
            return Dist(Pmf(NUMERIC, (low,), out, denominator, truncated), spent)
        out = np.zeros(high - low + 1)
        for w, d in parts:
            start = d._pmf.offset[0] - low
            out[start : start + len(d._pmf.weights)] += float(w) * d._floats()
        return Dist(Pmf(NUMERIC, (low,), out, 1, truncated), spent)

    def _floats(self) -> Array:
        pmf = self._pmf
        if not pmf.exact:
            return pmf.weights
        return np.array([int(w) / pmf.denominator for w in pmf.weights.tolist()])

    def as_float(self) -> Dist:
        """The same distribution with float64 probabilities."""
        if not self.exact:
            return self
        pmf = self._pmf
        return Dist(Pmf(NUMERIC, pmf.offset, self._floats(), 1, pmf.missing), self._cost)

    # -- comparing -------------------------------------------------------------------------

    def _indicator(self, test: Callable[[int], bool]) -> Dist:
        return self.map(lambda value: int(test(value)))

    def __ge__(self, k: int) -> Dist:
        return self._indicator(lambda value: value >= k)

    def __gt__(self, k: int) -> Dist:
        return self._indicator(lambda value: value > k)

    def __le__(self, k: int) -> Dist:
        return self._indicator(lambda value: value <= k)

    def __lt__(self, k: int) -> Dist:
        return self._indicator(lambda value: value < k)

    def vs(self, other: Dist | int) -> Contest:
        """This side against ``other``: the chances that it is higher (win), equal (tie) or
        lower (lose), and the margin ``self - other`` (its positive part is the win)."""
        margin = self - other
        return Contest(
            win=margin.at_least(1),
            tie=margin.probability(0),
            lose=margin.at_most(-1),
            margin=margin,
        )

    # -- the budget ------------------------------------------------------------------------

    def _charge(self, other: Dist, what: str) -> float:
        a, b = self._pmf, other._pmf
        bits_a = a.denominator.bit_length() if a.exact else 0
        bits_b = b.denominator.bit_length() if b.exact else 0
        step = convolution_cost(len(a.weights), len(b.weights), bits_a, bits_b, exact=a.exact)
        return self._spend(other._cost + step, what)

    def _spend(self, more: float, what: str) -> float:
        spent = self._cost + more
        _check_spent(spent, what)
        return spent


_STEP = 2_000.0


def _check_spent(spent: float, what: str) -> None:
    budget = default_budget()
    if spent > budget:
        raise too_costly(what, spent, budget)


def _same_mode(a: Dist, b: Dist) -> tuple[Dist, Dist]:
    if a.exact == b.exact:
        return a, b
    return a.as_float(), b.as_float()


@dataclass(frozen=True)
class Contest:
    """The outcome of ``a.vs(b)``: win + tie + lose = 1 − ``margin.truncated``."""

    win: float
    """P(a > b)."""
    tie: float
    """P(a = b)."""
    lose: float
    """P(a < b)."""
    margin: Dist
    """The distribution of a − b."""

    def exact(self) -> tuple[Fraction, Fraction, Fraction]:
        """Win, tie and lose as exact fractions (both sides exact)."""
        table = self.margin.fractions()
        zero = Fraction(0)
        return (
            sum((p for v, p in table.items() if v > 0), zero),
            table.get(0, zero),
            sum((p for v, p in table.items() if v < 0), zero),
        )

    def to_json(self) -> dict[str, Any]:
        """``{"win", "tie", "lose", "margin": {value: probability}}``."""
        return {
            "win": self.win,
            "tie": self.tie,
            "lose": self.lose,
            "margin": {str(v): p for v, p in self.margin.table().items()},
        }
