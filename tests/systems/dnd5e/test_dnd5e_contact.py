"""Contact: a player's move onto or through a secret monster's square or a hidden wall."""

from __future__ import annotations

from typing import Any

from spieltisch.systems.dnd5e import events as e
from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.evolve import fold
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, Dice, command, foe, fresh, pc, play

SECRET_GOB = {**foe("gob", "a4"), "secret": True}


def _folds(*hidden: dict[str, Any], fight: bool = True) -> tuple[DndState, DndState]:
    """The GM's fold (with ``hidden``) and the shared one (without), Ada and Bo on the map."""
    shared = play(play(play(fresh(), pc("ada", "a1")), pc("bo", "c1")), foe("orc", "j10"))
    gm = shared
    for data in hidden:
        gm = play(gm, data)
    if fight:
        rolls = {"kind": "start_combat", "rolls": {"ada": 20, "bo": 10, "orc": 5}}
        gm = play(
            gm,
            {**rolls, "rolls": {**rolls["rolls"], **({"gob": 15} if "gob" in gm.fighters else {})}},
        )
        shared = play(shared, {**rolls, "rolls": {"ada": 20, "bo": 10, "orc": 5}})
    return gm, shared


def _move(gm: DndState, shared: DndState, data: dict[str, Any]) -> list[e.Event] | None:
    parsed = command(data)
    events = decide(shared, parsed, Dice())
    return SYSTEM.contact(gm, parsed, events)


STEPS = {"kind": "move", "creature": "ada", "steps": [{"to": f"a{n}"} for n in range(2, 6)]}


def test_nothing_hidden_in_the_way_changes_nothing() -> None:
    gm, shared = _folds({**foe("gob", "e5"), "secret": True})
    assert _move(gm, shared, STEPS) is None


def test_a_move_onto_a_secret_monster_stops_before_it_and_reveals_it() -> None:
    gm, shared = _folds(SECRET_GOB)
    got = _move(gm, shared, STEPS)
    assert got is not None and len(got) == 2
    moved, revealed = got
    assert isinstance(moved, e.Moved) and moved.path == ("a1", "a2", "a3")
    assert moved.movement.spent == 3 and moved.pending is None
    assert isinstance(revealed, e.Revealed) and [c.fighter.id for c in revealed.creatures] == [
        "gob"
    ]
    for state in (gm, shared):  # the replacement applies to both folds, alike
        after = fold(state, got)
        assert str(after.fighters["ada"].position) == "a3"
        assert after.fighters["gob"].secret is False and str(after.fighters["gob"].position) == "a4"
        assert after.encounter is not None and "gob" in after.encounter.ids
        assert after.movement["ada"].spent == 3
    assert fold(gm, got).encounter == fold(shared, got).encounter


def test_a_move_into_a_hidden_wall_stops_before_it_and_paints_it() -> None:
    wall = {"kind": "terrain", "squares": ["a3"], "terrain": "wall"}
    gm, shared = _folds(wall)
    got = _move(gm, shared, STEPS)
    assert got is not None
    moved, revealed = got
    assert isinstance(moved, e.Moved) and moved.path == ("a1", "a2")
    assert isinstance(revealed, e.Revealed) and revealed.walls == ("a3",)
    after = fold(shared, got)
    assert "wall" in after.grid.terrain_at(after.grid.square("a3"))
    assert after.movement["ada"].spent == 1.5


def test_the_move_backs_off_past_an_ally_it_was_passing() -> None:
    gm, shared = _folds(SECRET_GOB)
    gm = play(gm, {"kind": "end_turn"})
    shared = play(shared, {"kind": "end_turn"})  # the secret goblin's turn on the GM's fold
    gm = play(gm, {"kind": "end_turn"})
    # Bo's turn on both folds now; Ada stands in a3 on both
    gm = fold(gm, [_teleport("ada", "a3")])
    shared = fold(shared, [_teleport("ada", "a3")])
    assert gm.encounter is not None and gm.encounter.current == "bo"
    moves = {"kind": "move", "creature": "bo", "steps": [{"to": "b2"}, {"to": "a3"}, {"to": "a4"}]}
    got = _move(gm, shared, moves)
    assert got is not None
    moved, revealed = got
    assert isinstance(moved, e.Moved) and moved.path == ("c1", "b2")
    assert isinstance(revealed, e.Revealed)
    assert {c.fighter.id for c in revealed.creatures} == {"gob", "ada"}


def _teleport(who: str, square: str) -> e.Event:
    return e.Moved(creature=who, path=(square,), movement=e.TurnMovement())


def test_a_character_put_on_a_secret_monster_enters_unplaced_and_reveals_it() -> None:
    gm, shared = _folds(SECRET_GOB, fight=False)
    got = _move(gm, shared, pc("cy", "a4"))
    assert got is not None and len(got) == 2
    added, revealed = got
    assert isinstance(added, e.FighterAdded) and added.fighter.position is None
    assert isinstance(revealed, e.Revealed) and [c.fighter.id for c in revealed.creatures] == [
        "gob"
    ]
    for state in (gm, shared):  # both folds: Cy off the map, the goblin shown where it stands
        after = fold(state, got)
        assert after.fighters["cy"].position is None
        assert after.fighters["gob"].secret is False and str(after.fighters["gob"].position) == "a4"
    assert _move(gm, shared, pc("cy", "b4")) is None  # a free square: nothing touched
