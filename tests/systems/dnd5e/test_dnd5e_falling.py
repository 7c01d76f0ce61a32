"""Falling: 1d6 bludgeoning per 3 m, at most 20d6, prone after damage; a flyer knocked out of
the air waits for the GM's height.

Ada (20 HP) at a1, a harpy-like flyer "Bat" (typed in: fly 12 m, 30 HP) at c1.
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltisch.engine.visibility import GM_VIEWER
from spieltisch.systems.dnd5e.falling import fall_dice
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, command, foe, fresh, pc, play


def table() -> DndState:
    state = play(fresh(), pc("ada", "a1"))
    state = play(state, foe("bat", "c1", speeds={"walk": 3, "fly": 12}))
    return play(state, {"kind": "start_combat", "rolls": {"ada": 10, "bat": 20}})


def kinds(state: DndState, who: str) -> set[str]:
    return {x.kind for x in state.effects.on(who)}


@pytest.mark.parametrize(
    ("metres", "dice"),
    [("0", 0), ("2.5", 0), ("3", 1), ("5.5", 1), ("6", 2), ("30", 10), ("60", 20), ("300", 20)],
)
def test_one_d6_per_3_m_at_most_20(metres: str, dice: int) -> None:
    assert fall_dice(Decimal(metres)) == dice


@given(st.integers(min_value=0, max_value=2000))
def test_more_height_never_fewer_dice(half_metres: int) -> None:
    low, high = Decimal(half_metres) / 2, Decimal(half_metres + 1) / 2
    assert 0 <= fall_dice(low) <= fall_dice(high) <= 20


def test_a_fall_of_9_m_deals_3d6_and_lands_prone() -> None:
    # 9 m: 3d6, rolled 2, 5, 6 = 13 bludgeoning: 20 → 7 HP, prone
    state = play(table(), {"kind": "fall", "creature": "ada", "height_m": 9}, 2, 5, 6)
    assert state.fighters["ada"].hp == 7
    assert "prone" in kinds(state, "ada")


def test_a_fall_of_under_3_m_deals_nothing_and_leaves_it_standing() -> None:
    state = play(table(), {"kind": "fall", "creature": "ada", "height_m": 2.5})
    assert state.fighters["ada"].hp == 20 and "prone" not in kinds(state, "ada")


def test_a_flyer_knocked_prone_falls_and_waits_for_the_height() -> None:
    state = table()  # the bat's turn first
    state = play(state, {"kind": "move", "creature": "bat", "steps": [{"to": "c2", "mode": "fly"}]})
    assert state.fighters["bat"].airborne
    state = play(state, {"kind": "condition", "target": "bat", "condition": "prone"})
    assert not state.fighters["bat"].airborne
    assert state.falling == ("bat",)
    assert SYSTEM.view(state, GM_VIEWER)["falling"] == ["bat"]
    # the GM: 12 m, 4d6 = 1 + 1 + 1 + 2 = 5: 30 → 25
    state = play(state, {"kind": "fall", "creature": "bat", "height_m": 12}, 1, 1, 1, 2)
    assert state.fighters["bat"].hp == 25 and state.falling == ()


def test_an_unconscious_flyer_falls() -> None:
    state = table()
    state = play(state, {"kind": "move", "creature": "bat", "steps": [{"to": "c2", "mode": "fly"}]})
    state = play(state, {"kind": "condition", "target": "bat", "condition": "unconscious"})
    assert state.falling == ("bat",)


def test_the_fall_odds_are_the_dice_against_icepool_and_enumeration() -> None:
    state = table()
    odds = SYSTEM.odds(state, command({"kind": "fall", "creature": "ada", "height_m": 6.5}))
    assert odds is not None
    got = {o.value: Fraction(o.exact) for o in odds.outcomes}
    counts: dict[int, int] = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        counts[a + b] = counts.get(a + b, 0) + 1
    assert got == {k: Fraction(v, 36) for k, v in counts.items()}
    big = SYSTEM.odds(state, command({"kind": "fall", "creature": "ada", "height_m": 100}))
    assert big is not None
    die = 20 @ icepool.d6
    expected = {k: Fraction(n, die.denominator()) for k, n in die.items()}
    assert {o.value: Fraction(o.exact) for o in big.outcomes} == expected
