"""Contact: a player's move that runs into something hidden on the GM's map.

A visible move is decided on what its issuer sees (the shared fold). :func:`contact` walks its
path again on the GM's fold: the first square where the mover's space meets a wall the
players do not know of, or another creature it may not pass (another side's, less than two
sizes apart) or is about to stop on, is where the move meets something hidden. The move stops
on the last square before it where the mover may stand (it backs off past creatures it was
passing through); the movement spent up to there is spent. A :class:`~.events.Revealed` event
follows: the creatures touched (a secret one is no longer secret, and joins the shared fight
with the initiative it has on the GM's fold) and the walls touched. Nothing is rolled.

A creature a player puts on the map (``add_character`` with a position) where the GM's fold
has a hidden creature or wall enters the table without a position (its player places it
again, now seeing what is there), and the same :class:`~.events.Revealed` event follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import Square, footprint, parse_square, square_name
from spieltisch.systems.dnd5e import commands as c
from spieltisch.systems.dnd5e import events as e
from spieltisch.systems.dnd5e.evolve import evolve
from spieltisch.systems.dnd5e.movement import MoveStep, TurnMovement, check_move
from spieltisch.systems.dnd5e.queries import body_of, others_of
from spieltisch.systems.dnd5e.rules import size_steps
from spieltisch.systems.dnd5e.state import DndState, Fighter

__all__ = ["contact"]


def contact(state: DndState, command: c.Command, events: Sequence[e.Event]) -> list[e.Event] | None:
    """What ``command`` does on the GM's fold ``state`` given ``events`` decided on the shared
    fold: ``None`` when its moves meet nothing hidden, else the events up to the move cut
    short, then a :class:`~.events.Revealed` event."""
    if isinstance(command, c.AddCharacter):
        return _placed(state, events)
    if not isinstance(command, c.Move | c.React):
        return None
    steps: tuple[MoveStep, ...] = (
        command.steps
        if isinstance(command, c.Move)
        else (state.pending.steps if state.pending is not None else ())
    )
    gm = state
    for index, event in enumerate(events):
        if isinstance(event, e.Moved) and event.creature in gm.fighters:
            cut = _cut(gm, event, steps)
            if cut is not None:
                return [*events[:index], *cut]
        try:
            gm = evolve(gm, event)
        except RuleError:
            return None  # the GM's fold refuses it: a conflict, not a contact
    return None


def _sharing(
    gm: DndState, mover: Fighter, square: Square, besides: str | None = None
) -> list[Fighter]:
    """The creatures whose space meets ``mover``'s at ``square`` (not ``besides``, the
    creature dragged along with it or dragging it)."""
    mine = set(footprint(square, mover.size))
    return [
        f
        for f in gm.fighters.values()
        if f.id not in (mover.id, besides)
        and f.position is not None
        and not f.dead
        and mine & set(footprint(f.position, f.size))
    ]


def _placed(gm: DndState, events: Sequence[e.Event]) -> list[e.Event] | None:
    """A creature added onto a square the GM's fold holds: it enters unplaced, and what it
    touched is revealed."""
    if not events or not isinstance(events[0], e.FighterAdded):
        return None
    added = events[0].fighter
    if added.position is None or added.id in gm.fighters:
        return None
    square = added.position
    walls = tuple(
        square_name(sq) for sq in footprint(square, added.size) if "wall" in gm.grid.terrain_at(sq)
    )
    touched = _sharing(gm, added, square)
    if not walls and not touched:
        return None
    unplaced = events[0].model_copy(update={"fighter": added.model_copy(update={"position": None})})
    return [unplaced, *events[1:], _revealed(gm, touched, walls)]


def _revealed(gm: DndState, touched: list[Fighter], walls: tuple[str, ...]) -> e.Revealed:
    """The event that shows the table the creatures and walls a command touched."""
    creatures = tuple(
        e.RevealedCreature(
            fighter=f.model_copy(update={"secret": False}),
            combatant=next((x for x in gm.encounter.combatants if x.id == f.id), None)
            if gm.encounter is not None
            else None,
        )
        for f in {f.id: f for f in touched}.values()
    )
    return e.Revealed(creatures=creatures, walls=walls)


def _cut(gm: DndState, moved: e.Moved, steps: tuple[MoveStep, ...]) -> list[e.Event] | None:
    mover = gm.fighters[moved.creature]
    if mover.position is None:
        return None
    path = [parse_square(name) for name in moved.path]
    held = gm.fighters.get(moved.drag.creature) if moved.drag is not None else None
    dragged = [parse_square(name) for name in moved.drag.path] if moved.drag is not None else []
    last = len(path) - 1
    for k in range(1, len(path)):
        walls, blocking = _met(gm, mover, path[k], k == last, held)
        if held is not None:
            more_walls, more = _met(gm, held, dragged[k], k == last, mover)
            walls, blocking = walls + more_walls, blocking + more
        if walls or blocking:
            return _stopped(gm, mover, moved, steps, path, k, walls, blocking)
    return None


def _met(
    gm: DndState, mover: Fighter, square: Square, last: bool, besides: Fighter | None
) -> tuple[tuple[str, ...], list[Fighter]]:
    """The walls and the creatures ``mover`` may not pass (or stop on, when ``last``) at
    ``square`` on the GM's fold."""
    walls = tuple(
        square_name(sq) for sq in footprint(square, mover.size) if "wall" in gm.grid.terrain_at(sq)
    )
    blocking = [
        f
        for f in _sharing(gm, mover, square, besides.id if besides is not None else None)
        if last or (f.side != mover.side and size_steps(f.size, mover.size) < 2)
    ]
    return walls, blocking


def _stopped(
    gm: DndState,
    mover: Fighter,
    moved: e.Moved,
    steps: tuple[MoveStep, ...],
    path: list[Square],
    k: int,
    walls: tuple[str, ...],
    touched: list[Fighter],
) -> list[e.Event]:
    stop = k - 1
    passed: list[Fighter] = []
    held = gm.fighters[moved.drag.creature] if moved.drag is not None else None
    dragged = [parse_square(name) for name in moved.drag.path] if moved.drag is not None else []
    while stop > 0:
        sharing = _sharing(gm, mover, path[stop], held.id if held is not None else None)
        if held is not None:
            sharing += _sharing(gm, held, dragged[stop], mover.id)
        if not sharing:
            break
        passed.extend(sharing)
        stop -= 1
    before = gm.movement.get(mover.id, TurnMovement())
    result = check_move(
        gm.grid,
        body_of(gm, mover),
        others_of(gm, mover),
        steps[:stop],
        before=before,
        stand_up=moved.stood_up,
        disengage=True,
        midway=True,
        drag=body_of(gm, held) if held is not None else None,
        ground=gm.ground,
        in_place=gm.options.edition >= 5,
    )
    drag = (
        None
        if moved.drag is None
        else moved.drag.model_copy(update={"path": moved.drag.path[: stop + 1]})
    )
    short = moved.model_copy(
        update={
            "drag": drag,
            "altitude_m": result.altitude_m,
            "path": tuple(square_name(sq) for sq in path[: stop + 1]),
            "movement": result.movement,
            "airborne": moved.airborne if stop == len(path) - 1 else mover.airborne,
            "pending": None,
            "checks": tuple(x for x in moved.checks if x.step < stop),
        }
    )
    return [short, _revealed(gm, [*touched, *passed], walls)]
