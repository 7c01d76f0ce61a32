"""The free table's fight as state and rules on the combat toolkit.

The state keeps the toolkit's values: a :class:`~spieltisch.engine.grid.Grid`, one
:class:`~spieltisch.engine.encounter.Encounter`, one :class:`~spieltisch.engine.effects.Effects`
and per combatant a :class:`~spieltisch.engine.creatures.Creature` with its
:class:`~spieltisch.engine.economy.Budgets` (movement in squares). :func:`fold` applies one
event by calling the toolkit's verbs; the phase markers they return tick the effects and
refresh the movement budget (:func:`react`).

The free table's own rules are data: :data:`TERRAIN_COST` (every square 1, difficult
terrain and water 2, walls impassable), the diagonal rule is the grid's, and effects are
free-text names (:func:`catalog_for`: every name is a kind of its own, levels up to 99,
every application independent). Tokens take space: a token never stands on another's square
(:func:`taken`), and a move passes through the squares of its own side's tokens but not
through those of another side (:func:`blockers`).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from spieltisch.engine import effects as fx
from spieltisch.engine import encounter as enc
from spieltisch.engine.creatures import Creature
from spieltisch.engine.economy import BudgetRule, Budgets, new_budgets, refresh, spend
from spieltisch.engine.effects import Catalog, EffectKind, Effects, Stacking
from spieltisch.engine.encounter import Combatant, Encounter, Phase, PhaseEvent
from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import (
    Diagonal,
    Grid,
    Size,
    Square,
    Step,
    footprint,
    parse_square,
    path_cost,
    square_name,
)
from spieltisch.engine.system import Discovery, Edition
from spieltisch.systems.freedice.events import (
    Claimed,
    CombatantAdded,
    CombatantRemoved,
    Discovered,
    EffectApplied,
    EffectRemoved,
    Event,
    FightAdvanced,
    FightEnded,
    ImageSet,
    InitiativeRolled,
    MapSet,
    Moved,
    Rolled,
    TerrainPainted,
    TrackChanged,
)

__all__ = [
    "EDITION",
    "MOVE",
    "ROLLS_KEPT",
    "TERRAIN_COST",
    "Fighter",
    "FreeDiceOptions",
    "FreeDiceState",
    "blockers",
    "catalog_for",
    "cheapest_path",
    "fold",
    "key",
    "move_cost",
    "react",
    "squares_of",
    "step_cost",
    "taken",
]

MOVE = "move"
"""The movement budget's name (squares per turn)."""

TERRAIN_COST: dict[str, int | None] = {"difficult": 2, "water": 2, "wall": None}
"""What a step onto a terrain costs in squares (None: impassable); plain ground costs 1."""

MAX_EFFECT_LEVEL = 99

ROLLS_KEPT = 50
"""How many of the latest rolls the state keeps: a campaign's log grows for years, the older
rolls stay in the records (read page by page), and a state that grew with every roll made
every command and snapshot cost more the longer the table lived."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Fighter(_Frozen):
    """A combatant of the free table: the toolkit creature and what the table adds."""

    creature: Creature
    colour: str
    initiative: str
    """Initiative notation (canonical)."""
    tiebreak: int | None = None
    speed: int = 6
    position: Square | None = None
    claimable: bool = False
    roll: int | None = None
    """The initiative rolled (None: not yet)."""
    budgets: Budgets = Budgets()
    diagonals: int = 0
    """Diagonal steps this turn (the alternating rule counts across moves)."""

    @property
    def id(self) -> str:
        """The combatant's id."""
        return self.creature.id

    def rules(self) -> tuple[BudgetRule, ...]:
        """Its movement budget: ``speed`` squares, refreshed at the start of its turn."""
        return (BudgetRule(name=MOVE, amount=Decimal(self.speed)),)


EDITION: Literal[2] = 2
"""The edition of the free table's rules a new table is made with (see :class:`FreeDiceOptions`)."""


