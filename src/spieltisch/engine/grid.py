"""A square battle grid: named squares, footprints, terrain, path costs and reach.

Squares are named like Kilkenny's: files ``a`` … ``z``, then ``aa``, ``ab`` … for wide grids,
ranks from 1; ``a1`` is the bottom-left square. A :class:`Grid` has a square size (1.5 m by
default), a :class:`Diagonal` rule and terrain per square as data (``difficult``, ``wall``,
``water``, ``climbable`` — any names the system reads).

A creature of a :class:`Size` covers 1×1 up to 4×4 squares; its position is the square of its
lowest file and rank. :func:`path_cost` walks a given path square by square and asks the
system's cost function (:data:`StepCost`) what each step costs in metres, or whether it is
impassable; the diagonal rule only sets the base cost a cost function starts from.
Distances for reach are measured by the same diagonal rule (:func:`distance`), and
:func:`reach_exits` says at which step a mover leaves which creature's reach (D&D's
opportunity attacks).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from itertools import pairwise

from pydantic import BaseModel, ConfigDict, Field, model_validator

from spieltisch.engine.errors import RuleError

__all__ = [
    "Diagonal",
    "Grid",
    "PathCost",
    "ReachExit",
    "Size",
    "Square",
    "Step",
    "StepCost",
    "Token",
    "distance",
    "file_name",
    "footprint",
    "in_reach",
    "parse_square",
    "path_cost",
    "reach_exits",
    "square_name",
    "standard_cost",
]

MAX_SIDE = 1000
"""Largest grid side in squares."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Size(StrEnum):
    """Size categories; their footprint side in squares is :attr:`squares`."""

    TINY = "tiny"
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    HUGE = "huge"
    GARGANTUAN = "gargantuan"

    @property
    def squares(self) -> int:
        """Side of the footprint in squares (tiny, small and medium take one square)."""
        return _SIDES[self]


_SIDES = {
    Size.TINY: 1,
    Size.SMALL: 1,
    Size.MEDIUM: 1,
    Size.LARGE: 2,
    Size.HUGE: 3,
    Size.GARGANTUAN: 4,
}


class Diagonal(StrEnum):
    """How diagonal steps count."""

    UNIFORM = "uniform"
    """Every diagonal step costs one square (the PHB default)."""
    ALTERNATING = "alternating"
    """Every second diagonal step costs two squares (1.5 m, 3 m, 1.5 m …)."""


class Square(_Frozen):
    """A square by file ``x`` and rank ``y``, both from 0 (``a1`` is ``(0, 0)``)."""

    x: int = Field(ge=0)
    y: int = Field(ge=0)

    def __str__(self) -> str:
        return square_name(self)


def file_name(x: int) -> str:
    """The letters of file ``x`` (from 0): ``a`` … ``z``, ``aa`` … ``zz``, ``aaa`` …"""
    letters = ""
    n = x + 1
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def square_name(square: Square) -> str:
    """The name of a square: ``a1``, ``z10``, ``ab3``."""
    return f"{file_name(square.x)}{square.y + 1}"


_NAME = re.compile(r"([a-z]{1,3})([1-9][0-9]{0,3})")


def parse_square(text: str) -> Square:
    """The square named ``text`` (any case, surrounding spaces ignored).

    Raises ``toolkit.grid.bad_square`` naming the value if it is no square name. Whether the
    square lies on a grid is :meth:`Grid.square`'s question.
    """
    match = _NAME.fullmatch(text.strip().lower()) if isinstance(text, str) else None
    if match is None:
        raise RuleError("toolkit.grid.bad_square", value=text)
    x = 0
    for letter in match.group(1):
        x = x * 26 + ord(letter) - ord("a") + 1
    return Square(x=x - 1, y=int(match.group(2)) - 1)


def footprint(position: Square, size: Size) -> tuple[Square, ...]:
    """The squares a creature of ``size`` at ``position`` covers (lowest file and rank first)."""
    side = size.squares
    return tuple(
        Square(x=position.x + dx, y=position.y + dy) for dy in range(side) for dx in range(side)
    )


