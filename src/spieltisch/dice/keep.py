"""Keep and drop: the kept dice's sum (or success count) by order statistics.

Two programmes: :func:`keep_pmf` for a pool of like dice (a dice term, a group of equal
members) and :func:`mixed_keep` for a group of members with different distributions.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from spieltisch.dice.arrays import NUMERIC, Array, Pmf, too_complex, zeros
from spieltisch.dice.exploding import die_pmf
from spieltisch.dice.notation import Dice, Keep

KEEP_BUDGET = 400_000_000
KEEP_BUDGET_EXACT = 20_000_000

Score = Callable[[int], int]


def keep_pmf(node: Dice, depth: int, exact: bool) -> Pmf:
    """Sum (or success count) of the kept dice of a dice term."""
    assert node.keep is not None
    die = die_pmf(node.spec, depth, exact)
    return like_keep(die, node.count, node.keep, node.score, exact, str(node))


def like_keep(die: Pmf, total: int, keep_rule: Keep, score: Score, exact: bool, what: str) -> Pmf:
    """Sum of the scores of the kept ones of ``total`` like dice: order statistics by dynamic
    programming.

    Die values are visited from the best kept value down. A state counts the dice already
    placed at the visited values (fewer than ``keep``) and holds the distribution of the kept
    score so far; once ``keep`` dice are placed the others must all fall below the current
    value, which closes the state. The work grows with values × kept dice × score range;
    past a budget the expression is refused with ``dice.too_complex``.
    """
    highest, keep = keep_rule.kept(total)
    order = np.nonzero(die.weights)[0]
    if highest:
        order = order[::-1]
    values = [int(i) + die.offset[0] for i in order]
    probs = [die.weights[i] for i in order]
    raw = [score(v) for v in values]
    low = min(raw)
    scores = [s - low for s in raw]
    size = keep * max(scores) + 1
    cost = len(values) * keep * (keep + 1) * size
    budget = KEEP_BUDGET_EXACT if exact else KEEP_BUDGET
    if cost > budget:
        raise too_complex(f"{what}: {cost:.0e}", budget)
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
        (keep * low,),
        done,
        die.denominator**total if exact else 1,
        1.0 - (1.0 - die.missing) ** total if die.missing else 0.0,
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


def mixed_keep(members: list[Pmf], keep_rule: Keep, score: Score, exact: bool, what: str) -> Pmf:
    """Sum of the scores of the kept ones of independent members with different
    distributions (a group roll such as ``{1d20+5, 2d10}kh1``).

    For each value ``t`` the ``k``-th kept member may show, a programme over the members
    counts those better than ``t`` (fewer than ``k``, with the sum of their scores) and
    those equal to it (enough to fill up to ``k``); the kept sum is the better ones' scores
    plus ``k`` minus their number times the score of ``t``.
    """
    count = len(members)
    highest, keep = keep_rule.kept(count)
    sign = 1 if highest else -1
    tables: list[dict[int, Any]] = []
    for pmf in members:
        low = pmf.offset[0]
        tables.append({sign * (low + i): w for i, w in enumerate(pmf.weights.tolist()) if w})
    values = sorted({v for table in tables for v in table}, reverse=True)
    raw = {v: score(sign * v) for v in values}
    low_score = min(raw.values())
    gains = {v: raw[v] - low_score for v in values}
    size = keep * max(gains.values()) + 1
    cost = len(values) * count * keep * (keep + 1) * size
    budget = KEEP_BUDGET_EXACT if exact else KEEP_BUDGET
    if cost > budget:
        raise too_complex(f"{what}: {cost:.0e}", budget)
    zero: Any = 0 if exact else 0.0
    done = zeros((size,), exact)
    for t in values:
        gain_t = gains[t]
        # states[a][b] = weights over the score of the a better members; b equal ones (≤ k)
        states: dict[tuple[int, int], Array] = {}
        start = zeros((size,), exact)
        start[0] = 1 if exact else 1.0
        states[(0, 0)] = start
        for table in tables:
            better = [(gains[v], w) for v, w in table.items() if v > t]
            equal = table.get(t, zero)
            below = sum((w for v, w in table.items() if v < t), zero)
            fresh: dict[tuple[int, int], Array] = {}
            for (a, b), state in states.items():
                for gain, weight in better:
                    if a + 1 < keep:
                        _shift_add(fresh, (a + 1, b), state, gain, weight, exact, size)
                if equal:
                    _shift_add(fresh, (a, min(b + 1, keep)), state, 0, equal, exact, size)
                if below:
                    _shift_add(fresh, (a, b), state, 0, below, exact, size)
            states = fresh
        for (a, b), state in states.items():
            if a + b >= keep and b >= 1:
                shift = (keep - a) * gain_t
                done[shift:] += state[: size - shift]
    denominator = math.prod(pmf.denominator for pmf in members) if exact else 1
    missing = 1.0 - math.prod(1.0 - pmf.missing for pmf in members)
    return Pmf(NUMERIC, (keep * low_score,), done, denominator, missing if missing > 0 else 0.0)


def _shift_add(
    states: dict[tuple[int, int], Array],
    key: tuple[int, int],
    state: Array,
    shift: int,
    weight: Any,
    exact: bool,
    size: int,
) -> None:
    target = states.get(key)
    if target is None:
        target = states[key] = zeros((size,), exact)
    if shift:
        target[shift:] += state[: size - shift] * weight
    else:
        target += state * weight
