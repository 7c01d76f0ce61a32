"""Innate spellcasting of the SRD monsters: read from the stat block's trait (at will, n/day
per spell), cast without a slot at the spell's own level, uses counted until a long rest."""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.systems.dnd5e.bestiary import monster_fighter
from spieltisch.systems.dnd5e.casting import casting_at
from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.spells import (
    innate_level,
    proficiency_bonus,
    spell_damage_dice,
    spell_info,
)
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


@pytest.mark.parametrize(
    ("challenge", "level"),
    [("0", 1), ("1/8", 1), ("1/2", 1), ("1", 1), ("4", 4), ("11", 11), ("20", 20), ("21", 20)],
)
def test_an_innate_caster_without_a_stated_level_casts_at_its_challenge_rating(
    challenge: str, level: int
) -> None:
    assert innate_level(challenge) == level


def test_innate_casters_levels_from_the_stat_blocks() -> None:
    levels = {
        m: monster_fighter(m, "x", "foes").casting()
        for m in ("djinni", "drow", "solar", "efreeti", "cloud-giant", "mage")
    }
    assert {m: c.level for m, c in levels.items() if c is not None} == {
        "djinni": 11,  # CR 11
        "drow": 1,  # CR 1/4
        "solar": 20,  # CR 21, at most 20 ("spell casting" in two words, as the SRD writes it)
        "efreeti": 11,  # CR 11, the same
        "cloud-giant": 9,  # CR 9
        "mage": 9,  # its Spellcasting trait: a 9th-level spellcaster
    }
    # the stated DC and attack bonus stay the stat block's (the djinni: DC 17, +9)
    djinni = levels["djinni"]
    assert djinni is not None and (djinni.save_dc, djinni.attack_bonus) == (17, 9)
    # a cantrip at the djinni's level 11 deals three dice (Fire Bolt: 3d10)
    dice = spell_damage_dice(spell_info("fire-bolt"), 0, character_level=djinni.level)
    assert [(d.count, d.sides) for d in dice] == [(3, 10)]


@pytest.mark.parametrize(
    ("challenge", "bonus"),
    [("0", 2), ("1/2", 2), ("4", 2), ("5", 3), ("8", 3), ("9", 4), ("17", 6), ("21", 7), ("30", 9)],
)
def test_the_proficiency_bonus_of_a_challenge_rating(challenge: str, bonus: int) -> None:
    assert proficiency_bonus(challenge) == bonus


def test_an_unstated_innate_dc_and_attack_bonus_follow_from_proficiency_and_ability() -> None:
    giant = monster_fighter("cloud-giant", "g", "foes")
    # rules edition 5: CR 9 (+4) and Charisma 16 (+3): DC 8 + 4 + 3 = 15, attack +7
    derived = giant.casting(derived=True)
    assert derived is not None and (derived.save_dc, derived.attack_bonus) == (15, 7)
    # tables of edition 4 and before keep reading DC 10 and +0
    old = giant.casting()
    assert old is not None and (old.save_dc, old.attack_bonus) == (10, 0)
    # a stated DC stays; the attack bonus it leaves out follows (couatl: CR 4 +2, Cha 18 +4)
    couatl = monster_fighter("couatl", "c", "foes").casting(derived=True)
    assert couatl is not None and (couatl.save_dc, couatl.attack_bonus) == (14, 6)
    # a stated DC and attack bonus both stay (djinni: DC 17, +9)
    djinni = monster_fighter("djinni", "d", "foes").casting(derived=True)
    assert djinni is not None and (djinni.save_dc, djinni.attack_bonus) == (17, 9)


def test_a_mephit_casts_the_one_spell_its_trait_names_once_a_day() -> None:
    dust = monster_fighter("dust-mephit", "m", "foes")
    assert dust.casting() is not None and dust.casting().innate == {}  # type: ignore[union-attr]
    found = dust.casting(derived=True)
    # CR 1/2 (+2), Charisma 10 (+0): DC 10, +2; sleep once a day
    assert found is not None and found.innate == {"sleep": 1}
    assert (found.save_dc, found.attack_bonus) == (10, 2)
    # the magma mephit states its DC beside the spell
    magma = monster_fighter("magma-mephit", "m", "foes").casting(derived=True)
    assert magma is not None and magma.innate == {"heat-metal": 1} and magma.save_dc == 10


def test_the_table_s_edition_decides_which_dc_a_spell_is_cast_with() -> None:
    for edition, dc in ((4, 10), (5, 15)):
        state = fresh(edition=edition)
        state = play(state, pc("ada", "a1"))
        state = play(state, {"kind": "add_monster", "id": "g", "monster": "cloud-giant"})
        assert casting_at(state, state.fighters["g"]).save_dc == dc
