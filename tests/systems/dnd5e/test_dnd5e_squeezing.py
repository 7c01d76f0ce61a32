"""Squeezing through a space one size smaller: the map finds it where walls leave a passage
narrower than the creature but wide enough for one size smaller, or the GM marks it
(``condition`` ``squeezing``, then everywhere); the creature moves with the footprint of one
size smaller, every metre costs 1 extra, its attacks and Dexterity saves have disadvantage,
attacks against it advantage.

An ogre-like "Brute" (large, 2×2, walk 15 m, Dex 10) at a1–b2; a corridor one square wide
between walls on files b and d from rank 4 up (c4, c5 open); Ada at h8.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.engine.visibility import GM_VIEWER
from spieltisch.systems.dnd5e.decide import preview_move
from spieltisch.systems.dnd5e.queries import attack_mode, kinds_on, save_mode
from spieltisch.systems.dnd5e.rules import Mode
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, command, foe, fresh, pc, play

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


def test_the_map_finds_the_corridor_narrow_and_the_large_creature_squeezes_in() -> None:
    # b2 is open ground (1.5 m); c3, c4 and c5 each meet the walls on file d with the 2 × 2
    # space, not with the one square of a medium creature: 3 m each, 10.5 m in all
    state = play(table(False), INTO)
    assert state.movement["brute"].spent == Decimal("10.5")
    assert str(state.fighters["brute"].position) == "c5"
    assert "squeezing" in kinds_on(state, "brute")  # from the map, not a mark
    assert "squeezing" not in {x.kind for x in state.effects.on("brute")}
    brute, ada = state.fighters["brute"], state.fighters["ada"]
    assert attack_mode(state, brute, ada, brute.attacks[0], (False, False)) is Mode.DISADVANTAGE
    assert save_mode(state, brute, "dex") == (Mode.DISADVANTAGE, False)
    # on through c6 (narrow, 3 m) out to c7 (open, 1.5 m): 15 m, the whole walk
    shown = preview_move(
        table(False), command({**INTO, "steps": [*INTO["steps"], {"to": "c6"}, {"to": "c7"}]})
    )
    assert shown["legal"] and Decimal(str(shown["cost_m"])) == 15
    assert "squeezing" not in kinds_on(table(False), "brute")  # in the open at a1


def test_a_passage_narrower_than_one_size_smaller_stays_shut() -> None:
    # a huge creature (3 × 3) squeezes to large (2 × 2), which still meets the walls
    state = play(fresh(), pc("ada", "h8"))
    state = play(state, foe("giant", "a1", size="huge", speeds={"walk": 15}))
    state = play(state, {"kind": "terrain", "squares": WALLS, "terrain": "wall"})
    state = play(state, {"kind": "start_combat", "rolls": {"giant": 20, "ada": 1}})
    with pytest.raises(RuleError) as caught:
        play(state, {"kind": "move", "creature": "giant", "steps": [{"to": "b2"}, {"to": "c3"}]})
    assert caught.value.code == "dnd5e.move.wall"


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
