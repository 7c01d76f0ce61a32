"""Helpers of the Kreiswanderer tests: scripted dice and two sample sheets."""

from __future__ import annotations

from typing import Any

from spieltisch.dice.fair import DiceSource

ATTRS = {
    "staerke": 3,
    "konstitution": 3,
    "agilitaet": 2,
    "geschick": 3,
    "intelligenz": 2,
    "wahrnehmung": 2,
    "willenskraft": 2,
    "charisma": 1,
}


class Scripted:
    """A dice source that hands out the given values in order (then fails)."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)
        self.used: list[int] = []

    def roll(self, sides: int) -> int:
        """The next scripted value."""
        value = self.values.pop(0)
        assert 1 <= value <= sides
        self.used.append(value)
        return value


def source_at(values: list[int]) -> Any:
    """A ``source_at`` for :meth:`Table.execute` drawing from one scripted list."""
    shared = Scripted(values)

    def at(index: int) -> DiceSource:
        return shared

    return at


def hero(being_id: str = "ada", **changes: Any) -> dict[str, Any]:
    """Ada: sword (Schwerter, depth 2, value 4), Akrobatik 3, a torch-fire weapon."""
    sheet: dict[str, Any] = {
        "name": "Ada",
        "side": "party",
        "attributes": dict(ATTRS),
        "skills": {
            "schwerter": {"depth": 2, "value": 4},
            "akrobatik": {"depth": 1, "value": 3},
            "schmieden": {"depth": 3, "value": 2},
            "klettern": {"depth": 1, "value": 0},
            "reiten": {"depth": 2, "value": 0},
        },
        "hp": 20,
        "mp": 2,
        "resistances": {"PH": 1},
        "weapons": [
            {
                "name": "Schwert",
                "skill": "schwerter",
                "attribute": "geschick",
                "damage_bonus": 2,
                "fuehrungsschwelle": 1,
            },
            {
                "name": "Fackel",
                "skill": "schwerter",
                "damage_type": "BR",
                "markings": [{"name": "langzeiteffekt", "detail": "feuer"}],
            },
        ],
        "sonderfertigkeiten": {"klingenfluss": {"bonus": 2, "skills": ["schwerter"]}},
        "begabungen": ["lichtfunke"],
        "haltungen": {"sturm": {"modifiers": {"schwerter": 2, "dodge": -2}}},
    }
    sheet.update(changes)
    return {"kind": "create_being", "id": being_id, "sheet": sheet}


def goblin(being_id: str = "gob") -> dict[str, Any]:
    """A goblin: knife, PH resistance 2, defensive marking 1, BR resistance 1."""
    return {
        "kind": "create_being",
        "id": being_id,
        "sheet": {
            "name": "Goblin",
            "side": "foes",
            "attributes": {**ATTRS, "agilitaet": 1},
            "skills": {"messer": {"depth": 1, "value": 2}},
            "hp": 12,
            "resistances": {"PH": 2, "BR": 1},
            "markings": [{"name": "defensive", "value": 1}],
            "weapons": [{"name": "Messer", "skill": "messer", "damage_bonus": 1}],
        },
    }


SEED_RULES = {"edition": 2}
"""The options of a table made since the fixes of issue 24 (the store writes them)."""


def table_of(*commands: dict[str, Any], options: dict[str, Any] | None = None) -> Any:
    """A table of the current edition (or ``options``) where the GM issued ``commands``."""
    from spieltisch.engine.table import Table
    from spieltisch.engine.visibility import Actor, Role
    from spieltisch.systems.kreiswanderer import Kreiswanderer

    table = Table(Kreiswanderer(), SEED_RULES if options is None else options)
    for command in commands:
        table.execute(command, Actor(id="gm", role=Role.GM), source_at([]))
    return table
