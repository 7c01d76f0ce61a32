"""The stat lines a GM types for a monster's attacks, parsed with the toolkit's parser.

``Scimitar: +4, 5 (1d6+2) slashing`` — a name, a colon, the attack bonus, then the damage as
the average with the dice in brackets (or the dice alone) and the damage type; more damage
may follow with ``plus`` (``plus 7 (2d6) poison``), and an optional ``, reach 3 m`` or
``, range 24/96 m``. A damage the target may save against names the save after it:
``plus 9 (2d8) poison (DC 11 Con save for half)`` (without ``for half`` a save avoids it). A
fixed damage is a number alone (``1 piercing``). The average, when given, must be the dice's
average rounded down.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer
from pydantic import BaseModel, ConfigDict

from spieltisch.engine.statblock import StatParser, fail, make_parser
from spieltisch.systems.dnd5e.odds import DamageDice

__all__ = ["DAMAGE_TYPES", "AttackLine", "DamagePart", "parse_attack"]

DAMAGE_TYPES = (
    "acid",
    "bludgeoning",
    "cold",
    "fire",
    "force",
    "lightning",
    "necrotic",
    "piercing",
    "poison",
    "psychic",
    "radiant",
    "slashing",
    "thunder",
)
MAX_DICE = 40
MAX_SIDES = 100
MAX_BONUS = 30

_GRAMMAR = (
    r"""
start: name ":" BONUS "," damage ("plus" damage)* option*
name: WORD+
damage: (NUMBER "(" dice ")" | dice) TYPE save?
      | NUMBER TYPE -> flat
save: "(" "DC" NUMBER ABILITY "save" half? ")"
half: "for" "half"
ABILITY: /(str|dex|con|int|wis|cha)\b/i
dice: NUMBER "d" NUMBER (SIGN NUMBER)?
option: "," "reach" METRES "m"          -> reach
      | "," "range" METRES "/" METRES "m" -> range
BONUS: /[+-][0-9]{1,2}/
SIGN: "+" | "-"
NUMBER: /[0-9]{1,3}/
METRES: /[0-9]{1,3}(\.[0-9])?/
WORD: /(?!plus\b)[A-Za-zÄÖÜäöüß][A-Za-zÄÖÜäöüß'-]*/
%ignore " "
"""
    + f"TYPE: /({'|'.join(DAMAGE_TYPES)})\\b/\n"
)


class DamagePart(BaseModel):
    """One damage of an attack: dice and type."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    count: int
    sides: int
    modifier: int = 0
    type: str
    save_dc: int | None = None
    """A saving throw against this damage (the target rolls it on a hit): its DC."""
    save_ability: str | None = None
    save_half: bool = False
    """A successful save halves the damage (rounded down); else it avoids it."""

    @property
    def dice(self) -> DamageDice:
        """The dice of this part."""
        return DamageDice(self.count, self.sides, self.modifier)


class AttackLine(BaseModel):
    """A parsed attack."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    bonus: int
    damage: tuple[DamagePart, ...]
    reach_m: str = "1.5"
    range_m: tuple[str, str] | None = None


class _Attack(Transformer[Token, Any]):
    def start(self, items: list[Any]) -> AttackLine:
        name, bonus, *rest = items
        if abs(int(bonus)) > MAX_BONUS:
            raise fail("dnd5e.statblock.bonus", bonus, max=MAX_BONUS)
        damage = tuple(p for p in rest if isinstance(p, DamagePart))
        reach = next(
            (v for k, v in (o for o in rest if isinstance(o, tuple)) if k == "reach"), None
        )
        ranged = next(
            (v for k, v in (o for o in rest if isinstance(o, tuple)) if k == "range"), None
        )
        return AttackLine(
            name=name,
            bonus=int(bonus),
            damage=damage,
            reach_m=reach or "1.5",
            range_m=ranged,
        )

    def name(self, words: list[Token]) -> str:
        return " ".join(str(w) for w in words)

    def dice(self, items: list[Token]) -> tuple[DamageDice, Token]:
        count, sides = items[0], items[1]
        if not 1 <= int(count) <= MAX_DICE:
            raise fail("dnd5e.statblock.dice_count", count, max=MAX_DICE)
        if not 2 <= int(sides) <= MAX_SIDES:
            raise fail("dnd5e.statblock.dice_sides", sides, max=MAX_SIDES)
        modifier = 0
        if len(items) == 4:
            modifier = int(items[3]) * (-1 if str(items[2]) == "-" else 1)
        return DamageDice(int(count), int(sides), modifier), count

    def damage(self, items: list[Any]) -> DamagePart:
        save: dict[str, Any] = {}
        if isinstance(items[-1], dict):
            save = items.pop()
        if len(items) == 3:
            average, (dice, _), kind = items
            if int(average) != max(dice.average, 1):
                raise fail("dnd5e.statblock.average", average, average=max(dice.average, 1))
        else:
            (dice, _), kind = items
        return DamagePart(
            count=dice.count, sides=dice.sides, modifier=dice.modifier, type=str(kind), **save
        )

    def save(self, items: list[Any]) -> dict[str, Any]:
        dc, ability, *half = items
        if not 1 <= int(dc) <= 40:
            raise fail("dnd5e.statblock.save_dc", dc, max=40)
        return {"save_dc": int(dc), "save_ability": str(ability).lower(), "save_half": bool(half)}

    def half(self, _: list[Token]) -> bool:
        return True

    def flat(self, items: list[Token]) -> DamagePart:
        amount, kind = items
        return DamagePart(count=0, sides=1, modifier=int(amount), type=str(kind))

    def reach(self, items: list[Token]) -> tuple[str, str]:
        return ("reach", str(items[0]))

    def range(self, items: list[Token]) -> tuple[str, tuple[str, str]]:
        return ("range", (str(items[0]), str(items[1])))


PARSER: StatParser[AttackLine] = make_parser(
    _GRAMMAR,
    _Attack,
    names={
        "BONUS": "+N",
        "NUMBER": "0-999",
        "TYPE": "damage type",
        "WORD": "name",
        "ABILITY": "Str/Dex/Con/Int/Wis/Cha",
    },
)


def parse_attack(text: str) -> AttackLine:
    """The attack a stat line describes; :class:`StatLineError` with a position otherwise."""
    return PARSER.parse(text)
