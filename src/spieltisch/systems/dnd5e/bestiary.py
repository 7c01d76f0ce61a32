"""A creature at the table from its SRD bestiary entry.

The bestiary is trusted data (made by ``scripts/srd_import.py`` and tested whole), so it is not
held to the limits of a sheet typed in at the table: any of its speed modes (burrow too) and
metres (7.5 m), any number of attacks. The creature's reach, which its opportunity attacks
use, is the longest reach of its melee attacks (1.5 m without one); its attacks per Attack
action are the attacks of its Multiattack (1 without one).
"""

from __future__ import annotations

from decimal import Decimal

from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import Size
from spieltisch.systems.dnd5e.data import monster
from spieltisch.systems.dnd5e.statblock import parse_attack
from spieltisch.systems.dnd5e.state import Fighter, Weapon

__all__ = ["monster_fighter"]


def monster_fighter(monster_id: str, fighter_id: str, side: str) -> Fighter:
    """The creature of bestiary entry ``monster_id`` (``dnd5e.unknown_monster`` otherwise),
    unplaced, with id ``fighter_id`` on ``side``."""
    stats = monster(monster_id)
    if stats is None:
        raise RuleError("dnd5e.unknown_monster", monster=monster_id)
    weapons = []
    for text in stats["attacks"]:
        line = parse_attack(text)
        weapons.append(
            Weapon(
                name=line.name,
                bonus=line.bonus,
                damage=line.damage,
                reach_m=Decimal(line.reach_m),
                ranged=line.range_m is not None,
            )
        )
    reaches = [w.reach_m for w in weapons if not w.ranged]
    return Fighter(
        id=fighter_id,
        name=stats["name"],
        side=side,
        size=Size(stats["size"]),
        ac=stats["ac"],
        hp=stats["hp"],
        max_hp=stats["hp"],
        speeds={mode: Decimal(str(metres)) for mode, metres in stats["speeds"].items()},
        reach_m=max(reaches, default=Decimal("1.5")),
        abilities=dict(stats["abilities"]),
        attacks=tuple(weapons),
        attacks_per_action=len(stats.get("multiattack", ())) or 1,
        bonus_actions=tuple(stats.get("bonus_actions", ())),
        hover=bool(stats.get("hover", False)),
        resistances=frozenset(stats.get("resistances", ())),
        vulnerabilities=frozenset(stats.get("vulnerabilities", ())),
        immunities=frozenset(stats.get("immunities", ())),
        monster=monster_id,
    )
