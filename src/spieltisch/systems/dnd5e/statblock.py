"""The stat lines of a creature's attacks and saving-throw actions, parsed with the toolkit's
parser, in English or German.

An attack: a name, a colon, the attack bonus, then the damage as the average with the dice in
brackets (or the dice alone) and the damage type; more damage may follow with ``plus``; then
optional clauses: ``reach 3 m``, ``range 24/96 m`` (both for a thrown weapon), conditions the
hit imposes (``grappled``) and ``recharge 5``. A save the hit forces follows a semicolon::

    Scimitar: +4, 5 (1d6+2) slashing
    Bite: +5, 7 (1d8+3) piercing, reach 1.5 m; DC 11 con, 9 (2d8) poison, half
    Bite: +4, 7 (2d4+2) piercing; DC 11 str, prone
    Web: +5, range 9/18 m, restrained

An action with a saving throw starts with its DC and ability instead of a bonus; ``half``
means half damage on a successful save (else none), conditions are imposed on a failed one,
and an area may be given (``cone 18 m``, ``line 27 m, width 3 m``, ``sphere 6 m``, ``cube 3 m``,
``cylinder 6 m``)::

    Fire Breath: DC 21 dex, 63 (18d6) fire, half, cone 18 m, recharge 5

German is read as well: ``W`` for the die (``1W8+3``), German damage types (``Hieb``,
``Stich``, ``Wucht``, ``Feuer`` …), ``SG`` for DC, the German ability abbreviations (``Stä``,
``Ges``, ``Kon``, ``Int``, ``Wei``, ``Cha``), ``halb``, ``Reichweite`` (``Reichweite 1,5 m``
for reach, ``Reichweite 24/96 m`` for range), the German condition names, ``Kegel``,
``Würfel``, ``Zylinder``, ``Linie``, ``Kugel``, ``Breite`` and ``Aufladung``; a decimal comma
as well as a point. What is read is kept in English (``Hieb`` → ``slashing``).

A fixed damage is a number alone (``1 piercing``). The average, when given, must be the dice's
average rounded down (at least 1).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from lark import Token, Transformer
from pydantic import BaseModel, ConfigDict

from spieltisch.engine.statblock import StatLineError, StatParser, fail, make_parser
from spieltisch.systems.dnd5e.odds import DamageDice

__all__ = [
    "ABILITIES",
    "ABILITIES_DE",
    "CONDITIONS_DE",
    "DAMAGE_TYPES",
    "DAMAGE_TYPES_DE",
    "SHAPES",
    "SHAPES_DE",
    "ActionLine",
    "Area",
    "AttackLine",
    "DamagePart",
    "SaveEffect",
    "SaveLine",
    "format_action",
    "parse_action",
    "parse_attack",
    "parse_save",
]

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
DAMAGE_TYPES_DE = {
    "acid": "Säure",
    "bludgeoning": "Wucht",
    "cold": "Kälte",
    "fire": "Feuer",
    "force": "Energie",
    "lightning": "Blitz",
    "necrotic": "nekrotisch",
    "piercing": "Stich",
    "poison": "Gift",
    "psychic": "psychisch",
    "radiant": "gleißend",
    "slashing": "Hieb",
    "thunder": "Schall",
}
"""The German names of the damage types (the metric German edition's)."""

ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
ABILITIES_DE = {"str": "Stä", "dex": "Ges", "con": "Kon", "int": "Int", "wis": "Wei", "cha": "Cha"}

CONDITIONS_DE = {
    "blinded": "blind",
    "charmed": "bezaubert",
    "deafened": "taub",
    "exhaustion": "erschöpft",
    "frightened": "verängstigt",
    "grappled": "gepackt",
    "incapacitated": "kampfunfähig",
    "invisible": "unsichtbar",
    "paralyzed": "gelähmt",
    "petrified": "versteinert",
    "poisoned": "vergiftet",
    "prone": "liegend",
    "restrained": "festgesetzt",
    "stunned": "betäubt",
    "unconscious": "bewusstlos",
}
"""The SRD conditions in German."""

SHAPES = ("cone", "cube", "cylinder", "line", "sphere")
SHAPES_DE = {
    "cone": "Kegel",
    "cube": "Würfel",
    "cylinder": "Zylinder",
    "line": "Linie",
    "sphere": "Kugel",
}

MAX_DICE = 40
MAX_SIDES = 100
MAX_BONUS = 30
MAX_DC = 40


def _alternatives(words: list[str]) -> str:
    return "|".join(sorted(set(words), key=lambda w: (-len(w), w)))


_TYPE_WORDS = {w.lower(): k for k, w in DAMAGE_TYPES_DE.items()} | {k: k for k in DAMAGE_TYPES}
_ABILITY_WORDS = {w.lower(): k for k, w in ABILITIES_DE.items()} | {k: k for k in ABILITIES}
_CONDITION_WORDS = {w.lower(): k for k, w in CONDITIONS_DE.items()} | {k: k for k in CONDITIONS_DE}
_SHAPE_WORDS = {w.lower(): k for k, w in SHAPES_DE.items()} | {k: k for k in SHAPES}

_GRAMMAR = (
    r"""
start: NAME ":" head ("," clause)* rider?
head: BONUS                -> attack_head
    | DCWORD NUMBER ABILITY -> save_head
rider: ";" DCWORD NUMBER ABILITY ("," clause)*
clause: damage (PLUS damage)*            -> damages
      | HALF                             -> half
      | CONDITION                        -> condition
      | DIST METRES ("/" METRES)? UNIT   -> distance
      | SHAPE METRES UNIT                -> area
      | WIDTH METRES UNIT                -> width
      | RECHARGE NUMBER ("-" NUMBER)?    -> recharge
damage: (NUMBER "(" dice ")" | dice) TYPE
      | NUMBER TYPE -> flat
dice: NUMBER DIE NUMBER (SIGN NUMBER)?
NAME: /[^\W\d_][^:;,\n]*?(?=\s*:)/
BONUS: /[+-][0-9]{1,2}/
DCWORD: /\b(DC|SG)\b/
SIGN: "+" | "-"
DIE: "d" | "W" | "w"
PLUS: /plus\b/i
NUMBER: /[0-9]{1,3}/
METRES: /[0-9]{1,3}([.,][0-9]{1,2})?/
UNIT: /m\b/
HALF: /(half|halb)\b/i
DIST: /(reach|range|Reichweite)\b/i
WIDTH: /(width|Breite)\b/i
RECHARGE: /(recharge|Aufladung)\b/i
%ignore " "
"""
    + f"TYPE: /({_alternatives(list(_TYPE_WORDS))})\\b/i\n"
    + f"ABILITY: /({_alternatives(list(_ABILITY_WORDS))})\\b/i\n"
    + f"CONDITION: /({_alternatives(list(_CONDITION_WORDS))})\\b/i\n"
    + f"SHAPE: /({_alternatives(list(_SHAPE_WORDS))})\\b/i\n"
)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DamagePart(_Frozen):
    """One damage of an attack: dice and type."""

    count: int
    sides: int
    modifier: int = 0
    type: str

    @property
    def dice(self) -> DamageDice:
        """The dice of this part."""
        return DamageDice(self.count, self.sides, self.modifier)


class SaveEffect(_Frozen):
    """A saving throw and what a failed one brings: damage (``half`` of it on a success, else
    none) and conditions."""

    dc: int
    ability: str
    damage: tuple[DamagePart, ...] = ()
    half: bool = False
    conditions: tuple[str, ...] = ()


class Area(_Frozen):
    """An area of effect: a shape and its size in metres (radius of a sphere or cylinder,
    side of a cube, length of a cone or line); a line's width (default 1.5 m)."""

    shape: Literal["cone", "cube", "cylinder", "line", "sphere"]
    size_m: str
    width_m: str | None = None


class AttackLine(_Frozen):
    """A parsed attack: an attack roll, damage on a hit, conditions on a hit and a save the
    hit forces (``rider``)."""

    name: str
    bonus: int
    damage: tuple[DamagePart, ...]
    reach_m: str = "1.5"
    range_m: tuple[str, str] | None = None
    melee: bool = True
    """A melee attack (a thrown weapon has a reach and a range; a ranged one only a range)."""
    conditions: tuple[str, ...] = ()
    rider: SaveEffect | None = None
    recharge: int | None = None


class SaveLine(_Frozen):
    """A parsed action with a saving throw (a breath, a gaze, a frightful presence)."""

    name: str
    save: SaveEffect
    area: Area | None = None
    recharge: int | None = None


ActionLine = AttackLine | SaveLine

_ALLOWED = {
    "attack": {"damages", "condition", "reach", "range", "recharge"},
    "save": {"damages", "half", "condition", "area", "width", "recharge"},
    "rider": {"damages", "half", "condition"},
}


def _metres(token: Token) -> str:
    return str(token).replace(",", ".")


class _Lines(Transformer[Token, Any]):
    def start(self, items: list[Any]) -> ActionLine:
        name_token, (kind, head), *rest = items
        name = str(name_token).strip()
        rider: SaveEffect | None = None
        rider_token: Token | None = None
        if rest and rest[-1][0] == "rider":
            _, rider, rider_token = rest.pop()
        clauses: list[tuple[str, Any, Token]] = rest
        seen: set[str] = set()
        for clause, _, token in clauses:
            if clause not in _ALLOWED[kind] or (clause != "condition" and clause in seen):
                raise fail("dnd5e.statblock.clause", token)
            seen.add(clause)
        values = {c: v for c, v, _ in clauses if c != "condition"}
        conditions = tuple(dict.fromkeys(v for c, v, _ in clauses if c == "condition"))
        recharge = values.get("recharge")
        if kind == "attack":
            if abs(int(head)) > MAX_BONUS:
                raise fail("dnd5e.statblock.bonus", head, max=MAX_BONUS)
            reach = values.get("reach")
            ranged = values.get("range")
            return AttackLine(
                name=name,
                bonus=int(head),
                damage=values.get("damages", ()),
                reach_m=reach or "1.5",
                range_m=ranged,
                melee=reach is not None or ranged is None,
                conditions=conditions,
                rider=rider,
                recharge=recharge,
            )
        if rider is not None:
            raise fail("dnd5e.statblock.clause", rider_token)
        if "width" in values and values.get("area", ("", ""))[0] != "line":
            width_token = next(t for c, _, t in clauses if c == "width")
            raise fail("dnd5e.statblock.clause", width_token)
        area = values.get("area")
        return SaveLine(
            name=name,
            save=SaveEffect(
                dc=head[0],
                ability=head[1],
                damage=values.get("damages", ()),
                half=bool(values.get("half")),
                conditions=conditions,
            ),
            area=None
            if area is None
            else Area(shape=area[0], size_m=area[1], width_m=values.get("width")),
            recharge=recharge,
        )

    def attack_head(self, items: list[Token]) -> tuple[str, Token]:
        return ("attack", items[0])

    def _save(self, items: list[Token]) -> tuple[int, str]:
        _, dc, ability = items
        if not 1 <= int(dc) <= MAX_DC:
            raise fail("dnd5e.statblock.dc", dc, max=MAX_DC)
        return int(dc), _ABILITY_WORDS[str(ability).lower()]

    def save_head(self, items: list[Token]) -> tuple[str, tuple[int, str]]:
        return ("save", self._save(items))

    def rider(self, items: list[Any]) -> tuple[str, SaveEffect, Token]:
        dc, ability = self._save(items[:3])
        clauses: list[tuple[str, Any, Token]] = items[3:]
        seen: set[str] = set()
        for clause, _, token in clauses:
            if clause not in _ALLOWED["rider"] or (clause != "condition" and clause in seen):
                raise fail("dnd5e.statblock.clause", token)
            seen.add(clause)
        values = {c: v for c, v, _ in clauses if c != "condition"}
        effect = SaveEffect(
            dc=dc,
            ability=ability,
            damage=values.get("damages", ()),
            half=bool(values.get("half")),
            conditions=tuple(dict.fromkeys(v for c, v, _ in clauses if c == "condition")),
        )
        return ("rider", effect, items[0])

    def damages(self, items: list[Any]) -> tuple[str, tuple[DamagePart, ...], Token]:
        parts = [p for p in items if isinstance(p, tuple)]
        return ("damages", tuple(p for p, _ in parts), parts[0][1])

    def half(self, items: list[Token]) -> tuple[str, bool, Token]:
        return ("half", True, items[0])

    def condition(self, items: list[Token]) -> tuple[str, str, Token]:
        return ("condition", _CONDITION_WORDS[str(items[0]).lower()], items[0])

    def distance(self, items: list[Token]) -> tuple[str, Any, Token]:
        word, first, *more = items
        if more and more[0].type == "METRES":
            return ("range", (_metres(first), _metres(more[0])), word)
        if str(word).lower() == "range":
            return ("range", (_metres(first), _metres(first)), word)
        return ("reach", _metres(first), word)

    def area(self, items: list[Token]) -> tuple[str, tuple[str, str], Token]:
        return ("area", (_SHAPE_WORDS[str(items[0]).lower()], _metres(items[1])), items[0])

    def width(self, items: list[Token]) -> tuple[str, str, Token]:
        return ("width", _metres(items[1]), items[0])

    def recharge(self, items: list[Token]) -> tuple[str, int, Token]:
        low = items[1]
        if not 2 <= int(low) <= 6 or (len(items) > 2 and int(items[2]) != 6):
            raise fail("dnd5e.statblock.recharge", low)
        return ("recharge", int(low), items[0])

    def dice(self, items: list[Token]) -> tuple[DamageDice, Token]:
        count, _, sides = items[0], items[1], items[2]
        if not 1 <= int(count) <= MAX_DICE:
            raise fail("dnd5e.statblock.dice_count", count, max=MAX_DICE)
        if not 2 <= int(sides) <= MAX_SIDES:
            raise fail("dnd5e.statblock.dice_sides", sides, max=MAX_SIDES)
        modifier = 0
        if len(items) == 5:
            modifier = int(items[4]) * (-1 if str(items[3]) == "-" else 1)
        return DamageDice(int(count), int(sides), modifier), count

    def damage(self, items: list[Any]) -> tuple[DamagePart, Token]:
        if len(items) == 3:
            average, (dice, _), kind = items
            if int(average) != max(dice.average, 1):
                raise fail("dnd5e.statblock.average", average, average=max(dice.average, 1))
            first = average
        else:
            (dice, first), kind = items
        part = DamagePart(
            count=dice.count,
            sides=dice.sides,
            modifier=dice.modifier,
            type=_TYPE_WORDS[str(kind).lower()],
        )
        return part, first

    def flat(self, items: list[Token]) -> tuple[DamagePart, Token]:
        amount, kind = items
        part = DamagePart(count=0, sides=1, modifier=int(amount), type=_TYPE_WORDS[kind.lower()])
        return part, amount


@cache
def parser() -> StatParser[ActionLine]:
    """The compiled stat-line parser (built on first use, once)."""
    return make_parser(
        _GRAMMAR,
        _Lines,
        names={
            "BONUS": "+N",
            "NUMBER": "0-999",
            "METRES": "metres",
            "TYPE": "damage type",
            "NAME": "name",
            "ABILITY": "ability",
            "CONDITION": "condition",
            "SHAPE": "area",
            "DCWORD": "DC",
            "DIE": "d",
            "UNIT": "m",
            "HALF": "half",
            "DIST": "reach | range",
            "WIDTH": "width",
            "RECHARGE": "recharge",
            "PLUS": "plus",
        },
    )


def parse_action(text: str) -> ActionLine:
    """The attack or saving-throw action a stat line describes; :class:`StatLineError` with a
    position otherwise."""
    return parser().parse(text)


def parse_attack(text: str) -> AttackLine:
    """The attack a stat line describes (a save line is refused at its DC)."""
    line = parser().parse(text)
    if not isinstance(line, AttackLine):
        at = text.find(":") + 1
        at += len(text[at:]) - len(text[at:].lstrip())

        raise StatLineError(
            "dnd5e.statblock.not_attack", value=text, position=at, found=text[at : at + 2]
        )
    return line


def parse_save(text: str) -> SaveLine:
    """The saving-throw action a stat line describes (an attack line is refused)."""
    line = parser().parse(text)
    if not isinstance(line, SaveLine):
        at = text.find(":") + 1
        at += len(text[at:]) - len(text[at:].lstrip())

        raise StatLineError(
            "dnd5e.statblock.not_save", value=text, position=at, found=text[at : at + 2]
        )
    return line


def _number(metres: str, lang: str) -> str:
    return metres.replace(".", ",") if lang == "de" else metres


def _part(part: DamagePart, lang: str) -> str:
    kind = DAMAGE_TYPES_DE[part.type] if lang == "de" else part.type
    if part.count == 0:
        return f"{part.modifier} {kind}"
    dice = str(part.dice).replace("d", "W") if lang == "de" else str(part.dice)
    return f"{max(part.dice.average, 1)} ({dice}) {kind}"


def _condition(name: str, lang: str) -> str:
    return CONDITIONS_DE[name] if lang == "de" else name


def _save_text(save: SaveEffect, lang: str) -> list[str]:
    de = lang == "de"
    ability = ABILITIES_DE[save.ability] if de else save.ability
    out = [f"{'SG' if de else 'DC'} {save.dc} {ability}"]
    if save.damage:
        out.append(" plus ".join(_part(p, lang) for p in save.damage))
    if save.half:
        out.append("halb" if de else "half")
    out.extend(_condition(c, lang) for c in save.conditions)
    return out


def format_action(line: ActionLine, lang: str = "en") -> str:
    """The stat line of a parsed action, in English (as entered) or German (``W`` for the
    die, German damage types, ``SG``, ``Reichweite`` …); parsing it gives ``line`` back."""
    de = lang == "de"
    recharge = (
        (f"Aufladung {line.recharge}-6" if de else f"recharge {line.recharge}")
        if (line.recharge)
        else None
    )
    if isinstance(line, AttackLine):
        clauses = [f"{line.bonus:+d}"]
        if line.damage:
            clauses.append(" plus ".join(_part(p, lang) for p in line.damage))
        word = "Reichweite" if de else "reach"
        if line.melee:
            clauses.append(f"{word} {_number(line.reach_m, lang)} m")
        if line.range_m is not None:
            near, far = (_number(v, lang) for v in line.range_m)
            clauses.append(f"{'Reichweite' if de else 'range'} {near}/{far} m")
        clauses.extend(_condition(c, lang) for c in line.conditions)
        if recharge:
            clauses.append(recharge)
        text = f"{line.name}: " + ", ".join(clauses)
        if line.rider is not None:
            text += "; " + ", ".join(_save_text(line.rider, lang))
        return text
    clauses = _save_text(line.save, lang)
    if line.area is not None:
        shape = SHAPES_DE[line.area.shape] if de else line.area.shape
        clauses.append(f"{shape} {_number(line.area.size_m, lang)} m")
        if line.area.width_m is not None:
            clauses.append(f"{'Breite' if de else 'width'} {_number(line.area.width_m, lang)} m")
    if recharge:
        clauses.append(recharge)
    return f"{line.name}: " + ", ".join(clauses)
