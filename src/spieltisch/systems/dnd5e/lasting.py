"""Lasting spell effects as small pure rules: what a spell leaves on a creature, and what that
effect changes on its rolls and its armour class.

The effects are data (``data/spell_effects.json``): Bless (``blessed``: a d4 added to the
creature's attack rolls and saving throws), Bane (``baned``: a d4 subtracted), Shield
(``shielded``: +5 AC, no damage from Magic Missile, until the start of the caster's next
turn) and Shield of Faith (``shield_of_faith``: +2 AC) and Hunter's Mark (``hunters_mark``: the
caster's weapon hits deal it 1d6 more, doubled on a critical). An effect sits on its creature as an
effect of the table's catalog (kind, target, source: the caster) and ends with the caster's
concentration or at its duration's end (:mod:`.evolve`). Effects of different spells add up;
the same effect twice on one creature counts once (the newer replaces the older).

Every function takes the effect kinds on one creature (:func:`.queries.kinds_on`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from spieltisch.engine.errors import RuleError
from spieltisch.systems.dnd5e.data import spell_effects
from spieltisch.systems.dnd5e.odds import Pmf

__all__ = [
    "LastingSpell",
    "ac_bonus",
    "dice_pmf",
    "dice_total",
    "lasting_spell",
    "mark_dice",
    "no_damage_from",
    "roll_dice",
]


@dataclass(frozen=True)
class LastingSpell:
    """What a spell leaves on a creature: the ``effect`` kind, on whom (``affected``: each
    creature it affects without a save; ``failed``: each that failed its save) and until when
    (``concentration`` or ``caster_turn_start``)."""

    effect: str
    on: str
    until: str


def lasting_spell(spell_id: str) -> LastingSpell | None:
    """The lasting effect of a spell (None: it leaves none)."""
    found = spell_effects()["spells"].get(spell_id)
    if found is None:
        return None
    return LastingSpell(effect=found["effect"], on=found["on"], until=found["until"])


def _modifiers(kinds: Iterable[str]) -> list[dict[str, Any]]:
    table = spell_effects()["effects"]
    return [table[k] for k in sorted(kinds) if k in table]


def ac_bonus(kinds: Iterable[str]) -> int:
    """The bonus to AC of the effects on a creature (Shield +5, Shield of Faith +2)."""
    return sum(int(m.get("ac", 0)) for m in _modifiers(kinds))


def roll_dice(kinds: Iterable[str], roll: str) -> tuple[int, ...]:
    """The dice the effects on a creature add to its ``attack`` rolls or ``save`` throws, as
    signed sides in a fixed order (4: a d4 added, -4: a d4 subtracted)."""
    key = f"{roll}_die"
    return tuple(int(m[key]) for m in _modifiers(kinds) if key in m)


def dice_total(signed: tuple[int, ...], rolled: tuple[int, ...]) -> int:
    """What the rolled effect dice add to a roll (``dnd5e.spell.bad_effect_dice`` when they
    do not fit the dice the effects ask for)."""
    if len(rolled) != len(signed) or any(
        not 1 <= r <= abs(s) for r, s in zip(rolled, signed, strict=True)
    ):
        raise RuleError("dnd5e.spell.bad_effect_dice", dice=len(rolled))
    return sum(r if s > 0 else -r for r, s in zip(rolled, signed, strict=True))


def dice_pmf(signed: tuple[int, ...]) -> Pmf:
    """The exact distribution of what the effect dice add (0 for certain without any)."""
    total: Pmf = {0: Fraction(1)}
    for sides in signed:
        step: Pmf = {}
        for value, p in total.items():
            for face in range(1, abs(sides) + 1):
                key = value + (face if sides > 0 else -face)
                step[key] = step.get(key, Fraction(0)) + p / abs(sides)
        total = step
    return total


def mark_dice(effects: Iterable[tuple[str, str | None]], attacker: str) -> tuple[int, int] | None:
    """The extra damage dice (count, sides) ``attacker``'s weapon hits deal a creature with
    these effects (kind, source): Hunter's Mark's 1d6 when the attacker marked it."""
    table = spell_effects()["effects"]
    for kind, source in sorted(effects, key=lambda x: (x[0], x[1] or "")):
        found = table.get(kind, {}).get("source_weapon_dice")
        if found is not None and source == attacker:
            return int(found[0]), int(found[1])
    return None


def no_damage_from(kinds: Iterable[str], spell_id: str) -> bool:
    """Whether an effect on a creature keeps a spell's damage off it (Shield: Magic
    Missile)."""
    return any(spell_id in m.get("no_damage_from", ()) for m in _modifiers(kinds))