class FreeDiceOptions(BaseModel):
    """The free table's options."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    edition: Edition = EDITION
    """The rules the table plays by. ``2`` (the default; every new table stores it,
    :meth:`.system.FreeDice.stamp_options`): tokens take space — never two on a square, a
    move passes its own side's tokens but not another side's — and a visible move or
    placement that runs into something hidden discovers it (:mod:`.contact`). ``1``: the
    rules of tables made before, whose stored options lack this field
    (:meth:`.system.FreeDice.upgrade_options`): tokens take no space and nothing is
    discovered by contact, so their logs (two tokens on one square among them) load, undo and
    verify as they were played."""
    discovery: Discovery = "table"
    """Who is shown what a player's command discovers by contact: the table, or that player
    alone (``"player"``; see ``docs/table-api.md``, "Contact")."""


class FreeDiceState(BaseModel):
    """The state of a free-dice table: the latest :data:`ROLLS_KEPT` rolls, the map and the
    fight."""

    model_config = ConfigDict(frozen=True)

    options: FreeDiceOptions = FreeDiceOptions()
    rolls: tuple[Rolled, ...] = ()
    grid: Grid = Grid(width=12, height=8)
    image: str | None = None
    fighters: tuple[Fighter, ...] = ()
    encounter: Encounter | None = None
    effects: Effects = Effects()
    leveled: frozenset[int] = Field(default_factory=frozenset)
    """The effects applied with a level (the others show none)."""

    def fighter(self, combatant_id: str) -> Fighter:
        """The combatant by id; ``freedice.unknown_combatant`` if there is none."""
        for fighter in self.fighters:
            if fighter.id == combatant_id:
                return fighter
        raise RuleError("freedice.unknown_combatant", combatant=combatant_id)

    def has(self, combatant_id: str) -> bool:
        """Whether a combatant by that id is on the roster."""
        return any(fighter.id == combatant_id for fighter in self.fighters)

    def in_fight(self, combatant_id: str) -> bool:
        """Whether the combatant takes part in the running fight."""
        return self.encounter is not None and combatant_id in self.encounter.ids

    def with_fighter(self, fighter: Fighter) -> FreeDiceState:
        """The state with this combatant replaced (by id)."""
        fighters = tuple(fighter if f.id == fighter.id else f for f in self.fighters)
        return self.model_copy(update={"fighters": fighters})


def key(combatant: Combatant) -> tuple[Decimal, ...]:
    """The free table's order: the toolkit's default (highest initiative, then tie-break)."""
    return enc.by_initiative(combatant)


def combatant_of(fighter: Fighter) -> Combatant:
    """The toolkit combatant of a fighter with its rolled initiative."""
    tiebreak = () if fighter.tiebreak is None else (Decimal(fighter.tiebreak),)
    return Combatant(
        id=fighter.id,
        side=fighter.creature.side,
        initiative=Decimal(fighter.roll or 0),
        tiebreak=tiebreak,
    )


def catalog_for(names: Iterable[str]) -> Catalog:
    """A catalog in which every free-text name is an effect kind (independent, levels to 99)."""
    kinds = {
        name: EffectKind(id=name, max_level=MAX_EFFECT_LEVEL, stacking=Stacking.INDEPENDENT)
        for name in names
    }
    return Catalog(kinds=kinds)


def _catalog(effects: Effects) -> Catalog:
    return catalog_for({effect.kind for effect in effects.items})


def react(state: FreeDiceState, markers: Sequence[PhaseEvent]) -> FreeDiceState:
    """Fold phase markers: effects tick and expire; a turn start refreshes its movement."""
    for marker in markers:
        effects, _report = fx.tick(state.effects, _catalog(state.effects), marker)
        state = state.model_copy(update={"effects": effects})
        who = marker.combatant
        if marker.phase == Phase.TURN_START and who is not None and state.has(who):
            fighter = state.fighter(who)
            budgets = refresh(fighter.budgets, fighter.rules(), Phase.TURN_START)
            state = state.with_fighter(
                fighter.model_copy(update={"budgets": budgets, "diagonals": 0})
            )
    return state


def _advance(state: FreeDiceState, steps: Iterable[enc.Step]) -> FreeDiceState:
    encounter = state.encounter
    for step in steps:
        encounter, markers = enc.apply(encounter, step, key)
        state = react(state.model_copy(update={"encounter": encounter}), markers)
    return state


def squares_of(fighter: Fighter) -> frozenset[Square]:
    """The squares a combatant's token covers (none when it is not on the map)."""
    if fighter.position is None:
        return frozenset()
    return frozenset(footprint(fighter.position, fighter.creature.size))


