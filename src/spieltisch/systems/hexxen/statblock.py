"""The HeXXen stat lines a GM types or pastes, parsed into NSC data.

One grammar covers a whole Wertekasten, one entry per line:

* attack lines: ``(N) Klauenhieb Angriff 10, Schaden 3`` — range ``N``, ``F`` or ``N|F``, any
  name, the attack dice, the damage; optionally ``, 1 Blutwürfel`` and/or ``, 1 Elixierwürfel``
  (their number adds to the damage) or a die with what its number gives: ``, 1 Blutwürfel
  innerer Schaden [Gift]`` (levels of an ongoing effect, optionally tagged);
* Handlungskraft lines: ``Terrorwelle (N|F: 8 gegen Geistesstärke, 1 Malusstufe pro
  Differenzerfolg [Furcht], 1 Hex pro Ziel (Gruppe))`` — any name, range, the NSC's dice, any
  skill after ``gegen``, an amount and any effect before ``pro Differenzerfolg``, an optional
  ``[tag]``, a Hex cost (``pro Ziel`` optional) and an optional note in parentheses; instead
  of the amount per Differenzerfolg, dice whose number is the effect on each target the NSC
  is ahead of: ``1 Elixierwürfel Malusstufen [Fluch]``;
* value lines: ``Hex 4``, ``LeP 30``, ``INI 6``, ``Handlungen 2``, ``Anführerstufe 3``,
  ``Bandenstufe 2`` (``pro Jz`` after the number multiplies it by the hunters in the fight),
  ``Widernatürlich`` and ``Eigenschaften: Regeneration, Furchtlos`` (an item may carry a
  number and a note: ``Regeneration 2``, ``Giftig (Biss)``).

A line may start with a bullet (``•``, ``-`` or ``*``). Every text either parses or raises
:class:`~spieltisch.engine.statblock.StatLineError` with its position.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from lark import Token, Transformer

from spieltisch.engine.statblock import StatParser, fail, make_parser

__all__ = ["MAX_VALUE", "parse_block", "parse_line", "parser"]

MAX_VALUE = 99
"""Largest number a stat line may give (dice, damage, Hex, LeP …)."""

_GRAMMAR = r"""
start: _NL* entry (_NL+ entry)* _NL*
entry: _BULLET? (attack | power | stat | growth | attributes | pool | flag | properties)

attack: "(" range ")" name "Angriff" NUMBER "," "Schaden" NUMBER extra*
extra: "," NUMBER BLOOD use? -> blood
     | "," NUMBER ELIXIR use? -> elixir
use: words tag?
power: name "(" range ":" NUMBER "gegen" name "," (effect | dice_effect) cost? note? ")"
cost: "," NUMBER HEX per_target?
effect: NUMBER words paren_tag? "pro" "Differenzerfolg" tag?
dice_effect: NUMBER (BLOOD | ELIXIR) words tag?
tag: "[" TEXT "]"
paren_tag: "(" TEXT ")"
per_target: "pro" "Ziel"
note: "(" TEXT ")"
range: RANGE ("|" RANGE)?
stat: stat_key NUMBER per_jz?
stat_key: HEX | LEP | INI | HANDLUNGEN | ANFUEHRER | BANDE
growth: HEX "+" NUMBER per_jz? "pro" "Runde"
attributes: ATTRIBUTE NUMBER ("," ATTRIBUTE NUMBER)*
pool: POOL NUMBER
per_jz: "pro" "Jz"
flag: FLAG
properties: (PROPS | PROP) ":" item ("," item)*
item: words NUMBER? note?

name: WORD+
words: WORD+

