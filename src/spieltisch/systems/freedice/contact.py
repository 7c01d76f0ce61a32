"""Contact on the free table: a visible move or placement that runs into something hidden.

A visible command is decided on what its issuer sees (the shared fold). :func:`contact` then
walks it again on the GM's fold, the real map, and asks at every step what the rules would
say there; the first step they refuse is where the command meets something hidden:

* **a token** the mover may not pass (another side's) or may not end on (anyone's): a secret
  combatant, or a token the GM moved in secret;
* **a wall** painted in secret, or **the map's edge** after the GM shrank the map in secret;
* in a fight, **ground that costs other than it looked** (difficult ground or water painted
  in secret, or a difficult square the GM cleared): the real price is charged, and the move
  ends where the movement left runs out.

The move stops on the last square before that step where a token may stand (never on
another's square: it backs off past squares of its own side's tokens it was passing, and
touches those too). The movement spent up to there is spent, at the real price. The
:class:`~spieltisch.systems.freedice.events.Discovered` event that follows shows the table
what was touched, as the GM's fold has it: the tokens (a secret combatant is no longer
secret, and joins the shared fight if it fights), the walls, the map's real size, and in a
fight the ground walked. A placement (adding a combatant at a square, a free move) onto
something hidden does not happen: the combatant stays where it was (a new one off the map).

Nothing else of the hidden world is shown: not the touched combatant's effects, not other
secret combatants, not the terrain beside the way. Nothing is rolled.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from spieltisch.engine.grid import Size, Square, footprint, parse_square, path_cost, square_name
from spieltisch.systems.freedice import commands as c
from spieltisch.systems.freedice.events import (
    CombatantAdded,
    Discovered,
    DiscoveredCombatant,
    DiscoveredSquare,
    Event,
    Moved,
)
from spieltisch.systems.freedice.rules import (
    MOVE,
    TERRAIN_COST,
    Fighter,
    FreeDiceState,
    step_cost,
    taken,
)

__all__ = ["contact"]


@dataclass
class _Touched:
    """What a step runs into on the GM's map."""

    tokens: dict[str, Fighter] = field(default_factory=dict)
    walls: set[Square] = field(default_factory=set)
    edge: bool = False
    ground: set[Square] = field(default_factory=set)
    """Squares walked whose real terrain the mover learns (in a fight)."""
    rough: bool = False
    """In a fight, the way cost more or less than it looked."""

    def __bool__(self) -> bool:
        return bool(self.tokens or self.walls or self.edge or self.rough)

    def add(self, other: _Touched) -> None:
        self.tokens.update(other.tokens)
        self.walls |= other.walls
        self.edge = self.edge or other.edge


def contact(
    state: FreeDiceState, command: c.Command, events: Sequence[Event]
) -> list[Event] | None:
    """What ``command`` does on the GM's fold ``state``, given ``events`` decided on the
    shared fold: ``None`` when it meets nothing hidden, else its events cut short, then a
    :class:`Discovered` event (see the module). Tables of edition 1 know no contact."""
    if state.options.edition < 2:
        return None
    if isinstance(command, c.Move) and len(events) == 1 and isinstance(events[0], Moved):
        return _move(state, events[0])
    if (
        isinstance(command, c.AddCombatant | c.AddCharacter)
        and len(events) == 1
        and isinstance(events[0], CombatantAdded)
    ):
        return _place(state, events[0])
    return None


def _in_way(
    state: FreeDiceState, square: Square, size: Size, mover: Fighter | None, end: bool
) -> _Touched:
    """What keeps a token of ``size`` from entering ``square`` (``end``: from stopping there)
    on the GM's map: the edge, walls, tokens of another side (any token at the end)."""
    touched = _Touched()
    grid = state.grid
    others = taken(state, None if mover is None else mover.id)
    side = None if mover is None else mover.creature.side
    for sq in footprint(square, size):
        if not grid.contains(sq):
            touched.edge = True
            continue
        if any(TERRAIN_COST.get(kind, 1) is None for kind in grid.terrain_at(sq)):
            touched.walls.add(sq)
        other = others.get(sq)
        if other is not None and (end or other.creature.side != side):
            touched.tokens[other.id] = other
    return touched


def _place(state: FreeDiceState, added: CombatantAdded) -> list[Event] | None:
    """A new combatant put on a square where something hidden stands: it stays off the map."""
    if added.position is None or state.has(added.creature.id):
        return None  # an id the GM used in secret is a conflict, not a contact
    touched = _in_way(state, parse_square(added.position), added.creature.size, None, True)
    if not touched:
        return None
    return [
        added.model_copy(update={"position": None}),
        _discovered(state, added.creature.id, added.creature.name, None, added.position, touched),
    ]


