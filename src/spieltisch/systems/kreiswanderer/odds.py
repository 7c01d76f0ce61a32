"""Exact odds of Kreiswanderer's rolls: the exploding d10 and everything built on it.

An exploding d10 shows ``10·k + r`` (``r`` in 1…9) with probability ``10^-(k+1)``. The tail
is cut where what is left out is at most :data:`TAIL` (the levels ``k < 12``, leaving out
exactly ``10^-12``); every result reports that mass as ``truncated``. Weights are integers over
the denominator ``10^12`` per die, so sums of several dice stay exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import Any

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
_DENOMINATOR = 10**LEVELS


@cache
def _die_weights() -> tuple[tuple[int, int], ...]:
    """(value, weight) of one exploding d10, weights over ``10^12``."""
    return tuple((10 * k + r, 10 ** (LEVELS - 1 - k)) for k in range(LEVELS) for r in range(1, 10))


def exploding_d10() -> tuple[dict[int, Fraction], Fraction]:
    """The distribution of one exploding d10 (value → probability) and the mass left out."""
    return {v: Fraction(w, _DENOMINATOR) for v, w in _die_weights()}, TAIL


def check_odds(value: int, target: int) -> dict[str, Any]:
    """A Talentprobe's odds: pass, critical success and failure, and every signed margin."""
    outcomes: list[dict[str, Any]] = []
    passed = success = failure = Fraction(0)
    for roll, weight in _die_weights():
        margin = value + roll - target
        chance = Fraction(weight, _DENOMINATOR)
        outcomes.append({"quality": margin, "passed": margin >= 0, "probability": chance})
        if margin >= 0:
            passed += chance
        if margin >= CRITICAL:
            success += chance
        if margin <= -CRITICAL:
            failure += chance
    return {
        "value": value,
        "target": target,
        "pass": passed,
        "critical_success": success,
        "critical_failure": failure,
        "outcomes": sorted(outcomes, key=lambda o: o["quality"]),
        "truncated": TAIL,
    }


def attack_odds(value: int, target: int, bonus: int, resistance: int) -> dict[str, Fraction]:
    """An attack's outcomes: ``"miss"`` or the hit points lost after resistance."""
    found: dict[str, Fraction] = {}
    for roll, weight in _die_weights():
        margin = value + roll - target
        key = "miss" if margin < 0 else str(damage_after_resistance(margin, bonus, resistance))
        found[key] = found.get(key, Fraction(0)) + Fraction(weight, _DENOMINATOR)
    return found


def comparative_odds(active: int, passive: int, tie: str) -> dict[str, Fraction]:
    """Chance of each side to win a comparative check (``tie``: who wins equal results)."""
    wins = {"active": 0, "passive": 0}
    for a, wa in _die_weights():
        for p, wp in _die_weights():
            diff = (active + a) - (passive + p)
            side = tie if diff == 0 else ("active" if diff > 0 else "passive")
            wins[side] += wa * wp
    total = _DENOMINATOR**2
    left_out = 1 - Fraction((_DENOMINATOR - 1) ** 2, total)
    return {
        "active": Fraction(wins["active"], total),
        "passive": Fraction(wins["passive"], total),
        "truncated": left_out,
    }


def accumulated_odds(value: int, target: int, quality: int, rolls: int) -> dict[str, Fraction]:
    """Chance that ``rolls`` rolls of an accumulated check add up to ``target + quality``.

    Each roll adds Talentwert + an exploding d10; explosions use up no roll. Sums past the
    needed total are kept in one bucket, so the work stays small.
    """
    need = target + quality
    sums: dict[int, int] = {0: 1}
    for _ in range(rolls):
        nxt: dict[int, int] = {}
        for total, weight in sums.items():
            for roll, w in _die_weights():
                reached = min(total + value + roll, max(need, total))
                nxt[reached] = nxt.get(reached, 0) + weight * w
        sums = nxt
    denominator = _DENOMINATOR**rolls
    hit = sum(w for total, w in sums.items() if total >= need)
    kept = (_DENOMINATOR - 1) ** rolls
    return {
        "reach": Fraction(hit, denominator),
        "truncated": 1 - Fraction(kept, denominator),
    }


def as_odds(chances: Mapping[Any, Fraction], truncated: Fraction = TAIL) -> Odds:
    """The contract's :class:`Odds` of a value → probability mapping."""
    outcomes = [
        OddsOutcome(value=value, probability=float(p), exact=f"{p.numerator}/{p.denominator}")
        for value, p in chances.items()
    ]
    return Odds(outcomes=outcomes, truncated=float(truncated))
