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
    "TAIL_LOW",
    "accumulated_odds",
    "accumulated_outcomes",
    "accumulated_within",
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
TAIL_LOW = 10 * LEVELS + 1
"""The smallest value of the cut-off tail: it begins with :data:`LEVELS` tens. A question
every value from there up answers alike (a pass, a critical success) takes the tail along,
so its chance is exact: a certain pass is exactly 1."""
_MISS = -1  # below every damage (damage is never below 0)


@cache
def _d10() -> Dist:
    return Dist.die(10, explode=True, exact=True)


def _share(table: Mapping[int, Fraction], test: Callable[[int], bool]) -> Fraction:
    return sum((p for v, p in table.items() if test(v)), Fraction(0))


def exploding_d10() -> tuple[dict[int, Fraction], Fraction]:
    """The distribution of one exploding d10 (value → probability) and the mass left out."""
    return _d10().fractions(), _d10().exact_truncated()


def _with_tail(share: Fraction, low: int, test: Callable[[int], bool]) -> Fraction:
    """``share`` plus the cut-off tail when ``test`` holds for its lowest value (and so, for
    an upward question, for all of it)."""
    return share + (TAIL if test(low) else 0)


def check_odds(value: int, target: int) -> dict[str, Any]:
    """A Talentprobe's odds: pass, critical success and failure, and every signed margin.

    Pass and critical success take the cut-off tail along where all of it passes (it always
    does but for targets above 120 + the value): they are exact, a certain pass is 1.
    """
    margins = (_d10() + (value - target)).fractions()
    low = TAIL_LOW + value - target
    return {
        "value": value,
        "target": target,
        "pass": _with_tail(_share(margins, lambda m: m >= 0), low, lambda m: m >= 0),
        "critical_success": _with_tail(
            _share(margins, lambda m: m >= CRITICAL), low, lambda m: m >= CRITICAL
        ),
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


def _clamped(roll: Dist, cap: int) -> Callable[[int], Dist]:
    """A branch adding ``roll`` to a sum so far, sums past ``cap`` kept in one bucket."""
    return lambda t: (roll + t).clamp(high=max(cap, t))


def _adds(value: int, reading: str, roll: int) -> int:
    """What the Talentwert adds on roll number ``roll`` (0 the first) of an accumulation."""
    return value if reading == "every_roll" or roll == 0 else 0


def accumulated_odds(
    value: int,
    target: int,
    quality: int,
    rolls: int,
    reading: str = "dice",
    done_rolls: int = 0,
) -> dict[str, Fraction]:
    """Chance that ``rolls`` more rolls of an accumulated check add up to ``target + quality``.

    ``reading`` ``dice`` (the seed): the Talentwert ``value`` counts once, on the first roll
    of the work (``done_rolls`` are done already), the dice of every roll add up;
    ``every_roll``: each roll adds Talentwert + an exploding d10. Explosions use up no roll.
    ``target`` is what is still missing to the check's target. Sums past the needed total are
    kept in one bucket, so the work stays small.
    """
    return {"reach": accumulated_within(value, target, quality, rolls, reading, done_rolls)[-1]}


def accumulated_within(
    value: int,
    target: int,
    quality: int,
    rolls: int,
    reading: str = "dice",
    done_rolls: int = 0,
) -> list[Fraction]:
    """The chance to have reached ``target + quality`` within 1, 2, … ``rolls`` rolls.

    The dice never take anything away, so reaching it within n rolls is having reached it
    after n. The cut-off tails of the dice (some die began with :data:`LEVELS` tens) count as
    reached when even their lowest total reaches the goal, as they always do for goals up to
    121: then the chances are exact and a sure goal is exactly 1."""
    need = target + quality
    total = Dist.constant(0)
    found: list[Fraction] = []
    low = 0  # the lowest total so far
    for k in range(rolls):
        adds = _adds(value, reading, done_rolls + k)
        roll = _d10() + adds
        total = total.then(_clamped(roll, need))
        tail_low = low + adds + TAIL_LOW  # the lowest total when some die hit its tail
        low += adds + 1
        reached = _share(total.fractions(), lambda t: t >= need)
        found.append(reached + (total.exact_truncated() if tail_low >= need else 0))
    return found


def accumulated_outcomes(
    value: int, target: int, rolls: int, reading: str = "dice"
) -> dict[str, Any]:
    """The outcome of an accumulated check of ``rolls`` rolls: pass, critical success and
    failure, and every quality (signed; the top bucket is "10 or more", a critical success)."""
    total = Dist.constant(0)
    cap = target + CRITICAL
    for k in range(rolls):
        roll = _d10() + _adds(value, reading, k)
        total = total.then(_clamped(roll, cap))
    margins = (total + (-target)).fractions()
    cut = total.exact_truncated()
    adds = sum(_adds(value, reading, k) for k in range(rolls))
    low = adds + max(rolls - 1, 0) + TAIL_LOW - target  # lowest margin with a cut-off tail

    def tail(test: Callable[[int], bool]) -> Fraction:
        return cut if rolls and test(low) else Fraction(0)

    return {
        "pass": _share(margins, lambda m: m >= 0) + tail(lambda m: m >= 0),
        "critical_success": _share(margins, lambda m: m >= CRITICAL)
        + tail(lambda m: m >= CRITICAL),
        "critical_failure": _share(margins, lambda m: m <= -CRITICAL),
        "outcomes": [
            {"quality": m, "passed": m >= 0, "or_more": m == CRITICAL, "probability": p}
            for m, p in margins.items()
        ],
        "truncated": cut,
    }


def as_odds(chances: Mapping[Any, Fraction], truncated: Fraction = TAIL) -> Odds:
    """The contract's :class:`Odds` of a value → probability mapping."""
    outcomes = [
        OddsOutcome(value=value, probability=float(p), exact=f"{p.numerator}/{p.denominator}")
        for value, p in chances.items()
    ]
    return Odds(outcomes=outcomes, truncated=float(truncated))
