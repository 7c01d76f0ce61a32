"""The pure rules of D&D 5e combat: numbers in, numbers out, no state.

Jumps, standing up, ability modifiers, advantage, attack and save outcomes, damage with
resistance, vulnerability and immunity, temporary hit points and death saves. Rules after the
System Reference Document 5.1 (CC-BY-4.0), in the metric German edition's units (1.5 m
squares, 0.3 m per foot of the jump rules).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal
from enum import StrEnum

from spieltisch.engine.grid import Size

__all__ = [
    "SIZE_ORDER",
    "SIZE_SPACE_M",
    "DamageResult",
    "DeathSaves",
    "Mode",
    "ability_modifier",
    "attack_outcome",
    "death_save",
    "high_jump_m",
    "jump_reach_m",
    "long_jump_m",
    "modify_damage",
    "resolve_mode",
    "size_steps",
    "stand_up_cost",
    "take_damage",
]

FOOT_M = Decimal("0.3")
"""Metres per foot in the jump rules of the metric edition."""
RUN_UP_M = Decimal(3)
"""The run-up a full jump needs."""
DEATH_SAVE_DC = 10

SIZE_ORDER = (Size.TINY, Size.SMALL, Size.MEDIUM, Size.LARGE, Size.HUGE, Size.GARGANTUAN)
"""Size categories from the smallest; two categories apart lets a creature pass a foe."""

SIZE_SPACE_M = {
    Size.TINY: Decimal("0.75"),
    Size.SMALL: Decimal("1.5"),
    Size.MEDIUM: Decimal("1.5"),
    Size.LARGE: Decimal(3),
    Size.HUGE: Decimal("4.5"),
    Size.GARGANTUAN: Decimal(6),
}
"""The side of the space a creature controls (gargantuan: 6 m or more)."""


def size_steps(a: Size, b: Size) -> int:
    """How many size categories lie between ``a`` and ``b``."""
    return abs(SIZE_ORDER.index(a) - SIZE_ORDER.index(b))


def ability_modifier(score: int) -> int:
    """The modifier of an ability score: (score − 10) / 2, rounded down."""
    return (score - 10) // 2


def long_jump_m(strength: int, *, standing: bool = False) -> Decimal:
    """Long jump distance: Strength score × 0.3 m after a 3 m run-up, half from standing."""
    distance = Decimal(max(strength, 0)) * FOOT_M
    return distance / 2 if standing else distance


def high_jump_m(strength: int, *, standing: bool = False) -> Decimal:
    """High jump height: (3 + Strength modifier) × 0.3 m after a run-up, half from standing.

    Never below 0 (a Strength of 1 gives 3 − 5 < 0).
    """
    height = Decimal(max(3 + ability_modifier(strength), 0)) * FOOT_M
    return height / 2 if standing else height


def jump_reach_m(jump_height_m: Decimal, body_height_m: Decimal) -> Decimal:
    """How high a jumper's hands reach: the jump height plus 1.5 × the body height."""
    return jump_height_m + body_height_m * Decimal("1.5")


def stand_up_cost(speed_m: Decimal) -> Decimal:
    """Standing up costs half the speed, rounded down to whole metres (9 m → 4 m)."""
    return (Decimal(speed_m) / 2).to_integral_value(rounding=ROUND_FLOOR)


class Mode(StrEnum):
    """How a d20 is rolled."""

    NORMAL = "normal"
    ADVANTAGE = "advantage"
    DISADVANTAGE = "disadvantage"


def resolve_mode(advantages: int, disadvantages: int) -> Mode:
    """Any advantage and any disadvantage cancel; several of one kind count once."""
    if advantages and not disadvantages:
        return Mode.ADVANTAGE
    if disadvantages and not advantages:
        return Mode.DISADVANTAGE
    return Mode.NORMAL


def kept_d20(rolls: tuple[int, ...], mode: Mode) -> int:
    """The d20 that counts: the higher of two with advantage, the lower with disadvantage."""
    if mode is Mode.ADVANTAGE:
        return max(rolls)
    if mode is Mode.DISADVANTAGE:
        return min(rolls)
    return rolls[0]


def attack_outcome(natural: int, bonus: int, ac: int, crit_from: int = 20) -> str:
    """``"critical"``, ``"hit"`` or ``"miss"``: a natural 20 always hits and is a critical,
    a natural 1 always misses, otherwise d20 + bonus ≥ AC hits."""
    if natural >= crit_from:
        return "critical"
    if natural == 1:
        return "miss"
    return "hit" if natural + bonus >= ac else "miss"


def modify_damage(
    amount: int,
    damage_type: str,
    *,
    resistances: frozenset[str] = frozenset(),
    vulnerabilities: frozenset[str] = frozenset(),
    immunities: frozenset[str] = frozenset(),
) -> int:
    """Damage after immunity (none), resistance (half, rounded down), vulnerability (double).

    Resistance applies before vulnerability; several instances of one count once.
    """
    if damage_type in immunities:
        return 0
    if damage_type in resistances:
        amount //= 2
    if damage_type in vulnerabilities:
        amount *= 2
    return max(amount, 0)


@dataclass(frozen=True)
class DamageResult:
    """Hit points after damage: temporary hit points absorb first."""

    hp: int
    temp_hp: int
    instant_death: bool
    """Damage left after reaching 0 HP was at least the hit point maximum."""


def take_damage(hp: int, temp_hp: int, max_hp: int, amount: int) -> DamageResult:
    """Apply ``amount`` damage: temporary hit points first, then hit points down to 0.

    When the damage left over after 0 HP reaches the hit point maximum, the creature dies
    outright (massive damage).
    """
    absorbed = min(temp_hp, amount)
    rest = amount - absorbed
    left = hp - rest
    overflow = -left if left < 0 else 0
    return DamageResult(
        hp=max(left, 0), temp_hp=temp_hp - absorbed, instant_death=rest > 0 and overflow >= max_hp
    )


@dataclass(frozen=True)
class DeathSaves:
    """The death save tally of a creature at 0 hit points."""

    successes: int = 0
    failures: int = 0

    @property
    def stable(self) -> bool:
        """Three successes: stable (unconscious at 0 HP, no more saves)."""
        return self.successes >= 3

    @property
    def dead(self) -> bool:
        """Three failures: dead."""
        return self.failures >= 3


def death_save(saves: DeathSaves, natural: int, bonus: int = 0) -> tuple[DeathSaves, bool]:
    """A death save with ``natural`` on the d20 (DC 10) and ``bonus`` (Bless's d4, Bane's):
    the new tally and whether the creature regains 1 hit point (a natural 20). A natural 1
    counts as two failures, whatever the bonus."""
    if natural == 20:
        return DeathSaves(), True
    if natural == 1:
        return DeathSaves(saves.successes, min(saves.failures + 2, 3)), False
    if natural + bonus >= DEATH_SAVE_DC:
        return DeathSaves(min(saves.successes + 1, 3), saves.failures), False
    return DeathSaves(saves.successes, min(saves.failures + 1, 3)), False


def damage_at_zero(saves: DeathSaves, critical: bool) -> DeathSaves:
    """Damage at 0 HP is a failed death save; a critical hit counts as two."""
    return DeathSaves(saves.successes, min(saves.failures + (2 if critical else 1), 3))
