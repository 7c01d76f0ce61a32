"""Areas of effect as templates on the grid: which squares, and so which creatures, are inside.

A template is a shape with its size in metres (radius of a sphere or cylinder, side of a cube,
length of a cone or line; a line's width, 1.5 m by default), an origin square and, for a cone,
a line and a cube, a square it points toward. Squares are 1.5 m; a square is inside when its
centre is (the borders count as inside):

* **sphere, cylinder** — centred on the centre of the origin square: centres within the radius;
  a cylinder's height is not tracked on the flat map;
* **cone** — from the centre of the origin square toward the centre of ``toward``: a centre is
  inside when its distance along the axis is more than 0 and at most the length and its
  distance from the axis at most half its distance along it (a cone's width at any point
  equals that point's distance from the origin); the origin square is not inside;
* **line** — from the same origin the same way: along the axis more than 0 and at most the
  length, from the axis at most half the width;
* **cube** — the origin square is a corner: the cube covers side ÷ 1.5 squares from it, toward
  ``toward`` in each direction (up and right when ``toward`` is the origin itself or absent).

All arithmetic is exact (fractions, squared distances), so a centre on a border is inside.
A creature is inside when any square of its space is.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict

from spieltisch.engine.grid import Size, Square, footprint

__all__ = ["SQUARE_M", "Template", "creatures_in", "squares_in"]

SQUARE_M = Fraction(3, 2)
"""The side of a square in metres."""


class Template(BaseModel):
    """An area of effect placed on the map."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    shape: Literal["cone", "cube", "cylinder", "line", "sphere"]
    size_m: Decimal
    width_m: Decimal = Decimal("1.5")
    origin: Square
    toward: Square | None = None


def _squares(metres: Decimal) -> Fraction:
    return Fraction(metres) / SQUARE_M


def _direction(template: Template) -> tuple[int, int]:
    toward = template.toward or template.origin
    return toward.x - template.origin.x, toward.y - template.origin.y


def _inside(template: Template, square: Square) -> bool:
    dx = square.x - template.origin.x
    dy = square.y - template.origin.y
    size = _squares(template.size_m)
    if template.shape in ("sphere", "cylinder"):
        return dx * dx + dy * dy <= size * size
    if template.shape == "cube":
        ax, ay = _direction(template)
        n = int(size) if size == int(size) else int(size) + 1
        sx = -1 if ax < 0 else 1
        sy = -1 if ay < 0 else 1
        return 0 <= dx * sx < n and 0 <= dy * sy < n
    ax, ay = _direction(template)
    norm2 = ax * ax + ay * ay
    if norm2 == 0:
        return False
    along = dx * ax + dy * ay  # distance along the axis × |axis|
    across = dx * ay - dy * ax  # distance from the axis × |axis|
    if along <= 0 or along * along > size * size * norm2:
        return False
    if template.shape == "cone":
        return 4 * across * across <= along * along
    half = _squares(template.width_m) / 2
    return across * across <= half * half * norm2


def squares_in(template: Template, width: int, height: int) -> frozenset[Square]:
    """The squares of a ``width`` × ``height`` grid inside the template."""
    return frozenset(
        Square(x=x, y=y)
        for x in range(width)
        for y in range(height)
        if _inside(template, Square(x=x, y=y))
    )


def creatures_in(
    template: Template, creatures: Mapping[str, tuple[Square, Size]], width: int, height: int
) -> list[str]:
    """The creatures (by id, sorted) any square of whose space is inside the template."""
    inside = squares_in(template, width, height)
    return sorted(
        who
        for who, (position, size) in creatures.items()
        if any(sq in inside for sq in footprint(position, size))
    )
