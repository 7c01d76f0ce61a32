"""Legendary actions, legendary resistance and lair actions (SRD 5.1): the pure rules and
what the table keeps of them.

A legendary monster may take a number of legendary actions per round (every SRD 5.1 monster
with legendary actions: three), one at a time and only at the end of another creature's
turn; each costs one to three of them, and all come back at the start of the monster's own
turn. Legendary resistance lets it turn a failed saving throw into a success a number of
times a day. A monster in its lair may take one lair action per round on initiative count 20,
losing initiative ties (a creature with initiative 20 acts first).

The numbers come from the bestiary entry (``legendary_per_round``, ``legendary_resistance``,
``legendary_actions`` with their cost and, where they make an attack or force a save, the
name of that stat line); see ``scripts/srd_import.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from spieltisch.systems.dnd5e.data import monster

__all__ = [
    "LAIR_COUNT",
    "LegendaryAction",
    "LegendaryTrack",
    "actions_of",
    "affordable",
    "lair_count_passed",
    "per_round",
    "resistances_per_day",
]

LAIR_COUNT = Decimal(20)
"""The initiative count of lair actions (ties lost)."""


@dataclass(frozen=True)
class LegendaryAction:
    """One legendary action of a stat block: its cost and what it resolves as (an attack
    line, a save line, or neither: the GM narrates its text)."""

    name: str
    cost: int
    text: str
    attack: str | None = None
    save: str | None = None


def _entry(monster_id: str | None) -> dict[str, Any]:
    found = monster(monster_id) if monster_id else None
    return found or {}


def actions_of(monster_id: str | None) -> tuple[LegendaryAction, ...]:
    """The legendary actions of a bestiary monster (none for others)."""
    return tuple(
        LegendaryAction(
            name=str(item["name"]),
            cost=int(item.get("cost", 1)),
            text=str(item.get("text", "")),
            attack=item.get("attack"),
            save=item.get("save"),
        )
        for item in _entry(monster_id).get("legendary_actions", ())
    )


def per_round(monster_id: str | None) -> int:
    """Legendary actions per round (0: not a legendary monster)."""
    return int(_entry(monster_id).get("legendary_per_round", 0))


def resistances_per_day(monster_id: str | None) -> int:
    """Legendary resistances per day (0: none)."""
    return int(_entry(monster_id).get("legendary_resistance", 0))


def affordable(monster_id: str | None, spent: int) -> tuple[LegendaryAction, ...]:
    """The legendary actions still affordable with ``spent`` of the round's used."""
    left = per_round(monster_id) - spent
    return tuple(a for a in actions_of(monster_id) if a.cost <= left)


def lair_count_passed(before: Decimal | None, after: Decimal, new_round: bool) -> bool:
    """Whether initiative count 20 passed between two turns, ties lost: the turn of a
    creature with initiative ``before`` ended (None: the fight starts) and that of one with
    ``after`` begins, ``new_round`` when a round began in between.

    Within a round it passes when ``before`` is 20 or more and ``after`` below 20. Across a
    round's start it passes when the old round's last creature had 20 or more (its count came
    after everybody, at the end of the round) or the new round's first has less than 20 (its
    count comes before everybody).
    """
    if before is None or new_round:
        return (before is not None and before >= LAIR_COUNT) or after < LAIR_COUNT
    return before >= LAIR_COUNT > after


class LegendaryTrack(BaseModel):
    """What the table keeps of legendary and lair actions."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    spent: dict[str, int] = Field(default_factory=dict)
    """Legendary actions each monster used since the start of its last turn."""
    resisted: dict[str, int] = Field(default_factory=dict)
    """Legendary resistances each monster used (kept as long as the table lives: it knows no
    days)."""
    window: str | None = None
    """The creature whose turn is ending while the GM may still take legendary actions."""
    lairs: tuple[str, ...] = ()
    """Monsters in their lair (the GM's flag)."""
    lair_due: bool = False
    """Initiative count 20 has come this round and no lair action was taken yet."""
