"""Rising in place: a prone creature stands up without moving — a ``move`` with
``stand_up`` and no steps — for half its walking speed (9 m: 4 m, rounded down to whole
metres), refused with too little movement left, naming the cost and what is left."""

from __future__ import annotations

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.i18n import error_message
from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.state import DndState

from .helpers import Dice, command, foe, fresh, pc, play, start

RISE = {"kind": "move", "creature": "ada", "stand_up": True}


def prone_ada() -> DndState:
    state = fresh()
    state = play(state, pc("ada", "a1"))  # walk 9 m
    state = play(state, foe("g1", "e5"))
    state = start(state, "ada", "g1")
    return play(state, {"kind": "condition", "target": "ada", "condition": "prone"})


def test_standing_up_in_place_costs_half_the_speed_and_moves_nothing() -> None:
    risen = play(prone_ada(), RISE)
    assert "prone" not in {x.kind for x in risen.effects.on("ada")}
    assert str(risen.fighters["ada"].position) == "a1"
    assert risen.movement["ada"].spent == 4
    # the 5 m left still carry her three squares (4.5 m), not four
    on = play(
        risen,
        {"kind": "move", "creature": "ada", "steps": [{"to": "a2"}, {"to": "a3"}, {"to": "a4"}]},
    )
    assert str(on.fighters["ada"].position) == "a4"
    with pytest.raises(RuleError):  # 0.5 m left: no fourth square
        decide(on, command({"kind": "move", "creature": "ada", "steps": [{"to": "a5"}]}), Dice())


def test_standing_up_in_place_is_refused_with_too_little_movement_left() -> None:
    state = prone_ada()
    crawled = play(
        state,
        {
            "kind": "move",
            "creature": "ada",
            "steps": [{"to": "a2", "mode": "crawl"}, {"to": "a3", "mode": "crawl"}],
        },
    )
    assert crawled.movement["ada"].spent == 6  # two crawled squares at 3 m each
    with pytest.raises(RuleError) as caught:
        decide(crawled, command(RISE), Dice())
    error = caught.value
    assert error.code == "dnd5e.move.stand_too_little"
    assert (error.params["cost"], error.params["left"]) == ("4", "3.0")
    assert "4" in error_message(error, "en") and "4" in error_message(error, "de")
