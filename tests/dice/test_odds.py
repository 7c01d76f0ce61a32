"""Exact odds against brute-force enumeration of the real rolls, and hand-computed cases."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from dice_helpers import enumerate_rolls

from spieltisch.dice.arrays import NUMERIC, align, cells_of
from spieltisch.dice.errors import LimitError, NotationError
from spieltisch.dice.evaluate import evaluate
from spieltisch.dice.exploding import depths_of
from spieltisch.dice.notation import Compare, Dice, Pool, parse
from spieltisch.dice.odds import TAIL, distribution, janus_check, success_count
from spieltisch.dice.small import small_root

SMALL = [
    "3d6",
    "2d8+1d4-3",
    "4d6kh3",
    "4d6dl1",
    "3d6kl2",
    "4d6dh1",
    "2d20kh1",
    "2d20kl1",
    "5d6>=4",
    "4d6>4",
    "4d6<=2",
    "4d6<3",
    "4d6=6",
    "4d6kh2>=4",
    "4d6kl3<=2",
    "(1d6+2)*3",
    "1d6*1d4",
    "1d4*-1d4",
    "1d6-1d4",
    "-2d4+1",
    "d%",
    "1d4*2-1d6",
    "4H",
    "3M",
    "2H+2J",
    "3M-2J",
    "3H-2J",
    "3M - 1H",
    "1H - 3M",
    "2B",
    "2E",
    "3S",
    "2S-2J",
    "2H+1B",
    "2B - 1J",
    "2J",
    "1J-2J",
    "0H",
    "0J+2M",
    "2M - (1J + 1J)",
    "(2M - 1J) + 1J",
]


@pytest.mark.parametrize("text", SMALL)
def test_exact_odds_equal_brute_force_enumeration(text: str) -> None:
    expected, dropped = enumerate_rolls(text)
    assert dropped == 0
    dist = distribution(text)
    exact = {
        (v if isinstance(v, int) else tuple(v[k] for k in dist.keys or ())): f
        for v, f in dist.exact()
    }
    assert exact == expected
    assert dist.truncated == 0.0
    for outcome, probability in dist.table:
        assert probability == pytest.approx(float(expected[outcome]), abs=1e-15)
    assert len(dist.table) == len(expected)


# Small HeXXen checks (GM dice with a Janus bonus or malus) and other small pools: the
# integer-polynomial path of the engine.
SMALL_POOLS = [f"{n}M{sign}{m}J" for n in (1, 2, 3) for m in (0, 1, 2) for sign in "+-"] + [
    "1M-4J",
    "2M-3J",
    "1W6>=3",
    "3W6>=6",
    "2d6=6",
    "2d6>=1",
    "1d6<2",
    "4d6r1",
    "2d6ro<3",
    "1d6ra6",
    "2d6xo>=5",
    "1d20+5>=15",
    "(3d6+2)>=12",
    "2d20kh",
    "2d20kl1+5",
    "4d6k3",
    "4d6d1",
    "3d6dh1",
    "2d6min2",
    "1d20mi10",
    "2d6max3",
    "8d4/2",
    "ceil(3d4/2)",
    "round(3d4/2)",
    "abs(1d6-4)",
    "5d6cs>=5",
    "4d6cf<=2",
    "4d6t5f1",
    "4dF+1",
    "{1d20, 1d20}kh1",
    "{3d4kh2, 3d4kh2}",
    "{1d6, 1d8}kh1",
    "{1d6, 2d4}kl1",
    "{1d6, 1d8}>=4",
    "2d6[fire] + 1d8[cold] + 3",
    "1d20+5 # Wahrnehmung",
    "{1d6, 1d6, 1d6}dl1",
    "3d6r<3kh2",
    "2d6min2max5cs>=4cf<=2",
    "(4dF)>=1",
    "2d20kh1+5>=15",
    "1d4-5",
    "-(1d4-1d6)",
    "7",
    "1E-2E",
    "2B+1B",
    "1S - 1M",
    "2J-1J",
]


@pytest.mark.parametrize("text", SMALL_POOLS)
def test_small_pools_equal_brute_force_enumeration(text: str) -> None:
    expected, _ = enumerate_rolls(text)
    dist = distribution(text)
    keys = dist.keys or ()
    assert {
        (v if isinstance(v, int) else tuple(v[k] for k in keys)): f for v, f in dist.exact()
    } == expected
    # Small pools are computed with exact integers: each probability is correctly rounded.
    assert dict(dist.table) == {outcome: float(f) for outcome, f in expected.items()}
    assert dist.truncated == 0.0


def _array_engine(text: str) -> dict[object, Fraction]:
    """The exact weights from the array engine alone (no small-pool path)."""
    node = parse(text)
    pmf = evaluate(node, depths_of(node), True, None)
    if pmf.keys != NUMERIC and pmf.keys != node.keys:
        pmf = align(pmf, node.keys)
    return {o: Fraction(int(w), pmf.denominator) for o, w in cells_of(pmf)}


@pytest.mark.parametrize("text", SMALL + SMALL_POOLS + ["20M-5J", "8M - 15H", "12W6>=4"])
def test_small_pool_path_and_array_engine_agree(text: str) -> None:
    # Both ways of computing must give the very same fractions wherever the small path runs.
    assert dict(distribution(text)._exact_table()) == _array_engine(text)


@pytest.mark.parametrize("text", [*SMALL_POOLS, "20M-5J", "8M - 15H", "63d2", "24d6", "63M"])
def test_small_pools_take_the_integer_path(text: str) -> None:
    assert small_root(parse(text)) is not None


@pytest.mark.parametrize(
    "text",
    [
        "64d2",
        "64M",
        "24d6+1d6",
        "3H",
        "2B-1J",
        "1d6!",
        "30d20kh3",
        "2d6*2",
        "0H",
        "{1d6+1, 1d8, 1d4}kh2",
        "2d6rr1!",
    ],
)
def test_other_expressions_take_the_array_engine(text: str) -> None:
    # Too large for 64-bit weights, several symbol counts, exploding, keep, products.
    assert small_root(parse(text)) is None


def test_huge_pools_built_in_code_leave_the_integer_path_at_once() -> None:
    assert small_root(Pool(10**9, "M")) is None
    assert small_root(Dice(10**9, 6)) is None


@pytest.mark.parametrize(
    "text",
    ["1d6!", "2d4!", "2d4!kh1", "3d6!cs>=5", "2d6!>=5", "1d6!p", "2d4!!", "1d4!*2", "1d3!-1d3!"],
)
def test_exploding_odds_equal_enumeration_up_to_the_cut(text: str) -> None:
    # Enumeration drops branches below the cut-off, so it may miss at most that mass.
    expected, dropped = enumerate_rolls(text, cutoff=Fraction(1, 10**6))
    dist = distribution(text)
    assert 0 < dist.truncated <= TAIL
    found = dict(dist.table)
    for outcome, probability in expected.items():
        assert float(probability) - 1e-15 <= found.get(outcome, 0.0)
        assert found.get(outcome, 0.0) <= float(probability + dropped) + 1e-12
    assert math.fsum(found.values()) + dist.truncated == pytest.approx(1.0, abs=1e-14)
    assert float(dropped) < 1e-2


def test_recursive_rerolls_leave_the_other_faces_alike() -> None:
    # Rerolled until the rule no longer holds: the remaining faces, each equally likely.
    assert dict(distribution("1d6rr<3").exact()) == {v: Fraction(1, 4) for v in range(3, 7)}
    two = dict(distribution("2d6rr1").exact())
    assert two == {v: Fraction(min(v - 3, 13 - v), 25) for v in range(4, 13)}
    assert distribution("2d6rr1").truncated == 0.0


def test_two_d6_by_hand() -> None:
    dist = distribution("2d6")
    assert dist.probability(7) == pytest.approx(6 / 36)
    assert dist.probability(13) == 0.0
    assert dist.mean == pytest.approx(7.0)
    assert dist.std == pytest.approx(math.sqrt(35 / 6))
    assert dist.at_least(10) == pytest.approx(6 / 36)
    assert dict(dist.exact())[12] == Fraction(1, 36)


def test_janus_malus_clamps_at_zero_exactly() -> None:
    # M succeeds on 3 of 6 faces, J shows Janus on 3 of 6: max(0, m - j).
    dist = distribution("1M-1J")
    assert dict((v["successes"], f) for v, f in dist.exact()) == {
        0: Fraction(3, 4),
        1: Fraction(1, 4),
    }
    assert janus_check(1, -1, gm=True).table == dist.table


def test_janus_check_helper() -> None:
    assert janus_check(10, 3).table == distribution("10H+3J").table
    assert janus_check(10, -3, gm=True).table == distribution("10M-3J").table
    assert janus_check(4, 0).table == distribution("4H").table


def test_success_count_helper_is_binomial() -> None:
    dist = success_count(5, 6, 4)
    for k in range(6):
        assert dist.probability(k) == pytest.approx(math.comb(5, k) / 32, abs=1e-15)
    assert success_count(3, 10, 9, ">").probability(3) == pytest.approx(1e-3)


def test_hunter_check_reports_stars_separately() -> None:
    dist = distribution("2H")
    assert dist.keys == ("successes", "stars")
    # one success and one star: 2 orders × 2/6 × 1/6
    assert dist.probability({"successes": 1, "stars": 1}) == pytest.approx(4 / 36)
    assert dist.at_least(1) == pytest.approx(1 - (4 / 6) ** 2)
    assert dist.at_least(1, key="stars") == pytest.approx(1 - (5 / 6) ** 2)
    assert dist.mean is None
    assert dist.mean_of("successes") == pytest.approx(2 / 3)
    assert dist.marginal("stars") == pytest.approx({0: 25 / 36, 1: 10 / 36, 2: 1 / 36})


def test_comparative_check_is_a_difference_of_successes() -> None:
    dist = distribution("1M - 1H")
    assert dist.keys == ("successes",)
    values = {v["successes"]: f for v, f in dist.exact()}
    # M hits 1/2, H hits 1/3: +1 = 1/2·2/3, -1 = 1/2·1/3, 0 = rest
    assert values == {-1: Fraction(1, 6), 0: Fraction(1, 2), 1: Fraction(1, 3)}


def test_json_has_the_documented_shape() -> None:
    data = distribution("2d6").to_json(exact=True)
    assert set(data) == {"expression", "outcomes", "mean", "truncated"}
    assert data["expression"] == "2d6"
    assert [o["value"] for o in data["outcomes"]] == list(range(2, 13))
    assert data["outcomes"][0] == {"value": 2, "probability": 1 / 36, "exact": "1/36"}
    assert data["mean"] == pytest.approx(7.0)
    assert data["truncated"] == 0.0
    assert "exact" not in distribution("2d6").to_json()["outcomes"][0]
    symbols = distribution("1H+1B").to_json()
    assert symbols["mean"] is None
    assert symbols["outcomes"][0]["value"] == {"successes": 0, "stars": 0, "drops": 0}
    values = [tuple(o["value"].values()) for o in symbols["outcomes"]]
    assert values == sorted(values)


def test_exploding_truncation_is_reported() -> None:
    dist = distribution("10d10!")
    assert 0 < dist.truncated <= TAIL
    assert math.fsum(p for _, p in dist.table) + dist.truncated == pytest.approx(1, abs=1e-13)
    assert dist.mean == pytest.approx(10 * 5.5 / 0.9 * 0.9 + 10 * 5.5 / 9, rel=1e-9)


def test_large_pools_stay_fast_and_normalized() -> None:
    dist = distribution("1000d6")
    assert math.fsum(p for _, p in dist.table) == pytest.approx(1.0, abs=1e-12)
    assert dist.mean == pytest.approx(3500.0)
    hunters = distribution("300H + 5J")
    assert math.fsum(p for _, p in hunters.table) == pytest.approx(1.0, abs=1e-12)
    assert hunters.mean_of("stars") == pytest.approx(50.0)


def test_too_many_outcomes_is_a_limit_error() -> None:
    with pytest.raises(LimitError) as caught:
        distribution("500d100 * 500d100")
    assert caught.value.code == "dice.too_complex"


@pytest.mark.parametrize("text", ["100d10!", "50d100!", "1000d10!"])
def test_exact_fractions_of_huge_exploding_pools_are_refused(text: str) -> None:
    # Their integers run to millions of bits; multiplying them would take minutes to hours.
    # The cost estimate refuses them before any of that work; past it the engine still would.
    dist = distribution(text)
    with pytest.raises(LimitError) as caught:
        dist.exact()
    assert caught.value.code == "dice.odds_too_costly"
    with pytest.raises(LimitError) as caught:
        dist.exact(budget=10**15)
    assert caught.value.code == "dice.exact_too_large"


def test_exact_fractions_of_a_thousand_plain_dice_still_work() -> None:
    # About two seconds of work: past the default budget, so it takes an explicit one.
    exact = dict(distribution("1000d6").exact(budget=5 * 10**9))
    assert exact[1000] == Fraction(1, 6**1000)
    assert sum(exact.values()) == 1


def test_distribution_accepts_trees_and_texts_alike() -> None:
    assert distribution(parse("4W6kh3")).table == distribution("4d6kh3").table
    assert distribution("4W6kh3").expression == "4d6kh3"


@pytest.mark.parametrize("text", ["30d6kh12", "12d10!kl5", "20d8dh3>=5"])
def test_float_and_exact_keep_agree_on_larger_pools(text: str) -> None:
    # The float keep algorithm (all states at once) and the integer one are independent.
    dist = distribution(text)
    exact = dict(dist.exact())
    assert set(exact) == {v for v, _ in dist.outcomes()}
    for value, probability in dist.outcomes():
        assert probability == pytest.approx(float(exact[value]), abs=1e-14)


def test_keep_pools_past_the_budget_are_refused() -> None:
    with pytest.raises(LimitError) as caught:
        distribution("100d100kh50")
    assert caught.value.code == "dice.too_complex"
    assert "100d100kh50" in caught.value.params["value"]


@pytest.mark.parametrize("op", [">=", ">", "<=", "<", "="])
@pytest.mark.parametrize("target", [0, 1, 3, 6, 7, 12])
def test_success_counting_on_every_target(op: str, target: int) -> None:
    text = f"2d6{op}{target}"
    if not any(Compare(op, target).test(face) for face in range(1, 7)):  # type: ignore[arg-type]
        # no die can reach it: the total was meant, and the error says how to write it
        with pytest.raises(NotationError) as caught:
            distribution(text)
        assert caught.value.code == "dice.unreachable_target"
        assert caught.value.params["suggestion"] == f"(2d6){op}{target}"
        return
    dist = distribution(text)
    expected, _ = enumerate_rolls(text)
    assert dict(dist.exact()) == expected
