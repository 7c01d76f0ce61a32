"""Innate spellcasting of the SRD monsters: read from the stat block's trait (at will, n/day
per spell), cast without a slot at the spell's own level, uses counted until a long rest."""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.systems.dnd5e.bestiary import monster_fighter
from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.state import DndState

from .helpers import Dice, command, end_turn, fresh, pc, play, start


def test_the_trait_reads_uses_per_day_dc_and_spells() -> None:
    couatl = monster_fighter("couatl", "c", "foes").casting()
    assert couatl is not None
    assert (couatl.ability, couatl.save_dc, couatl.slots) == ("cha", 14, ())
    assert couatl.innate["detect-magic"] == 0  # at will
    assert couatl.innate["cure-wounds"] == 3 and couatl.innate["dream"] == 1
    assert "cure-wounds" in couatl.spells
    gnome = monster_fighter("deep-gnome-svirfneblin", "g", "foes").casting()
    assert gnome is not None  # "(self only)" and a name with a slash are read
    assert gnome.innate == {
        "nondetection": 0,
        "blindness-deafness": 1,
        "blur": 1,
        "disguise-self": 1,
    }
    mage = monster_fighter("mage", "m", "foes").casting()
    assert mage is not None and mage.innate == {} and mage.slots == (4, 3, 3, 3, 1)


def table() -> DndState:
    state = fresh()
    state = play(state, pc("ada", "a1"))
    state = play(state, {"kind": "add_monster", "id": "cou", "monster": "couatl", "position": "c3"})
    state = start(state, "cou", "ada")
    return play(state, {"kind": "damage", "target": "cou", "amount": 50, "type": "fire"})


def heal(state: DndState, *dice: int, **extra: Any) -> DndState:
    data = {"kind": "cast", "creature": "cou", "spell": "cure-wounds", "targets": ["cou"], **extra}
    return play(state, data, *dice)


def test_three_a_day_are_cast_without_a_slot_then_refused_until_a_long_rest() -> None:
    state = table()
    # cure wounds: 1d8 + Cha +4, three times a day, no slot spent
    for roll in (1, 2, 3):
        state = heal(state, roll)
        assert state.slots_used == {}
        state = end_turn(end_turn(state))
    assert state.fighters["cou"].hp == 97 - 50 + 5 + 6 + 7
    assert state.innate_used["cou"] == {"cure-wounds": 3}
    with pytest.raises(RuleError) as caught:
        decide(
            state,
            command(
                {"kind": "cast", "creature": "cou", "spell": "cure-wounds", "targets": ["cou"]}
            ),
            Dice(8),
        )
    assert caught.value.code == "dnd5e.spell.no_uses" and caught.value.params["count"] == 3
    with pytest.raises(RuleError) as caught:
        decide(
            state,
            command(
                {"kind": "cast", "creature": "cou", "spell": "bless", "slot": 2, "targets": ["cou"]}
            ),
            Dice(),
        )
    assert caught.value.code == "dnd5e.spell.innate_slot"
    rested = play(play(state, {"kind": "end_combat"}), {"kind": "rest", "length": "long"})
    assert rested.innate_used == {}


def test_at_will_spells_have_no_count() -> None:
    state = fresh()
    state = play(state, pc("ada", "a1"))
    gnome = {"kind": "add_monster", "id": "gno", "monster": "deep-gnome-svirfneblin"}
    state = start(play(state, {**gnome, "position": "c3"}), "gno", "ada")
    for _ in range(4):  # nondetection at will, once a turn for four rounds
        state = play(state, {"kind": "cast", "creature": "gno", "spell": "nondetection"})
        state = end_turn(end_turn(state))
    assert state.innate_used == {} and state.slots_used == {}


def test_a_sheet_declares_innate_spells() -> None:
    innate = {"ability": "cha", "save_dc": 12, "attack_bonus": 4, "innate": {"shield": 1}}
    state = fresh()
    state = play(state, pc("ada", "a1", spellcasting=innate))
    state = play(state, {"kind": "add_monster", "id": "gob", "monster": "goblin", "position": "c3"})
    state = start(state, "gob", "ada")
    shielded = play(state, {"kind": "cast", "creature": "ada", "spell": "shield"})
    assert shielded.innate_used == {"ada": {"shield": 1}}
    assert "shielded" in {x.kind for x in shielded.effects.on("ada")}
