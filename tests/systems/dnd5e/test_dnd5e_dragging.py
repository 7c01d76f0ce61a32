"""Dragging a grappled creature: the grappler moves at half speed (unless the held creature is
two or more sizes smaller), the held creature keeps its place beside it, provokes nothing and
stays grappled; a wall or creature in its way refuses the step.

Ada (medium, walk 9 m, Str 14) at e5; a small goblin at f5 (east of her); all by hand.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import Size, square_name
from spieltisch.systems.dnd5e import events as e
from spieltisch.systems.dnd5e.contact import contact
from spieltisch.systems.dnd5e.decide import decide, preview_move
from spieltisch.systems.dnd5e.evolve import fold
from spieltisch.systems.dnd5e.movement import drag_halves
from spieltisch.systems.dnd5e.queries import kinds_on
from spieltisch.systems.dnd5e.state import DndState

from .helpers import Dice, command, foe, fresh, pc, play, start

WEST = [{"to": "d5"}, {"to": "c5"}, {"to": "b5"}]


def table(
    size: str = "small", *extra: dict[str, Any], grapple: bool = True, width: int = 10
) -> DndState:
    state = play(fresh(width=width, height=10), pc("ada", "e5", speeds={"walk": 9, "fly": 9}))
    state = play(state, foe("gob", "f5", size=size))
    for data in extra:
        state = play(state, data)
    state = start(state, "ada", "gob", *[d["id"] for d in extra if d["kind"] == "add_monster"])
    if grapple:
        hold = {"kind": "condition", "target": "gob", "condition": "grappled", "source": "ada"}
        state = play(state, hold)
    return state


def drag(steps: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"kind": "move", "creature": "ada", "steps": steps, "drag": "gob", **extra}


def where(state: DndState, who: str) -> str:
    position = state.fighters[who].position
    assert position is not None
    return square_name(position)


def refused(state: DndState, data: dict[str, Any]) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(state, data)
    return caught.value


def test_the_speed_halves_unless_the_held_creature_is_two_sizes_smaller() -> None:
    assert drag_halves(Size.MEDIUM, Size.SMALL)
    assert drag_halves(Size.MEDIUM, Size.MEDIUM)
    assert drag_halves(Size.MEDIUM, Size.LARGE)
    assert not drag_halves(Size.MEDIUM, Size.TINY)
    assert not drag_halves(Size.HUGE, Size.MEDIUM)
    assert drag_halves(Size.HUGE, Size.LARGE)


def test_dragging_a_small_goblin_halves_the_walk_and_pulls_it_along() -> None:
    # three squares west: 4.5 m of the halved 4.5 m; the goblin follows from f5 to c5
    state = play(table(), drag(WEST))
    assert where(state, "ada") == "b5" and where(state, "gob") == "c5"
    assert state.movement["ada"].spent == Decimal("4.5")
    assert "grappled" in kinds_on(state, "gob")
    # a fourth square is beyond the halved speed; alone she walks it
    too_far = refused(table(), drag([*WEST, {"to": "a5"}]))
    assert too_far.code == "dnd5e.move.no_movement_left" and too_far.params["step"] == 3
    alone = command({"kind": "move", "creature": "ada", "steps": [*WEST, {"to": "a5"}]})
    assert preview_move(table(), alone)["legal"]


def test_a_tiny_creature_is_dragged_at_full_speed() -> None:
    state = play(table("tiny"), drag([*WEST, {"to": "a5"}]))
    assert state.movement["ada"].spent == 6
    assert where(state, "gob") == "b5"


def test_the_dragged_creature_provokes_nothing_and_stays_grappled() -> None:
    # alone, Ada leaves the goblin's reach: it may take its opportunity attack, and once she is
    # beyond her own reach the grapple ends
    alone = play(table(), {"kind": "move", "creature": "ada", "steps": WEST})
    assert alone.pending is not None and alone.pending.reactors == ("gob",)
    declined = play(alone, {"kind": "react", "creature": "gob"})
    assert "grappled" not in kinds_on(declined, "gob")
    dragged = play(table(), drag(WEST))
    assert dragged.pending is None


def test_a_wall_in_the_dragged_creatures_way_refuses_the_step() -> None:
    walled = play(table(), {"kind": "terrain", "squares": ["f6"], "terrain": "wall"})
    north = [{"to": "e6"}]
    error = refused(walled, drag(north))
    assert error.code == "dnd5e.move.drag_blocked"
    assert error.params == {"step": 0, "creature": "Gob", "to": "f6"}
    assert where(play(walled, {"kind": "move", "creature": "ada", "steps": north}), "ada") == "e6"
    # the map's edge too: on a map six files wide the goblin sits in the last file (f), so
    # Ada's step to f6 would pull it off the map
    edge_error = refused(table(width=6), drag([{"to": "e6"}, {"to": "f6"}]))
    assert edge_error.params == {"step": 1, "creature": "Gob", "to": "f6"}


def test_another_creature_in_the_way_refuses_the_step_and_the_end() -> None:
    # an orc at g6, on the goblin's side: the goblin may be dragged through its space (f6
    # puts the goblin on g6) but not left there
    orc = foe("orc", "g6")
    state = table("small", orc)
    assert refused(state, drag([{"to": "f6"}])).code == "dnd5e.move.drag_blocked"
    passed = play(state, drag([{"to": "f6"}, {"to": "f7"}]))
    assert where(passed, "gob") == "g7"


def test_only_a_grappled_creature_is_dragged() -> None:
    loose = table(grapple=False)
    error = refused(loose, drag(WEST))
    assert error.code == "dnd5e.move.drag_not_grappled"
    assert error.params == {"creature": "Ada", "target": "Gob"}  # the names a player sees
    nobody = refused(table(), {**drag(WEST), "drag": "zz-nobody"})
    assert nobody.code == "dnd5e.move.drag_not_grappled"


def test_flying_or_jumping_with_a_dragged_creature_is_refused() -> None:
    error = refused(table(), drag([{"to": "d5", "mode": "fly"}]))
    assert error.code == "dnd5e.move.drag_mode" and error.params["mode"] == "fly"
    jump = refused(table(), drag([{"to": "d5", "jump": "long"}]))
    assert jump.code == "dnd5e.move.drag_mode"


def test_an_opportunity_attack_midway_keeps_the_drag_going() -> None:
    # an orc at d3 (reach 1.5 m): Ada at e5 is out of its reach, d4 within, c5 out again
    orc = foe("orc", "d3")
    state = table("small", orc)
    moved = play(state, drag([{"to": "d4"}, {"to": "c5"}, {"to": "b6"}]))
    # d4 is beside the orc, c5 is not (2 ranks away): leaving d4 provokes; the goblin sits at
    # e4 (f5 moved one west, one south) while the orc decides
    assert moved.pending is not None and moved.pending.reactors == ("orc",)
    assert moved.pending.drag == "gob"
    assert where(moved, "ada") == "d4" and where(moved, "gob") == "e4"
    on = play(moved, {"kind": "react", "creature": "orc"})
    assert where(on, "ada") == "b6" and where(on, "gob") == "c6"
    assert on.movement["ada"].spent == Decimal("4.5")


def test_the_preview_shows_the_dragged_path_and_the_halved_speed() -> None:
    shown = preview_move(table(), command(drag(WEST[:2])))
    assert shown["legal"] and shown["drag_path"] == ["f5", "e5", "d5"]
    assert Decimal(str(shown["remaining_m"])) == Decimal("1.5")
    plain = preview_move(table(), command({"kind": "move", "creature": "ada", "steps": WEST[:2]}))
    assert "drag_path" not in plain and Decimal(str(plain["remaining_m"])) == 6


def test_a_won_grapple_then_a_drag() -> None:
    state = table(grapple=False)
    # Ada's Athletics 15 + 2 = 17 against the goblin's better of Athletics/Acrobatics 5 + 0
    state = play(state, {"kind": "grapple", "creature": "ada", "target": "gob"}, 15, 5)
    state = play(state, drag(WEST[:1]))
    assert where(state, "gob") == "e5" and "grappled" in kinds_on(state, "gob")


def test_a_hidden_wall_in_the_dragged_creatures_way_stops_the_move_before_it() -> None:
    # the GM's fold has a wall at d7 the players do not know of: Ada's step onto c7 would
    # drag the goblin (one file east of her) onto it; she stops at d6, the goblin at e6
    shared = table()
    gm = play(shared, {"kind": "terrain", "squares": ["d7"], "terrain": "wall"})
    data = drag([{"to": "d6"}, {"to": "c7"}, {"to": "b7"}])  # the goblin: e6, d7, c7
    parsed = command(data)
    events = decide(shared, parsed, Dice())
    got = contact(gm, parsed, events)
    assert got is not None
    moved, revealed = got
    assert isinstance(moved, e.Moved) and moved.path == ("e5", "d6")
    assert moved.drag is not None and moved.drag.path == ("f5", "e6")
    assert isinstance(revealed, e.Revealed) and revealed.walls == ("d7",)
    after = fold(shared, got)
    assert where(after, "gob") == "e6" and after.movement["ada"].spent == Decimal("1.5")
    assert contact(shared, parsed, events) is None  # nothing hidden: nothing changes
