"""Grapple, shove and escape: contests of Athletics and Acrobatics, by hand and brute force."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.systems.dnd5e.queries import kinds_on
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, command, end_turn, foe, fresh, pc, play, start


def _close() -> DndState:
    state = fresh()
    # Ada: Str 14 (Athletics +2); the goblin: Str 10, Dex 14 (Acrobatics +2 beats Athletics +0)
    state = play(state, pc("ada", "a1"))
    state = play(state, foe("gob", "a2", abilities={"str": 10, "dex": 14}))
    return start(state, "ada", "gob")


GRAPPLE = {"kind": "grapple", "creature": "ada", "target": "gob"}


def test_a_won_grapple_sets_the_speed_to_0_and_an_escape_ends_it() -> None:
    state = play(_close(), GRAPPLE, 10, 9)  # 12 against Acrobatics 9 + 2 = 11
    held = [x for x in state.effects.on("gob") if x.kind == "grappled"]
    assert len(held) == 1 and held[0].source == "ada"
    assert state.last_check is not None and state.last_check["passive"]["skill"] == "acrobatics"
    assert state.budgets["ada"].amount("action") == 0  # the grapple took the Attack action
    state = end_turn(state)
    with pytest.raises(RuleError) as stuck:
        play(state, {"kind": "move", "creature": "gob", "steps": [{"to": "a3"}]})
    assert stuck.value.code == "dnd5e.move.no_movement_left"
    escape = {"kind": "escape", "creature": "gob"}
    tied = play(state, escape, 10, 10)  # Acrobatics 12 against Athletics 12: still held
    assert "grappled" in kinds_on(tied, "gob")
    free = play(state, escape, 11, 10)  # 13 against 12
    assert "grappled" not in kinds_on(free, "gob")


def test_a_tied_grapple_fails() -> None:
    state = play(_close(), GRAPPLE, 10, 10)  # 12 against 12
    assert "grappled" not in kinds_on(state, "gob")


def test_a_shove_knocks_prone_or_pushes_1_5_m_away() -> None:
    shove = {"kind": "shove", "creature": "ada", "target": "gob"}
    prone = play(_close(), shove, 15, 1)
    assert "prone" in kinds_on(prone, "gob")
    pushed = play(_close(), {**shove, "effect": "push"}, 15, 1)
    assert str(pushed.fighters["gob"].position) == "a3"
    assert pushed.pending is None  # forced movement provokes nothing
    state = play(_close(), {"kind": "terrain", "squares": ["a3"], "terrain": "wall"})
    with pytest.raises(RuleError) as wall:
        play(state, {**shove, "effect": "push"}, 15, 1)
    assert wall.value.code == "dnd5e.shove_blocked"


def test_a_grapple_needs_reach_and_a_target_at_most_one_size_larger() -> None:
    state = fresh()
    state = play(state, pc("ada", "a1"))
    state = play(state, foe("gob", "a3"))
    state = play(state, foe("giant", "c1", size="huge"))
    state = start(state, "ada", "gob", "giant")
    with pytest.raises(RuleError) as far:
        play(state, GRAPPLE, 10, 10)
    assert far.value.code == "dnd5e.out_of_reach"
    with pytest.raises(RuleError) as big:
        play(state, {**GRAPPLE, "target": "giant"}, 10, 10)
    assert big.value.code == "dnd5e.too_large"


def test_contest_odds_by_brute_force() -> None:
    state = _close()
    odds = SYSTEM.odds(state, command(GRAPPLE))
    assert odds is not None
    win = sum(
        (Fraction(1, 400) for a in range(1, 21) for b in range(1, 21) if a + 2 > b + 2),
        Fraction(0),
    )
    assert Fraction(odds.outcomes[0].exact) == win == Fraction(190, 400)
    # poisoned: disadvantage on Ada's check
    state = play(state, {"kind": "condition", "target": "ada", "condition": "poisoned"})
    odds = SYSTEM.odds(state, command(GRAPPLE))
    assert odds is not None
    low = {k: Fraction(2 * (20 - k) + 1, 400) for k in range(1, 21)}
    want = sum(
        (low[a] * Fraction(1, 20) for a in range(1, 21) for b in range(1, 21) if a > b),
        Fraction(0),
    )
    assert Fraction(odds.outcomes[0].exact) == want