def taken(state: FreeDiceState, but: str | None = None) -> dict[Square, Fighter]:
    """Square → the token on it, of every combatant but ``but`` (no token ends a move there);
    none in edition 1, where tokens take no space."""
    if state.options.edition < 2:
        return {}
    return {sq: f for f in state.fighters if f.id != but for sq in squares_of(f)}


def blockers(state: FreeDiceState, mover: Fighter) -> dict[Square, Fighter]:
    """Square → the token on it that ``mover`` may not pass through: another side's."""
    return {
        sq: f for sq, f in taken(state, mover.id).items() if f.creature.side != mover.creature.side
    }


def step_cost(grid: Grid, blocked: Iterable[Square] = (), size: Size = Size.MEDIUM) -> Any:
    """The free table's cost of one step in squares: the diagonal rule's base × terrain.

    A step whose footprint (of a token of ``size``) touches a ``blocked`` square is
    impassable (another side's token stands there)."""
    closed = frozenset(blocked)

    def cost(step: Step) -> Decimal | None:
        if closed and closed.intersection(footprint(step.to, size)):
            return None
        factor = 1
        for kind in step.terrain:
            price = TERRAIN_COST.get(kind, 1)
            if price is None:
                return None
            factor = max(factor, price)
        return step.base / grid.square_m * factor

    return cost


def move_cost(
    grid: Grid,
    path: Sequence[Square],
    size: Size,
    diagonals_before: int = 0,
    blocked: Iterable[Square] = (),
) -> tuple[Decimal, int]:
    """The squares moving along ``path`` costs, and the diagonals counted after it."""
    priced = path_cost(
        grid,
        path,
        step_cost(grid, blocked, size),
        size=size,
        diagonals_before=diagonals_before,
    )
    return priced.total, priced.diagonals


def fits(grid: Grid, position: Square, size: Size) -> bool:
    """Whether a token of ``size`` at ``position`` lies on the grid, on no wall."""
    squares = footprint(position, size)
    if any(not grid.contains(square) for square in squares):
        return False
    return all(
        TERRAIN_COST.get(kind, 1) is not None for sq in squares for kind in grid.terrain_at(sq)
    )


def cheapest_path(
    grid: Grid,
    start: Square,
    goal: Square,
    size: Size,
    diagonals_before: int = 0,
    blocked: Iterable[Square] = (),
) -> tuple[Square, ...] | None:
    """The cheapest path from ``start`` to ``goal`` (both included), or None if none exists.

    Dijkstra over squares and the parity of diagonals taken (the alternating rule's memory);
    ties go to the path found first, which is deterministic. The price of each step is
    :func:`step_cost`'s (``blocked`` squares are impassable), so :func:`move_cost` of the
    answer is its cost.
    """
    cost = step_cost(grid, blocked, size)
    begin = (start.x, start.y, diagonals_before % 2)
    best: dict[tuple[int, int, int], Decimal] = {begin: Decimal(0)}
    came: dict[tuple[int, int, int], tuple[int, int, int]] = {}
    queue: list[tuple[Decimal, int, tuple[int, int, int]]] = [(Decimal(0), 0, begin)]
    counter = 0
    while queue:
        spent, _, node = heapq.heappop(queue)
        if spent > best.get(node, spent):
            continue
        x, y, parity = node
        if (x, y) == (goal.x, goal.y):
            path = [node]
            while path[-1] in came:
                path.append(came[path[-1]])
            return tuple(Square(x=px, y=py) for px, py, _ in reversed(path))
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx == dy == 0 or x + dx < 0 or y + dy < 0:
                    continue
                to = Square(x=x + dx, y=y + dy)
                if not fits(grid, to, size):
                    continue
                diagonal = dx != 0 and dy != 0
                parity_after = (parity + 1) % 2 if diagonal else parity
                base = grid.square_m
                if diagonal and grid.diagonal is Diagonal.ALTERNATING and parity_after == 0:
                    base = grid.square_m * 2
                terrain = frozenset().union(*(grid.terrain_at(sq) for sq in footprint(to, size)))
                price = cost(Step(Square(x=x, y=y), to, terrain, "walk", base, diagonal, 0))
                if price is None:
                    continue
                target = (to.x, to.y, parity_after)
                total = spent + price
                if total < best.get(target, Decimal("Infinity")):
                    best[target] = total
                    came[target] = node
                    counter += 1
                    heapq.heappush(queue, (total, counter, target))
    return None


