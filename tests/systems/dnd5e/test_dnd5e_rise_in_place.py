"""Rising or sinking in place (rules edition 5): a flyer's ``fly`` step onto its own square to
a new height pays the height alone; every other step onto the own square is refused with a
localized error, and tables of edition 4 refuse it as before (not a neighbouring square).
All by hand.

Ada (medium, walk 9 m, fly 9 m) at e5 and a goblin on a 10 × 10 map.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.i18n import error_message
from spieltisch.systems.dnd5e.decide import preview_move
from spieltisch.systems.dnd5e.state import DndState

from .helpers import command, foe, fresh, pc, play, start


def table(edition: int = 5, gob: str = "h8", fly: bool = True) -> DndState:
    speeds = {"walk": 9, "fly": 9} if fly else {"walk": 9}
    state = play(fresh(width=10, height=10, edition=edition), pc("ada", "e5", speeds=speeds))
    state = play(state, foe("gob", gob))
    return start(state, "ada", "gob")


def move(*steps: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "move", "creature": "ada", "steps": list(steps)}


def up(metres: float, to: str = "e5") -> dict[str, Any]:
    return {"to": to, "mode": "fly", "altitude_m": metres}


def cost(state: DndState, *steps: dict[str, Any]) -> Decimal:
    shown = preview_move(state, command(move(*steps)))
    assert shown["legal"], shown["error"]
    return Decimal(str(shown["cost_m"]))


def refused(state: DndState, data: dict[str, Any]) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(state, data)
    return caught.value


def test_rising_in_place_pays_the_height_alone() -> None:
    assert cost(table(), up(6)) == 6
    # up 6 m, down to 3 m: 6 + 3; up 3 m, then across to d5 at that height: 3 + 1.5
    assert cost(table(), up(6), up(3)) == 9
    assert cost(table(), up(3), {"to": "d5", "mode": "fly"}) == Decimal("4.5")
    before = table()
    state = play(before, move(up(6)))
    ada = state.fighters["ada"]
    assert (ada.position, ada.altitude_m, ada.airborne) == (
        before.fighters["ada"].position,
        6,
        True,
    )
    assert state.movement["ada"].spent == 6


def test_sinking_in_place_to_the_ground() -> None:
    state = play(table(), move(up(4.5)))
    assert cost(state, up(0)) == Decimal("4.5")
    landed = play(state, move(up(0)))
    assert landed.fighters["ada"].altitude_m == 0 and landed.movement["ada"].spent == 9


def test_rising_beyond_the_speed_left_is_refused_naming_the_cost() -> None:
    error = refused(table(), move(up(10.5)))
    assert error.code == "dnd5e.move.too_far"
    assert (error.params["cost"], error.params["left"]) == ("10.5", "9")


def test_rising_straight_out_of_reach_provokes() -> None:
    # the goblin at f5 stands beside Ada: 3 m up she is 3 m from it, out of its 1.5 m reach
    state = play(table(gob="f5"), move(up(3)))
    assert state.pending is not None and state.pending.reactors == ("gob",)


@pytest.mark.parametrize(
    "step",
    [
        {"to": "e5"},
        {"to": "e5", "mode": "fly"},
        {"to": "e5", "mode": "fly", "altitude_m": 0},
        {"to": "e5", "mode": "climb"},
    ],
)
def test_a_step_in_place_that_does_not_fly_to_a_new_height_is_refused(
    step: dict[str, Any],
) -> None:
    state = table()
    error = refused(state, move(step))
    assert error.code == "dnd5e.move.in_place" and error.params == {"step": 0, "to": "e5"}
    assert error_message(error, "en") == (
        "Step 0 stays on e5: only a flyer may step in place, flying up or down to a new height."
    )
    assert error_message(error, "de") == (
        "Schritt 0 bleibt auf e5: auf der Stelle tritt nur, wer fliegend auf eine neue Höhe"
        " steigt oder sinkt."
    )


def test_a_creature_without_a_fly_speed_cannot_rise() -> None:
    error = refused(table(fly=False), move(up(3)))
    assert error.code == "dnd5e.move.no_speed" and error.params["mode"] == "fly"


def test_edition_four_refuses_a_step_in_place_as_before() -> None:
    error = refused(table(edition=4), move(up(3)))
    assert error.code == "dnd5e.move.not_adjacent"
    assert (error.params["frm"], error.params["to"]) == ("e5", "e5")
