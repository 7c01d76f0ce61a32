"""The odds of a Hide before it is rolled: P(hidden) against the table's own roll, by hand
and by enumerating every d20 through ``decide``."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from spieltisch.systems.dnd5e.queries import kinds_on
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, command, end_turn, foe, fresh, pc, play, start

HIDE = {"kind": "action", "creature": "ada", "action": "hide"}
NIMBLE = {"kind": "bonus_action", "creature": "ada", "feature": "hide"}


def _sneaky() -> DndState:
    """Ada: Stealth +6, hides as a bonus action too; the goblin's passive Perception 9 (Wis
    8), the orc's 12 (on its sheet)."""
    state = fresh()
    state = play(state, pc("ada", "a1", skills={"stealth": 6}, bonus_actions=["hide"]))
    state = play(state, foe("gob", "f6", abilities={"dex": 10, "wis": 8}))
    state = play(state, foe("orc", "f8", abilities={"dex": 10}, passive_perception=12))
    return start(state, "ada", "gob", "orc")


def _odds(state: DndState, data: dict[str, Any]) -> dict[str, Fraction]:
    found = SYSTEM.odds(state, command(data))
    assert found is not None
    return {str(o.value): Fraction(o.exact or "") for o in found.outcomes}


def _enumerated(state: DndState, data: dict[str, Any], dice: int) -> Fraction:
    """P(hidden) over every roll of ``dice`` d20s, each played through ``decide``."""
    rolls = list(itertools.product(range(1, 21), repeat=dice))
    hidden = sum("hidden" in kinds_on(play(state, data, *roll), "ada") for roll in rolls)
    return Fraction(hidden, len(rolls))


@pytest.mark.parametrize("data", [HIDE, NIMBLE])
def test_hide_odds_are_stealth_against_the_highest_passive_perception(
    data: dict[str, Any],
) -> None:
    state = _sneaky()
    # d20 + 6 >= 12 for 6..20: 15 of 20
    assert _odds(state, data) == {"hidden": Fraction(3, 4), "seen": Fraction(1, 4)}
    assert _enumerated(state, data, 1) == Fraction(3, 4)


def test_hide_odds_follow_the_check_mode_and_the_watchers() -> None:
    state = fresh()
    state = play(state, pc("bo", "a2"))
    state = play(state, pc("ada", "a1", skills={"stealth": 6}))
    state = play(state, foe("orc", "f8", abilities={"dex": 10}, passive_perception=12))
    state = start(state, "bo", "ada", "orc")
    help_ = {"kind": "action", "creature": "bo", "action": "help", "target": "ada"}
    helped = end_turn(play(state, {**help_, "help": "check"}))
    # advantage: 1 - (5/20)^2
    assert _odds(helped, HIDE)["hidden"] == Fraction(15, 16) == _enumerated(helped, HIDE, 2)
    poisoned = play(_sneaky(), {"kind": "condition", "target": "ada", "condition": "poisoned"})
    # disadvantage: (15/20)^2
    assert _odds(poisoned, HIDE)["hidden"] == Fraction(9, 16) == _enumerated(poisoned, HIDE, 2)
    # the orc knocked out: the goblin's 9 is the highest, d20 + 6 >= 9 for 3..20
    out = play(_sneaky(), {"kind": "damage", "target": "orc", "amount": 30})
    assert _odds(out, HIDE)["hidden"] == Fraction(9, 10) == _enumerated(out, HIDE, 1)


def test_other_actions_have_no_odds() -> None:
    assert SYSTEM.odds(_sneaky(), command({**HIDE, "action": "dodge"})) is None
