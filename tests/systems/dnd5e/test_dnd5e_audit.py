"""The cases an audit of the D&D 5e table computed by hand and found wrong, each fixed."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.systems.dnd5e.queries import attack_mode, kinds_on
from spieltisch.systems.dnd5e.rules import Mode

from .helpers import SYSTEM, command, end_turn, foe, fresh, pc, play, spider_bite_odds, start


def _mode(state, attacker: str, target: str, attack: str) -> Mode:  # type: ignore[no-untyped-def]
    a, t = state.fighters[attacker], state.fighters[target]
    weapon = a.weapon(attack)
    assert weapon is not None
    return attack_mode(state, a, t, weapon, (False, False))


def test_help_gives_advantage_against_the_foe_not_the_helper() -> None:
    state = fresh()
    state = play(state, pc("ada", "b2"))
    state = play(state, pc("bo", "c2"))
    state = play(state, foe("gob", "b3"))
    state = start(state, "bo", "ada", "gob")
    # Bo (c2) is within 1.5 m of the goblin (b3) and helps Ada attack it.
    state = play(
        state, {"kind": "action", "creature": "bo", "action": "help", "target": "ada", "foe": "gob"}
    )
    state = end_turn(state)
    assert _mode(state, "ada", "gob", "Longsword") is Mode.ADVANTAGE
    assert _mode(state, "ada", "bo", "Longsword") is Mode.NORMAL
    # The advantage is used up by the first attack on the goblin.
    state = play(
        state,
        {"kind": "attack", "creature": "ada", "target": "gob", "attack": "Longsword"},
        2,
        3,
    )
    assert _mode(state, "ada", "gob", "Longsword") is Mode.NORMAL


def _dying() -> object:
    state = fresh()
    state = play(state, pc("ada", "a1"))
    state = play(state, foe("gob", "e5"))
    state = start(state, "gob", "ada")
    state = play(state, {"kind": "damage", "target": "ada", "amount": 20})
    return end_turn(state)


def test_one_death_save_per_turn() -> None:
    state = _dying()
    state = play(state, {"kind": "death_save", "creature": "ada"}, 5)
    assert state.fighters["ada"].death_failures == 1
    with pytest.raises(RuleError) as second:
        play(state, {"kind": "death_save", "creature": "ada"}, 5)
    assert second.value.code == "dnd5e.death_save_taken"
    state = end_turn(end_turn(state))  # Ada, then the goblin
    state = play(state, {"kind": "death_save", "creature": "ada"}, 12)
    assert state.fighters["ada"].death_successes == 1


def test_a_declined_opportunity_attack_keeps_the_legal_move() -> None:
    # Ada c3, an ally in c2, a goblin in d3; Ada moves c3 → c2 → b1: leaving the goblin's
    # reach on the second step (from the ally's square) provokes.
    state = fresh()
    state = play(state, pc("ada", "c3"))
    state = play(state, pc("bo", "c2"))
    state = play(state, foe("gob", "d3"))
    state = start(state, "ada", "gob", "bo")
    move = {"kind": "move", "creature": "ada", "steps": [{"to": "c2"}, {"to": "b1"}]}
    assert SYSTEM.odds(state, command(move)).outcomes[0].value["legal"] is True
    state = play(state, move)
    assert state.pending is not None and state.pending.reactors == ("gob",)
    state = play(state, {"kind": "react", "creature": "gob"})
    ada = state.fighters["ada"]
    assert str(ada.position) == "b1"
    # c3 → c2 is difficult terrain (the ally's space): 3 m; c2 → b1: 1.5 m
    assert state.movement["ada"].spent == 4.5


def test_odds_of_a_flat_damage_attack() -> None:
    state = fresh()
    state = play(state, pc("ada", "a1"))
    state = play(state, {"kind": "add_monster", "id": "rat", "monster": "rat", "position": "a2"})
    state = start(state, "rat", "ada")
    odds = SYSTEM.odds(
        state, command({"kind": "attack", "creature": "rat", "target": "ada", "attack": "Bite"})
    )
    assert odds is not None
    # +0 against AC 15: a hit on 15..20 (6 of 20), 1 piercing whether critical or not
    got = {o.value: Fraction(o.exact) for o in odds.outcomes}
    assert got == {0: Fraction(14, 20), 1: Fraction(6, 20)}


def test_a_ranged_attack_on_a_prone_target_within_1_5_m_is_normal() -> None:
    state = fresh()
    state = play(state, pc("ada", "a1"))
    state = play(state, foe("gob", "a2"))
    state = play(state, {"kind": "condition", "target": "gob", "condition": "prone"})
    # prone within 1.5 m: advantage; a ranged attack with a foe within 1.5 m: disadvantage
    assert _mode(state, "ada", "gob", "Longbow") is Mode.NORMAL
    assert _mode(state, "ada", "gob", "Longsword") is Mode.ADVANTAGE


def test_dodge_works_only_against_an_attacker_the_dodger_sees() -> None:
    state = fresh()
    state = play(state, pc("ada", "a1"))
    state = play(state, foe("gob", "a2"))
    state = start(state, "ada", "gob")
    state = play(state, {"kind": "action", "creature": "ada", "action": "dodge"})
    state = end_turn(state)
    assert _mode(state, "gob", "ada", "Claw") is Mode.DISADVANTAGE
    blind = play(state, {"kind": "condition", "target": "ada", "condition": "blinded"})
    # blinded: attacks against Ada have advantage, and her Dodge no longer counts
    assert _mode(blind, "gob", "ada", "Claw") is Mode.ADVANTAGE
    unseen = play(state, {"kind": "condition", "target": "gob", "condition": "invisible"})
    # invisible attacker: advantage, and Ada's Dodge does not count against it
    assert _mode(unseen, "gob", "ada", "Claw") is Mode.ADVANTAGE


def test_petrified_resists_all_damage() -> None:
    state = fresh()
    state = play(state, pc("ada", "a1"))
    state = play(state, {"kind": "condition", "target": "ada", "condition": "petrified"})
    state = play(state, {"kind": "damage", "target": "ada", "amount": 9, "type": "fire"})
    assert state.fighters["ada"].hp == 16


def test_regaining_hit_points_from_0_leaves_the_creature_prone() -> None:
    state = fresh()
    state = play(state, pc("ada", "a1"))
    state = play(state, {"kind": "damage", "target": "ada", "amount": 25})
    assert {"unconscious", "prone"} <= kinds_on(state, "ada")
    state = play(state, {"kind": "heal", "target": "ada", "amount": 5})
    assert "unconscious" not in kinds_on(state, "ada")
    assert "prone" in kinds_on(state, "ada")


def test_a_speed_of_7_5_m_is_taken() -> None:
    state = fresh()
    state = play(state, pc("dwarf", "a1", speeds={"walk": 7.5}))
    state = play(state, foe("gob", "j10"))
    state = start(state, "dwarf", "gob")
    steps = [{"to": f"a{n}"} for n in range(2, 7)]  # five squares: 7.5 m
    state = play(state, {"kind": "move", "creature": "dwarf", "steps": steps})
    assert str(state.fighters["dwarf"].position) == "a6"
    with pytest.raises(RuleError) as more:
        play(state, {"kind": "move", "creature": "dwarf", "steps": [{"to": "a7"}]})
    assert more.value.code == "dnd5e.move.no_movement_left"


def test_the_harpys_multiattack_is_one_claws_and_one_club() -> None:
    state = fresh()
    state = play(state, pc("ada", "a1", ac=30))
    state = play(
        state, {"kind": "add_monster", "id": "harpy", "monster": "harpy", "position": "a2"}
    )
    state = start(state, "harpy", "ada")
    claws = {"kind": "attack", "creature": "harpy", "target": "ada", "attack": "Claws"}
    state = play(state, claws, 5)  # a miss against AC 30
    with pytest.raises(RuleError) as twice:
        play(state, claws, 5)
    assert twice.value.code == "dnd5e.multiattack_mix"
    state = play(state, {**claws, "attack": "Club"}, 5)
    with pytest.raises(RuleError) as third:
        play(state, {**claws, "attack": "Club"}, 5)
    assert third.value.code == "toolkit.economy.not_enough"  # the action is spent


def _spider_bites(save_d20: int) -> int:
    state = fresh()
    # Con 12: +1 to the save
    state = play(state, pc("ada", "a1"))
    state = play(
        state, {"kind": "add_monster", "id": "spider", "monster": "giant-spider", "position": "a2"}
    )
    state = start(state, "spider", "ada")
    bite = {"kind": "attack", "creature": "spider", "target": "ada", "attack": "Bite"}
    # d20 15 hits AC 15; 1d8 = 4 (+3 = 7 piercing); 2d8 = 5 + 4 = 9 poison; then the save
    state = play(state, bite, 15, 4, 5, 4, save_d20)
    return 20 - state.fighters["ada"].hp


def test_the_giant_spiders_poison_is_a_con_save_for_half() -> None:
    assert _spider_bites(9) == 7 + 9  # 9 + 1 < 11: the whole poison
    assert _spider_bites(10) == 7 + 4  # 10 + 1 = 11: half of 9, rounded down


def test_the_odds_of_the_giant_spiders_bite_mix_the_save_in() -> None:
    state = fresh()
    state = play(state, pc("ada", "a1"))
    state = play(
        state, {"kind": "add_monster", "id": "spider", "monster": "giant-spider", "position": "a2"}
    )
    bite = command({"kind": "attack", "creature": "spider", "target": "ada", "attack": "Bite"})
    odds = SYSTEM.odds(state, bite)
    assert odds is not None
    got = {o.value: Fraction(o.exact) for o in odds.outcomes}
    # Brute force of every d20, d8 and 2d8 (4d8 and 2d8 on a critical); the save d20 + 1
    # reaches DC 11 on 10..20.
    assert got == spider_bite_odds(Fraction(11, 20))


def test_damage_types_are_a_closed_list_in_english_or_german_any_case() -> None:
    state = fresh()
    state = play(state, pc("ada", "a1", resistances=["Fire"], immunities=["GIFT"]))
    assert state.fighters["ada"].resistances == frozenset({"fire"})
    state = play(state, {"kind": "damage", "target": "ada", "amount": 9, "type": "Feuer"})
    state = play(state, {"kind": "damage", "target": "ada", "amount": 9, "type": "poison"})
    assert state.fighters["ada"].hp == 16
    with pytest.raises(ValueError, match="unknown damage type"):
        command({"kind": "damage", "target": "ada", "amount": 1, "type": "hellfire"})


def _sneaky() -> object:
    state = fresh()
    # Ada: Stealth +6, hides as a bonus action too; the goblin: passive Perception 9 (Wis 8)
    state = play(state, pc("ada", "a1", skills={"stealth": 6}, bonus_actions=["hide"]))
    state = play(state, foe("gob", "f6", abilities={"dex": 10, "wis": 8}))
    state = play(state, foe("orc", "f8", abilities={"dex": 10}, passive_perception=12))
    return start(state, "ada", "gob", "orc")


def test_hide_rolls_stealth_against_the_highest_passive_perception() -> None:
    state = _sneaky()
    hide = {"kind": "action", "creature": "ada", "action": "hide"}
    failed = play(state, hide, 5)  # 5 + 6 = 11 < 12 (the orc's passive Perception)
    assert "hidden" not in kinds_on(failed, "ada")
    hidden = play(state, hide, 6)  # 12: hidden
    assert "hidden" in kinds_on(hidden, "ada") and hidden.stealth["ada"] == 12
    assert _mode(hidden, "ada", "gob", "Longbow") is Mode.ADVANTAGE


def test_hidden_ends_on_attacking_on_being_found_and_by_the_gm() -> None:
    state = play(_sneaky(), {"kind": "bonus_action", "creature": "ada", "feature": "hide"}, 10)
    assert state.stealth["ada"] == 16
    # attacking gives Ada away (the attack itself had advantage)
    shot = play(
        state,
        {"kind": "attack", "creature": "ada", "target": "gob", "attack": "Longbow"},
        1,
        1,
    )
    assert shot.last_attack is not None and shot.last_attack.mode == "advantage"
    assert "hidden" not in kinds_on(shot, "ada")
    # the GM takes it off
    gm = play(state, {"kind": "condition", "target": "ada", "condition": "hidden", "remove": True})
    assert "hidden" not in kinds_on(gm, "ada") and "ada" not in gm.stealth
    # a goblin's Search: Perception (Wis 8: -1) must reach 16
    turn = end_turn(state)
    search = {"kind": "action", "creature": "gob", "action": "search"}
    missed = play(turn, search, 16)  # 15
    assert "hidden" in kinds_on(missed, "ada")
    found = play(turn, search, 17)  # 16
    assert "hidden" not in kinds_on(found, "ada")


def test_a_check_with_help_and_the_gms_advantage_modifier_and_odds() -> None:
    state = fresh()
    state = play(state, pc("ada", "a1", skills={"athletics": 4}))
    state = play(state, pc("bo", "a2"))
    state = play(state, foe("gob", "j10"))
    state = start(state, "bo", "ada", "gob")
    check = {"kind": "check", "creature": "ada", "skill": "athletics", "dc": 15}
    odds = SYSTEM.odds(state, command(check))
    assert odds is not None and Fraction(odds.outcomes[0].exact) == Fraction(10, 20)  # 11..20
    state = play(
        state,
        {"kind": "action", "creature": "bo", "action": "help", "target": "ada", "help": "check"},
    )
    odds = SYSTEM.odds(state, command(check))
    assert odds is not None and Fraction(odds.outcomes[0].exact) == 1 - Fraction(10 * 10, 400)
    state = play(state, check, 3, 11)  # advantage: 11 + 4 = 15
    assert state.last_check is not None and state.last_check["roll"]["succeeded"] is True
    assert "helped_check" not in kinds_on(state, "ada")  # used up
    # the GM's disadvantage and -2: 12 + 4 - 2 = 14 < 15
    state = play(state, {**check, "disadvantage": True, "modifier": -2}, 12, 19)
    assert state.last_check["roll"]["total"] == 14 and not state.last_check["roll"]["succeeded"]
    # a plain ability check: Strength 14 (+2)
    odds = SYSTEM.odds(
        state, command({"kind": "check", "creature": "ada", "ability": "str", "dc": 12})
    )
    assert odds is not None and Fraction(odds.outcomes[0].exact) == Fraction(11, 20)


def test_the_gm_sets_advantage_and_a_modifier_on_attacks_and_saves() -> None:
    state = fresh()
    state = play(state, pc("ada", "a1"))
    state = play(state, foe("gob", "a2"))
    attack = {"kind": "attack", "creature": "ada", "target": "gob", "attack": "Longsword"}
    plain = SYSTEM.odds(state, command(attack))
    better = SYSTEM.odds(state, command({**attack, "modifier": 2}))
    assert plain is not None and better is not None
    # +5 against AC 13: miss on 1..7 (7/20); +7: miss on 1..5 (5/20)
    assert Fraction(plain.outcomes[0].exact) == Fraction(7, 20)
    assert Fraction(better.outcomes[0].exact) == Fraction(5, 20)
    save = {"kind": "save", "creature": "ada", "ability": "con", "dc": 12}  # Con 12: +1
    odds = SYSTEM.odds(state, command({**save, "advantage": True, "modifier": 1}))
    # d20 + 2 >= 12: 10..20 = 11/20 each; with advantage 1 - (9/20)^2
    assert odds is not None and Fraction(odds.outcomes[0].exact) == 1 - Fraction(81, 400)


def test_frightened_and_exhausted_attackers_have_disadvantage() -> None:
    state = fresh()
    state = play(state, pc("ada", "a1"))
    state = play(state, foe("gob", "a2"))
    assert _mode(state, "ada", "gob", "Longsword") is Mode.NORMAL
    scared = play(state, {"kind": "condition", "target": "ada", "condition": "frightened"})
    assert _mode(scared, "ada", "gob", "Longsword") is Mode.DISADVANTAGE
    tired = state
    for _ in range(2):
        tired = play(tired, {"kind": "condition", "target": "ada", "condition": "exhaustion"})
    assert _mode(tired, "ada", "gob", "Longsword") is Mode.NORMAL  # level 2
    tired = play(tired, {"kind": "condition", "target": "ada", "condition": "exhaustion"})
    assert _mode(tired, "ada", "gob", "Longsword") is Mode.DISADVANTAGE  # level 3
