"""The rules of Kreiswanderer as small pure functions (no state, no dice source).

Every number a check, an attack, a rest or a fight start produces is computed here, once;
:mod:`.decide` rolls the dice and calls these, :mod:`.odds` computes their distributions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from spieltisch.engine.errors import RuleError

__all__ = [
    "DAMAGE_TYPES",
    "EXPLODES_ON",
    "Outcome",
    "accumulated_part",
    "attack_target",
    "combined_skill",
    "comparative_critical",
    "damage_after_resistance",
    "evaluate",
    "extra_damage",
    "regenerate",
    "regenerate_carry",
    "rest_magic",
    "roll_exploding",
    "talent_value",
    "winner",
]

DAMAGE_TYPES = ("PH", "BR", "EN", "TR")
"""Physisch, Brand, Energie, Trauma."""
EXPLODES_ON = 10
"""A d10 showing this is rolled again and added."""
CRITICAL = 10
"""Quality (or Fehlqualität) from which a check is critical."""


def talent_value(
    attribute: int, depth: int, skill: int, modifiers: int = 0, *, first_edition: bool = False
) -> int:
    """Talentwert: attribute × depth + skill value + modifiers.

    Only a basic skill (depth 1) needs no learning: a skill of depth 2 (everyday) or more
    (specialisation) cannot be used at value 0 (``kreiswanderer.untrained``). The first
    edition refused depth 2 only (``first_edition``, kept for old tables). Depth must be at
    least 1.
    """
    if depth < 1:
        raise RuleError("kreiswanderer.bad_depth", value=depth)
    refused = depth == 2 if first_edition else depth >= 2
    if refused and skill == 0:
        raise RuleError("kreiswanderer.untrained", depth=depth)
    return attribute * depth + skill + modifiers


def roll_exploding(roll: Callable[[int], int], limit: int) -> list[int]:
    """Roll a d10 and roll again after every 10; all dice shown, at most ``limit`` of them."""
    rolls = [roll(10)]
    while rolls[-1] == EXPLODES_ON and len(rolls) < limit:
        rolls.append(roll(10))
    return rolls


@dataclass(frozen=True)
class Outcome:
    """A check's outcome: the signed margin and what it means."""

    result: int
    target: int

    @property
    def margin(self) -> int:
        """Result − target (≥ 0: passed)."""
        return self.result - self.target

    @property
    def passed(self) -> bool:
        """Passed when the result reaches the target."""
        return self.margin >= 0

    @property
    def quality(self) -> int:
        """Qualität on a pass, Fehlqualität (target − result) on a fail; never negative."""
        return abs(self.margin)

    @property
    def critical(self) -> str | None:
        """``"success"`` at quality ≥ 10, ``"failure"`` at Fehlqualität ≥ 10, else None."""
        if self.margin >= CRITICAL:
            return "success"
        if self.margin <= -CRITICAL:
            return "failure"
        return None


def evaluate(result: int, target: int) -> Outcome:
    """The outcome of a result against a target."""
    return Outcome(result=result, target=target)


def comparative_critical(active: int, passive: int) -> str | None:
    """A comparative check is critical when the winner is ahead by at least 10: ``"success"``
    (the winner's critical success, the loser's critical failure)."""
    return "success" if abs(active - passive) >= CRITICAL else None


def accumulated_part(value: int, dice: int, done_rolls: int, reading: str) -> int:
    """What one roll adds to an accumulated check: its dice, and the Talentwert on the first
    roll (``reading`` ``dice``, the seed: it counts once) or on every roll (``every_roll``)."""
    if reading == "every_roll" or done_rolls == 0:
        return value + dice
    return dice


def winner(active: int, passive: int, tie: str) -> str:
    """A comparative check: ``"active"`` or ``"passive"``; a tie goes by the ``tie`` option."""
    if active != passive:
        return "active" if active > passive else "passive"
    return tie


def combined_skill(values: Sequence[int]) -> int:
    """Combined check: the minimum of the involved skills' values (with their modifiers)."""
    if not values:
        raise RuleError("kreiswanderer.no_skills")
    return min(values)


def attack_target(dodge: int, defensive: int, thresholds: int, piercing: int) -> int:
    """An attack's target: dodge + defensive markings + Führungsschwellen − Durchdringend."""
    return dodge + defensive + thresholds - piercing


def damage_after_resistance(quality: int, bonus: int, resistance: int, protection: int = 0) -> int:
    """Hit-point damage of a hit: quality + weapon bonus − resistance − protection, not below 0.

    ``protection``: the bearer's ``schutz`` markings against the weapon's class.
    """
    return max(0, quality + bonus - resistance - protection)


def extra_damage(amount: int, resistance: int) -> int:
    """A Zusatzschaden marking's damage: its value − the resistance to its type, not below 0."""
    return max(0, amount - resistance)


def regenerate(hp: int, hp_max: int, sleep_halfhours: int) -> int:
    """Hit points after sleeping ``sleep_halfhours`` half hours (nothing carried)."""
    return regenerate_carry(hp, hp_max, sleep_halfhours)[0]


def regenerate_carry(hp: int, hp_max: int, sleep_halfhours: int, carry: int = 0) -> tuple[int, int]:
    """Hit points after sleeping, and the half hours carried toward the next point.

    Below half the maximum one point per full hour, at or above half one per half hour; the
    rate is looked at after every point gained (a sleeper who reaches half heals faster).
    ``carry`` is the sleep of earlier rests not yet turned into a point: sleep accumulates.
    At the maximum nothing is carried.
    """
    progress = carry
    for _ in range(sleep_halfhours):
        if hp >= hp_max:
            break
        progress += 1
        need = 1 if 2 * hp >= hp_max else 2
        if progress >= need:
            hp += 1
            progress = 0
    if hp >= hp_max:
        progress = 0
    return hp, progress


def rest_magic(
    mp: int, mp_max: int, rest_halfhours: int, sleep_halfhours: int, carry: int = 0
) -> tuple[int, int]:
    """Magic points after a rest, and the half hours carried toward the next point.

    One point per hour of rest or sleep (``carry``: half hours of earlier rests); at least two
    hours of sleep in one rest fill them up. At the maximum nothing is carried.
    """
    if sleep_halfhours >= 4:
        return mp_max, 0
    halves = carry + rest_halfhours + sleep_halfhours
    mp = min(mp_max, mp + halves // 2)
    return mp, (0 if mp >= mp_max else halves % 2)
