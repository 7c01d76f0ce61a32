"""Squeezing through a space one size smaller: the GM marks it (``condition`` ``squeezing``);
the creature moves with the footprint of one size smaller, every metre costs 1 extra, its
attacks and Dexterity saves have disadvantage, attacks against it advantage.

An ogre-like "Brute" (large, 2×2, walk 15 m, Dex 10) at a1–b2; a corridor one square wide
between walls on files b and d from rank 4 up (c4, c5 open); Ada at h8.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.engine.visibility import GM_VIEWER
from spieltisch.systems.dnd5e.queries import attack_mode, save_mode
from spieltisch.systems.dnd5e.rules import Mode
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, foe, fresh, pc, play

WALLS = ["b4", "b5", "b6", "d4", "d5", "d6"]
INTO = {
    "kind": "move",
    "creature": "brute",
    "steps": [{"to": "b2"}, {"to": "c3"}, {"to": "c4"}, {"to": "c5"}],
}


def table(squeezing: bool) -> DndState:
    state = play(fresh(), pc("ada", "h8"))
    state = play(state, foe("brute", "a1", size="large", speeds={"walk": 15}))
    state = play(state, {"kind": "terrain", "squares": WALLS, "terrain": "wall"})
    if squeezing:
        data = {"kind": "condition", "target": "brute", "condition": "squeezing"}
        state = play(state, data)
    return play(state, {"kind": "start_combat", "rolls": {"brute": 20, "ada": 1}})


def test_a_large_creature_does_not_fit_the_corridor_without_squeezing() -> None:
    with pytest.raises(RuleError):
        play(table(False), INTO)


def test_squeezing_it_fits_and_pays_double() -> None:
    state = play(table(True), INTO)
    # four squares of 1.5 m, each metre +1: 12 m spent of 15 m
    assert state.movement["brute"].spent == 12
    odds = SYSTEM.view(state, GM_VIEWER)
    brute = next(f for f in odds["fighters"] if f["id"] == "brute")
    assert Decimal(brute["movement_left"]["walk"]) == 3


def test_squeezing_attacks_and_dex_saves_at_disadvantage_attacked_at_advantage() -> None:
    state = table(True)
    brute, ada = state.fighters["brute"], state.fighters["ada"]
    claw, sword = brute.attacks[0], ada.attacks[0]
    assert attack_mode(state, brute, ada, claw, (False, False)) is Mode.DISADVANTAGE
    assert attack_mode(state, ada, brute, sword, (False, False)) is Mode.ADVANTAGE
    assert save_mode(state, brute, "dex") == (Mode.DISADVANTAGE, False)
    assert save_mode(state, brute, "con") == (Mode.NORMAL, False)
    plain = table(False)
    assert attack_mode(plain, ada, plain.fighters["brute"], sword, (False, False)) is Mode.NORMAL


def test_only_the_gm_marks_squeezing_and_takes_it_off() -> None:
    state = table(True)
    data: dict[str, Any] = {
        "kind": "condition",
        "target": "brute",
        "condition": "squeezing",
        "remove": True,
    }
    state = play(state, data)
    assert "squeezing" not in {x.kind for x in state.effects.on("brute")}
    cmd = SYSTEM.commands.validate_python(data)
    assert SYSTEM.access(state, cmd).gm_only
