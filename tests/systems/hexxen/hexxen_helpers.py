"""Helpers for the HeXXen tests: loaded dice, a hunter and an NSC."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from spieltisch.dice.fair import DiceSource


class LoadedDice:
    """A dice source that yields the given d6 values in order (to hand-compute outcomes)."""

    def __init__(self, values: Iterable[int]) -> None:
        self.values = list(values)
        self.used = 0

    def roll(self, sides: int) -> int:
        assert sides == 6
        assert self.used < len(self.values), "the test supplied too few dice"
        value = self.values[self.used]
        self.used += 1
        return value


class Script:
    """All dice of a session in order; the table positions it at each command's first draw."""

    def __init__(self, values: list[int]) -> None:
        self.values = values

    def source_at(self, index: int) -> DiceSource:
        return LoadedDice(self.values[index:])


ADA: dict[str, Any] = {
    "kind": "create_hunter",
    "id": "ada",
    "name": "Ada",
    "attributes": {"KKR": 3, "ATH": 2, "GES": 3, "SIN": 2, "WIS": 1, "WIL": 2},
    "skills": {"Parieren": 2, "Geistesstärke": 3, "Nahkampf": 3},
    "armour": 1,
    "ideen": 2,
    "coups": 1,
}
"""LeP 7 + 3 + 2 = 12, INI 2 + 3 = 5."""

WOLF_BLOCK = "\n".join(
    [
        "INI 7",
        "LeP 20",
        "Hex 2 pro Jz",
        "Handlungen 2",
        "(N) Klauenhieb Angriff 4, Schaden 3",
        "Terrorwelle (N|F: 3 gegen Geistesstärke, 1 Malusstufe pro Differenzerfolg [Furcht],"
        " 1 Hex pro Ziel (Gruppe))",
        "Widernatürlich",
        "Eigenschaften: Rudeltier",
    ]
)

WOLF: dict[str, Any] = {
    "kind": "create_npc",
    "id": "wolf",
    "name": "Werwolf",
    "npc_kind": "anfuehrer",
    "level": 2,
    "statblock": WOLF_BLOCK,
}