def _resize(state: FreeDiceState, event: MapSet) -> FreeDiceState:
    grid = Grid(
        width=event.width,
        height=event.height,
        square_m=event.square_m,
        diagonal=event.diagonal,
        terrain={
            name: kinds
            for name, kinds in state.grid.terrain.items()
            if (sq := parse_square(name)).x < event.width and sq.y < event.height
        },
    )
    fighters = tuple(
        f
        if f.position is None or fits(grid, f.position, f.creature.size)
        else f.model_copy(update={"position": None})
        for f in state.fighters
    )
    return state.model_copy(update={"grid": grid, "fighters": fighters})


def _paint(state: FreeDiceState, event: TerrainPainted) -> FreeDiceState:
    grid = state.grid
    for name in event.squares:
        square = grid.square(name)
        grid = (
            grid.with_terrain(square, event.terrain) if event.terrain else grid.with_terrain(square)
        )
    return state.model_copy(update={"grid": grid})


def _add(state: FreeDiceState, event: CombatantAdded) -> FreeDiceState:
    if state.has(event.creature.id):
        raise RuleError("freedice.duplicate_combatant", combatant=event.creature.id)
    fighter = Fighter(
        creature=event.creature,
        colour=event.colour,
        initiative=event.initiative,
        tiebreak=event.tiebreak,
        speed=event.speed,
        position=None if event.position is None else parse_square(event.position),
        claimable=event.claimable,
    )
    fighter = fighter.model_copy(update={"budgets": new_budgets(fighter.rules())})
    return state.model_copy(update={"fighters": (*state.fighters, fighter)})


def _remove(state: FreeDiceState, event: CombatantRemoved) -> FreeDiceState:
    state.fighter(event.combatant)
    if state.in_fight(event.combatant):
        state = _advance(state, [enc.Leave(combatant=event.combatant)])
        if state.encounter is not None and not state.encounter.combatants:
            state = state.model_copy(update={"encounter": None})
    effects = state.effects
    for effect in effects.on(event.combatant):
        effects = fx.remove(effects, effect.id)
    fighters = tuple(f for f in state.fighters if f.id != event.combatant)
    return state.model_copy(update={"fighters": fighters, "effects": effects})


def _initiative(state: FreeDiceState, event: InitiativeRolled) -> FreeDiceState:
    joining: list[str] = []
    for roll in event.rolls:
        fighter = state.fighter(roll.combatant)
        state = state.with_fighter(fighter.model_copy(update={"roll": roll.result}))
        if state.encounter is not None and not state.in_fight(roll.combatant):
            joining.append(roll.combatant)
    for combatant_id in joining:
        joined = enc.Join(combatant=combatant_of(state.fighter(combatant_id)))
        state = _advance(state, [joined])
    return state


def _end_fight(state: FreeDiceState) -> FreeDiceState:
    effects = state.effects
    for effect in effects.items:
        if effect.duration.phase is not None:
            effects = fx.remove(effects, effect.id)
    fighters = tuple(
        f.model_copy(update={"roll": None, "budgets": new_budgets(f.rules()), "diagonals": 0})
        for f in state.fighters
    )
    return state.model_copy(update={"encounter": None, "effects": effects, "fighters": fighters})


def _apply_effect(state: FreeDiceState, event: EffectApplied) -> FreeDiceState:
    state.fighter(event.target)
    effects, effect = fx.apply(
        state.effects,
        catalog_for({event.name}),
        event.name,
        event.target,
        level=event.level or 1,
        duration=event.duration,
    )
    leveled = state.leveled | {effect.id} if event.level is not None else state.leveled
    return state.model_copy(update={"effects": effects, "leveled": leveled})


def _track(state: FreeDiceState, event: TrackChanged) -> FreeDiceState:
    fighter = state.fighter(event.combatant)
    old = fighter.creature.track(event.track)
    track = old.model_copy(update={"current": event.current, "maximum": event.maximum})
    creature = fighter.creature.model_copy(
        update={"tracks": {**fighter.creature.tracks, event.track: track}}
    )
    return state.with_fighter(fighter.model_copy(update={"creature": creature}))


