"""A move scenario as JSON (the ``spieltisch dnd5e move`` file): grid, terrain, creatures, move.

The file is validated strictly (unknown fields refused); a scenario that cannot be read is a
:class:`RuleError` (``dnd5e.scenario.*``), a move that cannot be made is a result with
``legal: false`` naming the step.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import MAX_SIDE, Diagonal, Grid, Size
from spieltisch.systems.dnd5e.movement import Body, MoveResult, MoveStep, TurnMovement, check_move

__all__ = ["MAX_SCENARIO_BYTES", "Scenario", "run_scenario"]

MAX_SCENARIO_BYTES = 1_000_000
MAX_STEPS = 500
MAX_CREATURES = 200


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class GridSpec(_Strict):
    """The grid of a scenario."""

    width: int = Field(ge=1, le=MAX_SIDE)
    height: int = Field(ge=1, le=MAX_SIDE)
    diagonal: Literal["uniform", "5-10-5"] = "uniform"


class TerrainSpec(_Strict):
    """One square's terrain."""

    square: str
    kind: Literal["difficult", "wall", "water"]


class CreatureSpec(_Strict):
    """One creature of a scenario."""

    id: str = Field(min_length=1, max_length=64)
    side: str = Field(min_length=1, max_length=64)
    size: Size = Size.MEDIUM
    position: str
    speeds: dict[Literal["walk", "fly", "climb", "swim"], Decimal] = Field(default_factory=dict)
    reach_m: Decimal = Field(default=Decimal("1.5"), ge=0, le=100)
    conditions: list[str] = Field(default_factory=list, max_length=20)
    hover: bool = False


class MoveSpec(_Strict):
    """The move to check."""

    creature: str
    stand_up: bool = False
    disengage: bool = False
    dash: bool = False
    steps: list[MoveStep] = Field(default_factory=list, max_length=MAX_STEPS)


class Scenario(_Strict):
    """A whole scenario file."""

    grid: GridSpec
    terrain: list[TerrainSpec] = Field(default_factory=list)
    creatures: list[CreatureSpec] = Field(min_length=1, max_length=MAX_CREATURES)
    move: MoveSpec


def _grid(scenario: Scenario) -> Grid:
    diagonal = Diagonal.ALTERNATING if scenario.grid.diagonal == "5-10-5" else Diagonal.UNIFORM
    grid = Grid(width=scenario.grid.width, height=scenario.grid.height, diagonal=diagonal)
    kinds: dict[str, set[str]] = {}
    for entry in scenario.terrain:
        square = grid.square(entry.square)
        kinds.setdefault(str(square), set()).add(entry.kind)
    for name, found in kinds.items():
        grid = grid.with_terrain(grid.square(name), *sorted(found))
    return grid


def run_scenario(data: Any) -> MoveResult:
    """Check the move a scenario describes."""
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise RuleError("dnd5e.scenario.invalid", where=where, detail=first["msg"]) from None
    grid = _grid(scenario)
    bodies: dict[str, Body] = {}
    for spec in scenario.creatures:
        if spec.id in bodies:
            raise RuleError("dnd5e.scenario.duplicate", creature=spec.id)
        position = grid.square(spec.position)
        if any(v < 0 for v in spec.speeds.values()):
            raise RuleError("dnd5e.scenario.invalid", where=f"{spec.id}.speeds", detail="< 0")
        bodies[spec.id] = Body(
            id=spec.id,
            side=spec.side,
            size=spec.size,
            position=position,
            speeds=dict(spec.speeds),
            reach_m=spec.reach_m,
            conditions=frozenset(spec.conditions),
            hover=spec.hover,
        )
    mover = bodies.get(scenario.move.creature)
    if mover is None:
        raise RuleError("dnd5e.scenario.unknown_creature", creature=scenario.move.creature)
    others = [b for b in bodies.values() if b.id != mover.id]
    return check_move(
        grid,
        mover,
        others,
        scenario.move.steps,
        before=TurnMovement(dashes=1 if scenario.move.dash else 0),
        stand_up=scenario.move.stand_up,
        disengage=scenario.move.disengage,
    )
