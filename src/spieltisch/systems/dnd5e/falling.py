"""Falling (SRD 5.1): 1d6 bludgeoning damage per 3 m fallen (10 ft), at most 20d6; a creature
that takes damage from the fall lands prone.

The height of a fall is the GM's (the ``fall`` command), or what the map knows: the drop of a
push off a ledge, or the height a flying creature flew at. A flying creature knocked out of
the air (prone, speed 0, unconscious, unless it hovers) is marked as falling until the GM has
it fall.
"""

from __future__ import annotations

from decimal import Decimal

__all__ = ["FALL_DICE_MAX", "FALL_METRES_PER_DIE", "fall_dice"]

FALL_METRES_PER_DIE = Decimal(3)
"""Metres of fall per d6 (10 ft in the metric edition)."""
FALL_DICE_MAX = 20
"""The most d6 a fall deals."""


def fall_dice(height_m: Decimal) -> int:
    """How many d6 a fall of ``height_m`` metres deals: one per full 3 m, at most 20."""
    return min(int(height_m // FALL_METRES_PER_DIE), FALL_DICE_MAX)
