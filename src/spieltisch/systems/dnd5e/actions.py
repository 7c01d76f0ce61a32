"""Exact odds of a creature's stat-line action: an attack (with the save its hit may force) or
an action with a saving throw, against an armour class and a save bonus.

Pure: a parsed :mod:`~spieltisch.systems.dnd5e.statblock` line and numbers in, fractions out.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from spieltisch.systems.dnd5e.data import monster
from spieltisch.systems.dnd5e.odds import (
    Pmf,
    attack_damage,
    attack_damage_with_save,
    attack_odds,
    mean,
    save_damage,
    save_odds,
)
from spieltisch.systems.dnd5e.rules import Mode
from spieltisch.systems.dnd5e.statblock import ActionLine, AttackLine, parse_action

__all__ = ["ActionOdds", "action_odds", "monster_action", "monster_lines", "odds_json"]


@dataclass(frozen=True)
class ActionOdds:
    """The chances of one action against one target.

    For an attack ``hit`` (with the critical), ``critical`` and ``miss``; for a save and for
    the save an attack's hit forces, ``save_success`` (the target's). ``damage`` is the whole
    distribution of the damage dealt (before resistances), ``conditions`` what a hit (attack)
    or a failed save imposes."""

    kind: str
    name: str
    damage: Pmf
    hit: Fraction | None = None
    critical: Fraction | None = None
    miss: Fraction | None = None
    save_success: Fraction | None = None
    conditions: tuple[str, ...] = ()

    @property
    def mean_damage(self) -> Fraction:
        """The expected damage."""
        return mean(self.damage)


def action_odds(
    line: ActionLine,
    *,
    ac: int = 10,
    save_bonus: int = 0,
    mode: Mode = Mode.NORMAL,
    save_mode: Mode = Mode.NORMAL,
) -> ActionOdds:
    """The odds of ``line`` against a target with armour class ``ac`` and ``save_bonus`` on
    the save the action asks for; ``mode`` is the attack roll's, ``save_mode`` the save's."""
    if isinstance(line, AttackLine):
        odds = attack_odds(line.bonus, ac, mode)
        dice = [p.dice for p in line.damage]
        rider = line.rider
        if rider is None:
            damage = attack_damage(dice, odds)
            success = None
            conditions = line.conditions
        else:
            success = save_odds(save_bonus, rider.dc, save_mode)
            damage = attack_damage_with_save(
                dice, odds, [p.dice for p in rider.damage], success, half=rider.half
            )
            conditions = line.conditions + rider.conditions
        return ActionOdds(
            kind="attack",
            name=line.name,
            damage=damage,
            hit=odds.hit,
            critical=odds.critical,
            miss=odds.miss,
            save_success=success,
            conditions=conditions,
        )
    result = save_damage(
        [p.dice for p in line.save.damage],
        save_bonus,
        line.save.dc,
        half=line.save.half,
        mode=save_mode,
    )
    return ActionOdds(
        kind="save",
        name=line.name,
        damage=result.damage,
        save_success=result.success,
        conditions=line.save.conditions,
    )


def monster_lines(monster_id: str) -> list[ActionLine]:
    """Every attack and save action of a bestiary monster, parsed (empty for an unknown one)."""
    stats = monster(monster_id)
    if stats is None:
        return []
    texts = list(stats.get("attacks", ())) + list(stats.get("save_actions", ()))
    return [parse_action(t) for t in texts]


def monster_action(monster_id: str, name: str) -> ActionLine | None:
    """The action of that name (any case) of a bestiary monster, or None."""
    wanted = name.strip().lower()
    return next((x for x in monster_lines(monster_id) if x.name.lower() == wanted), None)


def _f(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def odds_json(odds: ActionOdds) -> dict[str, Any]:
    """The stable JSON of :class:`ActionOdds` (probabilities as floats)."""
    return {
        "kind": odds.kind,
        "name": odds.name,
        "hit": _f(odds.hit),
        "critical": _f(odds.critical),
        "miss": _f(odds.miss),
        "save_success": _f(odds.save_success),
        "mean_damage": float(odds.mean_damage),
        "max_damage": max(odds.damage),
        "conditions": list(odds.conditions),
    }
