"""Rules against hand-computed cases; odds against icepool and brute-force enumeration."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st
from kw_helpers import Scripted

from spieltisch.engine.errors import RuleError
from spieltisch.systems.kreiswanderer import odds, rules


def test_talent_value_and_the_untrained_everyday_skill() -> None:
    assert rules.talent_value(3, 2, 4, 1) == 11  # 3 × 2 + 4 + 1
    assert rules.talent_value(2, 1, 0) == 2  # basic skill at 0 is usable
    assert rules.talent_value(2, 3, 1) == 7  # a learned specialisation
    for depth in (2, 3, 5):  # only basic skills need no learning
        with pytest.raises(RuleError) as refused:
            rules.talent_value(3, depth, 0)
        assert refused.value.code == "kreiswanderer.untrained"


def test_explosions_chain_and_stop_at_the_limit() -> None:
    assert rules.roll_exploding(Scripted([10, 10, 10, 4]).roll, 100) == [10, 10, 10, 4]
    assert rules.roll_exploding(Scripted([9]).roll, 100) == [9]
    assert rules.roll_exploding(Scripted([10, 10, 10]).roll, 3) == [10, 10, 10]


def test_quality_and_criticals() -> None:
    assert (rules.evaluate(10, 10).passed, rules.evaluate(10, 10).quality) == (True, 0)
    assert rules.evaluate(20, 10).critical == "success"
    assert rules.evaluate(19, 10).critical is None
    failed = rules.evaluate(0, 10)
    assert (failed.passed, failed.quality, failed.critical) == (False, 10, "failure")
    assert rules.winner(12, 12, "passive") == "passive"
    assert rules.winner(13, 12, "passive") == "active"


def test_attack_numbers_and_regeneration() -> None:
    assert rules.attack_target(dodge=8, defensive=2, thresholds=1, piercing=3) == 8
    assert rules.damage_after_resistance(3, 2, 1) == 4
    assert rules.damage_after_resistance(0, 1, 5) == 0
    # 20 max: from 8 (below half) two hours give 2 points → 10 (half): then one per half hour.
    assert rules.regenerate(8, 20, 4) == 10
    assert rules.regenerate(8, 20, 6) == 12
    assert rules.regenerate(19, 20, 10) == 20
    assert rules.combined_skill([7, 4, 9]) == 4


def _icepool_die() -> icepool.Die:
    return icepool.d10.explode(depth=odds.LEVELS - 1)


@pytest.mark.parametrize(("value", "target"), [(5, 10), (0, 10), (12, 10), (3, 25)])
def test_check_odds_match_icepool(value: int, target: int) -> None:
    found = odds.check_odds(value, target)
    die = _icepool_die()
    total = die.denominator()
    kept = {o: Fraction(q, total) for o, q in die.items() if o % 10 != 0}
    # The cut-off tail (≥ 121) passes these targets: it counts, the chances are exact.
    tail = Fraction(1, 10**12)
    assert found["pass"] == sum(p for o, p in kept.items() if value + o >= target) + tail
    assert (
        found["critical_success"]
        == sum(p for o, p in kept.items() if value + o - target >= 10) + tail
    )
    assert found["critical_failure"] == sum(p for o, p in kept.items() if value + o - target <= -10)
    assert sum(o["probability"] for o in found["outcomes"]) + found["truncated"] == 1
    assert found["truncated"] <= Fraction(1, 10**12)
    margins = [o["quality"] for o in found["outcomes"]]
    assert margins == sorted(margins)


def test_check_odds_match_enumeration_of_three_levels() -> None:
    found = {o["quality"]: o["probability"] for o in odds.check_odds(4, 10)["outcomes"]}
    for first in range(1, 10):
        assert found[4 + first - 10] == Fraction(1, 10)
    for second in range(1, 10):
        assert found[4 + 10 + second - 10] == Fraction(1, 100)
    assert found[4 + 20 + 5 - 10] == Fraction(1, 1000)


def test_comparative_odds_match_icepool() -> None:
    die = _icepool_die()
    a, p = 6 + die, 4 + die
    found = odds.comparative_odds(6, 4, "passive")
    total = die.denominator() ** 2
    exact_active = Fraction(0)
    for x, qx in die.items():
        for y, qy in die.items():
            if x % 10 and y % 10 and 6 + x > 4 + y:
                exact_active += Fraction(qx * qy, total)
    assert found["active"] == exact_active
    assert abs(float(found["active"]) - float((a > p).probability(True))) < 1e-9


@pytest.mark.parametrize(("reading", "counted"), [("dice", 3), ("every_roll", 6)])
def test_accumulated_odds_match_enumeration(reading: str, counted: int) -> None:
    # Two rolls with TW 3 toward target 10 + quality 4 = 14: brute force over kept faces; the
    # Talentwert counts once (the seed) or on both rolls (the table option).
    weights = {10 * k + r: Fraction(1, 10 ** (k + 1)) for k in range(12) for r in range(1, 10)}
    kept = sum(weights[x] * weights[y] for x in weights for y in weights if counted + x + y >= 14)
    tails = 1 - (1 - odds.TAIL) ** 2  # a die in its tail brings ≥ 121: reached
    assert odds.accumulated_odds(3, 10, 4, 2, reading)["reach"] == kept + tails


def test_attack_odds_sum_to_one() -> None:
    found = odds.attack_odds(10, 13, 2, 2)
    assert found["miss"] == Fraction(2, 10)  # rolls 1 and 2 miss
    assert found["0"] == Fraction(1, 10)  # roll 3: 13, quality 0 + 2 − 2
    assert sum(found.values()) + odds.TAIL == 1


@given(st.integers(-20, 40), st.integers(0, 60))
def test_pass_and_fail_cover_everything(value: int, target: int) -> None:
    found = odds.check_odds(value, target)
    failed = sum(o["probability"] for o in found["outcomes"] if not o["passed"])
    # The cut-off tail (≥ 121) passes every target up to 60 + the value: pass is exact.
    assert found["pass"] + failed == 1


def test_a_chain_of_explosions_decides_a_check_and_its_odds() -> None:
    # Talentwert 0 against 30: only a chain passes. ≥ 30 needs 10, 10, 10 (1/1000); a
    # critical success (≥ 40) 10, 10, 10, 10 (1/10⁴); anything up to 20 fails critically:
    # all but 10, 10, … (1/100). The cut-off tail (10⁻¹², all ≥ 121) counts among both.
    found = odds.check_odds(0, 30)
    assert found["truncated"] == Fraction(1, 10**12)
    assert found["pass"] == Fraction(1, 1000)
    assert found["critical_success"] == Fraction(1, 10**4)
    assert found["critical_failure"] == Fraction(99, 100)
    # The same chain rolled: 10 + 10 + 10 + 4 = 34, quality 4 — no critical success.
    rolls = rules.roll_exploding(Scripted([10, 10, 10, 4]).roll, 100)
    outcome = rules.evaluate(sum(rolls), 30)
    assert (outcome.passed, outcome.quality, outcome.critical) == (True, 4, None)
    # One more 10 in the chain: 44, quality 14, a critical success.
    rolls = rules.roll_exploding(Scripted([10, 10, 10, 10, 4]).roll, 100)
    assert rules.evaluate(sum(rolls), 30).critical == "success"
