"""Condition durations, saves that end conditions, exhaustion by level, charmed, frightened,
and a grapple ending with its grappler incapacitated.

Ada (Dex 14, Con 12, Wis 12, 20 HP, walk 9 m) at a1 and a foe "Orc" (Dex 10, 30 HP) at c1;
initiative Ada 20 + 2 = 22, the orc 17 + 0 = 17: Ada's turn first.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltisch.engine.errors import RuleError
from spieltisch.engine.visibility import GM_VIEWER
from spieltisch.systems.dnd5e.conditions import exhaustion_tags
from spieltisch.systems.dnd5e.odds import save_odds
from spieltisch.systems.dnd5e.queries import speeds_of
from spieltisch.systems.dnd5e.rules import Mode
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, end_turn, foe, fresh, pc, play


def table() -> DndState:
    state = play(fresh(), pc("ada", "a1"))
    state = play(state, foe("orc", "c1"))
    return play(state, {"kind": "start_combat", "rolls": {"ada": 20, "orc": 17}})


def put(state: DndState, condition: str, target: str = "ada", **extra: Any) -> DndState:
    return play(state, {"kind": "condition", "target": target, "condition": condition, **extra})


def kinds(state: DndState, who: str = "ada") -> set[str]:
    return {x.kind for x in state.effects.on(who)}


def details(state: DndState, who: str = "ada") -> list[dict[str, Any]]:
    fighter = next(f for f in SYSTEM.view(state, GM_VIEWER)["fighters"] if f["id"] == who)
    found: list[dict[str, Any]] = fighter["condition_details"]
    return found


def refused(state: DndState, data: dict[str, Any]) -> str:
    with pytest.raises(RuleError) as error:
        play(state, data)
    return error.value.code


# ---------------------------------------------------------------- durations


def test_until_the_end_of_the_orc_s_next_turn() -> None:
    state = put(table(), "blinded", duration={"until": "turn_end", "of": "orc"})
    assert details(state)[0] == {
        "kind": "blinded",
        "level": 1,
        "source": None,
        "until": "turn_end",
        "of": "orc",
    }
    state = end_turn(state)  # Ada's turn ends: still blinded
    assert "blinded" in kinds(state)
    state = end_turn(state)  # the orc's turn ends: over, and shown as ended
    assert "blinded" not in kinds(state)
    ended = SYSTEM.view(state, GM_VIEWER)["conditions_ended"]
    assert ended == [
        {"target": "ada", "condition": "blinded", "reason": "duration", "after": "orc", "round": 1}
    ]
    state = end_turn(state)  # the next turn change clears the list
    assert SYSTEM.view(state, GM_VIEWER)["conditions_ended"] == []


def test_until_the_start_of_ada_s_next_turn() -> None:
    state = put(table(), "restrained", duration={"until": "turn_start", "of": "ada"})
    state = end_turn(state)
    assert "restrained" in kinds(state)
    state = end_turn(state)  # Ada's next turn starts
    assert "restrained" not in kinds(state)


def test_two_rounds_end_at_the_second_round_end() -> None:
    state = put(table(), "poisoned", duration={"until": "rounds", "rounds": 2})
    assert details(state)[0]["until"] == "rounds" and details(state)[0]["left"] == 2
    state = end_turn(end_turn(state))  # round 1 ends
    assert "poisoned" in kinds(state) and details(state)[0]["left"] == 1
    state = end_turn(end_turn(state))  # round 2 ends
    assert "poisoned" not in kinds(state)


def test_an_incomplete_duration_is_refused_naming_the_field() -> None:
    data = {"kind": "condition", "target": "ada", "condition": "stunned"}
    state = table()
    with pytest.raises(RuleError) as error:
        play(state, {**data, "duration": {"until": "save", "ability": "con"}})
    assert error.value.code == "dnd5e.condition.duration_incomplete"
    assert error.value.params == {"until": "save", "field": "dc"}
    assert refused(state, {**data, "duration": {"until": "turn_end"}}) == (
        "dnd5e.condition.duration_incomplete"
    )
    assert refused(state, {**data, "duration": {"until": "turn_end", "of": "nobody"}}) == (
        "dnd5e.unknown_creature"
    )


# ---------------------------------------------------------------- a save at the end of each turn


def test_a_save_at_the_end_of_each_turn_ends_it_on_a_success() -> None:
    # Wis save DC 13, Ada's Wis 12: +1. P(save) = P(d20 ≥ 12) = 9/20.
    state = put(
        table(), "frightened", source="orc", duration={"until": "save", "ability": "wis", "dc": 13}
    )
    badge = details(state)[0]
    assert (badge["until"], badge["ability"], badge["dc"]) == ("save", "wis", 13)
    assert badge["save"] == {"p": 0.45, "exact": "9/20"}
    state = play(state, {"kind": "end_turn"}, 11)  # 11 + 1 = 12 < 13: still frightened
    assert "frightened" in kinds(state)
    state = end_turn(state)  # the orc's turn: Ada rolls nothing
    state = play(state, {"kind": "end_turn"}, 12)  # 12 + 1 = 13: it ends
    assert "frightened" not in kinds(state)
    assert state.conditions.saves == ()
    ended = SYSTEM.view(state, GM_VIEWER)["conditions_ended"]
    assert [(x["condition"], x["reason"]) for x in ended] == [("frightened", "save")]


def test_a_paralyzed_creature_fails_a_dex_save_that_would_end_a_condition() -> None:
    state = put(table(), "paralyzed", duration={"until": "save", "ability": "dex", "dc": 5})
    assert details(state)[0]["save"]["exact"] == "0/1" or details(state)[0]["save"]["p"] == 0
    state = play(state, {"kind": "end_turn"})  # no die: it fails by itself
    assert "paralyzed" in kinds(state)


def test_taking_a_condition_off_drops_its_save() -> None:
    state = put(table(), "stunned", duration={"until": "save", "ability": "con", "dc": 30})
    state = put(state, "stunned", remove=True)
    assert state.conditions.saves == ()
    state = play(state, {"kind": "end_turn"})  # nothing to roll


@given(st.integers(min_value=-5, max_value=15), st.integers(min_value=1, max_value=30))
def test_the_badge_odds_are_the_save_odds(bonus: int, dc: int) -> None:
    # brute force: the d20 faces that reach the DC
    expected = Fraction(sum(1 for d in range(1, 21) if d + bonus >= dc), 20)
    assert save_odds(bonus, dc, Mode.NORMAL) == expected


# ---------------------------------------------------------------- exhaustion


def test_exhaustion_levels_add_up_as_data() -> None:
    assert exhaustion_tags(0) == frozenset()
    assert exhaustion_tags(1) == {"checks_disadvantage"}
    assert exhaustion_tags(3) == {
        "checks_disadvantage",
        "speed_half",
        "attacks_disadvantage",
        "saves_disadvantage",
    }
    assert "dies" in exhaustion_tags(6) and "speed_zero" in exhaustion_tags(6)


def test_exhaustion_halves_speed_then_hp_maximum_then_stops_then_kills() -> None:
    state = table()
    state = put(put(state, "exhaustion"), "exhaustion")  # level 2
    assert speeds_of(state, state.fighters["ada"]) == {"walk": Decimal("4.5")}
    # 4.5 m: three squares, a fourth is refused
    move = {"kind": "move", "creature": "ada", "steps": [{"to": "a2"}, {"to": "a3"}, {"to": "a4"}]}
    after = play(state, move)
    assert after.fighters["ada"].position is not None
    assert refused(state, {**move, "steps": [*move["steps"], {"to": "a5"}]}) == (
        "dnd5e.move.no_movement_left"
    )
    state = put(put(state, "exhaustion"), "exhaustion")  # level 4: 20 HP → 10
    assert state.fighters["ada"].hp == 10
    state = play(state, {"kind": "heal", "target": "ada", "amount": 5})
    assert state.fighters["ada"].hp == 10  # capped at half the maximum
    state = put(state, "exhaustion")  # level 5: speed 0
    assert speeds_of(state, state.fighters["ada"]) == {"walk": Decimal(0)}
    state = put(state, "exhaustion")  # level 6: dead
    assert state.fighters["ada"].dead


# ---------------------------------------------------------------- charmed, frightened, grappled


def test_a_charmed_creature_cannot_attack_its_charmer() -> None:
    state = play(table(), {"kind": "move", "creature": "ada", "steps": [{"to": "b1"}]})
    state = put(state, "charmed", source="orc")
    attack = {"kind": "attack", "creature": "ada", "target": "orc", "attack": "Longsword"}
    assert refused(state, attack) == "dnd5e.condition.charmed"
    play(put(state, "charmed", remove=True), attack, 1)  # a natural 1 misses


def test_a_frightened_creature_cannot_move_closer_to_the_source() -> None:
    state = put(table(), "frightened", source="orc")
    toward = {"kind": "move", "creature": "ada", "steps": [{"to": "a2"}, {"to": "b2"}]}
    # a1 → a2 keeps 3 m to c1; a2 → b2 comes to 1.5 m: refused at step 1
    with pytest.raises(RuleError) as error:
        play(state, toward)
    assert error.value.code == "dnd5e.condition.frightened"
    preview = SYSTEM.odds(state, SYSTEM.commands.validate_python(toward))
    assert preview is not None
    check = preview.outcomes[0].value
    assert check["legal"] is False and check["error"]["step"] == 1
    away = play(state, {"kind": "move", "creature": "ada", "steps": [{"to": "a2"}]})
    assert away.fighters["ada"].position is not None


def test_a_grapple_ends_when_the_grappler_is_incapacitated() -> None:
    state = put(table(), "grappled", source="orc")
    state = put(state, "stunned", target="orc")
    assert "grappled" not in kinds(state)


def test_a_grapple_ends_when_the_grappler_moves_out_of_reach() -> None:
    # Ada steps to b1 beside the orc (c1) and holds it; she disengages and walks to a3,
    # 3 m from c1, beyond her reach of 1.5 m: the orc is free
    state = play(table(), {"kind": "move", "creature": "ada", "steps": [{"to": "b1"}]})
    state = put(state, "grappled", target="orc", source="ada")
    state = play(state, {"kind": "move", "creature": "ada", "steps": [{"to": "b2"}]})
    assert "grappled" in kinds(state, "orc")  # b2 to c1: 1.5 m, still within reach
    state = play(state, {"kind": "action", "creature": "ada", "action": "disengage"})
    state = play(state, {"kind": "move", "creature": "ada", "steps": [{"to": "a3"}]})
    assert "grappled" not in kinds(state, "orc")
