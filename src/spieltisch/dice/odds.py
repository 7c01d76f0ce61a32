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
dice that explode again and again, whose weights fit in 64 bits, is computed with integer
polynomials packed into one Python int (see :mod:`spieltisch.dice.small`: closed forms for
keep/drop, rerolls, bounds and comparisons); its float probabilities are the exact
fractions, correctly rounded. Most game checks are such, and there the fixed cost of array
code would dominate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from itertools import repeat
from operator import truediv
from typing import Any

from spieltisch.dice.arrays import MAX_CELLS, NUMERIC, Outcome, align, cells_of, comb_row, table_of
from spieltisch.dice.evaluate import check_cost, evaluate
from spieltisch.dice.exploding import TAIL, depths_of, die_pmf, die_weights
from spieltisch.dice.notation import Expression, parse
from spieltisch.dice.pools import cached_power, symbol_die_pmf
from spieltisch.dice.small import small_root

__all__ = [
    "MAX_CELLS",
    "TAIL",
    "Distribution",
    "clear_caches",
    "distribution",
    "janus_check",
    "success_count",
]

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

    def to_json(self, exact: bool = False, budget: int | None = None) -> dict[str, Any]:
        """The documented ``odds`` JSON (``exact`` adds ``"p/q"`` fractions, computed within
        ``budget``)."""
        outcomes: list[dict[str, Any]] = [
            {"value": value, "probability": p} for value, p in self.outcomes()
        ]
        if exact:
            fractions = dict(self._exact_table(budget))
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
            small = small_root(self._node)
            if small is not None:
                keys, low, weights, denominator = small
                self._exact = tuple(
                    (low + i if keys is None else (low + i,), Fraction(w, denominator))
                    for i, w in enumerate(weights)
                    if w
                )
                return self._exact
            depths = depths_of(self._node)
            check_cost(self._node, depths, True, budget)
            pmf = evaluate(self._node, depths, True, None)
            if self.keys is not None and pmf.keys != self.keys:
                pmf = align(pmf, self.keys)
            self._exact = tuple((o, Fraction(int(w), pmf.denominator)) for o, w in cells_of(pmf))
        return self._exact


def _build(node: Expression, budget: int | None) -> Distribution:
    small = small_root(node)
    if small is not None:
        keys, low, weights, denominator = small
        table: tuple[tuple[Outcome, float], ...]
        if keys is None and 0 not in weights:  # every value possible: no filter needed
            probabilities = map(truediv, weights, repeat(denominator))
            table = tuple(zip(range(low, low + len(weights)), probabilities, strict=True))
        elif keys is None:
            table = tuple([(low + i, w / denominator) for i, w in enumerate(weights) if w])
        else:
            table = tuple([((low + i,), w / denominator) for i, w in enumerate(weights) if w])
        return Distribution(node, keys, table, 0.0)
    depths = depths_of(node)
    check_cost(node, depths, False, budget)
    pmf = evaluate(node, depths, False, None)
    keys = None if pmf.keys == NUMERIC else pmf.keys
    if keys is not None and keys != node.keys:
        pmf = align(pmf, node.keys)
        keys = node.keys
    return Distribution(node, keys, table_of(pmf), float(pmf.missing))


@lru_cache(maxsize=4096)
def _parsed(text: str) -> Expression:
    return parse(text)


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
    cached_power.cache_clear()
    comb_row.cache_clear()
    _parsed.cache_clear()
    if dice:
        die_pmf.cache_clear()
        die_weights.cache_clear()
        symbol_die_pmf.cache_clear()
