"""Exact odds of Kreiswanderer's rolls: the exploding d10 and everything built on it.

An exploding d10 shows ``10·k + r`` (``r`` in 1…9) with probability ``10^-(k+1)``; it is
:meth:`Dist.die(10, explode=True) <spieltisch.dice.dist.Dist.die>`, cut where what is left out
is at most :data:`TAIL` (the levels ``k < 12``, leaving out exactly ``10^-12``). Every result
reports that mass as ``truncated``; the distributions are exact, so sums of several dice are
too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cache
from typing import Any

from spieltisch.dice.dist import Dist
from spieltisch.engine.system import Odds, OddsOutcome
from spieltisch.systems.kreiswanderer.rules import CRITICAL, damage_after_resistance

__all__ = [
    "LEVELS",
    "TAIL",
    "accumulated_odds",
    "as_odds",
    "attack_odds",
    "check_odds",
    "comparative_odds",
    "exploding_d10",
]

TAIL = Fraction(1, 10**12)
"""Largest probability mass the cut of the exploding tail may leave out."""
LEVELS = 12
"""Explosion levels kept: ``10^-LEVELS`` = :data:`TAIL` is left out."""
_MISS = -1  # below every damage (damage is never below 0)


@cache
def _d10() -> Dist:
    return Dist.die(10, explode=True, exact=True)


def _share(table: Mapping[int, Fraction], test: Callable[[int], bool]) -> Fraction:
    return sum((p for v, p in table.items() if test(v)), Fraction(0))


def exploding_d10() -> tuple[dict[int, Fraction], Fraction]:
    """The distribution of one exploding d10 (value → probability) and the mass left out."""
    return _d10().fractions(), _d10().exact_truncated()


def check_odds(value: int, target: int) -> dict[str, Any]:
    """A Talentprobe's odds: pass, critical success and failure, and every signed margin."""
    margins = (_d10() + (value - target)).fractions()
    return {
        "value": value,
        "target": target,
        "pass": _share(margins, lambda m: m >= 0),
        "critical_success": _share(margins, lambda m: m >= CRITICAL),
        "critical_failure": _share(margins, lambda m: m <= -CRITICAL),
        "outcomes": [
            {"quality": m, "passed": m >= 0, "probability": p} for m, p in margins.items()
        ],
        "truncated": _d10().exact_truncated(),
    }


def attack_odds(
    value: int, target: int, bonus: int, resistance: int, protection: int = 0, extra: int = 0
) -> dict[str, Fraction]:
    """An attack's outcomes: ``"miss"`` or the hit points lost.

    A hit loses quality + ``bonus`` − ``resistance`` − ``protection`` (not below 0) plus the
    ``extra`` damage of the weapon's Zusatzschaden markings (after their resistances).
    """
    damage = (_d10() + (value - target)).map(
        lambda m: (
            _MISS if m < 0 else damage_after_resistance(m, bonus, resistance, protection) + extra
        )
    )
    return {("miss" if d == _MISS else str(d)): p for d, p in damage.fractions().items()}


def comparative_odds(active: int, passive: int, tie: str) -> dict[str, Fraction]:
    """Chance of each side to win a comparative check (``tie``: who wins equal results)."""
    fight = (_d10() + active).vs(_d10() + passive)
    win, equal, lose = fight.exact()
    return {
        "active": win + (equal if tie == "active" else 0),
        "passive": lose + (equal if tie == "passive" else 0),
        "truncated": fight.margin.exact_truncated(),
    }


def accumulated_odds(value: int, target: int, quality: int, rolls: int) -> dict[str, Fraction]:
    """Chance that ``rolls`` rolls of an accumulated check add up to ``target + quality``.

    Each roll adds Talentwert + an exploding d10; explosions use up no roll. Sums past the
    needed total are kept in one bucket, so the work stays small.
    """
    need = target + quality
    roll = _d10() + value
    total = Dist.constant(0)
    for _ in range(rolls):
        total = total.then(lambda t: (roll + t).clamp(high=max(need, t)))
    return {
        "reach": _share(total.fractions(), lambda t: t >= need),
        "truncated": total.exact_truncated(),
    }


def as_odds(chances: Mapping[Any, Fraction], truncated: Fraction = TAIL) -> Odds:
    """The contract's :class:`Odds` of a value → probability mapping."""
    outcomes = [
        OddsOutcome(value=value, probability=float(p), exact=f"{p.numerator}/{p.denominator}")
        for value, p in chances.items()
    ]
    return Odds(outcomes=outcomes, truncated=float(truncated))
