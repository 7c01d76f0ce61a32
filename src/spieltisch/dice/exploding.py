"""Exploding dice: one die's distribution cut after so many explosions that the mass left
out of a whole expression stays at most :data:`TAIL` (reported as ``truncated``)."""

from __future__ import annotations

from functools import lru_cache

from spieltisch.dice.arrays import NUMERIC, Pmf, zeros
from spieltisch.dice.notation import Dice, Expression

TAIL = 1e-12
"""Upper bound of the probability mass left out when exploding dice are cut off."""

# -- dice ----------------------------------------------------------------------------------


def explosion_depth(sides: int, dice: int, share: float) -> int:
    """Explosions kept per die so that ``dice`` dice lose at most ``share`` of the mass."""
    depth = 0
    while dice * float(sides) ** -(depth + 1) > share:
        depth += 1
    return depth


@lru_cache(maxsize=256)
def die_pmf(sides: int, depth: int, exact: bool) -> Pmf:
    """One numeric die; exploding dice (``depth`` ≥ 0) keep up to ``depth`` extra throws.

    With ``depth = -1`` the die does not explode. Exploding values are ``k·sides + r`` for
    ``k`` explosions then a non-maximal throw ``r``, with probability ``sides^-(k+1)``.
    """
    if depth < 0:
        weights = zeros((sides,), exact)
        weights[:] = 1 if exact else 1.0 / sides
        return Pmf(NUMERIC, (1,), weights, sides if exact else 1, 0.0)
    size = depth * sides + sides - 1
    weights = zeros((size,), exact)
    for k in range(depth + 1):
        start = k * sides  # value k*sides + 1 sits at index k*sides
        if exact:
            weights[start : start + sides - 1] = sides ** (depth - k)
        else:
            weights[start : start + sides - 1] = float(sides) ** -(k + 1)
    missing = float(sides) ** -(depth + 1)
    return Pmf(NUMERIC, (1,), weights, sides ** (depth + 1) if exact else 1, missing)


def depths_of(node: Expression) -> dict[int, int]:
    """Explosion depth per die size so the whole expression loses at most :data:`TAIL`."""
    exploding = [n for n in node.walk() if isinstance(n, Dice) and n.explode]
    if not exploding:
        return {}
    share = TAIL / len(exploding)
    depths: dict[int, int] = {}
    for n in exploding:
        depths[n.sides] = max(depths.get(n.sides, 0), explosion_depth(n.sides, n.count, share))
    return depths
