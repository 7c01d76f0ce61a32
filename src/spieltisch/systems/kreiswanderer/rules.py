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
    "attack_target",
    "combined_skill",
    "damage_after_resistance",
    "evaluate",
    "extra_damage",
    "regenerate",
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


def talent_value(attribute: int, depth: int, skill: int, modifiers: int = 0) -> int:
    """Talentwert: attribute × depth + skill value + modifiers.

    A skill of depth 2 (everyday) cannot be used at value 0 (``kreiswanderer.untrained``);
    depth must be at least 1.
    """
    if depth < 1:
        raise RuleError("kreiswanderer.bad_depth", value=depth)
    if depth == 2 and skill == 0:
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
    """Hit points after sleeping ``sleep_halfhours`` half hours.

    Below half the maximum one point per full hour, at or above half one per half hour; the
    rate is looked at after every point gained (a sleeper who reaches half heals faster).
    """
    progress = 0
    for _ in range(sleep_halfhours):
        if hp >= hp_max:
            break
        progress += 1
        need = 1 if 2 * hp >= hp_max else 2
        if progress >= need:
            hp += 1
            progress = 0
    return hp
