"""Exact odds of a check: hand-computed cases, brute-force enumeration and icepool agree."""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltisch.engine.errors import RuleError
from spieltisch.systems.magical_kitties.odds import (
    TIER_KEYS,
    rerolled_successes,
    successes,
    tier_odds,
)

FACES = range(1, 7)


def _tier_key(count: int) -> str:
    return TIER_KEYS[min(count, 4)]


def enumerate_plain(pool: int, difficulty: int) -> dict[str, Fraction]:
    """Every ordered outcome of ``pool`` d6, counted."""
    tally = dict.fromkeys(TIER_KEYS, 0)
    for roll in itertools.product(FACES, repeat=pool):
        tally[_tier_key(sum(die >= difficulty for die in roll))] += 1
    return {key: Fraction(count, 6**pool) for key, count in tally.items()}


def enumerate_reroll(pool: int, difficulty: int, want: int) -> dict[str, Fraction]:
    """Every first roll and, below ``want``, every reroll of its non-successes, counted."""
    tally = dict.fromkeys(TIER_KEYS, Fraction(0))
    for roll in itertools.product(FACES, repeat=pool):
        hits = sum(die >= difficulty for die in roll)
        if hits >= want:
            tally[_tier_key(hits)] += Fraction(1, 6**pool)
            continue
        misses = pool - hits
        for again in itertools.product(FACES, repeat=misses):
            extra = sum(die >= difficulty for die in again)
            tally[_tier_key(hits + extra)] += Fraction(1, 6 ** (pool + misses))
    return tally


def icepool_plain(pool: int, difficulty: int) -> dict[str, Fraction]:
    hit = icepool.d6.map(lambda face: 1 if face >= difficulty else 0)
    total = pool @ hit
    return _from_icepool(total)


def icepool_reroll(pool: int, difficulty: int, want: int) -> dict[str, Fraction]:
    hit = icepool.d6.map(lambda face: 1 if face >= difficulty else 0)
    first = pool @ hit

    def settle(kept: int) -> icepool.Die | int:
        if kept >= want:
            return kept
        return kept + (pool - kept) @ hit

    return _from_icepool(first.map(settle))


def _from_icepool(die: icepool.Die) -> dict[str, Fraction]:
    tally = dict.fromkeys(TIER_KEYS, Fraction(0))
    denominator = die.denominator()
    for outcome, quantity in die.items():
        tally[_tier_key(int(outcome))] += Fraction(quantity, denominator)
    return tally


def test_hand_computed_cases() -> None:
    # One die against 4: even chances of 0 and 1 success.
    assert tier_odds(1, 4) == {
        "0": Fraction(1, 2),
        "1": Fraction(1, 2),
        "2": 0,
        "3": 0,
        "4+": 0,
    }
    # Two dice against 6: (5/6)², 2·(1/6)(5/6), (1/6)².
    assert successes(2, 6) == [Fraction(25, 36), Fraction(10, 36), Fraction(1, 36)]
    # One die against 4 with the reroll: a miss is rerolled once → 1/4 stays a failure.
    assert tier_odds(1, 4, reroll=True, want=2)["0"] == Fraction(1, 4)
    # Three dice against 4, reroll below 2 (computed by hand in the game's docs).
    assert tier_odds(3, 4, reroll=True) == {
        "0": Fraction(1, 64),
        "1": Fraction(9, 64),
        "2": Fraction(39, 64),
        "3": Fraction(15, 64),
        "4+": Fraction(0),
    }
    # Six dice against 3: at least four successes.
    p = Fraction(2, 3)
    four_plus = sum(Fraction(c) * p**k * (1 - p) ** (6 - k) for k, c in ((4, 15), (5, 6), (6, 1)))
    assert tier_odds(6, 3)["4+"] == four_plus


@pytest.mark.parametrize("difficulty", range(3, 7))
@pytest.mark.parametrize("pool", range(1, 6))
def test_plain_odds_match_enumeration(pool: int, difficulty: int) -> None:
    assert tier_odds(pool, difficulty) == enumerate_plain(pool, difficulty)


@pytest.mark.parametrize("want", [1, 2, 3])
@pytest.mark.parametrize("difficulty", range(3, 7))
@pytest.mark.parametrize("pool", range(1, 4))
def test_reroll_odds_match_enumeration(pool: int, difficulty: int, want: int) -> None:
    assert tier_odds(pool, difficulty, reroll=True, want=want) == enumerate_reroll(
        pool, difficulty, want
    )


@pytest.mark.parametrize("difficulty", range(3, 7))
@pytest.mark.parametrize("pool", [1, 2, 5, 9, 14])
def test_odds_match_icepool(pool: int, difficulty: int) -> None:
    assert tier_odds(pool, difficulty) == icepool_plain(pool, difficulty)
    for want in (1, 2, 4):
        assert tier_odds(pool, difficulty, reroll=True, want=want) == icepool_reroll(
            pool, difficulty, want
        )


@given(st.integers(1, 30), st.integers(3, 6), st.integers(1, 6))
def test_distributions_are_complete_and_reroll_never_hurts(
    pool: int, difficulty: int, want: int
) -> None:
    plain = successes(pool, difficulty)
    again = rerolled_successes(pool, difficulty, want)
    assert sum(plain) == 1
    assert sum(again) == 1
    # The reroll only ever adds successes: P(at least k) never drops.
    for k in range(pool + 1):
        assert sum(again[k:]) >= sum(plain[k:])
    # Counts at or above ``want`` are kept as rolled and only gain mass from rerolls below.
    for k in range(want, pool + 1):
        assert again[k] >= plain[k]


@pytest.mark.parametrize(
    ("pool", "difficulty", "code"),
    [
        (0, 4, "kitties.pool_none"),
        (-2, 4, "kitties.pool_none"),
        (3, 2, "kitties.bad_difficulty"),
        (3, 7, "kitties.bad_difficulty"),
        (61, 4, "kitties.pool_too_large"),
    ],
)
def test_bad_input_is_refused(pool: int, difficulty: int, code: str) -> None:
    with pytest.raises(RuleError) as caught:
        tier_odds(pool, difficulty)
    assert caught.value.code == code


def test_bad_want_is_refused() -> None:
    with pytest.raises(RuleError) as caught:
        tier_odds(2, 4, reroll=True, want=0)
    assert caught.value.code == "kitties.bad_want"