def _move(state: FreeDiceState, moved: Moved) -> list[Event] | None:
    if not state.has(moved.combatant):
        return None  # the GM removed it in secret: a conflict, not a contact
    fighter = state.fighter(moved.combatant)
    size = fighter.creature.size
    path = [parse_square(name) for name in moved.path]
    here = None if fighter.position is None else square_name(fighter.position)
    if moved.free or len(path) == 1:  # a placement: the token jumps to the square
        touched = _in_way(state, path[-1], size, fighter, True)
        if not touched:
            return None
        return [
            _discovered(state, fighter.id, fighter.creature.name, here, moved.path[-1], touched)
        ]
    if fighter.position is None or not all(
        state.grid.contains(sq) for sq in footprint(path[0], size)
    ):  # the GM shrank the map under it in secret: it is off his map already
        return [
            _discovered(
                state, fighter.id, fighter.creature.name, None, moved.path[-1], _Touched(edge=True)
            )
        ]
    fighting = state.in_fight(fighter.id)
    before = fighter.diagonals if fighting else 0
    left = fighter.budgets.amount(MOVE) if fighting else None
    cost = step_cost(state.grid, (), size)
    touched = _Touched()
    stop = len(path) - 1
    diagonals, spent = before, Decimal(0)
    for index in range(1, len(path)):
        blocked = _in_way(state, path[index], size, fighter, index == len(path) - 1)
        if blocked:
            touched.add(blocked)
            stop = index - 1
            break
        step = path_cost(
            state.grid, path[index - 1 : index + 1], cost, size=size, diagonals_before=diagonals
        )
        if left is not None and spent + step.total > left:
            touched.rough = True  # the real ground costs more than the movement left
            stop = index - 1
            break
        spent += step.total
        diagonals = step.diagonals
    else:
        touched.rough = fighting and spent != moved.cost
    # Never end on another's square: back off past the tokens of its own side it passed.
    occupied = taken(state, fighter.id)
    while stop > 0:
        mine = [occupied[sq] for sq in footprint(path[stop], size) if sq in occupied]
        if not mine:
            break
        touched.tokens.update({f.id: f for f in mine})
        stop -= 1
    if not touched:
        return None  # it went as it looked
    walked = path[: stop + 1]
    real = path_cost(state.grid, walked, cost, size=size, diagonals_before=before)
    if fighting:  # it learns the ground it walked on (the price it paid)
        touched.ground = {sq for square in walked[1:] for sq in footprint(square, size)}
    events: list[Event] = []
    if stop > 0:
        events.append(
            Moved(
                combatant=fighter.id,
                path=tuple(square_name(square) for square in walked),
                cost=real.total,
                diagonals=real.diagonals if fighting else 0,
            )
        )
    at = square_name(walked[-1])
    events.append(
        _discovered(state, fighter.id, fighter.creature.name, at, moved.path[-1], touched)
    )
    return events


def _discovered(
    state: FreeDiceState, who: str, name: str, at: str | None, to: str, touched: _Touched
) -> Discovered:
    grid = state.grid
    squares = sorted(touched.walls | touched.ground, key=lambda sq: (sq.y, sq.x))
    return Discovered(
        combatant=who,
        name=name,
        at=at,
        to=to,
        combatants=tuple(_found(state, f) for f in _in_order(state, touched.tokens.values())),
        terrain=tuple(
            DiscoveredSquare(square=square_name(sq), terrain=_terrain(grid.terrain_at(sq)))
            for sq in squares
        ),
        walls=tuple(square_name(sq) for sq in sorted(touched.walls, key=lambda q: (q.y, q.x))),
        rough=touched.rough,
        width=grid.width if touched.edge else None,
        height=grid.height if touched.edge else None,
    )


def _in_order(state: FreeDiceState, fighters: Iterable[Fighter]) -> list[Fighter]:
    """The fighters in roster order (deterministic events)."""
    wanted = {f.id for f in fighters}
    return [f for f in state.fighters if f.id in wanted]


def _terrain(kinds: frozenset[str]) -> str | None:
    return sorted(kinds)[0] if kinds else None


def _found(state: FreeDiceState, fighter: Fighter) -> DiscoveredCombatant:
    return DiscoveredCombatant(
        creature=fighter.creature.model_copy(update={"secret": False}),
        colour=fighter.colour,
        initiative=fighter.initiative,
        tiebreak=fighter.tiebreak,
        speed=fighter.speed,
        position=None if fighter.position is None else square_name(fighter.position),
        claimable=fighter.claimable,
        roll=fighter.roll,
        in_fight=state.in_fight(fighter.id),
    )
