"""The game's data: the SRD conditions as an effect catalog and the bestiary.

Both files under ``data/`` carry the SRD 5.1 attribution (CC-BY-4.0).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from spieltisch.engine.effects import Catalog, load_catalog

__all__ = ["CONDITIONS", "bestiary", "catalog", "condition_tags", "monster"]


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
