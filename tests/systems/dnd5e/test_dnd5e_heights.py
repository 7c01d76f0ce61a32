"""Ground heights on the map: the GM's ``ground`` command, climbing onto and off a ledge, the
height as a third axis of reach, a shove off a ledge as a fall; all by hand.

Ada (medium, walk 9 m, Str 14) at e5 and a goblin at f5 on a 10 × 10 map.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import Diagonal, Grid
from spieltisch.engine.visibility import GM_VIEWER
from spieltisch.systems.dnd5e.decide import preview_move
from spieltisch.systems.dnd5e.movement import spatial_distance
from spieltisch.systems.dnd5e.queries import kinds_on, square_distance
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, command, foe, fresh, pc, play, start


def table(
    *ground: tuple[list[str], float], ada: str = "e5", gob: str = "f5", **sheet: Any
) -> DndState:
    state = play(fresh(width=10, height=10), pc("ada", ada, **sheet))
    state = play(state, foe("gob", gob))
    for squares, height in ground:
        state = play(state, {"kind": "ground", "squares": squares, "height_m": height})
    return start(state, "ada", "gob")


def cost(state: DndState, steps: list[dict[str, Any]]) -> Decimal:
    shown = preview_move(state, command({"kind": "move", "creature": "ada", "steps": steps}))
    assert shown["legal"], shown["error"]
    return Decimal(str(shown["cost_m"]))


def refused(state: DndState, data: dict[str, Any], *dice: int) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(state, data, *dice)
    return caught.value


def test_the_gm_sets_and_clears_ground_heights_shown_to_the_table() -> None:
    state = table((["d5", "d6"], 3), (["d6"], 0), (["a1"], -4.5))
    assert state.ground == {"d5": Decimal(3), "a1": Decimal("-4.5")}
    assert SYSTEM.view(state, GM_VIEWER)["grid"]["ground"] == {"a1": "-4.5", "d5": "3"}
    assert SYSTEM.access(
        state, command({"kind": "ground", "squares": ["b2"], "height_m": 1})
    ).gm_only
    with pytest.raises(ValueError):  # steps of 0.5 m
        command({"kind": "ground", "squares": ["b2"], "height_m": 1.2})


def test_a_step_up_or_down_a_ledge_must_climb_and_pays_the_height() -> None:
    state = table((["d5", "c5"], 3))
    error = refused(state, {"kind": "move", "creature": "ada", "steps": [{"to": "d5"}]})
    assert error.code == "dnd5e.move.needs_climb"
    assert error.params == {"step": 0, "to": "d5", "height": "3"}
    # without a climb speed: (1.5 m across + 3 m up) at +1 m per metre = 9 m
    assert cost(state, [{"to": "d5", "mode": "climb"}]) == 9
    # with a climb speed: 4.5 m; along the ledge (both at 3 m) on foot again: +1.5 m
    climber = table((["d5", "c5"], 3), speeds={"walk": 9, "climb": 9})
    assert cost(climber, [{"to": "d5", "mode": "climb"}, {"to": "c5"}]) == 6
    # and down again: 4.5 m more
    assert cost(climber, [{"to": "d5", "mode": "climb"}, {"to": "e5", "mode": "climb"}]) == 9


def test_flying_passes_over_ground_heights_at_the_plain_cost() -> None:
    flyer = table((["d5"], 3), speeds={"walk": 9, "fly": 9})
    assert cost(flyer, [{"to": "d5", "mode": "fly"}]) == Decimal("1.5")


def test_a_grappled_creature_is_not_dragged_up_a_ledge() -> None:
    state = table((["e6"], 3))  # the goblin would be pulled from f5 up onto e6
    state = play(
        state, {"kind": "condition", "target": "gob", "condition": "grappled", "source": "ada"}
    )
    data = {"kind": "move", "creature": "ada", "steps": [{"to": "d6"}], "drag": "gob"}
    assert refused(state, data).code == "dnd5e.move.drag_blocked"


def test_the_height_between_two_creatures_is_a_third_axis_of_reach() -> None:
    uniform, alternating = (
        Grid(width=9, height=9),
        Grid(width=9, height=9, diagonal=Diagonal.ALTERNATING),
    )
    assert spatial_distance(Decimal("1.5"), Decimal(0), uniform) == Decimal("1.5")
    assert spatial_distance(Decimal("1.5"), Decimal(3), uniform) == 3
    assert spatial_distance(Decimal("1.5"), Decimal("1.5"), uniform) == Decimal("1.5")
    # 5-10-5: two squares across, two up → 3 m + one square for the second diagonal
    assert spatial_distance(Decimal(3), Decimal(3), alternating) == Decimal("4.5")
    assert spatial_distance(Decimal("1.5"), Decimal(1), alternating) == Decimal("1.5")
    assert spatial_distance(Decimal("4.5"), Decimal(3), alternating) == 6
    # a goblin on a 3 m ledge beside Ada is 3 m away: out of her longsword's 1.5 m reach
    high = table((["f5"], 3))
    assert square_distance(high, high.fighters["ada"], high.fighters["gob"]) == 3
    swing = {"kind": "attack", "creature": "ada", "target": "gob", "attack": "Longsword"}
    assert refused(high, swing).code == "dnd5e.out_of_reach"
    low = table((["f5"], 1.5))  # on a 1.5 m step it is within reach
    assert square_distance(low, low.fighters["ada"], low.fighters["gob"]) == Decimal("1.5")
    grapple = {"kind": "grapple", "creature": "ada", "target": "gob"}
    assert refused(high, grapple, 10, 10).code == "dnd5e.out_of_reach"


def test_a_shove_off_a_ledge_is_a_fall_of_the_height_between() -> None:
    # Ada and the goblin on a 6 m ledge (d5, e5); it is pushed east to f5 at ground 0:
    # Athletics 15 + 2 = 17 against 5 + 0, then 2d6 for 6 m: 4 + 5 = 9 damage, prone
    state = table((["d5", "e5"], 6), ada="d5", gob="e5")
    shove = {"kind": "shove", "creature": "ada", "target": "gob", "effect": "push"}
    state = play(state, shove, 15, 5, 4, 5)
    assert str(state.fighters["gob"].position) == "f5"
    assert state.fighters["gob"].hp == 30 - 9
    assert "prone" in kinds_on(state, "gob")
    # a push along level ground rolls no fall
    level = play(table(ada="d5", gob="e5"), shove, 15, 5)
    assert level.fighters["gob"].hp == 30


def test_a_push_into_the_face_of_a_ledge_is_refused_before_rolling() -> None:
    state = table((["f5"], 3), ada="d5", gob="e5")
    shove = {"kind": "shove", "creature": "ada", "target": "gob", "effect": "push"}
    assert refused(state, shove).code == "dnd5e.shove_blocked"


# ---------------------------------------------------------------- flying at a height


def flyer(gob: str = "h8") -> DndState:
    return table(gob=gob, speeds={"walk": 9, "fly": 9})


def test_flying_up_and_down_costs_the_height_and_only_flying_goes_on_aloft() -> None:
    # d5 at 3 m: 1.5 m across + 3 m up; then c5 back to the ground: 1.5 + 3
    up = [{"to": "d5", "mode": "fly", "altitude_m": 3}]
    assert cost(flyer(), up) == Decimal("4.5")
    assert cost(flyer(), [*up, {"to": "c5", "mode": "fly", "altitude_m": 0}]) == 9
    state = play(flyer(), {"kind": "move", "creature": "ada", "steps": up})
    assert state.fighters["ada"].altitude_m == 3 and state.fighters["ada"].airborne
    ada = next(f for f in SYSTEM.view(state, GM_VIEWER)["fighters"] if f["id"] == "ada")
    assert ada["altitude_m"] == "3"
    error = refused(state, {"kind": "move", "creature": "ada", "steps": [{"to": "c5"}]})
    assert error.code == "dnd5e.move.aloft" and error.params == {"step": 0, "height": "3"}
    # flying on at the same height costs only the way across
    assert cost(state, [{"to": "c5", "mode": "fly"}]) == Decimal("1.5")


def test_a_flyer_above_a_creature_is_out_of_its_reach() -> None:
    # Ada hovers 3 m above e6, beside the goblin at f5: 3 m apart (uniform diagonals)
    up = {
        "kind": "move",
        "creature": "ada",
        "steps": [{"to": "e6", "mode": "fly", "altitude_m": 3}],
    }
    state = play(flyer("f5"), up)
    # rising out of the goblin's reach provokes (rules edition 4); it lets her go
    assert state.pending is not None and state.pending.reactors == ("gob",)
    state = play(state, {"kind": "react", "creature": "gob"})
    assert square_distance(state, state.fighters["ada"], state.fighters["gob"]) == 3
    swing = {"kind": "attack", "creature": "ada", "target": "gob", "attack": "Longsword"}
    assert refused(state, swing).code == "dnd5e.out_of_reach"


def test_a_flyer_knocked_out_of_the_air_falls_the_height_it_flew_at() -> None:
    up = [{"to": "d5", "mode": "fly", "altitude_m": 7.5}]
    state = play(flyer(), {"kind": "move", "creature": "ada", "steps": up})
    state = play(state, {"kind": "condition", "target": "ada", "condition": "prone"})
    assert state.falling == ("ada",)
    fall = {"kind": "fall", "creature": "ada"}
    odds = SYSTEM.odds(state, command(fall))
    assert odds is not None and len(odds.outcomes) == 11  # 7.5 m: 2d6, totals 2 to 12
    state = play(state, fall, 3, 4)  # 2d6 = 7: 20 → 13
    assert state.fighters["ada"].hp == 13 and state.fighters["ada"].altitude_m == 0
    assert state.falling == ()
    # on the ground there is no height to take: the GM gives one
    assert refused(state, fall).code == "dnd5e.fall_height_missing"
