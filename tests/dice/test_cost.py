"""The cost estimate of exact odds: cheap expressions pass, expensive ones are refused first."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.dice import cost
from spieltisch.dice.arrays import MAX_CELLS
from spieltisch.dice.errors import LimitError
from spieltisch.dice.exploding import depths_of
from spieltisch.dice.keep import KEEP_BUDGET, KEEP_BUDGET_EXACT
from spieltisch.dice.notation import parse
from spieltisch.dice.odds import distribution
from spieltisch.i18n import error_message


def _estimate(text: str, exact: bool = False) -> float:
    node = parse(text)
    keep = KEEP_BUDGET_EXACT if exact else KEEP_BUDGET
    return cost.estimate(node, depths_of(node), exact=exact, max_cells=MAX_CELLS, keep_budget=keep)


CHEAP = [
    "3d6",
    "4d6kh3",
    "12W6>=4",
    "20M + 5J",
    "8M - 15H",
    "10W10!",
    "30d6kh12",
    "100d6",
    "3H + 2S",
]
EXPENSIVE_EXACT = ["50d100!", "100d100!", "20d100!", "1000d6", "300H + 5J", "1000d10!"]
EXPENSIVE_FLOAT = ["10d100!*10d100! + 10d99!*10d99!", "10d100!*10d100! - 10d98!*10d98!"]


@pytest.mark.parametrize("text", CHEAP)
def test_cheap_expressions_compute_within_the_budget(text: str) -> None:
    assert _estimate(text, exact=True) < cost.ODDS_BUDGET
    dist = distribution(text)
    total = sum(f for _, f in dist.exact())
    assert total == 1 or (dist.truncated and 1 - total < 1e-11)  # exploding dice: a cut tail


@pytest.mark.parametrize("text", EXPENSIVE_EXACT)
def test_expensive_exact_odds_are_refused_before_the_work(text: str) -> None:
    dist = distribution(text)  # the float odds stay cheap
    assert dist.table
    with pytest.raises(LimitError) as caught:
        dist.exact()
    error = caught.value
    assert error.code == "dice.odds_too_costly"
    assert error.params["value"] == str(parse(text))
    assert float(error.params["cost"]) > float(error.params["budget"]) == cost.ODDS_BUDGET
    assert str(parse(text)) in error_message(error, "de")
    assert "Budget" in error_message(error, "de")
    assert "budget" in error_message(error, "en")


@pytest.mark.parametrize("text", EXPENSIVE_FLOAT)
def test_expensive_float_odds_are_refused(text: str) -> None:
    with pytest.raises(LimitError) as caught:
        distribution(text)
    assert caught.value.code == "dice.odds_too_costly"


def test_hand_computed_direct_convolution() -> None:
    # 2d6 by the array engine: the estimate charges the dearest count of the same bit length,
    # 3 dice: a direct 6×6 convolution (squaring), then a 6×11 one; the shape is that of 2d6.
    walk = cost._Walk({}, exact=False, max_cells=MAX_CELLS, keep_budget=KEEP_BUDGET)
    shape = walk.power(cost._Shape((6,), 1, 6), 2)
    assert shape.axes == (11,) and (shape.low, shape.high) == (2, 12)
    assert walk.cost == pytest.approx(2 * cost._STEP + cost._DIRECT * (36 + 66))


def test_structural_refusals_stay_the_engines() -> None:
    # The engine refuses these cheaply itself (too many outcomes, a keep past its budget).
    for text in ("500d100 * 500d100", "100d100kh50"):
        with pytest.raises(LimitError) as caught:
            distribution(text)
        assert caught.value.code == "dice.too_complex"


def test_the_budget_is_a_parameter_and_a_setting() -> None:
    assert _estimate("100d100", exact=True) > 1000
    with pytest.raises(LimitError) as caught:
        distribution("100d100", budget=1000)
    assert caught.value.params["budget"] == "1.0e+03"
    before = cost.default_budget()
    try:
        cost.set_default_budget(1000)
        with pytest.raises(LimitError):
            distribution("100d100")
        assert distribution("100d100", budget=10**9).table
    finally:
        cost.set_default_budget(before)
    with pytest.raises(ValueError):
        cost.set_default_budget(0)


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(1, 500),
    more=st.integers(1, 500),
    sides=st.sampled_from([2, 6, 10, 20, 100]),
    explode=st.booleans(),
    exact=st.booleans(),
)
def test_estimate_grows_with_the_pool(
    count: int, more: int, sides: int, explode: bool, exact: bool
) -> None:
    bang = "!" if explode else ""
    small = _estimate(f"{count}d{sides}{bang}", exact)
    large = _estimate(f"{count + more}d{sides}{bang}", exact)
    assert large >= small


@settings(max_examples=40, deadline=None)
@given(count=st.integers(1, 60), sides=st.sampled_from([4, 6, 8, 10, 12]), keep=st.integers(1, 3))
def test_expressions_under_the_budget_compute(count: int, sides: int, keep: int) -> None:
    text = f"{max(count, keep)}d{sides}kh{keep} + {count}d{sides}"
    node = parse(text)
    assert _estimate(text, exact=True) <= cost.ODDS_BUDGET
    dist = distribution(node)
    assert sum(f for _, f in dist.exact()) == 1
