"""Exact odds of D&D 5e rolls, as fractions: attack rolls, damage and saving throws.

A d20 with advantage takes the higher of two dice (``2d20kh1``: P(k) = (k² − (k − 1)²) / 400);
with disadvantage the lower (``2d20kl1``). Damage is the exact sum of the dice
(:class:`~spieltisch.dice.dist.Dist`), each part floored at 0; a critical doubles the dice, not
the modifier, and is mixed in with its chance.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from spieltisch.dice.dist import Dist
from spieltisch.systems.dnd5e.rules import Mode, attack_outcome

__all__ = [
    "AttackOdds",
    "DamageDice",
    "PartSave",
    "SaveOdds",
    "attack_damage",
    "attack_damage_with_save",
    "attack_odds",
    "contest_odds",
    "d20",
    "dice_sum",
    "save_damage",
    "save_odds",
]

Pmf = dict[int, Fraction]


_NOTATION = {Mode.NORMAL: "1d20", Mode.ADVANTAGE: "2d20kh1", Mode.DISADVANTAGE: "2d20kl1"}
_RESULT = {"miss": 0, "hit": 1, "critical": 2}


def _d20(mode: Mode) -> Dist:
    return Dist.of(_NOTATION[mode], exact=True)


def d20(mode: Mode = Mode.NORMAL) -> Pmf:
    """The distribution of the d20 that counts under ``mode``."""
    return _d20(mode).fractions()


@dataclass(frozen=True)
class AttackOdds:
    """Chances of an attack roll; ``hit`` includes ``critical``."""

    hit: Fraction
    critical: Fraction
    miss: Fraction


def attack_odds(
    bonus: int,
    ac: int,
    mode: Mode = Mode.NORMAL,
    crit_from: int = 20,
    extra: Mapping[int, Fraction] | None = None,
) -> AttackOdds:
    """P(hit), P(critical) and P(miss) of d20 + ``bonus`` against ``ac``; ``extra`` is the
    distribution of dice added to the roll (Bless's d4), exact with every d20 face (a natural
    20 still hits, a natural 1 still misses)."""
    if extra:
        table: dict[int, Fraction] = {}
        for n, p in _d20(mode).fractions().items():
            for x, q in extra.items():
                key = _RESULT[attack_outcome(n, bonus + x, ac, crit_from)]
                table[key] = table.get(key, Fraction(0)) + p * q
    else:
        roll = _d20(mode).map(lambda n: _RESULT[attack_outcome(n, bonus, ac, crit_from)])
        table = roll.fractions()
    hit = table.get(1, Fraction(0)) + table.get(2, Fraction(0))
    return AttackOdds(hit=hit, critical=table.get(2, Fraction(0)), miss=1 - hit)


def contest_odds(
    active_bonus: int, passive_bonus: int, active: Mode = Mode.NORMAL, passive: Mode = Mode.NORMAL
) -> Fraction:
    """P(the active side's d20 + bonus beats the passive side's): a tie keeps things as they
    were, so the active side needs the higher total."""
    mine, theirs = _d20(active).fractions(), _d20(passive).fractions()
    return sum(
        (
            p * q
            for a, p in mine.items()
            for b, q in theirs.items()
            if a + active_bonus > b + passive_bonus
        ),
        Fraction(0),
    )


def save_odds(
    bonus: int, dc: int, mode: Mode = Mode.NORMAL, extra: Mapping[int, Fraction] | None = None
) -> Fraction:
    """P(d20 + ``bonus`` ≥ ``dc``) for a saving throw or ability check (no automatic 1 or 20);
    ``extra`` is the distribution of dice added to the roll (Bless's d4)."""
    if extra:
        return sum((q * save_odds(bonus + x, dc, mode) for x, q in extra.items()), Fraction(0))
    return (_d20(mode) + bonus >= dc).fractions().get(1, Fraction(0))


@dataclass(frozen=True)
class DamageDice:
    """``count`` d ``sides`` + ``modifier``, e.g. 1d6+2."""

    count: int
    sides: int
    modifier: int = 0

    def __str__(self) -> str:
        sign = (
            f"+{self.modifier}"
            if self.modifier > 0
            else (str(self.modifier) if self.modifier else "")
        )
        return f"{self.count}d{self.sides}{sign}"

    @property
    def average(self) -> int:
        """The stat block's average, rounded down."""
        return (self.count * (self.sides + 1)) // 2 + self.modifier


def _dice(count: int, sides: int, modifier: int) -> Dist:
    if count == 0:  # a fixed damage ("1 piercing"): no dice
        return Dist.constant(max(modifier, 0))
    return (Dist.die(sides, exact=True).repeat(count) + modifier).clamp(low=0)


def dice_sum(count: int, sides: int, modifier: int = 0) -> Pmf:
    """The distribution of ``count``d``sides`` + ``modifier``, floored at 0 (damage)."""
    return _dice(count, sides, modifier).fractions()


@dataclass(frozen=True)
class PartSave:
    """A saving throw against one damage part: its chance to succeed, and whether a success
    halves the damage (rounded down) or avoids it."""

    success: Fraction
    half: bool


def _saved(damage: Dist, save: PartSave | None) -> Dist:
    if save is None or save.success == 0:
        return damage
    on_save = damage.map(lambda n: n // 2) if save.half else Dist.constant(0)
    return Dist.mixture([(1 - save.success, damage), (save.success, on_save)])


def attack_damage(
    dice: list[DamageDice], odds: AttackOdds, saves: list[PartSave | None] | None = None
) -> Pmf:
    """The damage of one attack: 0 on a miss, the dice on a hit, doubled dice on a critical;
    a part with a saving throw (``saves``, by part) is halved or avoided on a success."""
    each = saves or [None] * len(dice)
    normal = sum(
        (_saved(_dice(p.count, p.sides, p.modifier), s) for p, s in zip(dice, each, strict=True)),
        Dist.constant(0),
    )
    critical = sum(
        (
            _saved(_dice(p.count * 2, p.sides, p.modifier), s)
            for p, s in zip(dice, each, strict=True)
        ),
        Dist.constant(0),
    )
    plain = odds.hit - odds.critical
    mixed = Dist.mixture([(odds.miss, 0), (plain, normal), (odds.critical, critical)])
    return mixed.fractions()


def mean(pmf: Mapping[int, Fraction]) -> Fraction:
    """The expected value of a distribution."""
    return Dist.from_outcomes(pmf).exact_mean()


@dataclass(frozen=True)
class SaveOdds:
    """Chances of a saving throw against a DC and the damage that follows."""

    success: Fraction
    failure: Fraction
    damage: Pmf
    """Full damage on a failure; on a success half of it (rounded down) or none."""


def _parts(dice: list[DamageDice]) -> Dist:
    return sum((_dice(p.count, p.sides, p.modifier) for p in dice), Dist.constant(0))


def save_damage(
    dice: list[DamageDice],
    bonus: int,
    dc: int,
    *,
    half: bool,
    mode: Mode = Mode.NORMAL,
    fails: bool = False,
    extra: Mapping[int, Fraction] | None = None,
) -> SaveOdds:
    """The odds of a save (d20 + ``bonus`` ≥ ``dc``) and the damage: the dice on a failure,
    half of their total (rounded down) on a success where the effect says so, else 0;
    ``fails``: the save fails by itself (a paralyzed creature's Dexterity save); ``extra``
    the dice added to the save (Bless's d4)."""
    success = Fraction(0) if fails else save_odds(bonus, dc, mode, extra)
    full = _parts(dice)
    saved = full.map(lambda n: n // 2) if half else Dist.constant(0)
    damage = Dist.mixture([(1 - success, full), (success, saved)])
    return SaveOdds(success=success, failure=1 - success, damage=damage.fractions())


def attack_damage_with_save(
    dice: list[DamageDice],
    odds: AttackOdds,
    rider: list[DamageDice],
    save_success: Fraction,
    *,
    half: bool,
) -> Pmf:
    """The damage of an attack whose hit also forces a save against more damage (the giant
    spider's poison): the attack's dice as in :func:`attack_damage` (doubled on a critical),
    plus on any hit the save's dice in full on a failure, half (rounded down) or none on a
    success. The save's dice are not doubled by a critical (they are the save's damage, not
    the attack's)."""
    normal = _parts(dice)
    critical = sum((_dice(p.count * 2, p.sides, p.modifier) for p in dice), Dist.constant(0))
    full = _parts(rider)
    saved = full.map(lambda n: n // 2) if half else Dist.constant(0)
    extra = Dist.mixture([(1 - save_success, full), (save_success, saved)])
    plain = odds.hit - odds.critical
    mixed = Dist.mixture(
        [(odds.miss, 0), (plain, normal + extra), (odds.critical, critical + extra)]
    )
    return mixed.fractions()
