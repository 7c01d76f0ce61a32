"""Spirit Guardians (rules edition 4): a 4.5 m area around the cleric, moving with her, while
she concentrates. A foe that starts its turn there or enters it for the first time on a turn
makes a Wisdom save against DC 13: 3d8 radiant (+1d8 per slot above 3rd), half on a save; its
speed is halved in the area. Hand-computed cases; every die scripted."""

from __future__ import annotations

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.engine.visibility import Role, Viewer
from spieltisch.systems.dnd5e.decide import decide, preview_move
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, Dice, command, end_turn, fresh, pc, play
from .test_dnd5e_casting import target

CLERIC = {
    "ability": "wis",
    "level": 5,
    "save_dc": 13,
    "attack_bonus": 5,
    "slots": [4, 3, 2, 1],
    "spells": ["spirit-guardians", "bless"],
}
GUARDIANS = {"kind": "cast", "creature": "cleo", "spell": "spirit-guardians"}


def table(edition: int = 4, foe_at: str = "e1") -> DndState:
    """Cleo (Con 12) at a1, her ally Ada at a2, the foe g1 (Wis 10, 30 HP) at ``foe_at``;
    initiative Cleo, Ada, g1."""
    state = fresh(edition=edition)
    state = play(state, pc("cleo", "a1", spellcasting=CLERIC))
    state = play(state, pc("ada", "a2"))
    state = play(state, target("g1", foe_at))
    rolls = {"cleo": 20, "ada": 15, "g1": 10}
    return play(state, {"kind": "start_combat", "rolls": rolls})


def test_the_area_moves_with_the_caster_and_spares_her_side() -> None:
    state = play(table(), GUARDIANS)
    assert state.auras["cleo"].damage_type == "radiant" and state.concentration["cleo"]
    seen = SYSTEM.view(state, Viewer(Role.GM))["auras"][0]
    assert seen["radius_m"] == "4.5" and seen["affected"] == []  # Ada is spared, g1 at e1 is 6 m
    assert "d1" in seen["squares"] and "e1" not in seen["squares"]
    moved = play(state, {"kind": "move", "creature": "cleo", "steps": [{"to": "b1"}]})
    seen = SYSTEM.view(moved, Viewer(Role.GM))["auras"][0]
    # the caster's step takes the area along; the area moving onto g1 does not strike it
    assert "e1" in seen["squares"] and seen["affected"] == ["g1"]
    assert moved.fighters["g1"].hp == 30


def test_a_foe_starting_its_turn_inside_saves_for_half() -> None:
    state = play(table(foe_at="d1"), GUARDIANS)  # d1 is 4.5 m from a1
    ada = end_turn(state)
    # g1's turn starts inside: Wis save d20 12 + 0 = 12 < 13 fails, 3d8 = 4 + 5 + 6 = 15
    failed = play(ada, {"kind": "end_turn"}, 12, 4, 5, 6)
    assert failed.fighters["g1"].hp == 15
    # a 13 saves: half of 15, rounded down, 7
    saved = play(ada, {"kind": "end_turn"}, 13, 4, 5, 6)
    assert saved.fighters["g1"].hp == 23


def test_a_higher_slot_adds_a_d8_and_necrotic_is_chosen() -> None:
    state = play(table(foe_at="d1"), {**GUARDIANS, "slot": 4, "damage_type": "necrotic"})
    assert state.auras["cleo"].damage_type == "necrotic" and state.slots_used["cleo"] == (
        0,
        0,
        0,
        1,
    )
    failed = play(end_turn(state), {"kind": "end_turn"}, 1, 8, 8, 8, 8)
    assert failed.fighters["g1"].hp == 0


def test_entering_strikes_once_a_turn_and_the_move_goes_on() -> None:
    state = end_turn(end_turn(play(table(foe_at="f1"), GUARDIANS)))  # g1's turn, at f1
    assert state.encounter is not None and state.encounter.current == "g1"
    # g1 walks e1 → d1 → d2: d1 (4.5 m from Cleo) is the first square inside; the steps
    # inside cost twice: 1.5 + 3 + 3 m
    steps = [{"to": "e1"}, {"to": "d1"}, {"to": "d2"}]
    preview = preview_move(state, command({"kind": "move", "creature": "g1", "steps": steps}))
    assert preview["legal"] and preview["cost_m"] == "7.5"
    # struck on d1 (d20 10 fails, 1 + 1 + 1), then the move goes on to d2
    after = play(state, {"kind": "move", "creature": "g1", "steps": steps}, 10, 1, 1, 1)
    assert after.fighters["g1"].hp == 27 and str(after.fighters["g1"].position) == "d2"
    assert after.auras["cleo"].struck == ("g1",)
    # a new turn clears what the aura struck
    assert end_turn(after).auras["cleo"].struck == ()


