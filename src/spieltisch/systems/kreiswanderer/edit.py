"""Editing a sheet: a being's sheet as it stands, and what an edit changes, old → new.

:func:`sheet_of` turns a being back into the :class:`~.commands.BeingSheet` that would create
it now (maxima of the tracks, resistances out of the markings), so an edit form starts from
it and :func:`changes` compares two sheets entry by entry: a scalar field by its name
(``hp``), a mapping or a named list per key (``attributes.agilitaet``, ``weapons.Schwert``),
the others (``begabungen``) whole.
"""

from __future__ import annotations

from typing import Any

from spieltisch.systems.kreiswanderer.commands import BeingSheet
from spieltisch.systems.kreiswanderer.events import SheetChange
from spieltisch.systems.kreiswanderer.sheet import Being, Marking

__all__ = ["changes", "sheet_of"]

_KEYED = ("attributes", "skills", "resistances", "sonderfertigkeiten", "haltungen")
_NAMED = ("weapons",)


def sheet_of(being: Being) -> BeingSheet:
    """The sheet that creates ``being`` as it stands (track maxima, not current values)."""
    creature = being.creature
    resistances: dict[str, int] = {}
    markings: list[Marking] = []
    for tag in creature.tags:
        if tag.name == "resistance" and tag.detail in ("PH", "BR", "EN", "TR"):
            resistances[tag.detail] = resistances.get(tag.detail, 0) + (tag.value or 0)
        else:
            markings.append(Marking(name=tag.name, value=tag.value, detail=tag.detail))
    return BeingSheet.model_validate(
        {
            "name": creature.name,
            "side": creature.side,
            "attributes": {k: int(v) for k, v in creature.stats.items()},
            "skills": being.skills,
            "hp": creature.tracks["tp"].maximum,
            "mp": creature.tracks["mp"].maximum,
            "resistances": resistances,
            "markings": tuple(markings),
            "weapons": being.weapons,
            "sonderfertigkeiten": being.sonderfertigkeiten,
            "begabungen": being.begabungen,
            "haltungen": being.haltungen,
            "magic_cost": being.magic_cost,
            "ap": being.ap,
            "species": being.species,
            "native_language": being.native_language,
        }
    )


def _entries(field: str, value: Any) -> dict[str, Any]:
    if field in _KEYED:
        return {f"{field}.{key}": item for key, item in value.items()}
    if field in _NAMED:
        return {f"{field}.{item['name']}": item for item in value}
    return {field: value}


def changes(old: BeingSheet, new: BeingSheet) -> tuple[SheetChange, ...]:
    """Every entry ``new`` changes, adds (old ``None``) or removes (new ``None``), in order."""
    before, after = old.model_dump(mode="json"), new.model_dump(mode="json")
    found: list[SheetChange] = []
    for field in BeingSheet.model_fields:
        was, now = _entries(field, before.get(field)), _entries(field, after.get(field))
        for key in [*was, *(k for k in now if k not in was)]:
            if was.get(key) != now.get(key):
                found.append(SheetChange(field=key, old=was.get(key), new=now.get(key)))
    return tuple(found)
