"""The evaluation of an expression tree into a dense distribution (either mode)."""

from __future__ import annotations

from collections.abc import Mapping

from spieltisch.dice.arrays import (
    MAX_CELLS,
    NUMERIC,
    Pmf,
    add,
    check_cells,
    clamp_successes,
    difference,
    key_union,
    marginal,
    multiply,
    negate,
    zeros,
)
from spieltisch.dice.cost import check_budget
from spieltisch.dice.exploding import depth_of
from spieltisch.dice.keep import KEEP_BUDGET, KEEP_BUDGET_EXACT, keep_pmf, like_keep, mixed_keep
from spieltisch.dice.notation import (
    Abs,
    BinaryOp,
    Constant,
    Dice,
    DieSpec,
    Divide,
    Expression,
    Group,
    Kind,
    Negate,
    Pool,
    Test,
)
from spieltisch.dice.pools import indicator, numeric_dice, pool_power, scored, symbol_die_pmf
from spieltisch.dice.tree import Visitor

SUCCESSES = ("successes",)

Need = tuple[str, ...] | None
"""The symbol keys a caller needs of a node's result (``None``: all of them)."""


class _Evaluator(Visitor[Need, Pmf]):
    """The dense distribution of each node; the context limits symbol results to its keys."""

    def __init__(self, depths: Mapping[DieSpec, int], exact: bool) -> None:
        self.depths = depths
        self.exact = exact

    def constant(self, node: Constant, context: Need) -> Pmf:
        weights = zeros((1,), self.exact)
        weights[0] = 1 if self.exact else 1.0
        return Pmf(NUMERIC, (node.value,), weights, 1, 0.0)

    def dice(self, node: Dice, context: Need) -> Pmf:
        depth = depth_of(self.depths, node)
        if node.keep is not None:
            return keep_pmf(node, depth, self.exact)
        if depth >= 0:
            check_cells(node.count * (depth + 1) * node.sides, str(node))
        return pool_power(numeric_dice(node, depth, self.exact), node.count)

    def divide(self, node: Divide, context: Need) -> Pmf:
        return scored(self.visit(node.operand, None), node.apply)

    def absolute(self, node: Abs, context: Need) -> Pmf:
        return scored(self.visit(node.operand, None), abs)

    def test(self, node: Test, context: Need) -> Pmf:
        return indicator(self.visit(node.operand, None), node.compare)

    def group(self, node: Group, context: Need) -> Pmf:
        members = [self.visit(member, None) for member in node.members]
        if node.keep is not None:
            if all(member == node.members[0] for member in node.members):
                return like_keep(
                    members[0], len(members), node.keep, node.score, self.exact, str(node)
                )
            return mixed_keep(members, node.keep, node.score, self.exact, str(node))
        total = None
        for pmf in members:
            counted = scored(pmf, node.score) if node.counting else pmf
            total = counted if total is None else add(total, counted)
        assert total is not None
        return total

    def pool(self, node: Pool, context: Need) -> Pmf:
        numeric = node.kind is Kind.NUMBER
        pmf = symbol_die_pmf(node.die, numeric, self.exact, None if numeric else context)
        return pool_power(pmf, node.count)

    def negate(self, node: Negate, context: Need) -> Pmf:
        return negate(self.visit(node.operand, None))

    def binary(self, node: BinaryOp, context: Need) -> Pmf:
        if node.op == "*":
            return multiply(self.visit(node.left, None), self.visit(node.right, None))
        if node.comparative:
            left = marginal(self.visit(node.left, SUCCESSES), SUCCESSES)
            right = marginal(self.visit(node.right, SUCCESSES), SUCCESSES)
            return difference(left, right, clamp=False)
        if node.malus:
            keys = node.keys if context is None else key_union(context, SUCCESSES)
            left = marginal(self.visit(node.left, keys), keys)
            right = marginal(self.visit(node.right, SUCCESSES), SUCCESSES)
            if left.keys == SUCCESSES:
                return difference(left, right, clamp=True)
            return clamp_successes(add(left, negate(right)))
        left = self.visit(node.left, context)
        right = self.visit(node.right, context)
        if node.op == "+":
            return add(left, right)
        return add(left, negate(right))


def evaluate(
    node: Expression, depths: Mapping[DieSpec, int], exact: bool, need: Need = None
) -> Pmf:
    """The distribution of ``node`` (float or ``exact`` weights); ``need`` limits symbol
    results to those keys. Explosions are cut at ``depths`` (see
    :func:`~spieltisch.dice.exploding.depths_of`)."""
    return _Evaluator(depths, exact).visit(node, need)


def check_cost(
    node: Expression, depths: Mapping[DieSpec, int], exact: bool, budget: int | None
) -> None:
    """Refuse ``node`` with ``dice.odds_too_costly`` when its estimated work exceeds
    ``budget`` (see :mod:`spieltisch.dice.cost`)."""
    keep = KEEP_BUDGET_EXACT if exact else KEEP_BUDGET
    check_budget(node, depths, exact=exact, budget=budget, max_cells=MAX_CELLS, keep_budget=keep)