def _move(state: FreeDiceState, event: Moved) -> FreeDiceState:
    fighter = state.fighter(event.combatant)
    update: dict[str, Any] = {"position": parse_square(event.path[-1])}
    if state.in_fight(fighter.id) and not event.free:
        update["budgets"] = spend(fighter.budgets, MOVE, event.cost)
        update["diagonals"] = event.diagonals
    return state.with_fighter(fighter.model_copy(update=update))


def _discover(state: FreeDiceState, event: Discovered) -> FreeDiceState:
    """What a contact discovered is there, as the GM's fold has it (see :mod:`.contact`).

    Idempotent on the GM's fold, which has all of it already (a secret combatant only loses
    its secrecy); the shared fold gains what it lacked: the combatant (in the fight if it
    fights there), its place, the terrain of the squares, the map's edge."""
    if event.width is not None and event.height is not None:
        grid = state.grid
        if (grid.width, grid.height) != (event.width, event.height):
            state = _resize(
                state,
                MapSet(
                    width=event.width,
                    height=event.height,
                    square_m=grid.square_m,
                    diagonal=grid.diagonal,
                ),
            )
    grid = state.grid
    for place in event.terrain:
        square = grid.square(place.square)
        grid = (
            grid.with_terrain(square, place.terrain) if place.terrain else grid.with_terrain(square)
        )
    state = state.model_copy(update={"grid": grid})
    for found in event.combatants:
        creature = found.creature.model_copy(update={"secret": False})
        position = None if found.position is None else parse_square(found.position)
        if state.has(creature.id):
            known = state.fighter(creature.id)
            known = known.model_copy(
                update={
                    "creature": known.creature.model_copy(update={"secret": False}),
                    "position": position,
                }
            )
            state = state.with_fighter(known)
        else:
            fighter = Fighter(
                creature=creature,
                colour=found.colour,
                initiative=found.initiative,
                tiebreak=found.tiebreak,
                speed=found.speed,
                position=position,
                claimable=found.claimable,
                roll=found.roll,
            )
            fighter = fighter.model_copy(update={"budgets": new_budgets(fighter.rules())})
            state = state.model_copy(update={"fighters": (*state.fighters, fighter)})
        fighting = found.in_fight and found.roll is not None and state.encounter is not None
        if fighting and not state.in_fight(creature.id):
            state = _advance(state, [enc.Join(combatant=combatant_of(state.fighter(creature.id)))])
    return state


def fold(state: FreeDiceState, event: Event) -> FreeDiceState:
    """Apply one event, purely; the toolkit's verbs raise :class:`RuleError` where it no
    longer fits (undo is then refused)."""
    if isinstance(event, Rolled):
        return state.model_copy(update={"rolls": (*state.rolls, event)[-ROLLS_KEPT:]})
    if isinstance(event, CombatantAdded):
        return _add(state, event)
    if isinstance(event, Claimed):
        state.fighter(event.combatant)
        return state
    if isinstance(event, CombatantRemoved):
        return _remove(state, event)
    if isinstance(event, InitiativeRolled):
        return _initiative(state, event)
    if isinstance(event, FightAdvanced):
        return _advance(state, event.steps)
    if isinstance(event, FightEnded):
        return _end_fight(state)
    if isinstance(event, EffectApplied):
        return _apply_effect(state, event)
    if isinstance(event, EffectRemoved):
        effects = fx.remove_kind(state.effects, event.name, event.target)
        return state.model_copy(update={"effects": effects})
    if isinstance(event, TrackChanged):
        return _track(state, event)
    if isinstance(event, Moved):
        return _move(state, event)
    if isinstance(event, MapSet):
        return _resize(state, event)
    if isinstance(event, TerrainPainted):
        return _paint(state, event)
    if isinstance(event, ImageSet):
        return state.model_copy(update={"image": event.image})
    if isinstance(event, Discovered):
        return _discover(state, event)
    raise AssertionError(f"unknown event {event!r}")  # pragma: no cover - the union is closed


def square_names(path: Iterable[Square]) -> tuple[str, ...]:
    """The names of the squares of a path."""
    return tuple(square_name(square) for square in path)
