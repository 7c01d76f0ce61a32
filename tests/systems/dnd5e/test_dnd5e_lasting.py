"""Lasting spell effects: Bless's and Bane's d4 on attack rolls and saves, Shield's and Shield
of Faith's AC, Shield against Magic Missile — applied to the rolls, ended with concentration
or at the caster's next turn, and in the odds exactly (against enumeration)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.systems.dnd5e.lasting import dice_pmf, dice_total, roll_dice
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, command, end_turn, fresh, pc, play, start
from .test_dnd5e_casting import WIZARD, target

CLERIC = {
    "ability": "wis",
    "level": 3,
    "save_dc": 13,
    "attack_bonus": 5,
    "slots": [4, 2],
    "spells": ["bless", "bane", "shield-of-faith", "hold-person"],
}
MAGE = {**WIZARD, "spells": ["fire-bolt", "magic-missile", "shield"]}


def table(*foes: tuple[str, str], edition: int = 2) -> DndState:
    """Wiz (Int 18, AC 15, at a1) and Cleo (Wis 16, at b1) against ``foes`` (AC 13, 30 HP,
    Claw +4 for 1d6 + 2); initiative: Wiz, Cleo, then the foes."""
    state = fresh(edition=edition)
    state = play(state, pc("wiz", "a1", spellcasting=MAGE, abilities={"int": 18}))
    cleo = {"wis": 16, "con": 8, "dex": 10}
    state = play(state, pc("cleo", "b1", spellcasting=CLERIC, abilities=cleo))
    for id_, square in foes:
        state = play(state, target(id_, square))
    return start(state, "wiz", "cleo", *(f for f, _ in foes))


def cast(state: DndState, *dice: int, **fields: Any) -> DndState:
    return play(state, {"kind": "cast", **fields}, *dice)


def kinds(state: DndState, who: str) -> set[str]:
    return {x.kind for x in state.effects.on(who)}


def outcome(state: DndState) -> str:
    assert state.last_cast is not None
    results: list[dict[str, Any]] = state.last_cast["results"]  # type: ignore[assignment]
    return str(results[0]["outcome"])


# ---------------------------------------------------------------- the rules alone


def test_effect_dice_add_and_subtract() -> None:
    assert roll_dice({"blessed", "baned", "prone"}, "attack") == (-4, 4)
    assert dice_total((-4, 4), (3, 1)) == -2
    assert dice_pmf((4,)) == {n: Fraction(1, 4) for n in range(1, 5)}
    with pytest.raises(RuleError) as caught:
        dice_total((4,), (5,))
    assert caught.value.code == "dnd5e.spell.bad_effect_dice"


# ---------------------------------------------------------------- Bless and Bane


def test_bless_adds_a_d4_to_the_blessed_casters_spell_attack_until_concentration_ends() -> None:
    state = end_turn(table(("g1", "c3")))
    blessed = cast(state, creature="cleo", spell="bless", targets=["wiz", "cleo"])
    assert "blessed" in kinds(blessed, "wiz") and blessed.concentration["cleo"].spell == "bless"
    wiz_turn = end_turn(end_turn(blessed))
    # fire bolt +6 against AC 13: a 5 is 11, with the d4's 2 it is 13: a hit (2d10 at level 5)
    hit = cast(wiz_turn, 5, 2, 1, 1, creature="wiz", spell="fire-bolt", targets=["g1"])
    assert outcome(hit) == "hit" and hit.fighters["g1"].hp == 28
    assert hit.last_cast is not None and hit.last_cast["targets"][0]["effect_dice"] == [2]  # type: ignore[index]
    # Cleo's next concentration spell ends Bless: the same 5 misses again
    cleo_turn = end_turn(hit)
    held = cast(cleo_turn, 20, creature="cleo", spell="hold-person", targets=["g1"])
    assert "blessed" not in kinds(held, "wiz")


def test_bless_on_a_weapon_attack_and_a_saving_throw() -> None:
    state = end_turn(table(("g1", "c2")))
    state = cast(state, creature="cleo", spell="bless", targets=["cleo"])
    state = end_turn(end_turn(end_turn(state)))  # Cleo's next turn, her action back
    # Cleo's longsword +5 against AC 13 (g1 at c2 is 1.5 m away): 6 + 5 = 11, + d4 2 = 13
    hit = play(
        state,
        {"kind": "attack", "creature": "cleo", "target": "g1", "attack": "longsword"},
        6,
        2,
        4,
    )
    assert hit.last_attack is not None and hit.last_attack.outcome == "hit"
    assert hit.last_attack.total == 13 and hit.fighters["g1"].hp == 30 - 7
    # a Constitution save DC 12 with −1: 10 − 1 = 9, + d4 3 = 12 succeeds
    saved = play(state, {"kind": "save", "creature": "cleo", "ability": "con", "dc": 12}, 10, 3)
    assert saved.last_save is not None and saved.last_save["succeeded"] is True


def test_bane_subtracts_a_d4_from_a_creature_that_failed_its_save() -> None:
    state = end_turn(table(("g1", "a2"), ("g2", "c3")))
    # Cha save DC 13 with +0: g1 rolls 12 (fails, baned), g2 rolls 13 (saves, no effect)
    baned = cast(state, 12, 13, creature="cleo", spell="bane", targets=["g1", "g2"])
    assert "baned" in kinds(baned, "g1") and "baned" not in kinds(baned, "g2")
    g1_turn = end_turn(baned)
    # claw +4 against Wiz's AC 15: 11 + 4 = 15 would hit; minus the d4's 1 it misses
    missed = play(
        g1_turn, {"kind": "attack", "creature": "g1", "target": "wiz", "attack": "claw"}, 11, 1
    )
    assert missed.last_attack is not None and missed.last_attack.outcome == "miss"
    assert missed.fighters["wiz"].hp == 20


def test_bless_odds_of_a_spell_attack_by_enumeration() -> None:
    state = end_turn(table(("g1", "c3")))
    state = end_turn(end_turn(cast(state, creature="cleo", spell="bless", targets=["wiz"])))
    odds = SYSTEM.odds(
        state, command({"kind": "cast", "creature": "wiz", "spell": "fire-bolt", "targets": ["g1"]})
    )
    assert odds is not None
    hit = next(p.odds for p in odds.parts if p.key == "g1.hit")
    # d20 + 6 + d4 ≥ 13, a natural 1 misses and a natural 20 hits
    wins = sum(
        1
        for d20, d4 in product(range(1, 21), range(1, 5))
        if d20 == 20 or (d20 != 1 and d20 + 6 + d4 >= 13)
    )
    # by hand: a d4 of 1 needs 6 or more on the d20 (15 faces), 2 → 16, 3 → 17, 4 → 18
    assert wins == 15 + 16 + 17 + 18
    assert hit.outcomes[0].exact == "33/40"


# ---------------------------------------------------------------- AC: Shield of Faith, Shield


def test_shield_of_faith_adds_two_to_ac_in_the_rolls_and_the_odds() -> None:
    state = end_turn(table(("g1", "a2")))
    state = cast(state, creature="cleo", spell="shield-of-faith", targets=["wiz"])
    g1_turn = end_turn(state)
    attack = {"kind": "attack", "creature": "g1", "target": "wiz", "attack": "claw"}
    odds = SYSTEM.odds(g1_turn, command(attack))
    assert odds is not None
    # claw +4 against AC 17: the faces 13 to 20 hit, 8 of 20
    assert sum(Fraction(o.exact or 0) for o in odds.outcomes if o.value != 0) == Fraction(2, 5)
    missed = play(g1_turn, attack, 12)  # 16 hits AC 15, misses AC 17
    assert missed.last_attack is not None and missed.last_attack.outcome == "miss"


def test_shield_as_a_reaction_raises_ac_blocks_magic_missile_and_ends_at_the_casters_turn() -> None:
    state = table(("g1", "a2"))
    state = end_turn(end_turn(state))  # g1's turn
    shielded = cast(state, creature="wiz", spell="shield")
    assert "shielded" in kinds(shielded, "wiz") and shielded.budgets["wiz"].amount("reaction") == 0
    attack = {"kind": "attack", "creature": "g1", "target": "wiz", "attack": "claw"}
    missed = play(shielded, attack, 15)  # 19 hits AC 15, misses AC 20
    assert missed.last_attack is not None and missed.last_attack.outcome == "miss"
    wiz_turn = end_turn(missed)
    assert "shielded" not in kinds(wiz_turn, "wiz")


def test_magic_missile_deals_no_damage_to_a_shielded_creature() -> None:
    state = fresh()
    state = play(state, pc("wiz", "a1", spellcasting=MAGE, abilities={"int": 18}))
    state = play(state, target("g1", "c3", spellcasting=MAGE))
    state = start(state, "wiz", "g1")
    # in Wiz's turn g1 raises its Shield as a reaction; the darts then roll no dice
    shielded = cast(state, creature="g1", spell="shield")
    darts = {"kind": "cast", "creature": "wiz", "spell": "magic-missile", "targets": ["g1"]}
    odds = SYSTEM.odds(shielded, command(darts))
    assert odds is not None and [(o.value, o.exact) for o in odds.outcomes] == [(0, "1/1")]
    after = play(shielded, darts)
    assert after.fighters["g1"].hp == 30 and after.slots_used["wiz"] == (1,)
    # without the shield the same darts hurt (1 + 1 each): g1 may still cast it, so they
    # wait for its decision (rules edition 5) and it takes them
    waiting = play(state, darts)
    taken = play(waiting, {"kind": "shield", "creature": "g1", "cast": False}, 1, 1, 1)
    assert taken.fighters["g1"].hp == 24


def test_edition_one_puts_no_lasting_effect() -> None:
    state = end_turn(table(("g1", "c3"), edition=1))
    blessed = cast(state, creature="cleo", spell="bless", targets=["wiz"])
    assert "blessed" not in kinds(blessed, "wiz")


# ---------------------------------------------------------------- Hunter's Mark

RANGER = {
    "ability": "wis",
    "level": 2,
    "save_dc": 12,
    "attack_bonus": 4,
    "slots": [2],
    "spells": ["hunters-mark"],
}


def test_hunters_mark_adds_a_d6_to_the_casters_weapon_hits_doubled_on_a_critical() -> None:
    state = fresh()
    state = play(state, pc("ran", "a1", spellcasting=RANGER))
    state = play(state, target("g1", "a2"))
    state = play(state, target("g2", "b2"))
    state = start(state, "ran", "g1", "g2")
    marked = cast(state, creature="ran", spell="hunters-mark", targets=["g1"])
    assert (
        "hunters_mark" in kinds(marked, "g1")
        and marked.concentration["ran"].spell == "hunters-mark"
    )
    sword = {"kind": "attack", "creature": "ran", "target": "g1", "attack": "longsword"}
    # +5 against AC 13: 10 hits; 1d8 + 3 (4 + 3) and the mark's 1d6 (5): 12
    hit = play(marked, sword, 10, 4, 5)
    assert hit.fighters["g1"].hp == 30 - 12
    # a critical doubles the mark's dice too: 2d8 + 3 (1 + 1 + 3) and 2d6 (6 + 6)
    critical = play(marked, sword, 20, 1, 1, 6, 6)
    assert critical.fighters["g1"].hp == 30 - 17
    # another creature is not marked: the sword alone
    other = play(marked, {**sword, "target": "g2"}, 10, 4)
    assert other.fighters["g2"].hp == 30 - 7


def test_hunters_mark_odds_by_enumeration() -> None:
    state = fresh()
    state = play(state, pc("ran", "a1", spellcasting=RANGER))
    state = play(state, target("g1", "a2"))
    state = start(state, "ran", "g1")
    marked = cast(state, creature="ran", spell="hunters-mark", targets=["g1"])
    sword = {"kind": "attack", "creature": "ran", "target": "g1", "attack": "longsword"}
    odds = SYSTEM.odds(marked, command(sword))
    assert odds is not None
    got = {o.value: Fraction(o.exact or 0) for o in odds.outcomes}
    expected: dict[int, Fraction] = {}
    weight = Fraction(1, 20 * 8 * 8 * 6 * 6)
    for d20, a, b, c, d in product(
        range(1, 21), range(1, 9), range(1, 9), range(1, 7), range(1, 7)
    ):
        if d20 == 20:
            value = a + b + 3 + c + d
        elif d20 != 1 and d20 + 5 >= 13:
            value = a + 3 + c
        else:
            value = 0
        expected[value] = expected.get(value, Fraction(0)) + weight
    assert got == expected
