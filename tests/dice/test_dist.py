"""Composed odds (Dist): contests against icepool and brute force, properties, old numbers."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from math import comb

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.dice import cost
from spieltisch.dice.dist import TAIL, Dist
from spieltisch.dice.errors import LimitError
from spieltisch.engine.system import OddsOutcome
from spieltisch.systems.kilkenny.board import MAX_ROLL
from spieltisch.systems.kilkenny.system import KilkennySystem
from spieltisch.systems.magical_kitties import odds as kitties

SETTINGS = settings(max_examples=60, deadline=None)

GM = [1, 0, 0, 0, 1, 1]  # M: every symbol a success (faces 1..6)
HUNTER = [0, 0, 0, 0, 1, 1]  # H: successes


def _icepool_table(die: icepool.Die) -> dict[int, Fraction]:
    denominator = die.denominator()
    return {int(o): Fraction(q, denominator) for o, q in die.items() if q}


# -- HeXXen: NSC successes minus hunter successes, with a clamp --------------------------


def _brute_hexxen(nsc: int, hunter: int, armour: int) -> dict[int, Fraction]:
    """Every roll of both pools: damage = max(0, net − 1 − armour) when net ≥ 1, else 0."""
    found: dict[int, Fraction] = {}
    share = Fraction(1, 6 ** (nsc + hunter))
    for faces in itertools.product(range(6), repeat=nsc + hunter):
        net = sum(GM[f] for f in faces[:nsc]) - sum(HUNTER[f] for f in faces[nsc:])
        damage = max(0, 3 + net - 1 - armour) if net >= 1 else 0
        found[damage] = found.get(damage, Fraction(0)) + share
    return found


@pytest.mark.parametrize(("nsc", "hunter", "armour"), [(3, 2, 1), (4, 3, 0), (2, 4, 2), (5, 1, 3)])
def test_hexxen_attack_damage_equals_brute_force(nsc: int, hunter: int, armour: int) -> None:
    net = Dist.of(f"{nsc}M", exact=True) - Dist.of(f"{hunter}H", exact=True)
    damage = net.map(lambda n: max(0, 3 + n - 1 - armour) if n >= 1 else 0)
    assert damage.fractions() == {k: v for k, v in _brute_hexxen(nsc, hunter, armour).items() if v}


@pytest.mark.parametrize(("nsc", "hunter"), [(1, 1), (8, 5), (10, 10), (3, 12)])
def test_hexxen_comparative_check_against_icepool(nsc: int, hunter: int) -> None:
    contest = Dist.of(f"{nsc}M", exact=True).vs(Dist.of(f"{hunter}H", exact=True))
    oracle = _icepool_table(nsc @ icepool.Die(GM) - hunter @ icepool.Die(HUNTER))
    assert contest.margin.fractions() == oracle
    win, tie, lose = contest.exact()
    assert win == sum(p for v, p in oracle.items() if v > 0)
    assert tie == oracle.get(0, 0)
    assert lose == sum(p for v, p in oracle.items() if v < 0)
    assert win + tie + lose == 1
    assert contest.win == pytest.approx(float(win), abs=1e-15)
    # the engine's own comparative notation gives the same margin
    same = Dist.of(f"{nsc}M - {hunter}H", exact=True)
    assert same.fractions() == oracle


# -- D&D 5e: d20 + bonus against an AC with advantage, hit and critical --------------------


def _attack(d20: Dist, bonus: int, ac: int) -> Dist:
    """0 miss, 1 hit, 2 critical: a natural 20 always hits (critically), a natural 1 misses."""
    return d20.map(lambda n: 2 if n == 20 else 1 if n != 1 and n + bonus >= ac else 0)


def _brute_attack(dice: int, highest: bool, bonus: int, ac: int) -> dict[int, Fraction]:
    found: dict[int, Fraction] = {}
    for roll in itertools.product(range(1, 21), repeat=dice):
        n = max(roll) if highest else min(roll)
        result = 2 if n == 20 else 1 if n != 1 and n + bonus >= ac else 0
        found[result] = found.get(result, Fraction(0)) + Fraction(1, 20**dice)
    return found


@pytest.mark.parametrize(
    ("text", "dice", "highest"), [("1d20", 1, True), ("2d20kh1", 2, True), ("2d20kl1", 2, False)]
)
@pytest.mark.parametrize(("bonus", "ac"), [(5, 15), (2, 25), (12, 10)])
def test_attack_with_advantage_equals_brute_force(
    text: str, dice: int, highest: bool, bonus: int, ac: int
) -> None:
    attack = _attack(Dist.of(text, exact=True), bonus, ac)
    assert attack.fractions() == {
        k: v for k, v in _brute_attack(dice, highest, bonus, ac).items() if v
    }


def test_advantage_d20_plus_5_vs_ac_15_by_hand_and_icepool() -> None:
    attack = _attack(Dist.of("2d20kh1", exact=True), 5, 15)
    # hit on a natural 10..19: P(max ≥ 10) − P(max = 20); crit: 1 − (19/20)²
    crit = 1 - Fraction(19, 20) ** 2
    assert attack.fractions()[2] == crit
    assert attack.fractions()[1] == 1 - Fraction(9, 20) ** 2 - crit
    d20 = icepool.d20.highest(2, 1)
    hits = _icepool_table(d20.map(lambda n: 2 if n == 20 else 1 if n != 1 and n + 5 >= 15 else 0))
    assert attack.fractions() == hits
    assert (Dist.of("1d20", exact=True) + 5 >= 15).mean == pytest.approx(0.55)


def test_damage_with_a_critical_mixed_in() -> None:
    attack = _attack(Dist.of("2d20kh1", exact=True), 5, 15)
    normal, critical = Dist.of("1d8+3", exact=True), Dist.of("2d8+3", exact=True)
    damage = attack.then(lambda result: [0, normal, critical][result])
    table = attack.fractions()
    expected: dict[int, Fraction] = {0: table[0]}
    for part, weight in ((normal, table[1]), (critical, table[2])):
        for value, p in part.fractions().items():
            expected[value] = expected.get(value, Fraction(0)) + weight * p
    assert damage.fractions() == expected
    assert sum(damage.fractions().values()) == 1
    hand = table[1] * Fraction(15, 2) + table[2] * 12
    assert damage.exact_mean() == hand
    # the same by explicit weights
    mixed = Dist.mixture([(table[0], 0), (table[1], normal), (table[2], critical)])
    assert mixed == damage


# -- Kreiswanderer: d10 exploding + value against a target ----------------------------------


def test_two_d10_exploding_plus_3_vs_10_against_icepool() -> None:
    check = Dist.of("2d10!") + 3
    oracle = 2 @ icepool.d10.explode(depth=20) + 3
    p_pass = sum(float(p) for v, p in _icepool_table(oracle).items() if v >= 10)
    assert check.at_least(10) == pytest.approx(p_pass, abs=2e-12)
    assert 0 < check.truncated <= TAIL
    assert math.fsum(check.table().values()) + check.truncated == pytest.approx(1.0, abs=1e-14)
    # quality = result − target, failure quality = target − result
    contest = check.vs(10)
    assert contest.win + contest.tie == pytest.approx(p_pass, abs=2e-12)


def test_exploding_d10_by_hand() -> None:
    die = Dist.die(10, explode=True, exact=True)
    table = die.fractions()
    assert table[9] == Fraction(1, 10)
    assert 10 not in table and 20 not in table
    assert table[13] == Fraction(1, 100)
    assert table[21] == Fraction(1, 1000)
    assert 0 < die.truncated <= TAIL


def test_kreiswanderer_comparative_check_against_icepool() -> None:
    attacker, defender = Dist.of("1d10!") + 12, Dist.of("1d10!") + 11
    contest = attacker.vs(defender)
    deep = icepool.d10.explode(depth=20)
    oracle = _icepool_table((deep + 12) - (deep + 11))
    assert contest.win == pytest.approx(
        float(sum(p for v, p in oracle.items() if v > 0)), abs=3e-12
    )
    assert contest.tie == pytest.approx(float(oracle[0]), abs=3e-12)
    assert contest.lose == pytest.approx(
        float(sum(p for v, p in oracle.items() if v < 0)), abs=3e-12
    )
    total = contest.win + contest.tie + contest.lose
    assert total == pytest.approx(1 - contest.margin.truncated, abs=1e-15)


# -- properties -----------------------------------------------------------------------------

EXPRESSIONS = ["3d6", "2d20kh1", "4M", "3H", "2d4!", "5d6>=4", "1d10!+3", "2E", "1d4-1d6"]


@SETTINGS
@given(st.sampled_from(EXPRESSIONS), st.booleans())
def test_probabilities_sum_to_one_minus_truncated(text: str, exact: bool) -> None:
    dist = Dist.of(text, exact=exact)
    assert math.fsum(dist.table().values()) + dist.truncated == pytest.approx(1.0, abs=1e-13)
    if exact and not dist.truncated:
        assert sum(dist.fractions().values()) == 1


@SETTINGS
@given(st.sampled_from(EXPRESSIONS), st.sampled_from(EXPRESSIONS))
def test_vs_sums_to_one(a: str, b: str) -> None:
    contest = Dist.of(a).vs(Dist.of(b))
    total = contest.win + contest.tie + contest.lose
    assert total == pytest.approx(1 - contest.margin.truncated, abs=1e-13)


@SETTINGS
@given(st.sampled_from(EXPRESSIONS), st.sampled_from(EXPRESSIONS))
def test_difference_equals_sum_with_negation(a: str, b: str) -> None:
    left, right = Dist.of(a, exact=True), Dist.of(b, exact=True)
    assert left - right == left + (-right)
    fl, fr = Dist.of(a), Dist.of(b)
    direct, composed = (fl - fr).table(), (fl + (-fr)).table()
    assert direct.keys() == composed.keys()
    for value, p in direct.items():
        assert p == pytest.approx(composed[value], abs=1e-15)


@SETTINGS
@given(st.sampled_from(EXPRESSIONS), st.sampled_from(EXPRESSIONS), st.booleans())
def test_mixing_with_weight_zero_or_one_gives_the_parts(a: str, b: str, exact: bool) -> None:
    left, right = Dist.of(a, exact=exact), Dist.of(b, exact=exact)
    one, zero = (Fraction(1), Fraction(0)) if exact else (1.0, 0.0)
    assert Dist.mixture([(one, left), (zero, right)]) == left
    assert Dist.mixture([(zero, left), (one, right)]) == right


@SETTINGS
@given(
    st.dictionaries(st.integers(-5, 5), st.integers(1, 9), min_size=1, max_size=6),
    st.dictionaries(st.integers(-5, 5), st.integers(1, 9), min_size=1, max_size=6),
)
def test_explicit_outcomes_vs_brute_force(a: dict[int, int], b: dict[int, int]) -> None:
    left = Dist.from_outcomes({v: Fraction(w, sum(a.values())) for v, w in a.items()})
    right = Dist.from_outcomes({v: Fraction(w, sum(b.values())) for v, w in b.items()})
    win = tie = lose = Fraction(0)
    for (x, wx), (y, wy) in itertools.product(a.items(), b.items()):
        share = Fraction(wx * wy, sum(a.values()) * sum(b.values()))
        if x > y:
            win += share
        elif x == y:
            tie += share
        else:
            lose += share
    assert left.vs(right).exact() == (win, tie, lose)
    assert (left * right).fractions() == _product(a, b)


def _product(a: dict[int, int], b: dict[int, int]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    total = sum(a.values()) * sum(b.values())
    for (x, wx), (y, wy) in itertools.product(a.items(), b.items()):
        out[x * y] = out.get(x * y, Fraction(0)) + Fraction(wx * wy, total)
    return dict(sorted(out.items()))


def test_scaling_clamping_and_mixed_modes() -> None:
    d6 = Dist.die(6, exact=True)
    assert (d6 * 3).fractions() == {3 * v: Fraction(1, 6) for v in range(1, 7)}
    assert (d6 - 4).clamp(low=0).fractions() == {
        0: Fraction(4, 6),
        1: Fraction(1, 6),
        2: Fraction(1, 6),
    }
    mixed = d6 + Dist.die(6)
    assert not mixed.exact
    assert mixed.probability(7) == pytest.approx(1 / 6)
    assert (10 - d6).low == 4


def test_bad_explicit_outcomes_are_refused() -> None:
    with pytest.raises(ValueError):
        Dist.from_outcomes({1: Fraction(1, 2)})
    with pytest.raises(ValueError):
        Dist.from_outcomes({1: 0.5, 2: 0.2})
    with pytest.raises(ValueError):
        Dist.from_outcomes({})
    with pytest.raises(ValueError):
        Dist.mixture([(0.5, 1), (0.2, 2)])


def test_the_odds_budget_is_honoured() -> None:
    with pytest.raises(LimitError) as caught:
        Dist.of("50d100!", exact=True)
    assert caught.value.code == "dice.odds_too_costly"
    big = Dist.of("100d100")
    before = cost.default_budget()
    try:
        cost.set_default_budget(10_000)
        with pytest.raises(LimitError) as caught:
            big + big
        assert caught.value.code == "dice.odds_too_costly"
    finally:
        cost.set_default_budget(before)
    assert (big + big).mean == pytest.approx(10_100)


# -- the systems' odds, unchanged -----------------------------------------------------------


def _old_binomial(n: int, p: Fraction) -> list[Fraction]:
    """The binomial code the Kitties odds used before they moved onto the engine."""
    q = 1 - p
    return [comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)]


def _old_rerolled(pool: int, difficulty: int, want: int) -> list[Fraction]:
    p = Fraction(7 - difficulty, 6)
    first = _old_binomial(pool, p)
    result = [Fraction(0)] * (pool + 1)
    for kept, chance in enumerate(first):
        if kept >= want:
            result[kept] += chance
            continue
        for extra, again in enumerate(_old_binomial(pool - kept, p)):
            result[kept + extra] += chance * again
    return result


@pytest.mark.parametrize("difficulty", range(3, 7))
@pytest.mark.parametrize("pool", [1, 2, 5, 13, 30, 60])
def test_kitties_odds_equal_the_old_binomials(pool: int, difficulty: int) -> None:
    assert kitties.successes(pool, difficulty) == _old_binomial(pool, Fraction(7 - difficulty, 6))
    for want in (1, 2, 4):
        assert kitties.rerolled_successes(pool, difficulty, want) == _old_rerolled(
            pool, difficulty, want
        )


def test_kilkenny_odds_equal_the_hand_built_ones() -> None:
    system = KilkennySystem()
    odds = system.odds(system.new_state({}), system.commands.validate_python({"kind": "roll"}))
    share = Fraction(1, MAX_ROLL)
    assert odds is not None
    assert odds.outcomes == [
        OddsOutcome(value=face, probability=float(share), exact=str(share))
        for face in range(1, MAX_ROLL + 1)
    ]
    assert odds.mean == (MAX_ROLL + 1) / 2


# -- symbol counts reduced by a function, exact truncation, repeated sums ----------------


def test_symbol_counts_reduced_by_a_function_match_brute_force() -> None:
    # H: star on 1, blanks 2-4, success 5-6; two stars count as one success.
    def value(faces: tuple[int, ...]) -> int:
        return sum(f >= 5 for f in faces) + sum(f == 1 for f in faces) // 2

    expected: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=4):
        expected[value(faces)] = expected.get(value(faces), Fraction(0)) + Fraction(1, 6**4)
    found = Dist.of("4H", key=lambda c: c["successes"] + c["stars"] // 2, exact=True)
    assert found.fractions() == expected
    # a function of one count is the same as naming that key
    assert Dist.of("3S", key=lambda c: c["stars"], exact=True) == Dist.of(
        "3S", key="stars", exact=True
    )


def test_exact_truncated_is_one_minus_the_outcomes() -> None:
    d10 = Dist.die(10, explode=True, exact=True)
    assert d10.exact_truncated() == Fraction(1, 10**12)
    assert (d10 - d10).exact_truncated() == 1 - Fraction(10**12 - 1, 10**12) ** 2
    assert Dist.of("2d6", exact=True).exact_truncated() == 0
    with pytest.raises(ValueError):
        Dist.die(6).exact_truncated()


def test_repeat_is_the_sum_of_copies() -> None:
    assert Dist.die(6, exact=True).repeat(3) == Dist.of("3d6", exact=True)
    assert Dist.die(6, exact=True).repeat(0) == Dist.constant(0)
    coin = Dist.from_outcomes({0: Fraction(2, 3), 1: Fraction(1, 3)})
    assert coin.repeat(5).fractions() == {
        k: comb(5, k) * Fraction(1, 3) ** k * Fraction(2, 3) ** (5 - k) for k in range(6)
    }
    skewed = Dist.from_outcomes({-1: Fraction(1, 2), 3: Fraction(1, 2)})
    assert skewed.repeat(3) == skewed + skewed + skewed
    with pytest.raises(ValueError):
        coin.repeat(-1)
