"""The cases an audit of the D&D 5e table computed by hand and found wrong, each fixed."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.systems.dnd5e.queries import attack_mode, kinds_on
from spieltisch.systems.dnd5e.rules import Mode

from .helpers import SYSTEM, command, end_turn, foe, fresh, pc, play, start


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