RANGE: /N{1,4}|F{1,4}/
HEX: "Hex"
LEP: "LeP"
INI: "INI"
HANDLUNGEN: "Handlungen"
ANFUEHRER: "Anführerstufe"
BANDE: "Bandenstufe"
POOL: "Würfelpool"
ATTRIBUTE.2: /(KKR|ATH|GES|SIN|WIS|WIL|Kkr|Ath|Ges|Sin|Wis|Wil)(?![\w'’.\-])/
FLAG: "Widernatürlich"
PROPS: "Eigenschaften"
PROP: "Eigenschaft"
BLOOD: "Blutwürfel"
ELIXIR: "Elixierwürfel"
WORD: /(?!\d)[\w'’.\-]+/
NUMBER: /\d+/
TEXT: /[^\[\]()\n]+/
_BULLET: "•" | "-" | "*"
_NL: /[ \t]*\r?\n[ \t]*/
%ignore /[ \t]+/
"""

_NAMES = {
    "NUMBER": "0-99",
    "WORD": "word",
    "RANGE": "N | F",
    "TEXT": "text",
    "_NL": "line break",
}

_STATS = {
    "Hex": "hex",
    "LeP": "lep",
    "INI": "ini",
    "Handlungen": "handlungen",
    "Anführerstufe": "leader_level",
    "Bandenstufe": "band_level",
}


def _number(token: Token) -> int:
    value = int(token)
    if value > MAX_VALUE:
        raise fail("hexxen.statblock.too_big", token, number=value, max=MAX_VALUE)
    return value


class _Lines(Transformer[Token, Any]):
    def start(self, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return entries

    def entry(self, children: list[dict[str, Any]]) -> dict[str, Any]:
        return children[0]

    def name(self, words: list[Token]) -> str:
        return " ".join(str(word) for word in words)

    words = name

    def item(self, children: list[Any]) -> str:
        text = str(children[0])
        for child in children[1:]:
            if isinstance(child, tuple):  # the note
                text += f" ({child[1]})"
            else:
                text += f" {_number(child)}"
        return text

    def range(self, tokens: list[Token]) -> tuple[list[str], dict[str, int]]:
        kinds = sorted({str(token)[0] for token in tokens}, key="NF".index)
        if len(kinds) != len(tokens):
            raise fail("hexxen.statblock.twice", tokens[-1], what=str(tokens[-1])[0])
        costs = {str(token)[0]: len(str(token)) for token in tokens if len(str(token)) > 1}
        return kinds, costs

    def use(self, children: list[Any]) -> tuple[str, str | None]:
        words, *tags = children
        return words, tags[0][1] if tags else None

    def _die(self, die: str, children: list[Any]) -> tuple[str, Any]:
        count = _number(children[0])
        if len(children) < 3:  # a bare die: its number adds to the damage
            return (die, count)
        effect, tag = children[2]
        return ("dice", {"die": die, "count": count, "effect": effect, "tag": tag})

    def blood(self, children: list[Any]) -> tuple[str, Any]:
        return self._die("blood", children)

    def elixir(self, children: list[Any]) -> tuple[str, Any]:
        return self._die("elixir", children)

    def attack(self, children: list[Any]) -> dict[str, Any]:
        (kinds, costs), name, attack, damage, *extras = children
        data: dict[str, Any] = {
            "kind": "attack",
            "name": name,
            "range": kinds,
            "attack": _number(attack),
            "damage": _number(damage),
        }
        if costs:
            data["handlungen"] = costs
        for key, value in extras:
            if key == "dice":
                data.setdefault("dice", []).append(value)
                continue
            if key in data:
                raise fail("hexxen.statblock.twice", None, what=key)
            data[key] = value
        return data

    def tag(self, children: list[Token]) -> tuple[str, str]:
        return ("tag", str(children[0]).strip())

    def paren_tag(self, children: list[Token]) -> tuple[str, str]:
        return ("tag", str(children[0]).strip())

    def effect(self, children: list[Any]) -> tuple[Token, str, str | None]:
        amount, words, *tags = children
        named = [tag[1] for tag in tags if tag[1]]
        return amount, words, named[-1] if named else None

    def dice_effect(self, children: list[Any]) -> tuple[Token, str, str | None, str]:
        amount, die, words, *tags = children
        named = [tag[1] for tag in tags if tag[1]]
        kind = "blood" if str(die) == "Blutwürfel" else "elixir"
        return amount, words, named[-1] if named else None, kind

    def cost(self, children: list[Any]) -> tuple[str, tuple[int, bool]]:
        hex_token, _, *per = children
        return ("cost", (_number(hex_token), bool(per)))

    def per_target(self, children: list[Any]) -> tuple[str, bool]:
        return ("per_target", True)

    def note(self, children: list[Token]) -> tuple[str, str]:
        return ("note", str(children[0]).strip())

    def power(self, children: list[Any]) -> dict[str, Any]:
        name, (kinds, costs), dice, against, (amount, effect, tag, *die), *rest = children
        options: dict[str, Any] = dict(item for item in rest if isinstance(item, tuple))
        hex_points, per_target = options.get("cost", (0, False))
        data: dict[str, Any] = {
            "kind": "power",
            "name": name,
            "range": kinds,
            "dice": _number(dice),
            "against": against,
            "per_difference": {
                "amount": _number(amount),
                "effect": effect,
                "tag": tag,
                **({"die": die[0]} if die else {}),
            },
            "hex": hex_points,
            "hex_per_target": per_target,
            "note": options.get("note") or None,
        }
        if costs:
            data["handlungen"] = costs
        return data

    def growth(self, children: list[Any]) -> dict[str, Any]:
        _, value, *per = children
        return {"kind": "growth", "value": _number(value), "per_jz": bool(per)}

    def attributes(self, children: list[Token]) -> dict[str, Any]:
        values: dict[str, int] = {}
        for key, value in zip(children[::2], children[1::2], strict=True):
            name = str(key).upper()
            if name in values:
                raise fail("hexxen.statblock.twice", key, what=name)
            values[name] = _number(value)
        return {"kind": "attributes", "values": values}

    def pool(self, children: list[Token]) -> dict[str, Any]:
        return {"kind": "pool", "value": _number(children[1])}

    def stat_key(self, children: list[Token]) -> Token:
        return children[0]

    def per_jz(self, children: list[Any]) -> bool:
        return True

    def stat(self, children: list[Any]) -> dict[str, Any]:
        key, value, *per = children
        return {
            "kind": "stat",
            "name": _STATS[str(key)],
            "value": _number(value),
            "per_jz": bool(per),
        }

    def flag(self, children: list[Token]) -> dict[str, Any]:
        return {"kind": "flag", "name": "widernatuerlich"}

    def properties(self, children: list[Any]) -> dict[str, Any]:
        return {"kind": "properties", "items": list(children[1:])}


@cache
def parser() -> StatParser[list[dict[str, Any]]]:
    """The compiled Wertekasten parser (built once)."""
    return make_parser(_GRAMMAR, _Lines, names=_NAMES)


def parse_block(text: str) -> list[dict[str, Any]]:
    """Every entry of a Wertekasten (one per non-empty line), as plain JSON data."""
    return parser().parse(text)


def parse_line(text: str) -> dict[str, Any]:
    """One stat line; a text of several lines gives ``{"kind": "block", "lines": [...]}``."""
    entries = parse_block(text)
    if len(entries) == 1:
        return entries[0]
    return {"kind": "block", "lines": entries}
