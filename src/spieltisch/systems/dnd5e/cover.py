"""Cover on the battle map (SRD 5.1): half cover +2 AC, three-quarters cover +5, total cover
cannot be targeted.

The grid rule (after the DMG's variant for grids, our reading): the attacker picks a corner of
a square of its space and a square of the target's space; four straight lines run from that
corner to the four corners of the target's square. A line is blocked when it passes through
the inside of a wall square or of a square another creature stands in, or runs along the seam
between two such squares side by side (running along an outer edge or touching a corner
blocks nothing). All four lines blocked by walls: total cover. Three or
four lines blocked: three-quarters cover; one or two: half cover. A creature alone gives at
most half cover. The attacker takes the corner and the square that leave the least cover.
Exact arithmetic (fractions), no rounding.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Literal

from spieltisch.engine.grid import Square

__all__ = ["COVERS", "COVER_BONUS", "Cover", "cover_between", "line_blocked"]

Cover = Literal["none", "half", "three_quarters", "total"]
COVERS: tuple[Cover, ...] = ("none", "half", "three_quarters", "total")
"""From the least to the most."""
COVER_BONUS: dict[Cover, int] = {"none": 0, "half": 2, "three_quarters": 5, "total": 0}
"""What cover adds to AC and to Dexterity saves."""

Point = tuple[int, int]
Edge = tuple[Point, Point]


def line_blocked(a: Point, b: Point, square: Square) -> bool:
    """Whether the segment from corner ``a`` to corner ``b`` passes through the inside of
    ``square`` (its open unit box)."""
    low, high = Fraction(0), Fraction(1)
    for start, delta, edge in ((a[0], b[0] - a[0], square.x), (a[1], b[1] - a[1], square.y)):
        if delta == 0:
            if not edge < start < edge + 1:
                return False
            continue
        t1, t2 = Fraction(edge - start, delta), Fraction(edge + 1 - start, delta)
        low, high = max(low, min(t1, t2)), min(high, max(t1, t2))
    return low < high


def along_edge(a: Point, b: Point, edge: Edge) -> bool:
    """Whether the segment from ``a`` to ``b`` runs along a unit ``edge`` for a positive
    length (collinear with it and overlapping)."""
    (ex, ey), (fx, fy) = edge
    if fx != ex:  # horizontal edge: y = ey, x from ex to fx
        if a[1] != ey or b[1] != ey:
            return False
        lo, hi = sorted((a[0], b[0]))
        return max(lo, ex) < min(hi, fx)
    if a[0] != ex or b[0] != ex:
        return False
    lo, hi = sorted((a[1], b[1]))
    return max(lo, ey) < min(hi, fy)


def _shared_edges(squares: tuple[Square, ...]) -> tuple[Edge, ...]:
    """The edges between two squares of ``squares`` that touch side by side (a wall of two
    squares blocks along its seam too)."""
    found = set(squares)
    out = []
    for s in squares:
        if Square(x=s.x + 1, y=s.y) in found:
            out.append(((s.x + 1, s.y), (s.x + 1, s.y + 1)))
        if Square(x=s.x, y=s.y + 1) in found:
            out.append(((s.x, s.y + 1), (s.x + 1, s.y + 1)))
    return tuple(out)


def _corners(square: Square) -> tuple[Point, ...]:
    x, y = square.x, square.y
    return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))


def _level(walls: int, blocked: int) -> int:
    """The cover (index in :data:`COVERS`) of four lines: ``blocked`` of them, ``walls`` of
    those by walls."""
    if walls == 4:
        return 3
    if blocked == 0:
        return 0
    if walls == 0 or blocked <= 2:
        return 1
    return 2


def cover_between(
    attacker: Iterable[Square],
    target: Iterable[Square],
    walls: Iterable[Square],
    creatures: Iterable[Square],
) -> Cover:
    """The cover of a target (its squares) against an attacker (its squares), with wall
    squares and squares of other creatures in between."""
    mine, theirs = tuple(attacker), tuple(target)
    xs = [s.x for s in mine + theirs]
    ys = [s.y for s in mine + theirs]

    def near(squares: Iterable[Square]) -> tuple[Square, ...]:
        # within the box around both spaces, one square more (its seams touch the box)
        return tuple(
            s
            for s in squares
            if min(xs) - 1 <= s.x <= max(xs) + 1
            and min(ys) - 1 <= s.y <= max(ys) + 1
            and s not in theirs
        )

    wall_squares = near(walls)
    body_squares = tuple(s for s in near(creatures) if s not in wall_squares and s not in mine)
    if not wall_squares and not body_squares:
        return "none"
    wall_seams = _shared_edges(wall_squares)
    body_seams = _shared_edges(body_squares)

    def hits(a: Point, b: Point, squares: tuple[Square, ...], seams: tuple[Edge, ...]) -> bool:
        return any(line_blocked(a, b, sq) for sq in squares) or any(
            along_edge(a, b, seam) for seam in seams
        )

    best = 3
    for corner in sorted({c for s in mine for c in _corners(s)}):
        for square in theirs:
            walls_hit = blocked = 0
            for end in _corners(square):
                if hits(corner, end, wall_squares, wall_seams):
                    walls_hit += 1
                    blocked += 1
                elif hits(corner, end, body_squares, body_seams):
                    blocked += 1
            best = min(best, _level(walls_hit, blocked))
            if best == 0:
                return "none"
    return COVERS[best]
