"""Exact odds of HeXXen checks, as fractions.

A check's total is a distribution over 0, 1, 2, …: HeXXen dice (a hunter's ``H``: a success on
two faces, a star on one; the GM's ``M``: a success on three faces), then ``|net|`` Janus dice
(a symbol on three faces) added as a bonus or removed as a malus, never below 0. A contest
subtracts the defender's total from the attacker's: the Differenzerfolge.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache

from spieltisch.dice.dist import Dist
from spieltisch.engine.system import Odds, OddsOutcome

__all__ = [
    "Contest",
    "Distribution",
    "Fraction",
    "affected",
    "as_odds",
    "binomial",
    "contest",
    "pool",
    "special",
    "succeeds",
]

Distribution = tuple[Fraction, ...]
"""Chance of each total 0, 1, 2, …"""


def _dense(dist: Dist) -> Distribution:
    table = dist.fractions()
    return tuple(table.get(k, Fraction(0)) for k in range(dist.high + 1))


def _dist(chances: Distribution) -> Dist:
    return Dist.from_outcomes(dict(enumerate(chances)))


@cache
def binomial(count: int, chance: Fraction) -> Distribution:
    """How many of ``count`` trials succeed, each with ``chance``."""
    trial = Dist.from_outcomes({0: 1 - chance, 1: chance})
    return _dense(trial.repeat(count))


def _with_stars(counts: Mapping[str, int]) -> int:
    return counts["successes"] + counts["stars"] // 2


@cache
def pool(dice: int, net: int = 0, *, gm: bool = False, stars_count: bool = False) -> Distribution:
    """The total of a check: ``dice`` HeXXen dice (``gm``: every symbol counts) with ``|net|``
    Janus dice as bonus (``net > 0``) or malus (``net < 0``)."""
    total = Dist.constant(0)
    if dice:
        key = _with_stars if stars_count and not gm else "successes"
        total = Dist.of(f"{dice}{'M' if gm else 'H'}", key=key, exact=True)
    if net:
        janus = Dist.of(f"{abs(net)}J", exact=True)
        total = total + janus if net > 0 else (total - janus).clamp(low=0)
    return _dense(total)


def _drops(counts: Mapping[str, int]) -> int:
    return counts.get("drops", 0)


@cache
def special(letter: str, count: int) -> Distribution:
    """The number ``count`` Blut dice (``B``: their drops) or Elixier dice (``E``: their
    values) show, added up."""
    if letter == "B":
        return _dense(Dist.of(f"{count}B", key=_drops, exact=True))
    return _dense(Dist.of(f"{count}E", exact=True))


class Contest:
    """The Differenzerfolge of an active roll against a defending one."""

    def __init__(self, active: Distribution, defence: Distribution) -> None:
        self.margins = _dist(active).vs(_dist(defence)).margin.fractions()
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


def affected(active: Distribution, defences: list[Distribution]) -> dict[int, Fraction]:
    """How many targets a power affects: the NSC rolls once (``active``), each target
    defends with his own total; a target is affected when the NSC is ahead of him. Given
    the NSC's total the targets are independent, so the count is summed over that total."""
    out: dict[int, Fraction] = {}
    for total, p_total in enumerate(active):
        if not p_total:
            continue
        count: list[Fraction] = [Fraction(1)]
        for defence in defences:
            hit = sum(defence[:total], Fraction(0))  # the target rolled less than ``total``
            nxt = [Fraction(0)] * (len(count) + 1)
            for k, p in enumerate(count):
                nxt[k] += p * (1 - hit)
                nxt[k + 1] += p * hit
            count = nxt
        for k, p in enumerate(count):
            out[k] = out.get(k, Fraction(0)) + p_total * p
    return out


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
