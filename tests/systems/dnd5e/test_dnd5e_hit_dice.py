"""Hit dice: a character with ``hit_dice`` on its sheet spends them outside a fight, each
healing its roll plus the Constitution modifier (at least 0, never past the maximum), with
the exact odds of the healing before the roll; a long rest gives back half the total (at
least one). Spending in a fight, without hit dice or more than are left is refused naming
it, and nothing changes."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltisch.engine.errors import RuleError
from spieltisch.i18n import error_message
from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.hitdice import HitDice, healing_odds, regained_on_long_rest
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, Dice, command, foe, fresh, pc, play, start


def ada(hp_now: int, con: int = 14) -> DndState:
    """Ada: a 3rd-level fighter (3d10 hit dice, 20 hit points, Constitution ``con``), down
    to ``hp_now`` after the GM's damage."""
    state = fresh()
    sheet = pc("ada", "a1", hit_dice={"count": 3, "sides": 10})
    sheet["abilities"] = {**sheet["abilities"], "con": con}
    state = play(state, sheet)
    if hp_now < 20:
        state = play(state, {"kind": "damage", "target": "ada", "amount": 20 - hp_now})
    return state


def spend(count: int) -> dict[str, Any]:
    return {"kind": "spend_hit_dice", "creature": "ada", "count": count}


def odds_of(state: DndState, count: int) -> dict[int, Fraction]:
    found = SYSTEM.odds(state, command(spend(count)))
    assert found is not None
    return {o.value: Fraction(o.exact) for o in found.outcomes}


def enumerated(count: int, sides: int, con: int, missing: int) -> dict[int, Fraction]:
    """Every way the dice can fall, counted."""
    ways = Counter(
        min(missing, sum(max(0, r + con) for r in rolls))
        for rolls in itertools.product(range(1, sides + 1), repeat=count)
    )
    total = sides**count
    return {k: Fraction(n, total) for k, n in sorted(ways.items())}


def test_two_dice_heal_their_rolls_plus_constitution_each() -> None:
    state = ada(5)  # 15 hit points missing; Con 14: +2 a die
    healed = play(state, spend(2), 4, 7)  # 6 + 9
    fighter = healed.fighters["ada"]
    assert (fighter.hp, fighter.hit_dice_spent) == (20, 2)
    # the last die: 1 left, then none
    again = play(healed, {"kind": "damage", "target": "ada", "amount": 10})
    assert play(again, spend(1), 1).fighters["ada"].hp == 13
    with pytest.raises(RuleError) as caught:
        decide(play(again, spend(1), 1), command(spend(1)), Dice())
    assert caught.value.code == "dnd5e.hit_dice.too_many"
    assert caught.value.params == {"creature": "Ada", "count": 1, "left": 0}


def test_a_low_constitution_never_heals_less_than_nothing_a_die() -> None:
    state = ada(5, con=6)  # -2 a die: a 1 heals 0, not -1
    assert play(state, spend(2), 1, 10).fighters["ada"].hp == 5 + 0 + 8


def test_the_odds_before_the_roll_match_every_way_the_dice_fall() -> None:
    state = ada(12)  # 8 missing: the healing is capped at 8
    assert odds_of(state, 2) == enumerated(2, 10, 2, 8)
    # by hand: two d10 + 2 each heal at least 6; 6 on (1, 1), 7 on (1, 2) and (2, 1), and
    # every other fall reaches the 8 missing
    assert odds_of(state, 2) == {6: Fraction(1, 100), 7: Fraction(2, 100), 8: Fraction(97, 100)}


@given(
    count=st.integers(1, 3),
    sides=st.sampled_from([6, 8, 10, 12]),
    con=st.integers(-5, 5),
    missing=st.integers(0, 40),
)
def test_healing_odds_equal_enumeration(count: int, sides: int, con: int, missing: int) -> None:
    assert healing_odds(count, sides, con, missing) == enumerated(count, sides, con, missing)


def test_a_long_rest_gives_back_half_the_dice_at_least_one() -> None:
    assert regained_on_long_rest(HitDice(count=3, sides=10), 3) == 2
    assert regained_on_long_rest(HitDice(count=8, sides=8), 6) == 2
    assert regained_on_long_rest(HitDice(count=1, sides=6), 1) == 0
    state = play(ada(1), spend(3), 1, 1, 1)
    rested = play(state, {"kind": "rest", "length": "long"})
    assert rested.fighters["ada"].hit_dice_spent == 2  # one of three back (3 // 2 = 1)
    short = play(state, {"kind": "rest", "length": "short"})
    assert short.fighters["ada"].hit_dice_spent == 3


@pytest.mark.parametrize(
    ("setup", "count", "code"),
    [
        ("fight", 1, "dnd5e.rest.in_combat"),
        ("monster", 1, "dnd5e.hit_dice.none"),
        ("none", 4, "dnd5e.hit_dice.too_many"),
    ],
)
def test_refusals_name_what_is_wrong_and_change_nothing(setup: str, count: int, code: str) -> None:
    state = ada(5)
    data = spend(count)
    if setup == "fight":
        state = play(state, foe("gob", "j10"))
        state = start(state, "ada", "gob")
    if setup == "monster":
        state = play(state, foe("gob", "j10"))
        data = {**data, "creature": "gob"}
    dice = Dice()
    with pytest.raises(RuleError) as caught:
        decide(state, command(data), dice)
    assert caught.value.code == code and dice.asked == []
    for language in ("en", "de"):
        assert error_message(caught.value, language)
    with pytest.raises(RuleError):
        SYSTEM.odds(state, command(data))