def test_leaving_and_entering_again_in_the_same_turn_strikes_once() -> None:
    state = end_turn(end_turn(play(table(foe_at="f1"), GUARDIANS)))
    steps = [{"to": "e1"}, {"to": "d1"}, {"to": "e1"}, {"to": "d1"}]  # 1.5 + 3 + 1.5 + 3 m
    after = play(state, {"kind": "move", "creature": "g1", "steps": steps}, 13, 2, 2, 2)
    assert after.fighters["g1"].hp == 27 and str(after.fighters["g1"].position) == "d1"


def test_the_move_stops_where_the_damage_drops_the_mover() -> None:
    state = end_turn(end_turn(play(table(foe_at="f1"), GUARDIANS)))
    hurt = play(state, {"kind": "damage", "target": "g1", "amount": 25})  # 5 HP left
    steps = [{"to": "e1"}, {"to": "d1"}, {"to": "c2"}]
    after = play(hurt, {"kind": "move", "creature": "g1", "steps": steps}, 2, 3, 3, 3)
    assert after.fighters["g1"].hp == 0 and str(after.fighters["g1"].position) == "d1"


def test_speed_is_halved_in_the_area() -> None:
    state = end_turn(play(table(foe_at="d1"), GUARDIANS))
    # g1 starts its turn inside (d20 20 saves: half of 1 + 1 + 1 = 1)
    state = play(state, {"kind": "end_turn"}, 20, 1, 1, 1)
    assert state.fighters["g1"].hp == 29
    # its walk of 9 m: d2, d3 and d4 lie inside (4.5 m from a1), 3 m each: 9 m; one step
    # more, even out of the area (e5), is refused
    steps = [{"to": "d2"}, {"to": "d3"}, {"to": "d4"}]
    preview = preview_move(state, command({"kind": "move", "creature": "g1", "steps": steps}))
    assert preview["legal"] and preview["cost_m"] == "9.0"
    more = [*steps, {"to": "e5"}]
    preview = preview_move(state, command({"kind": "move", "creature": "g1", "steps": more}))
    assert not preview["legal"]


def test_the_aura_ends_with_concentration() -> None:
    state = play(table(foe_at="d1"), GUARDIANS)
    dropped = play(state, {"kind": "drop_concentration", "creature": "cleo"})
    assert dropped.auras == {}
    assert play(end_turn(dropped), {"kind": "end_turn"}).fighters["g1"].hp == 30


def test_bad_input_is_refused() -> None:
    state = table()
    with pytest.raises(RuleError) as caught:
        decide(
            state,
            command(
                {
                    "kind": "cast",
                    "creature": "cleo",
                    "spell": "bless",
                    "targets": ["ada"],
                    "damage_type": "necrotic",
                }
            ),
            Dice(),
        )
    assert caught.value.code == "dnd5e.spell.no_aura"
    with pytest.raises(RuleError) as caught:
        decide(state, command({**GUARDIANS, "spared": ["nobody"]}), Dice())
    assert caught.value.code == "dnd5e.unknown_creature"


def test_edition_three_makes_no_aura() -> None:
    state = play(table(edition=3, foe_at="d1"), GUARDIANS)
    assert state.auras == {}
    assert play(end_turn(state), {"kind": "end_turn"}).fighters["g1"].hp == 30


def test_spared_creatures_chosen_by_the_caster() -> None:
    state = play(table(foe_at="d1"), {**GUARDIANS, "spared": ["g1"]})
    # g1 spared, Ada (not spared now) starts her turn inside at a2: d20 15 saves, half of 2+2+2
    ada_turn = play(state, {"kind": "end_turn"}, 15, 2, 2, 2)
    assert ada_turn.fighters["ada"].hp == 17
    assert play(ada_turn, {"kind": "end_turn"}).fighters["g1"].hp == 30
