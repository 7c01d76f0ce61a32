"""Exact odds of a Magical Kitties check, with fractions and integer binomials.

A check rolls ``pool`` d6; each die at or above the difficulty succeeds with chance
``(7 - difficulty) / 6``, so the successes are binomial — the dice engine's ``pool d6 >=
difficulty``, computed exactly. The treat-reroll strategy rolls once and, if there are fewer
than ``want`` successes, rerolls every non-success once: the final count is the kept
successes plus a fresh count over the rerolled dice (a mixture, :meth:`Dist.then`).
"""

from __future__ import annotations

from fractions import Fraction

from spieltisch.dice.dist import Dist
from spieltisch.dice.notation import Compare, Dice
from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import Odds, OddsOutcome

__all__ = [
    "TIER_KEYS",
    "as_odds",
    "rerolled_successes",
    "success_chance",
    "successes",
    "tier_odds",
    "tiers_of",
]

TIER_KEYS: tuple[str, ...] = ("0", "1", "2", "3", "4+")
"""Keys of the tier distribution: 0, 1, 2, 3 and 4 or more successes."""

MAX_ODDS_POOL = 60
"""Largest pool the odds accept (far beyond any sheet; keeps typed input cheap)."""


def success_chance(difficulty: int) -> Fraction:
    """Chance that one d6 reaches ``difficulty`` (3..6)."""
    if not 3 <= difficulty <= 6:
        raise RuleError("kitties.bad_difficulty", value=difficulty)
    return Fraction(7 - difficulty, 6)


def _check_pool(pool: int) -> None:
    if pool <= 0:
        raise RuleError("kitties.pool_none", value=pool)
    if pool > MAX_ODDS_POOL:
        raise RuleError("kitties.pool_too_large", value=pool, max=MAX_ODDS_POOL)


def _count(dice: int, difficulty: int) -> Dist | int:
    """The successes of ``dice`` d6 against ``difficulty``, exact (0 for no dice)."""
    if dice == 0:
        return 0
    return Dist.of(Dice(dice, 6, compare=Compare(">=", difficulty)), exact=True)


def _as_list(dist: Dist, pool: int) -> list[Fraction]:
    table = dist.fractions()
    return [table.get(k, Fraction(0)) for k in range(pool + 1)]


def successes(pool: int, difficulty: int) -> list[Fraction]:
    """``result[k]`` = exact chance of exactly ``k`` successes with ``pool`` dice."""
    _check_pool(pool)
    success_chance(difficulty)
    first = _count(pool, difficulty)
    assert isinstance(first, Dist)
    return _as_list(first, pool)


def rerolled_successes(pool: int, difficulty: int, want: int = 2) -> list[Fraction]:
    """Like :func:`successes`, when every non-success is rerolled once below ``want``."""
    if want < 1:
        raise RuleError("kitties.bad_want", value=want)
    _check_pool(pool)
    success_chance(difficulty)
    first = _count(pool, difficulty)
    assert isinstance(first, Dist)

    def settle(kept: int) -> Dist | int:
        return kept if kept >= want else kept + _count(pool - kept, difficulty)

    return _as_list(first.then(settle), pool)


def tiers_of(distribution: list[Fraction]) -> dict[str, Fraction]:
    """Fold a distribution of success counts into the tiers 0, 1, 2, 3 and 4+."""
    tiers = dict.fromkeys(TIER_KEYS, Fraction(0))
    for count, chance in enumerate(distribution):
        tiers[TIER_KEYS[min(count, 4)]] += chance
    return tiers


def tier_odds(
    pool: int, difficulty: int, *, reroll: bool = False, want: int = 2
) -> dict[str, Fraction]:
    """Exact chance of 0, 1, 2, 3 and 4+ successes (optionally with the treat reroll)."""
    if reroll:
        return tiers_of(rerolled_successes(pool, difficulty, want))
    return tiers_of(successes(pool, difficulty))


def as_odds(distribution: list[Fraction]) -> Odds:
    """The contract's :class:`Odds`: one outcome per tier, value ``{"successes", "tier"}``."""
    tiers = tiers_of(distribution)
    mean = sum(count * chance for count, chance in enumerate(distribution))
    return Odds(
        outcomes=[
            OddsOutcome(
                value={"successes": key, "tier": index},
                probability=float(chance),
                exact=f"{chance.numerator}/{chance.denominator}",
            )
            for index, (key, chance) in enumerate(tiers.items())
        ],
        mean=float(mean),
    )
