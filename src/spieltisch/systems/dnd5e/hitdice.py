"""Hit dice: a character spends them to heal on a short rest and regains half on a long one.

A character has as many hit dice as its level, each of its class's die (``5d10`` for a
5th-level fighter; one die size per creature, a multiclass character names its largest). A
die spent heals its roll plus the Constitution modifier, never less than 0; a creature never
heals past its hit point maximum. A long rest gives back spent dice up to half the total
(at least one). The rules are the SRD's (*Resting*); here as small pure functions.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt

from spieltisch.engine.system import exact_int

__all__ = ["MAX_HIT_DICE", "HitDice", "healed_by", "healing_odds", "regained_on_long_rest"]

MAX_HIT_DICE = 30
"""The most hit dice a sheet names (a 20th-level character has 20)."""


class HitDice(BaseModel):
    """A creature's hit dice: how many (its level) and of which die."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    count: Annotated[StrictInt, Field(ge=1, le=MAX_HIT_DICE)]
    sides: Annotated[Literal[6, 8, 10, 12], BeforeValidator(exact_int)]


def healed_by(rolls: tuple[int, ...], con: int, missing: int) -> int:
    """The hit points the dice ``rolls`` heal with a Constitution modifier of ``con``: each
    die its roll plus ``con``, at least 0, and no more than the ``missing`` hit points."""
    return min(missing, sum(max(0, roll + con) for roll in rolls))


def healing_odds(count: int, sides: int, con: int, missing: int) -> dict[int, Fraction]:
    """The chance of each number of hit points healed by spending ``count`` dice of
    ``sides`` (:func:`healed_by`), exactly: the dice's distribution convolved one by one."""
    one = {max(0, face + con): Fraction(0) for face in range(1, sides + 1)}
    for face in range(1, sides + 1):
        one[max(0, face + con)] += Fraction(1, sides)
    total = {0: Fraction(1)}
    for _ in range(count):
        step: dict[int, Fraction] = {}
        for sum_, p in total.items():
            for value, q in one.items():
                key = min(missing, sum_ + value)
                step[key] = step.get(key, Fraction(0)) + p * q
        total = step
    return dict(sorted(total.items()))


def regained_on_long_rest(dice: HitDice, spent: int) -> int:
    """How many spent dice are left spent after a long rest: half the total (at least one)
    come back."""
    return max(0, spent - max(1, dice.count // 2))
