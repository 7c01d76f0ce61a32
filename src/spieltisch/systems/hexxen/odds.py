"""Exact odds of HeXXen checks, as fractions.

A check's total is a distribution over 0, 1, 2, …: HeXXen dice (a hunter's ``H``: a success on
two faces, a star on one; the GM's ``M``: a success on three faces), then ``|net|`` Janus dice
(a symbol on three faces) added as a bonus or removed as a malus, never below 0. A contest
subtracts the defender's total from the attacker's: the Differenzerfolge.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from spieltisch.engine.system import Odds, OddsOutcome

__all__ = [
    "Contest",
    "Distribution",
    "Fraction",
    "as_odds",
    "binomial",
    "contest",
    "pool",
    "succeeds",
]

Distribution = tuple[Fraction, ...]
"""Chance of each total 0, 1, 2, …"""

_HALF = Fraction(1, 2)


@cache
def binomial(count: int, chance: Fraction) -> Distribution:
    """How many of ``count`` trials succeed, each with ``chance``."""
    row = [Fraction(1)]
    for _ in range(count):
        nxt = [Fraction(0)] * (len(row) + 1)
        for k, p in enumerate(row):
            nxt[k] += p * (1 - chance)
            nxt[k + 1] += p * chance
        row = nxt
    return tuple(row)


@cache
def _hunter_dice(count: int, stars_count: bool) -> Distribution:
    if not stars_count:
        return binomial(count, Fraction(1, 3))
    joint: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    faces = (((1, 0), Fraction(1, 3)), ((0, 1), Fraction(1, 6)), ((0, 0), Fraction(1, 2)))
    for _ in range(count):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (s, t), p in joint.items():
            for (ds, dt), q in faces:
                key = (s + ds, t + dt)
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
        joint = nxt
    out = [Fraction(0)] * (count + count // 2 + 1)
    for (s, t), p in joint.items():
        out[s + t // 2] += p
    return _trim(out)


def _trim(values: Sequence[Fraction]) -> Distribution:
    out = list(values)
    while len(out) > 1 and out[-1] == 0:
        out.pop()
    return tuple(out)


@cache
def pool(dice: int, net: int = 0, *, gm: bool = False, stars_count: bool = False) -> Distribution:
    """The total of a check: ``dice`` HeXXen dice (``gm``: every symbol counts) with ``|net|``
    Janus dice as bonus (``net > 0``) or malus (``net < 0``)."""
    base = binomial(dice, _HALF) if gm else _hunter_dice(dice, stars_count)
    if net == 0:
        return base
    janus = binomial(abs(net), _HALF)
    size = len(base) + (len(janus) - 1 if net > 0 else 0)
    out = [Fraction(0)] * size
    for s, p in enumerate(base):
        for j, q in enumerate(janus):
            total = s + j if net > 0 else max(0, s - j)
            out[total] += p * q
    return _trim(out)


class Contest:
    """The Differenzerfolge of an active roll against a defending one."""

    def __init__(self, active: Distribution, defence: Distribution) -> None:
        margins: dict[int, Fraction] = {}
        for a, p in enumerate(active):
            for d, q in enumerate(defence):
                margins[a - d] = margins.get(a - d, Fraction(0)) + p * q
        self.margins = dict(sorted(margins.items()))
        """Margin (active − defence) → chance."""

    def succeeds(self, threshold: int = 1) -> Fraction:
        """Chance of at least ``threshold`` Differenzerfolge for the active side."""
        return sum((p for m, p in self.margins.items() if m >= threshold), Fraction(0))

    def ahead(self) -> dict[int, Fraction]:
        """Chance of each positive margin 1, 2, … up to the most the active side can roll."""
        top = max(self.margins)
        return {m: self.margins.get(m, Fraction(0)) for m in range(1, top + 1)}


def contest(active: Distribution, defence: Distribution) -> Contest:
    """The contest of two totals (see :class:`Contest`)."""
    return Contest(active, defence)


def succeeds(active: Distribution, defence: Distribution, threshold: int = 1) -> Fraction:
    """Chance that the active side gets at least ``threshold`` Differenzerfolge."""
    return contest(active, defence).succeeds(threshold)


def as_odds(chances: dict[int, Fraction] | Distribution) -> Odds:
    """A distribution as the contract's :class:`~spieltisch.engine.system.Odds`."""
    items = chances.items() if isinstance(chances, dict) else enumerate(chances)
    outcomes = [
        OddsOutcome(value=k, probability=float(p), exact=f"{p.numerator}/{p.denominator}")
        for k, p in items
    ]
    mean = sum(
        float(p) * k
        for k, p in (chances.items() if isinstance(chances, dict) else enumerate(chances))
    )
    return Odds(outcomes=outcomes, mean=mean)
