"""Secondary effects of effect markings, read from the table ``data/secondary.json``.

A hit (and only a hit) lets the weapon's effect markings act:

- ``langzeiteffekt`` with a detail listed under ``lasting`` (``feuer``) sets a lasting
  effect of the effect catalog on the target (burning);
- ``zusatzschaden`` (value N, detail a damage type, else the weapon's) deals N more damage
  of that type, reduced by the target's resistance to it;
- ``waffenklasse`` (detail a class such as ``klinge``) lets the target's ``schutz`` markings
  with that detail reduce the weapon's damage by their values.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from spieltisch.systems.kreiswanderer import rules
from spieltisch.systems.kreiswanderer.sheet import Being, Weapon

__all__ = ["extras", "known_markings", "lasting", "protection", "table"]


@cache
def table() -> dict[str, Any]:
    """The table of effect markings (``data/secondary.json``)."""
    text = resources.files(__package__).joinpath("data/secondary.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def lasting(weapon: Weapon) -> tuple[str, ...]:
    """The lasting effects (catalog kinds) a hit with ``weapon`` sets on its target."""
    found: list[str] = []
    for name, details in table()["lasting"].items():
        for marking in weapon.markings:
            if marking.name == name and marking.detail in details:
                found.append(details[marking.detail]["effect"])
    return tuple(dict.fromkeys(found))


def protection(weapon: Weapon, foe: Being) -> int:
    """The foe's ``schutz`` against the weapon's classes (``waffenklasse`` markings)."""
    classes = {m.detail for m in weapon.markings if m.name == table()["weapon_class"] and m.detail}
    return sum(foe.creature.tag_total(table()["class_protection"], c) for c in sorted(classes))


def extras(weapon: Weapon, foe: Being) -> tuple[tuple[str, int, int], ...]:
    """Each ``zusatzschaden`` of ``weapon``: (damage type, value, damage after resistance)."""
    found = []
    for m in weapon.markings:
        if m.name != table()["extra_damage"]:
            continue
        kind = m.detail if m.detail in rules.DAMAGE_TYPES else weapon.damage_type
        value = m.value or 0
        found.append((kind, value, rules.extra_damage(value, foe.resistance(kind))))
    return tuple(found)


def known_markings() -> dict[str, list[str]]:
    """The marking names and details the rules know (offered while typing a sheet)."""
    known: dict[str, list[str]] = table()["known"]
    return known
