"""Keep and drop: the kept dice's sum (or success count) by order statistics."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from spieltisch.dice.arrays import NUMERIC, Array, Pmf, too_complex, zeros
from spieltisch.dice.exploding import die_pmf
from spieltisch.dice.notation import Dice

KEEP_BUDGET = 400_000_000
KEEP_BUDGET_EXACT = 20_000_000


def keep_pmf(node: Dice, depth: int, exact: bool) -> Pmf:
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
    die = die_pmf(node.sides, depth if node.explode else -1, exact)
    order = np.nonzero(die.weights)[0]
    if highest:
        order = order[::-1]
    values = [int(i) + die.offset[0] for i in order]
    probs = [die.weights[i] for i in order]
    compare = node.compare
    scores = [v if compare is None else int(compare.test(v)) for v in values]
    size = keep * max(max(scores), 0) + 1
    cost = len(values) * keep * (keep + 1) * size
    if cost > (KEEP_BUDGET_EXACT if exact else KEEP_BUDGET):
        budget = KEEP_BUDGET_EXACT if exact else KEEP_BUDGET
        raise too_complex(f"{node}: {cost:.0e}", budget)
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
    return Pmf(
        NUMERIC,
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
    first = zeros((size,), True)
    first[0] = 1
    states[0] = first
    done = zeros((size,), True)
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
                        target = fresh[placed + c] = zeros((size,), True)
                    target[shift:] += state[: size - shift] * factor
        states = fresh
    return done
