"""The game's data: the SRD conditions as an effect catalog and the bestiary.

Both files under ``data/`` carry the SRD 5.1 attribution (CC-BY-4.0).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from spieltisch.engine.effects import Catalog, load_catalog

__all__ = [
    "CONDITIONS",
    "DAMAGE_TYPE_NAMES",
    "SKILLS",
    "bestiary",
    "catalog",
    "condition_tags",
    "damage_type",
    "monster",
]


@cache
def _load(name: str) -> dict[str, Any]:
    text = resources.files("spieltisch.systems.dnd5e").joinpath("data", name).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


CONDITIONS: tuple[str, ...] = tuple(sorted(_load("conditions.json")["conditions"]))
"""The SRD conditions by id."""


@cache
def catalog() -> Catalog:
    """The conditions and the table's own effects (dodging, help …) as one catalog."""
    data = _load("conditions.json")
    return load_catalog({**data["conditions"], **data["table_effects"]})


def condition_tags(kinds: frozenset[str]) -> frozenset[str]:
    """Every rule tag of the given effect kinds (unknown kinds add nothing)."""
    kinds_known = catalog().kinds
    return frozenset(tag for k in kinds if k in kinds_known for tag in kinds_known[k].tags)


def bestiary() -> dict[str, Any]:
    """The SRD monsters by id."""
    monsters: dict[str, Any] = _load("bestiary.json")["monsters"]
    return monsters


def monster(monster_id: str) -> dict[str, Any] | None:
    """One monster's statistics, or None."""
    return bestiary().get(monster_id)


DAMAGE_TYPE_NAMES: dict[str, dict[str, str]] = {
    key: {"en": key, **names} for key, names in _load("damage_types.json")["damage_types"].items()
}
"""The closed list of damage types by id, with their names per language."""
_BY_NAME = {
    name.casefold(): key for key, names in DAMAGE_TYPE_NAMES.items() for name in names.values()
}


def damage_type(text: str) -> str:
    """The damage type's id for a name in English or German, in any case (``Fire``, ``Feuer``
    → ``fire``); :class:`ValueError` for a name not on the list."""
    found = _BY_NAME.get(text.strip().casefold())
    if found is None:
        raise ValueError(f"unknown damage type {text!r}")
    return found


SKILLS: dict[str, str] = dict(_load("skills.json")["skills"])
"""The SRD skills by id, each with the ability it belongs to."""
