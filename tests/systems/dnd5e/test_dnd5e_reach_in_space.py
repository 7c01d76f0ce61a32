"""Opportunity attacks with heights (rules edition 4): reach is measured with the ground
heights and flying heights as a third axis, so a flyer 6 m up is out of a 1.5 m reach and
rising out of reach provokes. Tables of edition 3 find them on the flat map."""

from __future__ import annotations

from spieltisch.systems.dnd5e.decide import preview_move
from spieltisch.systems.dnd5e.state import DndState

from .helpers import command, foe, fresh, pc, play

WINGS = {"walk": 9, "fly": 18}


def table(edition: int = 4, altitude: int = 0) -> DndState:
    """Ada (fly 18 m) at b2, ``altitude`` metres up, beside the foe g1 (reach 1.5 m) at b3."""
    state = fresh(edition=edition)
    state = play(state, pc("ada", "b2", speeds=WINGS))
    state = play(state, foe("g1", "b3"))
    state = play(state, {"kind": "start_combat", "rolls": {"ada": 20, "g1": 10}})
    if altitude:
        up = [{"to": "c2", "mode": "fly", "altitude_m": altitude}, {"to": "b2", "mode": "fly"}]
        state = play(state, {"kind": "move", "creature": "ada", "steps": up})
        # rising out of reach provokes (see below); the goblin lets her go
        assert state.pending is not None
        state = play(state, {"kind": "react", "creature": "g1"})
        assert str(state.fighters["ada"].position) == "b2"
        state = play(state, {"kind": "end_turn"})
        state = play(state, {"kind": "end_turn"})  # Ada's next turn, g1's reaction back
    return state


def reactors(state: DndState, steps: list[dict[str, object]]) -> list[str]:
    move = command({"kind": "move", "creature": "ada", "steps": steps})
    found = preview_move(state, move)["opportunity_attacks"]
    return [str(x) for x in found]  # type: ignore[attr-defined]


def test_a_flyer_high_above_leaves_no_reach() -> None:
    away = [{"to": "b1", "mode": "fly"}]
    # on the ground, b2 → b1 leaves the goblin's reach (b1 is 3 m from b3)
    assert reactors(table(), away) == ["g1"]
    # 6 m up the flyer was never within 1.5 m: nothing to leave
    high = table(altitude=6)
    assert high.fighters["ada"].altitude_m == 6
    assert reactors(high, away) == []
    moved = play(high, {"kind": "move", "creature": "ada", "steps": away})
    assert moved.pending is None and str(moved.fighters["ada"].position) == "b1"


def test_rising_out_of_reach_provokes() -> None:
    # b2 → a2 stays beside b3 on the map (a diagonal), but 3 m up it is 3 m away
    rise = [{"to": "a2", "mode": "fly", "altitude_m": 3}]
    assert reactors(table(), rise) == ["g1"]
    waiting = play(table(), {"kind": "move", "creature": "ada", "steps": rise})
    assert waiting.pending is not None and waiting.pending.reactors == ("g1",)
    # a table of edition 3 reads the flat map: no opportunity attack
    assert reactors(table(edition=3), rise) == []
