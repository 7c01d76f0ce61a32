"""Legendary actions, legendary resistance and lair actions.

Ada (AC 15, 20 HP, Dex 14) at b1 and an adult red dragon (huge, c1–e3, AC 19; Tail +14,
2d8+8, reach 4.5 m; Wing Attack DC 22 Dex, 2d6+8, prone; three legendary actions a round,
three legendary resistances a day). Initiative: Ada 20 + 2 = 22, the dragon 17 + 0 = 17.
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltisch.engine.errors import RuleError
from spieltisch.engine.visibility import GM_VIEWER
from spieltisch.systems.dnd5e.legendary import (
    actions_of,
    affordable,
    lair_count_passed,
    per_round,
    resistances_per_day,
)
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, command, end_turn, fresh, pc, play

DRAGON = {"kind": "add_monster", "id": "drake", "monster": "adult-red-dragon", "position": "c1"}


def table(lair: bool = False) -> DndState:
    state = play(fresh(), pc("ada", "b1"))
    state = play(state, DRAGON)
    if lair:
        state = play(state, {"kind": "lair", "creature": "drake"})
    return play(state, {"kind": "start_combat", "rolls": {"ada": 20, "drake": 17}})


def refused(state: DndState, data: dict[str, Any], *dice: int) -> str:
    with pytest.raises(RuleError) as error:
        play(state, data, *dice)
    return error.value.code


def legendary(state: DndState, action: str, *dice: int, **extra: Any) -> DndState:
    data = {"kind": "legendary", "creature": "drake", "action": action, **extra}
    return play(state, data, *dice)


# ---------------------------------------------------------------- the data


def test_the_red_dragon_has_three_actions_a_round_and_three_resistances() -> None:
    assert per_round("adult-red-dragon") == 3
    assert resistances_per_day("adult-red-dragon") == 3
    costs = {a.name: a.cost for a in actions_of("adult-red-dragon")}
    assert costs == {"Detect": 1, "Tail Attack": 1, "Wing Attack": 2}
    assert [a.name for a in affordable("adult-red-dragon", 2)] == ["Detect", "Tail Attack"]
    assert affordable("adult-red-dragon", 3) == ()
    assert per_round("goblin") == 0 and actions_of("goblin") == ()


def test_every_legendary_monster_of_the_srd_has_its_count() -> None:
    from spieltisch.systems.dnd5e.data import bestiary

    legendary = [k for k, m in bestiary().items() if m.get("legendary_actions")]
    assert len(legendary) == 32
    assert all(per_round(k) == 3 for k in legendary)
    assert resistances_per_day("lich") == 3 and resistances_per_day("aboleth") == 0


# ---------------------------------------------------------------- the end of a turn


def test_the_end_of_ada_s_turn_is_held_open_for_the_gm() -> None:
    state = end_turn(table())
    assert state.encounter is not None and state.encounter.current == "ada"
    assert state.legendary.window == "ada"
    # Ada's turn is over: she cannot move any more
    code = refused(state, {"kind": "move", "creature": "ada", "steps": [{"to": "a1"}]})
    assert code == "dnd5e.legendary.pending"
    # passing is the GM's: the player may not end the turn a second time
    assert SYSTEM.access(state, command({"kind": "end_turn"})).gm_only
    assert not SYSTEM.access(table(), command({"kind": "end_turn"})).gm_only
    state = end_turn(state)
    assert state.encounter is not None and state.encounter.current == "drake"
    assert state.legendary.window is None


def test_tail_attack_then_wing_attack_spend_the_round_s_three_actions() -> None:
    state = end_turn(table())
    # Tail: d20 10 + 14 = 24 hits AC 15; 2d8 3 + 4 + 8 = 15 damage: 20 → 5 HP.
    state = legendary(state, "Tail Attack", 10, 3, 4, target="ada")
    assert state.fighters["ada"].hp == 5
    assert state.legendary.spent == {"drake": 1}
    assert state.budgets["drake"].amount("attacks") == 0  # no Attack action was taken
    # Wing Attack (cost 2): Ada's Dex save d20 5 + 2 = 7 < 22 fails; 2d6 2 + 3 + 8 = 13
    # bludgeoning, and she is knocked prone: 5 → 0 HP.
    state = legendary(state, "Wing Attack", 5, 2, 3, targets=["ada"])
    assert state.fighters["ada"].hp == 0
    assert "prone" in {x.kind for x in state.effects.on("ada")}
    assert state.legendary.spent == {"drake": 3}
    code = refused(state, {"kind": "legendary", "creature": "drake", "action": "Detect"})
    assert code == "dnd5e.legendary.spent"
    # they come back at the start of the dragon's turn
    state = end_turn(state)
    assert state.legendary.spent == {}


def test_a_made_save_against_the_wing_attack_takes_nothing() -> None:
    state = end_turn(table())
    # d20 20 + 2 = 22 reaches DC 22: the Wing Attack has no half damage (none, no prone).
    state = legendary(state, "Wing Attack", 20, 6, 6, targets=["ada"])
    assert state.fighters["ada"].hp == 20
    assert "prone" not in {x.kind for x in state.effects.on("ada")}


def test_a_legendary_action_only_at_the_end_of_another_creature_s_turn() -> None:
    state = table()
    code = refused(state, {"kind": "legendary", "creature": "drake", "action": "Detect"})
    assert code == "dnd5e.legendary.not_now"
    state = end_turn(end_turn(state))  # Ada passes; now the dragon's own turn
    assert state.encounter is not None and state.encounter.current == "drake"
    # the dragon ends its own turn: no other legendary creature, so no window
    after = end_turn(state)
    assert after.encounter is not None and after.encounter.current == "ada"
    assert after.legendary.window is None


def test_unknown_action_and_missing_target_are_refused_and_change_nothing() -> None:
    state = end_turn(table())
    assert (
        refused(state, {"kind": "legendary", "creature": "drake", "action": "Breath"})
        == "dnd5e.legendary.unknown"
    )
    assert (
        refused(state, {"kind": "legendary", "creature": "drake", "action": "Tail Attack"})
        == "dnd5e.legendary.needs_target"
    )
    assert state.legendary.spent == {}


def test_a_narrated_action_only_counts() -> None:
    state = legendary(end_turn(table()), "detect")
    assert state.legendary.spent == {"drake": 1}


def test_an_incapacitated_dragon_is_not_offered() -> None:
    state = table()
    state = play(state, {"kind": "condition", "target": "drake", "condition": "stunned"})
    state = end_turn(state)
    assert state.encounter is not None and state.encounter.current == "drake"


# ---------------------------------------------------------------- odds


def test_the_tail_attack_odds_match_enumeration() -> None:
    state = end_turn(table())
    cmd = command(
        {"kind": "legendary", "creature": "drake", "action": "Tail Attack", "target": "ada"}
    )
    odds = SYSTEM.odds(state, cmd)
    assert odds is not None
    got = {o.value: Fraction(o.exact) for o in odds.outcomes if Fraction(o.exact)}
    # 1 misses (1/20), 2–19 hit (2d8+8), 20 a critical (4d8+8)
    table_: dict[int, Fraction] = {}
    table_[0] = Fraction(1, 20)
    for faces in itertools.product(range(1, 9), repeat=2):
        k = sum(faces) + 8
        table_[k] = table_.get(k, Fraction(0)) + Fraction(18, 20) / 64
    for faces in itertools.product(range(1, 9), repeat=4):
        k = sum(faces) + 8
        table_[k] = table_.get(k, Fraction(0)) + Fraction(1, 20) / 4096
    assert got == table_


def test_the_wing_attack_odds_match_enumeration() -> None:
    state = end_turn(table())
    cmd = command(
        {"kind": "legendary", "creature": "drake", "action": "Wing Attack", "targets": ["ada"]}
    )
    odds = SYSTEM.odds(state, cmd)
    assert odds is not None
    got = {o.value: Fraction(o.exact) for o in odds.outcomes if Fraction(o.exact)}
    expected: dict[int, Fraction] = {}
    for d20, a, b in itertools.product(range(1, 21), range(1, 7), range(1, 7)):
        damage = 0 if d20 + 2 >= 22 else a + b + 8  # no half damage on a save
        expected[damage] = expected.get(damage, Fraction(0)) + Fraction(1, 20 * 36)
    assert got == expected
    # the view offers P(save) 1/20 for Ada
    view = SYSTEM.view(state, _gm())
    wing = next(
        a for a in view["legendary"]["monsters"][0]["actions"] if a["name"] == "Wing Attack"
    )
    assert wing["odds"] == [
        {"target": "ada", "save": {"p": 0.05, "exact": "1/20"}, "cover": "none"}
    ]
    assert view["legendary"]["window"] == "ada" and view["legendary"]["offered"] == ["drake"]


def _gm() -> Any:
    return GM_VIEWER


# ---------------------------------------------------------------- legendary resistance


def _failed_save(state: DndState) -> DndState:
    # d20 2 + 7 (Wis 13: +1 … the GM gives the bonus) = 9 < 15
    data = {"kind": "save", "creature": "drake", "ability": "wis", "dc": 15, "bonus": 7}
    return play(state, data, 2)


def test_legendary_resistance_turns_a_failed_save_into_a_success_three_times() -> None:
    state = table()
    resist = {"kind": "legendary_resistance", "creature": "drake"}
    assert refused(state, resist) == "dnd5e.legendary.no_failed_save"
    for used in (1, 2, 3):
        state = play(_failed_save(state), resist)
        assert state.last_save is not None and state.last_save["succeeded"] is True
        assert state.last_save["resisted"] is True
        assert state.legendary.resisted == {"drake": used}
        assert refused(state, resist) == "dnd5e.legendary.no_failed_save"
    assert refused(_failed_save(state), resist) == "dnd5e.legendary.no_resistance_left"


def test_a_creature_without_legendary_resistance_cannot_use_it() -> None:
    state = _failed_save(table())
    state = play(state, {"kind": "save", "creature": "ada", "ability": "wis", "dc": 15}, 1)
    code = refused(state, {"kind": "legendary_resistance", "creature": "ada"})
    assert code == "dnd5e.legendary.no_resistance_left"


# ---------------------------------------------------------------- lair actions

D = Decimal


@pytest.mark.parametrize(
    ("before", "after", "new_round", "passed"),
    [
        (None, D(22), True, False),  # the fight starts above 20: later in the round
        (None, D(20), True, False),  # 20 wins the tie: it goes before the lair
        (None, D(19), True, True),  # starts below 20: count 20 came first
        (D(22), D(20), False, False),
        (D(20), D(19), False, True),  # ties lost: after the 20, before the 19
        (D(25), D(3), False, True),
        (D(12), D(3), False, False),
        (D(3), D(25), True, False),  # new round, count 20 still to come
        (D(3), D(12), True, True),  # new round, everyone below 20
        (D(22), D(21), True, True),  # everyone above 20: at the end of the round
    ],
)
def test_count_20_passes(
    before: Decimal | None, after: Decimal, new_round: bool, passed: bool
) -> None:
    assert lair_count_passed(before, after, new_round) is passed


@given(st.lists(st.integers(min_value=-5, max_value=30), min_size=1, max_size=8))
def test_count_20_passes_once_a_round(inits: list[int]) -> None:
    order = sorted(inits, reverse=True)
    times = 0
    before: Decimal | None = None
    for _ in range(3):  # three rounds
        for i, now in enumerate(order):
            times += lair_count_passed(before, D(now), i == 0)
            before = D(now)
    # each of the first two rounds once; the third once unless it comes at its very end
    assert times in (2, 3)
    assert times == 3 or min(order) >= 20


def test_a_lair_action_on_count_20_once_a_round() -> None:
    state = table(lair=True)
    assert not state.legendary.lair_due  # Ada (22) first
    action = {"kind": "lair_action", "creature": "drake", "text": "Magma erupts."}
    assert refused(state, action) == "dnd5e.legendary.no_lair_action"
    state = end_turn(end_turn(state))  # Ada ends, the GM passes: the dragon (17)
    assert state.legendary.lair_due
    view = SYSTEM.view(state, _gm())
    assert view["legendary"]["lair_due"] and view["legendary"]["lairs"] == ["drake"]
    state = play(state, action)
    assert not state.legendary.lair_due
    assert refused(state, action) == "dnd5e.legendary.no_lair_action"


def test_an_untaken_lair_action_lapses_and_a_monster_out_of_its_lair_has_none() -> None:
    state = end_turn(end_turn(table(lair=True)))
    assert state.legendary.lair_due
    state = end_turn(state)  # the dragon's turn ends: round 2, Ada (22) first
    assert not state.legendary.lair_due
    state = play(state, {"kind": "lair", "creature": "drake", "in_lair": False})
    action = {"kind": "lair_action", "creature": "drake", "text": "Magma erupts."}
    assert refused(state, action) == "dnd5e.legendary.not_in_lair"
    state = end_turn(end_turn(state))
    assert not state.legendary.lair_due


def test_cover_adds_to_the_dex_save_against_a_wing_attack() -> None:
    # Ada at a2 with Bo at b2 between her and the dragon (c1–e3): half cover, +2 on her
    # Dex save: +2 + 2 against DC 22 needs 18, P(save) 3/20.
    state = play(fresh(), pc("ada", "a2"))
    state = play(state, pc("bo", "b2"))
    state = play(state, DRAGON)
    state = play(state, {"kind": "start_combat", "rolls": {"ada": 20, "bo": 19, "drake": 1}})
    state = end_turn(state)
    wing = next(
        a
        for a in SYSTEM.view(state, GM_VIEWER)["legendary"]["monsters"][0]["actions"]
        if a["name"] == "Wing Attack"
    )
    ada = next(o for o in wing["odds"] if o["target"] == "ada")
    assert ada["cover"] == "half" and ada["save"]["exact"] == "3/20"
    # d20 18 + 2 + 2 = 22: she makes it (without cover 20 < 22 would fail)
    after = legendary(state, "Wing Attack", 18, 6, 6, targets=["ada"])
    assert after.fighters["ada"].hp == 20


class _Steady:
    """Dice that always show the middle of the die (a property test needs no script)."""

    def roll(self, sides: int) -> int:
        return (sides + 1) // 2


@given(
    st.lists(
        st.sampled_from(["Detect", "Tail Attack", "Wing Attack", "end_turn"]),
        max_size=12,
    )
)
def test_legendary_actions_never_exceed_three_a_round(choices: list[str]) -> None:
    from spieltisch.systems.dnd5e.decide import decide
    from spieltisch.systems.dnd5e.evolve import fold

    state = table()
    for choice in choices:
        if choice == "end_turn":
            data: dict[str, Any] = {"kind": "end_turn"}
        else:
            data = {"kind": "legendary", "creature": "drake", "action": choice}
            data |= {"target": "ada"} if choice == "Tail Attack" else {}
            data |= {"targets": ["ada"]} if choice == "Wing Attack" else {}
        try:
            state = fold(state, decide(state, command(data), _Steady()))
        except RuleError as error:
            assert error.code in {
                "dnd5e.legendary.not_now",
                "dnd5e.legendary.spent",
                "dnd5e.bad_target",
                "dnd5e.incapacitated",
            }
        assert 0 <= state.legendary.spent.get("drake", 0) <= 3
        # the window only ever holds the end of someone else's turn
        assert state.legendary.window in (None, "ada")