class Grid(_Frozen):
    """A battle map: its size in squares, the square size, the diagonal rule and terrain.

    ``terrain`` maps square names to the terrain kinds of that square.
    """

    width: int = Field(ge=1, le=MAX_SIDE)
    height: int = Field(ge=1, le=MAX_SIDE)
    square_m: Decimal = Field(default=Decimal("1.5"), gt=0)
    diagonal: Diagonal = Diagonal.UNIFORM
    terrain: dict[str, frozenset[str]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _terrain_on_grid(self) -> Grid:
        for name in self.terrain:
            square = parse_square(name)
            if square_name(square) != name or not self.contains(square):
                raise ValueError(f"terrain square {name!r} is not on the grid")
        return self

    def contains(self, square: Square) -> bool:
        """Whether ``square`` lies on the grid."""
        return square.x < self.width and square.y < self.height

    def square(self, text: str) -> Square:
        """The square named ``text``; ``toolkit.grid.off_grid`` if it is not on this grid."""
        square = parse_square(text)
        if not self.contains(square):
            raise RuleError(
                "toolkit.grid.off_grid", value=text, width=self.width, height=self.height
            )
        return square

    def terrain_at(self, square: Square) -> frozenset[str]:
        """The terrain kinds of one square (empty for plain ground)."""
        return self.terrain.get(square_name(square), frozenset())

    def with_terrain(self, square: Square, *kinds: str) -> Grid:
        """This grid with ``kinds`` as the terrain of ``square`` (none: plain ground)."""
        if not self.contains(square):
            raise RuleError(
                "toolkit.grid.off_grid",
                value=square_name(square),
                width=self.width,
                height=self.height,
            )
        terrain = dict(self.terrain)
        terrain.pop(square_name(square), None)
        if kinds:
            terrain[square_name(square)] = frozenset(kinds)
        return self.model_copy(update={"terrain": terrain})


@dataclass(frozen=True)
class Step:
    """One step of a path as a cost function sees it.

    ``terrain`` is every terrain kind under the mover's footprint after the step; ``base`` the
    metres the diagonal rule gives for the step; ``index`` counts steps from 0.
    """

    frm: Square
    to: Square
    terrain: frozenset[str]
    mode: str
    base: Decimal
    diagonal: bool
    index: int


StepCost = Callable[[Step], Decimal | None]
"""A system's cost of one step in metres (≥ 0), or None when the step is impassable."""


def standard_cost(step: Step) -> Decimal | None:
    """A plain cost function: walls stop, difficult terrain doubles, anything else is the base."""
    if "wall" in step.terrain:
        return None
    return step.base * 2 if "difficult" in step.terrain else step.base


class PathCost(_Frozen):
    """The cost of a path: the total, each step's cost, and the diagonals taken so far."""

    total: Decimal
    steps: tuple[Decimal, ...]
    diagonals: int
    """Diagonal steps counted, including those before the path (for the alternating rule)."""


def _check_on_grid(grid: Grid, position: Square, size: Size, index: int) -> None:
    side = size.squares
    if position.x + side > grid.width or position.y + side > grid.height:
        raise RuleError(
            "toolkit.grid.off_grid",
            value=square_name(position),
            width=grid.width,
            height=grid.height,
            step=index,
        )


def path_cost(
    grid: Grid,
    path: Sequence[Square],
    cost: StepCost = standard_cost,
    *,
    mode: str = "walk",
    size: Size = Size.MEDIUM,
    diagonals_before: int = 0,
) -> PathCost:
    """What moving along ``path`` (positions, the start first) costs in metres.

    ``diagonals_before`` carries the alternating rule's count over from earlier moves in the
    turn. Raises ``toolkit.grid.off_grid`` when the footprint leaves the grid,
    ``toolkit.grid.not_adjacent`` for a jump between squares that do not touch,
    ``toolkit.grid.impassable`` naming the step the cost function refused, and
    ``toolkit.grid.bad_cost`` if it answered a negative cost.
    """
    if not path:
        return PathCost(total=Decimal(0), steps=(), diagonals=diagonals_before)
    _check_on_grid(grid, path[0], size, 0)
    diagonals = diagonals_before
    total = Decimal(0)
    steps: list[Decimal] = []
    for index, (frm, to) in enumerate(pairwise(path)):
        _check_on_grid(grid, to, size, index + 1)
        dx, dy = abs(to.x - frm.x), abs(to.y - frm.y)
        if max(dx, dy) != 1:
            raise RuleError(
                "toolkit.grid.not_adjacent",
                step=index + 1,
                frm=square_name(frm),
                to=square_name(to),
            )
        diagonal = dx == 1 and dy == 1
        base = grid.square_m
        if diagonal:
            diagonals += 1
            if grid.diagonal is Diagonal.ALTERNATING and diagonals % 2 == 0:
                base = grid.square_m * 2
        terrain = frozenset().union(*(grid.terrain_at(sq) for sq in footprint(to, size)))
        price = cost(Step(frm, to, terrain, mode, base, diagonal, index))
        if price is None:
            raise RuleError(
                "toolkit.grid.impassable", step=index + 1, frm=square_name(frm), to=square_name(to)
            )
        if price < 0:
            raise RuleError("toolkit.grid.bad_cost", step=index + 1, value=str(price))
        steps.append(price)
        total += price
    return PathCost(total=total, steps=tuple(steps), diagonals=diagonals)


def _gap(a0: int, a_side: int, b0: int, b_side: int) -> int:
    return max(0, b0 - (a0 + a_side - 1), a0 - (b0 + b_side - 1))


def distance(grid: Grid, a: Square, a_size: Size, b: Square, b_size: Size) -> Decimal:
    """Metres between the nearest squares of two footprints, by the grid's diagonal rule.

    Adjacent creatures are one square apart (1.5 m); overlapping ones 0.
    """
    dx = _gap(a.x, a_size.squares, b.x, b_size.squares)
    dy = _gap(a.y, a_size.squares, b.y, b_size.squares)
    diagonal, straight = min(dx, dy), abs(dx - dy)
    squares = straight + diagonal
    if grid.diagonal is Diagonal.ALTERNATING:
        squares += diagonal // 2
    return grid.square_m * squares


class Token(_Frozen):
    """A creature on the grid: where it stands, how big it is, how far it reaches."""

    id: str
    position: Square
    size: Size = Size.MEDIUM
    reach_m: Decimal = Decimal("1.5")


def in_reach(grid: Grid, attacker: Token, position: Square, size: Size = Size.MEDIUM) -> bool:
    """Whether a creature of ``size`` at ``position`` is within ``attacker``'s reach."""
    return distance(grid, attacker.position, attacker.size, position, size) <= attacker.reach_m


class ReachExit(_Frozen):
    """The mover leaves ``creature``'s reach with step ``step`` (from 1), ``frm`` → ``to``."""

    creature: str
    step: int
    frm: Square
    to: Square


def reach_exits(
    grid: Grid, mover: Token, path: Sequence[Square], others: Iterable[Token]
) -> tuple[ReachExit, ...]:
    """Every step of ``path`` at which ``mover`` leaves the reach of one of ``others``.

    ``others`` are the creatures whose reach counts (the caller picks the hostile ones); the
    mover itself is skipped. In path order, then in the order of ``others``.
    """
    watchers = [other for other in others if other.id != mover.id]
    exits: list[ReachExit] = []
    for index, (frm, to) in enumerate(pairwise(path)):
        for other in watchers:
            if in_reach(grid, other, frm, mover.size) and not in_reach(grid, other, to, mover.size):
                exits.append(ReachExit(creature=other.id, step=index + 1, frm=frm, to=to))
    return tuple(exits)
