"""A D&D 5e table driven through the system's decide and evolve, with dice as scripted."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.evolve import fold
from spieltisch.systems.dnd5e.state import DndState
from spieltisch.systems.registry import get_system

SYSTEM = get_system("dnd5e")


class Dice:
    """Scripted dice: each roll takes the next value (and checks it fits the die)."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.asked: list[int] = []

    def roll(self, sides: int) -> int:
        self.asked.append(sides)
        assert self.values, f"an unscripted d{sides}"
        value = self.values.pop(0)
        assert 1 <= value <= sides, (value, sides)
        return value


def fresh(**options: Any) -> DndState:
    """An empty table."""
    state: DndState = SYSTEM.new_state(options)
    return state


def command(data: dict[str, Any]) -> Any:
    """The parsed command."""
    return SYSTEM.commands.validate_python(data)


def play(state: DndState, data: dict[str, Any], *dice: int) -> DndState:
    """``state`` after the command; every scripted die must be used."""
    source = Dice(*dice)
    events = decide(state, command(data), source)
    assert source.values == [], f"dice left over: {source.values}"
    return fold(state, events)


def pc(id_: str, position: str, **extra: Any) -> dict[str, Any]:
    """A player character's sheet (AC 15, 20 HP, walk 9 m, a longsword and a bow)."""
    return {
        "kind": "add_character",
        "id": id_,
        "name": id_.title(),
        "ac": 15,
        "hp": 20,
        "abilities": {"str": 14, "dex": 14, "con": 12, "wis": 12},
        "attacks": [
            "Longsword: +5, 7 (1d8+3) slashing",
            "Longbow: +5, 6 (1d8+2) piercing, range 45/180 m",
        ],
        "position": position,
        **extra,
    }


def foe(id_: str, position: str, **extra: Any) -> dict[str, Any]:
    """A typed-in monster (AC 13, 30 HP)."""
    sheet = {
        "id": id_,
        "name": id_.title(),
        "ac": 13,
        "hp": 30,
        "abilities": {"dex": 10},
        "attacks": ["Claw: +4, 5 (1d6+2) slashing"],
        **extra,
    }
    return {"kind": "add_monster", "id": id_, "sheet": sheet, "position": position}


def start(state: DndState, *order: str) -> DndState:
    """Start the fight with initiative rolls making ``order`` (all have Dex 14 or 10)."""
    rolls = {who: 20 - 3 * i for i, who in enumerate(order)}
    return play(state, {"kind": "start_combat", "rolls": rolls})


def end_turn(state: DndState) -> DndState:
    """The current creature ends its turn."""
    return play(state, {"kind": "end_turn"})


def spider_bite_odds(saved: Fraction) -> dict[int, Fraction]:
    """The giant spider's bite against AC 15 by brute force: every attack d20 (+5), 1d8+3
    piercing and 2d8 poison (both doubled on a 20), the poison halved with the chance ``saved``
    of the target's save. Each throw is counted in units of 1/(20 · 8⁶), once with the whole
    poison and once with half of it; the counts become fractions once."""
    whole: Counter[int] = Counter()
    halved: Counter[int] = Counter()
    for d20 in range(1, 21):
        if d20 == 1 or (d20 < 20 and d20 + 5 < 15):
            whole[0] += 8**6
            halved[0] += 8**6
            continue
        n = 2 if d20 == 20 else 1
        w = 8 ** (6 - 3 * n)
        for pierce in itertools.product(range(1, 9), repeat=n):
            for poison in itertools.product(range(1, 9), repeat=2 * n):
                whole[sum(pierce) + 3 + sum(poison)] += w
                halved[sum(pierce) + 3 + sum(poison) // 2] += w
    unit = Fraction(1, 20 * 8**6)
    return {
        key: unit * (whole[key] * (1 - saved) + halved[key] * saved)
        for key in whole.keys() | halved.keys()
    }
