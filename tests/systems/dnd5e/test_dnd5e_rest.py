"""Dropping concentration at will, ending a fight, and short and long rests regaining hit
points and spell slots (a warlock's pact slots on a short rest) — hand-computed cases."""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.events import Rested
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, Dice, command, end_turn, fresh, pc, play, start
from .test_dnd5e_casting import WIZARD, target

CLERIC = {
    "ability": "wis",
    "level": 3,
    "save_dc": 13,
    "attack_bonus": 5,
    "slots": [4, 2],
    "spells": ["bless", "hold-person"],
}
WARLOCK = {
    "ability": "cha",
    "level": 3,
    "save_dc": 13,
    "attack_bonus": 5,
    "slots": [0, 2],
    "spells": ["scorching-ray"],
    "pact": True,
}


def table() -> DndState:
    """Wiz (at a1), Cleo (at b1) and the warlock Lock (at a3) against g1 (at c3)."""
    state = fresh()
    state = play(state, pc("wiz", "a1", spellcasting=WIZARD, abilities={"int": 18}))
    state = play(state, pc("cleo", "b1", spellcasting=CLERIC, abilities={"wis": 16}))
    state = play(state, pc("lock", "a3", spellcasting=WARLOCK, abilities={"cha": 16}))
    state = play(state, target("g1", "c3"))
    return start(state, "wiz", "cleo", "lock", "g1")


def refused(state: DndState, data: dict[str, Any]) -> RuleError:
    with pytest.raises(RuleError) as caught:
        decide(state, command(data), Dice())
    return caught.value


def test_dropping_concentration_ends_the_spell_and_costs_nothing() -> None:
    state = end_turn(table())
    # hold person: g1 rolls 5 against DC 13 and is paralyzed while Cleo concentrates
    held = play(
        state, {"kind": "cast", "creature": "cleo", "spell": "hold-person", "targets": ["g1"]}, 5
    )
    assert "paralyzed" in {x.kind for x in held.effects.on("g1")}
    lock_turn = end_turn(held)  # in another creature's turn, with no action or reaction
    dropped = play(lock_turn, {"kind": "drop_concentration", "creature": "cleo"})
    assert "cleo" not in dropped.concentration
    assert "paralyzed" not in {x.kind for x in dropped.effects.on("g1")}
    assert dropped.budgets["cleo"] == lock_turn.budgets["cleo"]
    error = refused(dropped, {"kind": "drop_concentration", "creature": "cleo"})
    assert error.code == "dnd5e.spell.not_concentrating"
    access = SYSTEM.access(state, command({"kind": "drop_concentration", "creature": "cleo"}))
    assert access.piece == "cleo" and not access.gm_only


def test_a_long_rest_restores_hit_points_and_every_slot_and_ends_concentration() -> None:
    state = play(
        table(),
        {"kind": "cast", "creature": "wiz", "spell": "magic-missile", "targets": ["g1"]},
        1,
        1,
        1,
    )
    state = end_turn(state)
    state = play(state, {"kind": "cast", "creature": "cleo", "spell": "bless", "targets": ["wiz"]})
    state = play(state, {"kind": "damage", "target": "wiz", "amount": 7})
    error = refused(state, {"kind": "rest", "length": "long"})
    assert error.code == "dnd5e.rest.in_combat"
    over = play(state, {"kind": "end_combat"})
    assert over.encounter is None and over.budgets["wiz"].amount("action") == 1
    rested = play(over, {"kind": "rest", "length": "long"})
    assert rested.fighters["wiz"].hp == 20 and rested.slots_used == {}
    assert rested.concentration == {} and "blessed" not in {
        x.kind for x in rested.effects.on("wiz")
    }
    assert rested.fighters["g1"].hp == 30  # the darts' 6 damage healed
    again = play(
        rested, {"kind": "start_combat", "rolls": {"wiz": 20, "cleo": 10, "lock": 5, "g1": 1}}
    )
    assert again.encounter is not None and again.encounter.current == "wiz"


def test_a_short_rest_restores_pact_slots_only() -> None:
    state = play(
        table(),
        {"kind": "cast", "creature": "wiz", "spell": "magic-missile", "targets": ["g1"]},
        1,
        1,
        1,
    )
    state = end_turn(end_turn(state))
    # the warlock's pact slot of 2nd level: three rays, all at g1, all missing (d20 2)
    state = play(
        state,
        {"kind": "cast", "creature": "lock", "spell": "scorching-ray", "targets": ["g1"]},
        2,
        2,
        2,
    )
    assert state.slots_used == {"wiz": (1,), "lock": (0, 1)}
    state = play(state, {"kind": "damage", "target": "lock", "amount": 5})
    rested = play(play(state, {"kind": "end_combat"}), {"kind": "rest", "length": "short"})
    assert rested.slots_used == {"wiz": (1,)}
    assert rested.fighters["lock"].hp == 15  # hit dice are not tracked: no healing


def test_a_rest_names_living_creatures_and_an_ended_fight_cannot_end_again() -> None:
    state = play(table(), {"kind": "end_combat"})
    assert refused(state, {"kind": "end_combat"}).code == "dnd5e.no_combat"
    assert (
        refused(state, {"kind": "rest", "length": "long", "creatures": ["nobody"]}).code
        == "dnd5e.unknown_creature"
    )
    only = play(state, {"kind": "rest", "length": "short", "creatures": ["lock", "lock"]})
    assert only.slots_used == state.slots_used


def test_a_rest_without_names_leaves_a_secret_creature_out_of_its_open_event() -> None:
    """The rest players see never names a secret creature: by default only the open living
    creatures rest; the GM names a secret one (in a hidden rest) to let it rest too."""
    hidden = {**target("spy", "e5"), "secret": True}
    state = play(play(table(), hidden), {"kind": "end_combat"})
    (event,) = decide(state, command({"kind": "rest", "length": "long"}), Dice())
    assert isinstance(event, Rested)
    assert set(event.creatures) == {"wiz", "cleo", "lock", "g1"}  # the spy is left out
    (named,) = decide(
        state, command({"kind": "rest", "length": "long", "creatures": ["spy"]}), Dice()
    )
    assert isinstance(named, Rested)
    assert named.creatures == ("spy",)
