"""Casting spells at the table: the ``cast`` command, slots, the one-spell rule, range,
templates, attack and save spells, healing, conditions and concentration — each against a
hand-computed case, the odds against icepool and enumeration."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.engine.errors import RuleError
from spieltisch.engine.visibility import GM_VIEWER, Role, Viewer
from spieltisch.systems.dnd5e import events as e
from spieltisch.systems.dnd5e.casting import cast_result
from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.spells import parse_spellcasting, spell_info
from spieltisch.systems.dnd5e.state import DndState
from spieltisch.systems.dnd5e.view import view

from .helpers import SYSTEM, Dice, command, end_turn, fresh, pc, play, start

WIZARD = {
    "ability": "int",
    "level": 5,
    "save_dc": 14,
    "attack_bonus": 6,
    "slots": [4, 3, 2],
    "spells": ["fireball", "fire-bolt", "magic-missile", "burning-hands", "hellish-rebuke"],
}
CLERIC = {
    "ability": "wis",
    "level": 3,
    "save_dc": 13,
    "attack_bonus": 5,
    "slots": [4, 2],
    "spells": [
        "bless",
        "cure-wounds",
        "healing-word",
        "sacred-flame",
        "hold-person",
        "guiding-bolt",
        "spiritual-weapon",
    ],
}


def target(id_: str, position: str, **extra: Any) -> dict[str, Any]:
    """A typed-in foe: AC 13, 30 HP, Dexterity 10, Wisdom 10, Constitution 10."""
    sheet = {
        "id": id_,
        "name": id_.title(),
        "ac": 13,
        "hp": 30,
        "abilities": {"dex": 10, "wis": 10, "con": 10},
        "attacks": ["Claw: +4, 5 (1d6+2) slashing"],
        **extra,
    }
    return {"kind": "add_monster", "id": id_, "sheet": sheet, "position": position}


def table(*foes: tuple[str, str], width: int = 20, **wizard: Any) -> DndState:
    """The wizard Wiz (Int 18, at a1) and the cleric Cleo (Wis 16, Con 8, at b1) against
    ``foes``; initiative: Wiz, Cleo, then the foes."""
    state = fresh(width=width)
    spellcasting = {**WIZARD, **wizard}
    state = play(state, pc("wiz", "a1", spellcasting=spellcasting, abilities={"int": 18}))
    cleric_abilities = {"wis": 16, "con": 8, "dex": 10}
    state = play(state, pc("cleo", "b1", spellcasting=CLERIC, abilities=cleric_abilities))
    for id_, square in foes:
        state = play(state, target(id_, square))
    return start(state, "wiz", "cleo", *(f for f, _ in foes))


def cast(state: DndState, *dice: int, **fields: Any) -> DndState:
    return play(state, {"kind": "cast", **fields}, *dice)


def refused(state: DndState, data: dict[str, Any], *dice: int) -> RuleError:
    with pytest.raises(RuleError) as caught:
        decide(state, command({"kind": "cast", **data}), Dice(*dice))
    return caught.value


# ---------------------------------------------------------------- save spells and areas


def test_fireball_halves_on_a_save_and_hurts_everyone_inside() -> None:
    # f5 is the centre; g5 (1.5 m) and f8 (4.5 m) are inside the 6 m sphere, k5 (7.5 m) not
    state = table(("g1", "g5"), ("g2", "f8"), ("g3", "k5"))
    # g1 rolls 5 + 0 < DC 14: 8d6 = 8 × 3 = 24; g2 rolls 15: half of 8 × 4 = 16
    after = cast(
        state, 5, *[3] * 8, 15, *[4] * 8, creature="wiz", spell="fireball", area={"origin": "f5"}
    )
    assert after.fighters["g1"].hp == 30 - 24
    assert after.fighters["g2"].hp == 30 - 16
    assert after.fighters["g3"].hp == 30
    assert after.slots_used["wiz"] == (0, 0, 1)
    assert after.budgets["wiz"].amount("action") == 0
    results = {r["target"]: (r["outcome"], r["damage"]) for r in after.last_cast["results"]}
    assert results == {"g1": ("failed", 24), "g2": ("saved", 16)}


def test_a_higher_slot_adds_a_die_and_spends_that_slot() -> None:
    state = table(("g1", "g5"), slots=[4, 3, 3, 1])
    after = cast(
        state, 2, *[1] * 9, creature="wiz", spell="fireball", slot=4, area={"origin": "f5"}
    )
    assert after.fighters["g1"].hp == 30 - 9
    assert after.slots_used["wiz"] == (0, 0, 0, 1)


def test_slots_run_out_and_bad_slots_are_refused() -> None:
    state = table(("g1", "c3"), slots=[1])
    assert (
        refused(
            state, {"creature": "wiz", "spell": "fireball", "slot": 2, "area": {"origin": "f5"}}
        ).code
        == "dnd5e.spell.bad_slot"
    )
    assert (
        refused(state, {"creature": "wiz", "spell": "fire-bolt", "slot": 1, "targets": ["g1"]}).code
        == "dnd5e.spell.cantrip_slot"
    )
    after = cast(state, 1, 1, 1, creature="wiz", spell="magic-missile", targets=["g1"])
    assert after.fighters["g1"].hp == 30 - 6  # 3d4+3, every dart a 1
    for _ in range(3):
        after = end_turn(after)
    error = refused(
        after, {"creature": "wiz", "spell": "magic-missile", "targets": ["g1"]}, 1, 1, 1
    )
    assert error.code == "dnd5e.spell.no_slot" and error.params["slot"] == 1
    assert after.fighters["g1"].hp == 24  # the refusal changed nothing


def test_a_cone_from_self_leaves_out_its_caster_and_starts_at_its_square() -> None:
    state = table(("g1", "b2"), ("g2", "d1"))
    # burning hands, 4.5 m cone from a1 toward c1: b1 (Cleo) and c1…d1 lie on the axis
    error = refused(
        state,
        {"creature": "wiz", "spell": "burning-hands", "area": {"origin": "b1", "toward": "c1"}},
    )
    assert error.code == "dnd5e.spell.self_origin"
    after = cast(
        state,
        *(20, 1, 1, 1),
        *(20, 1, 1, 1),
        creature="wiz",
        spell="burning-hands",
        area={"origin": "a1", "toward": "d1"},
    )
    # Cleo (b1) and g2 (d1) on the axis, g1 (b2: 1 along, 1 across > ½) outside; both save
    hit = [r["target"] for r in after.last_cast["results"]]
    assert hit == ["cleo", "g2"]
    assert after.fighters["g2"].hp == 30 - 1  # half of 3 on a save
    assert after.fighters["wiz"].hp == 20 and after.fighters["cleo"].hp == 20 - 1


def test_an_area_needs_a_template_in_range_and_no_targets() -> None:
    state = table(("g1", "c3"), width=40)
    assert (
        refused(state, {"creature": "wiz", "spell": "fireball", "targets": ["g1"]}).code
        == "dnd5e.spell.needs_area"
    )
    area = {"origin": "c3"}
    assert (
        refused(
            state, {"creature": "wiz", "spell": "fireball", "targets": ["g1"], "area": area}
        ).code
        == "dnd5e.spell.area_targets"
    )
    far = refused(state, {"creature": "wiz", "spell": "fireball", "area": {"origin": "af1"}})
    assert far.code == "dnd5e.spell.area_out_of_range" and far.params["square"] == "af1"
    assert (
        refused(
            state, {"creature": "wiz", "spell": "fire-bolt", "targets": ["g1"], "area": area}
        ).code
        == "dnd5e.spell.no_area"
    )


def test_a_save_spell_imposes_its_condition_on_a_failed_save() -> None:
    state = end_turn(table(("g1", "c3")))
    # hold person: Wis save DC 13 with +0; 12 fails → paralyzed, the cleric concentrates
    after = cast(state, 12, creature="cleo", spell="hold-person", targets=["g1"])
    paralysed = [x for x in after.effects.on("g1") if x.kind == "paralyzed"]
    assert [x.source for x in paralysed] == ["cleo"]
    assert after.concentration["cleo"].spell == "hold-person"
    assert after.concentration["cleo"].imposed == (("g1", "paralyzed"),)
    saved = cast(state, 13, creature="cleo", spell="hold-person", targets=["g1"])
    assert not [x for x in saved.effects.on("g1") if x.kind == "paralyzed"]
    assert saved.slots_used["cleo"] == (0, 1)


def test_a_condition_that_fails_saves_rolls_no_d20() -> None:
    state = table(("g1", "k10"))
    state = play(state, {"kind": "condition", "target": "g1", "condition": "paralyzed"})
    # paralyzed: Dexterity saves fail by themselves; fireball asks no d20, deals full 8d6
    after = cast(state, *[2] * 8, creature="wiz", spell="fireball", area={"origin": "k10"})
    assert after.fighters["g1"].hp == 30 - 16
    assert after.last_cast["targets"][0]["d20"] == []


def test_sacred_flame_saves_for_nothing_and_scales_with_the_caster() -> None:
    state = end_turn(table(("g1", "c3")))
    missed = cast(state, 13, creature="cleo", spell="sacred-flame", targets=["g1"])
    assert missed.fighters["g1"].hp == 30  # a save: no damage, no dice rolled
    hurt = cast(state, 12, 8, creature="cleo", spell="sacred-flame", targets=["g1"])
    assert hurt.fighters["g1"].hp == 22  # level 3: 1d8


# ---------------------------------------------------------------- attack spells


def test_fire_bolt_rolls_against_ac_and_scales_at_level_five() -> None:
    state = table(("g1", "c3"))
    # +6 against AC 13: 7 hits (13), 6 misses (12); level 5: 2d10, a 20 doubles them
    hit = cast(state, 7, 4, 6, creature="wiz", spell="fire-bolt", targets=["g1"])
    assert hit.fighters["g1"].hp == 20
    miss = cast(state, 6, creature="wiz", spell="fire-bolt", targets=["g1"])
    assert miss.fighters["g1"].hp == 30 and miss.slots_used.get("wiz") is None
    critical = cast(state, 20, 1, 1, 1, 1, creature="wiz", spell="fire-bolt", targets=["g1"])
    assert critical.fighters["g1"].hp == 26
    assert critical.last_cast["results"][0]["outcome"] == "critical"
    low = table(("g1", "c3"), level=4)
    assert (
        cast(low, 7, 9, creature="wiz", spell="fire-bolt", targets=["g1"]).fighters["g1"].hp == 21
    )


def test_range_and_targets_are_checked_on_the_map() -> None:
    state = table(("g1", "z1"), ("g2", "c3"), width=40)
    # a1 to z1: 25 squares = 37.5 m > 36 m
    far = refused(state, {"creature": "wiz", "spell": "fire-bolt", "targets": ["g1"]})
    assert far.code == "dnd5e.spell.out_of_range" and far.params["range"] == "36"
    assert (
        refused(state, {"creature": "wiz", "spell": "fire-bolt", "targets": ["wiz"]}).code
        == "dnd5e.bad_target"
    )
    assert (
        refused(state, {"creature": "wiz", "spell": "fire-bolt"}).code == "dnd5e.spell.needs_target"
    )
    assert (
        refused(state, {"creature": "wiz", "spell": "fire-bolt", "targets": ["g2", "g2"]}).code
        == "dnd5e.spell.twice"
    )
    assert (
        refused(state, {"creature": "wiz", "spell": "cure-wounds", "targets": ["g2"]}).code
        == "dnd5e.spell.not_known"
    )
    assert refused(state, {"creature": "cleo", "spell": "bless"}).code == "dnd5e.not_your_turn"


# ---------------------------------------------------------------- healing, time, one spell


def test_cure_wounds_heals_its_dice_and_the_modifier_at_touch() -> None:
    state = end_turn(table(("g1", "f5")))
    state = play(state, {"kind": "damage", "target": "wiz", "amount": 15})
    after = cast(state, 5, creature="cleo", spell="cure-wounds", targets=["wiz"])
    assert after.fighters["wiz"].hp == 5 + 5 + 3  # 1d8 + Wis 16 (+3)
    far = refused(state, {"creature": "cleo", "spell": "cure-wounds", "targets": ["g1"]})
    assert far.code == "dnd5e.spell.out_of_range" and far.params["range"] == "1.5"


def test_one_spell_rule_after_a_bonus_action_spell() -> None:
    state = end_turn(table(("g1", "c3")))
    state = play(state, {"kind": "damage", "target": "wiz", "amount": 5})
    after = cast(state, 2, creature="cleo", spell="healing-word", targets=["wiz"])
    assert after.fighters["wiz"].hp == 15 + 2 + 3
    assert after.budgets["cleo"].amount("bonus") == 0
    error = refused(after, {"creature": "cleo", "spell": "cure-wounds", "targets": ["wiz"]}, 1)
    assert error.code == "dnd5e.spell.one_spell"
    # a cantrip of 1 action is still allowed
    cantrip = cast(after, 12, 3, creature="cleo", spell="sacred-flame", targets=["g1"])
    assert cantrip.fighters["g1"].hp == 27
    # and the other way round: after a levelled action spell, no bonus-action spell
    first = cast(state, 1, creature="cleo", spell="cure-wounds", targets=["wiz"])
    assert (
        refused(first, {"creature": "cleo", "spell": "healing-word", "targets": ["wiz"]}, 1).code
        == "dnd5e.spell.one_spell"
    )


def test_a_reaction_spell_in_another_turn_spends_the_reaction() -> None:
    state = end_turn(end_turn(table(("g1", "c3"))))  # g1's turn
    after = cast(state, 3, 5, 5, creature="wiz", spell="hellish-rebuke", targets=["g1"])
    assert after.fighters["g1"].hp == 20  # failed Dex save: 2d10
    assert after.budgets["wiz"].amount("reaction") == 0
    assert after.budgets["wiz"].amount("action") == 1
    again = refused(
        after, {"creature": "wiz", "spell": "hellish-rebuke", "targets": ["g1"]}, 3, 5, 5
    )
    assert again.code == "toolkit.economy.not_enough"
    assert (
        refused(state, {"creature": "wiz", "spell": "fire-bolt", "targets": ["g1"]}).code
        == "dnd5e.not_your_turn"
    )


def test_a_spell_without_mechanics_logs_its_slot_and_text() -> None:
    state = end_turn(table(("g1", "c3")))
    after = cast(state, creature="cleo", spell="bless", targets=["wiz", "cleo"])
    assert after.slots_used["cleo"] == (1,)
    assert after.concentration["cleo"].spell == "bless"
    assert (
        after.last_cast["spell"] == "bless"
        and after.last_cast["results"][0]["outcome"] == "affected"
    )
    assert spell_info("bless").text  # the page shows the text


def test_a_longer_casting_time_is_refused() -> None:
    state = table(("g1", "c3"), spells=["identify"])
    assert refused(state, {"creature": "wiz", "spell": "identify"}).code == "dnd5e.spell.too_long"


# ---------------------------------------------------------------- concentration


def _held(state: DndState) -> DndState:
    """Cleo concentrates on hold person, g1 paralyzed by it."""
    return cast(end_turn(state), 1, creature="cleo", spell="hold-person", targets=["g1"])


def test_damage_asks_a_concentration_save_of_half_the_damage() -> None:
    state = _held(table(("g1", "c3")))
    state = play(state, {"kind": "heal", "target": "cleo", "amount": 10, "temporary": True})
    # 24 damage (10 of it on temporary hit points): DC 12; Con 8 (−1): 13 keeps, 12 loses
    kept = play(state, {"kind": "damage", "target": "cleo", "amount": 24}, 13)
    assert kept.concentration["cleo"].spell == "hold-person"
    assert kept.last_concentration is not None and kept.last_concentration["dc"] == 12
    lost = play(state, {"kind": "damage", "target": "cleo", "amount": 24}, 12)
    assert "cleo" not in lost.concentration
    assert "paralyzed" not in {x.kind for x in lost.effects.on("g1")}
    # small damage: DC 10
    small = SYSTEM.decide(
        state, command({"kind": "damage", "target": "cleo", "amount": 3}), Dice(11)
    )
    saved = [x for x in small if isinstance(x, e.ConcentrationSaved)]
    assert saved[0].dc == 10 and saved[0].kept and saved[0].bonus == -1


def test_a_hit_with_a_weapon_asks_the_save_too() -> None:
    state = _held(table(("g1", "c3")))
    state = end_turn(state)  # g1's turn (paralyzed creatures still get a turn at the table)
    state = play(
        state, {"kind": "condition", "target": "g1", "condition": "paralyzed", "remove": True}
    )
    state = play(state, {"kind": "move", "creature": "g1", "steps": [{"to": "c2"}]})
    after = play(
        state, {"kind": "attack", "creature": "g1", "target": "cleo", "attack": "Claw"}, 15, 6, 1
    )
    assert after.fighters["cleo"].hp == 20 - 8
    assert "cleo" not in after.concentration  # DC 10, 1 − 1 = 0


def test_concentration_ends_at_zero_hp_and_when_incapacitated() -> None:
    state = _held(table(("g1", "c3")))
    down = play(state, {"kind": "damage", "target": "cleo", "amount": 20})
    assert "cleo" not in down.concentration and "paralyzed" not in {
        x.kind for x in down.effects.on("g1")
    }
    stunned = play(state, {"kind": "condition", "target": "cleo", "condition": "stunned"})
    assert "cleo" not in stunned.concentration


def test_a_new_concentration_spell_ends_the_old_one() -> None:
    state = _held(table(("g1", "c3")))
    for _ in range(3):
        state = end_turn(state)
    after = cast(state, creature="cleo", spell="bless", targets=["wiz"])
    assert after.concentration["cleo"].spell == "bless"
    assert "paralyzed" not in {x.kind for x in after.effects.on("g1")}


# ---------------------------------------------------------------- stat blocks, views


def test_a_stat_block_declares_its_spellcasting() -> None:
    mage = parse_spellcasting(
        "The mage is a 9th-level spellcaster. Its spellcasting ability is Intelligence "
        "(spell save DC 14, +6 to hit with spell attacks). The mage has the following wizard "
        "spells prepared:\n\n- Cantrips (at will): fire bolt, light\n"
        "- 1st level (4 slots): magic missile, shield\n- 3rd level (3 slots): fireball"
    )
    assert mage is not None
    assert (mage.level, mage.ability, mage.save_dc, mage.attack_bonus) == (9, "int", 14, 6)
    assert mage.slots == (4, 0, 3)
    assert mage.spells == ("fire-bolt", "light", "magic-missile", "shield", "fireball")
    assert parse_spellcasting("It breathes fire.") is None


def test_a_bestiary_mage_casts_fireball_at_its_dc() -> None:
    state = fresh()
    state = play(state, {"kind": "add_monster", "id": "mage", "monster": "mage", "position": "a1"})
    state = play(state, target("g1", "f5"))
    state = start(state, "mage", "g1")
    after = cast(state, 13, *[6] * 8, creature="mage", spell="fireball", area={"origin": "f5"})
    # 13 < DC 14: 8 × 6 = 48 damage, a monster at 0 hit points dies
    assert after.fighters["g1"].hp == 0 and after.fighters["g1"].dead


def test_the_template_shows_who_is_inside_but_never_a_secret_creature() -> None:
    state = table(("g1", "g5"))
    secret = target("spy", "f6")
    secret["secret"] = True
    state = play(state, secret)
    after = cast(
        state, 20, *[1] * 8, 20, *[1] * 8, creature="wiz", spell="fireball", area={"origin": "f5"}
    )
    gm = view(after, GM_VIEWER)
    player = view(after, Viewer(Role.PLAYER, "p", frozenset({"wiz"})))
    assert gm["templates"][0]["inside"] == ["g1", "spy"]
    assert player["templates"][0]["inside"] == ["g1"]
    assert "spy" not in str(player["last_cast"]) and "spy" not in str(player["templates"])
    assert "f5" in player["templates"][0]["squares"]
    # an instantaneous spell's template leaves the map when the turn ends
    assert view(end_turn(after), GM_VIEWER)["templates"] == []


def test_the_view_shows_slots_left_and_concentration_with_its_odds() -> None:
    state = _held(table(("g1", "c3")))
    seen = view(state, Viewer(Role.PLAYER, "p", frozenset({"cleo"})))
    cleo = seen["casting"]["cleo"]
    assert cleo["slots_left"] == [4, 1] and cleo["save_dc"] == 13
    # Con save −1 against DC 10: the faces 11 to 20 keep it
    assert cleo["concentration"]["spell"] == "hold-person"
    assert cleo["concentration"]["keep_dc10"]["exact"] == "1/2"


# ---------------------------------------------------------------- odds


def _icepool_save_half(dice: int, sides: int, bonus: int, dc: int) -> dict[int, Fraction]:
    damage = dice @ icepool.Die(range(1, sides + 1))
    save = icepool.d20 + bonus >= dc
    out: dict[int, Fraction] = {}
    for saved, p in save.items():
        for total, q in damage.items():
            value = total // 2 if saved else total
            chance = Fraction(p, save.denominator()) * Fraction(q, damage.denominator())
            out[value] = out.get(value, Fraction(0)) + chance
    return out


def test_fireball_odds_per_target_against_icepool() -> None:
    state = table(("g1", "g5"), ("g2", "f8"))
    odds = SYSTEM.odds(
        state,
        command({"kind": "cast", "creature": "wiz", "spell": "fireball", "area": {"origin": "f5"}}),
    )
    assert odds is not None
    parts = {p.key: p.odds for p in odds.parts}
    assert set(parts) == {"g1", "g1.save", "g2", "g2.save"}
    expected = _icepool_save_half(8, 6, 0, 14)
    got = {o.value: Fraction(o.exact) for o in parts["g1"].outcomes}
    assert got == expected
    assert parts["g1.save"].outcomes[0].exact == "7/20"  # 14 … 20


def test_fire_bolt_odds_by_enumeration() -> None:
    state = table(("g1", "c3"))
    odds = SYSTEM.odds(
        state, command({"kind": "cast", "creature": "wiz", "spell": "fire-bolt", "targets": ["g1"]})
    )
    assert odds is not None
    hit = next(p.odds for p in odds.parts if p.key == "g1.hit")
    assert hit.outcomes[0].exact == "7/10"  # +6 against AC 13: the faces 7 to 20
    got = {o.value: Fraction(o.exact) for o in odds.outcomes}
    expected: dict[int, Fraction] = {}
    for d20, a, b, c, d in product(
        range(1, 21), range(1, 11), range(1, 11), range(1, 11), range(1, 11)
    ):
        if d20 == 20:
            value = a + b + c + d
        elif d20 != 1 and d20 + 6 >= 13:
            value = a + b
        else:
            value = 0
        expected[value] = expected.get(value, Fraction(0)) + Fraction(1, 20 * 10**4)
    assert got == expected


@settings(max_examples=60, deadline=None)
@given(
    d20=st.integers(1, 20),
    dice=st.lists(st.integers(1, 6), min_size=8, max_size=8),
    bonus=st.integers(-5, 10),
)
def test_a_save_for_half_halves_the_rolled_total(d20: int, dice: list[int], bonus: int) -> None:
    state = table(("g1", "g5"))
    caster = state.fighters["wiz"]
    info = spell_info("fireball")
    foe = state.fighters["g1"].model_copy(update={"abilities": {"dex": 10 + 2 * bonus}})
    state = state.model_copy(update={"fighters": {**state.fighters, "g1": foe}})
    roll = e.SpellTarget(target="g1", d20=(d20,), dice=tuple(dice))
    result = cast_result(state, caster, info, 3, roll)
    saved = d20 + bonus >= 14
    assert result.outcome == ("saved" if saved else "failed")
    assert result.damage == (sum(dice) // 2 if saved else sum(dice))


@settings(max_examples=60, deadline=None)
@given(damage=st.integers(1, 200), d20=st.integers(1, 20))
def test_concentration_dc_is_half_the_damage_at_least_ten(damage: int, d20: int) -> None:
    state = _held(table(("g1", "c3")))
    state = play(state, {"kind": "heal", "target": "cleo", "amount": 200, "temporary": True})
    events = SYSTEM.decide(
        state, command({"kind": "damage", "target": "cleo", "amount": damage}), Dice(d20)
    )
    saved = [x for x in events if isinstance(x, e.ConcentrationSaved)]
    assert saved[0].dc == max(10, damage // 2)
    assert saved[0].kept == (d20 - 1 >= saved[0].dc)


def test_a_concentration_area_stays_on_the_map_until_concentration_ends() -> None:
    state = table(("g1", "e5"), ("g2", "h8"), spells=["entangle", "fire-bolt"])
    # a 6 m cube from its corner e5 toward h8: e5…h8 (4 × 4 squares); both foes fail (Str +0)
    after = cast(
        state, 3, 9, creature="wiz", spell="entangle", area={"origin": "e5", "toward": "h8"}
    )
    assert {x.target for x in after.effects.items if x.kind == "restrained"} == {"g1", "g2"}
    assert after.concentration["wiz"].imposed == (("g1", "restrained"), ("g2", "restrained"))
    later = end_turn(end_turn(after))
    shown = view(later, GM_VIEWER)["templates"]
    assert [(t["spell"], t["lasting"], t["inside"]) for t in shown] == [
        ("entangle", True, ["g1", "g2"])
    ]
    broken = play(later, {"kind": "damage", "target": "wiz", "amount": 4}, 2)  # DC 10: 2 fails
    assert view(broken, GM_VIEWER)["templates"] == []
    assert not [x for x in broken.effects.items if x.kind == "restrained"]


def test_an_attack_spell_gives_a_hidden_caster_away_and_skips_the_dead() -> None:
    state = table(("g1", "c3"), ("g2", "d4"))
    state = play(state, {"kind": "condition", "target": "wiz", "condition": "hidden"})
    state = play(state, {"kind": "damage", "target": "g2", "amount": 30})
    assert state.fighters["g2"].dead
    dead = refused(state, {"creature": "wiz", "spell": "fire-bolt", "targets": ["g2"]})
    assert dead.code == "dnd5e.bad_target"
    # unseen, the hidden caster rolls with advantage: two d20s, 2 and 3, both miss
    after = cast(state, 2, 3, creature="wiz", spell="fire-bolt", targets=["g1"])
    assert after.last_cast is not None and after.last_cast["targets"][0]["mode"] == "advantage"
    assert "hidden" not in {x.kind for x in after.effects.on("wiz")}


def test_the_odds_of_damage_to_a_concentrating_creature_are_its_save() -> None:
    state = _held(table(("g1", "c3")))
    assert SYSTEM.odds(state, command({"kind": "damage", "target": "wiz", "amount": 5})) is None
    tough = play(state, {"kind": "heal", "target": "cleo", "amount": 10, "temporary": True})
    odds = SYSTEM.odds(tough, command({"kind": "damage", "target": "cleo", "amount": 24}))
    assert odds is not None  # DC 12 against Con −1: the faces 13 to 20 keep it
    assert [(o.value, o.exact) for o in odds.outcomes] == [("keep", "2/5"), ("lose", "3/5")]
    down = SYSTEM.odds(state, command({"kind": "damage", "target": "cleo", "amount": 25}))
    assert down is not None and down.outcomes[1].exact == "1/1"
