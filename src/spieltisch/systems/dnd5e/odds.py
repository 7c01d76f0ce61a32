"""Exact odds of D&D 5e rolls, as fractions: attack rolls, damage and saving throws.

A d20 with advantage takes the higher of two dice: P(k) = (k² − (k − 1)²) / 400; with
disadvantage the lower: P(k) = ((21 − k)² − (20 − k)²) / 400. Damage distributions are
exact convolutions of the dice; a critical doubles the dice, not the modifier.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from spieltisch.systems.dnd5e.rules import Mode, attack_outcome

__all__ = [
    "AttackOdds",
    "DamageDice",
    "attack_damage",
    "attack_odds",
    "d20",
    "dice_sum",
    "save_odds",
]

Pmf = dict[int, Fraction]


def d20(mode: Mode = Mode.NORMAL) -> Pmf:
    """The distribution of the d20 that counts under ``mode``."""
    if mode is Mode.ADVANTAGE:
        return {k: Fraction(k * k - (k - 1) ** 2, 400) for k in range(1, 21)}
    if mode is Mode.DISADVANTAGE:
        return {k: Fraction((21 - k) ** 2 - (20 - k) ** 2, 400) for k in range(1, 21)}
    return {k: Fraction(1, 20) for k in range(1, 21)}


@dataclass(frozen=True)
class AttackOdds:
    """Chances of an attack roll; ``hit`` includes ``critical``."""

    hit: Fraction
    critical: Fraction
    miss: Fraction


def attack_odds(bonus: int, ac: int, mode: Mode = Mode.NORMAL, crit_from: int = 20) -> AttackOdds:
    """P(hit), P(critical) and P(miss) of d20 + ``bonus`` against ``ac``."""
    hit = crit = Fraction(0)
    for natural, chance in d20(mode).items():
        outcome = attack_outcome(natural, bonus, ac, crit_from)
        if outcome != "miss":
            hit += chance
        if outcome == "critical":
            crit += chance
    return AttackOdds(hit=hit, critical=crit, miss=1 - hit)


def save_odds(bonus: int, dc: int, mode: Mode = Mode.NORMAL) -> Fraction:
    """P(d20 + ``bonus`` ≥ ``dc``) for a saving throw or ability check (no automatic 1 or 20)."""
    return sum((p for k, p in d20(mode).items() if k + bonus >= dc), Fraction(0))


@dataclass(frozen=True)
class DamageDice:
    """``count`` d ``sides`` + ``modifier``, e.g. 1d6+2."""

    count: int
    sides: int
    modifier: int = 0

    def __str__(self) -> str:
        sign = (
            f"+{self.modifier}"
            if self.modifier > 0
            else (str(self.modifier) if self.modifier else "")
        )
        return f"{self.count}d{self.sides}{sign}"

    @property
    def average(self) -> int:
        """The stat block's average, rounded down."""
        return (self.count * (self.sides + 1)) // 2 + self.modifier


def _convolve(a: Pmf, b: Pmf) -> Pmf:
    out: Pmf = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


def dice_sum(count: int, sides: int, modifier: int = 0) -> Pmf:
    """The distribution of ``count``d``sides`` + ``modifier``, floored at 0 (damage)."""
    total: Pmf = {0: Fraction(1)}
    die = {k: Fraction(1, sides) for k in range(1, sides + 1)}
    for _ in range(count):
        total = _convolve(total, die)
    out: Pmf = {}
    for value, chance in total.items():
        key = max(value + modifier, 0)
        out[key] = out.get(key, Fraction(0)) + chance
    return out


def attack_damage(dice: list[DamageDice], odds: AttackOdds) -> Pmf:
    """The damage of one attack: 0 on a miss, the dice on a hit, doubled dice on a critical."""
    normal: Pmf = {0: Fraction(1)}
    critical: Pmf = {0: Fraction(1)}
    for part in dice:
        normal = _convolve(normal, dice_sum(part.count, part.sides, part.modifier))
        critical = _convolve(critical, dice_sum(part.count * 2, part.sides, part.modifier))
    mixed: Pmf = {0: odds.miss}
    plain = odds.hit - odds.critical
    for source, weight in ((normal, plain), (critical, odds.critical)):
        for value, chance in source.items():
            mixed[value] = mixed.get(value, Fraction(0)) + chance * weight
    return {k: v for k, v in sorted(mixed.items()) if v}


def mean(pmf: Mapping[int, Fraction]) -> Fraction:
    """The expected value of a distribution."""
    return sum((Fraction(k) * p for k, p in pmf.items()), Fraction(0))
