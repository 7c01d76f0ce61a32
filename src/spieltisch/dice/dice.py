"""Rolling an expression: every die face, which dice were kept and exploded, and the result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from spieltisch.dice.errors import LimitError
from spieltisch.dice.faces import VALUE_KEYS, Face, symbol_die
from spieltisch.dice.fair import DiceSource
from spieltisch.dice.notation import (
    Abs,
    BinaryOp,
    Comment,
    Constant,
    Dice,
    DieSpec,
    Divide,
    Expression,
    Group,
    Keep,
    Kind,
    Label,
    Limits,
    Negate,
    Pool,
    Test,
    hints,
    parse,
)
from spieltisch.dice.tree import Visitor

__all__ = ["DieRoll", "Part", "RollResult", "Value", "roll", "value_to_json"]

Value = int | dict[str, int]
"""The result of an expression: a number, or symbol key → count."""


@dataclass(frozen=True)
class DieRoll:
    """One physical die thrown during a roll."""

    die: str
    """The die as written: ``d6``, ``d100``, ``H``, ``J``, ``dF`` …"""
    face: Face
    """The face shown: a number, or the symbols on it (key → count, empty when blank)."""
    kept: bool = True
    """Whether the die counts (``False`` for dice dropped by keep/drop and rerolled throws)."""
    exploded: bool = False
    """Whether this throw showed an exploding face, so the next entry is the extra throw
    added to it."""
    rerolled: bool = False
    """Whether this throw was rerolled (the next entry of the same die replaces it)."""
    value: int | None = None
    """What the throw adds when it is not its face (bounded by ``min``/``max``, one less as
    the extra throw of a penetrating die)."""
    label: str | None = None
    """The label of the term the die belongs to (``2d6[fire]``)."""

    def to_json(self) -> dict[str, Any]:
        """``{"die", "face", "kept", "exploded"}`` with symbol faces as plain objects, plus
        ``rerolled``, ``value`` and ``label`` where they apply."""
        face: Any = self.face if isinstance(self.face, int) else dict(self.face)
        data: dict[str, Any] = {
            "die": self.die,
            "face": face,
            "kept": self.kept,
            "exploded": self.exploded,
        }
        if self.rerolled:
            data["rerolled"] = True
        if self.value is not None:
            data["value"] = self.value
        if self.label is not None:
            data["label"] = self.label
        return data


@dataclass(frozen=True)
class Part:
    """The value of one labelled term or group member within a roll."""

    term: str
    """The term in canonical notation."""
    value: Value
    label: str | None = None
    kept: bool = True
    """Whether a group member counts (``False`` when the group's keep/drop left it out)."""

    def to_json(self) -> dict[str, Any]:
        """``{"term", "label", "value", "kept"}``."""
        return {
            "term": self.term,
            "label": self.label,
            "value": value_to_json(self.value),
            "kept": self.kept,
        }


@dataclass(frozen=True)
class RollResult:
    """A rolled expression: its canonical text, its value and every die in throw order.

    ``total`` is the compared total of a total comparison (``1d20+5>=15``: the value is 1
    or 0); ``parts`` the values of labelled terms and group members; ``comment`` the roll's
    comment; ``written`` the notation as the user typed it; ``hints`` the codes of one-line
    hints (``dice.hint.<code>``, see :func:`~spieltisch.dice.notation.hints`).
    """

    expression: str
    value: Value
    dice: tuple[DieRoll, ...] = field(default_factory=tuple)
    total: int | None = None
    parts: tuple[Part, ...] = ()
    comment: str | None = None
    written: str | None = None
    hints: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The documented ``roll`` JSON: ``{"expression", "result", "dice"}``, plus
        ``written``, ``total``, ``parts``, ``comment`` and ``hints`` where they apply."""
        data: dict[str, Any] = {
            "expression": self.expression,
            "result": value_to_json(self.value),
            "dice": [die.to_json() for die in self.dice],
        }
        if self.written is not None:
            data["written"] = self.written
        if self.total is not None:
            data["total"] = self.total
        if self.parts:
            data["parts"] = [part.to_json() for part in self.parts]
        if self.comment is not None:
            data["comment"] = self.comment
        if self.hints:
            data["hints"] = list(self.hints)
        return data


def value_to_json(value: Value | Mapping[str, int]) -> int | dict[str, int]:
    """A value as JSON: an int, or symbol counts with keys in canonical order."""
    if isinstance(value, int):
        return value
    return {key: int(value[key]) for key in VALUE_KEYS if key in value}


def _kept(values: list[int], keep: Keep | None) -> list[bool]:
    """Which of ``values`` a keep/drop rule keeps (among equal values the earlier ones)."""
    if keep is None:
        return [True] * len(values)
    highest, n = keep.kept(len(values))
    order = sorted(
        range(len(values)),
        key=lambda i: (values[i], -i if highest else i),
        reverse=highest,
    )
    chosen = set(order[:n])
    return [i in chosen for i in range(len(values))]


class _Roller(Visitor[None, Value]):
    def __init__(self, source: DiceSource, limits: Limits) -> None:
        self.source = source
        self.limits = limits
        self.explosions = 0
        self.rolled: list[DieRoll] = []
        self.parts: list[Part] = []
        self.label: str | None = None
        self.comment: str | None = None
        self.total: int | None = None

    def value(self, node: Expression) -> Value:
        return self.visit(node, None)

    def number(self, node: Expression) -> int:
        value = self.value(node)
        assert isinstance(value, int)
        return value

    def constant(self, node: Constant, context: None) -> Value:
        return node.value

    def negate(self, node: Negate, context: None) -> Value:
        return -self.number(node.operand)

    def divide(self, node: Divide, context: None) -> Value:
        return node.apply(self.number(node.operand))

    def absolute(self, node: Abs, context: None) -> Value:
        return abs(self.number(node.operand))

    def test(self, node: Test, context: None) -> Value:
        total = self.number(node.operand)
        self.total = total
        return int(node.compare.test(total))

    def labelled(self, node: Label, context: None) -> Value:
        outer, self.label = self.label, node.text
        value = self.value(node.operand)
        self.label = outer
        self.parts.append(Part(str(node.operand), value, node.text))
        return value

    def commented(self, node: Comment, context: None) -> Value:
        self.comment = node.text
        return self.value(node.operand)

    def group(self, node: Group, context: None) -> Value:
        spans: list[tuple[int, int]] = []
        values: list[int] = []
        outer = self.total
        for member in node.members:
            start = len(self.rolled)
            values.append(self.number(member))
            spans.append((start, len(self.rolled)))
        self.total = outer
        kept = _kept(values, node.keep)
        for keep, (start, end) in zip(kept, spans, strict=True):
            if not keep:
                for index in range(start, end):
                    self.rolled[index] = replace(self.rolled[index], kept=False)
        for member, value, keep in zip(node.members, values, kept, strict=True):
            self.parts.append(Part(str(member), value, kept=keep))
        return sum(node.score(v) for v, keep in zip(values, kept, strict=True) if keep)

    def dice(self, node: Dice, context: None) -> Value:
        return self.numeric(node)

    def binary(self, node: BinaryOp, context: None) -> Value:
        left, right = self.value(node.left), self.value(node.right)
        if isinstance(left, int) and isinstance(right, int):
            if node.op == "+":
                return left + right
            return left - right if node.op == "-" else left * right
        assert isinstance(left, dict) and isinstance(right, dict)
        if node.comparative:
            return {"successes": left.get("successes", 0) - right.get("successes", 0)}
        counts = {key: left.get(key, 0) for key in node.keys}
        if node.malus:
            counts["successes"] = max(0, counts["successes"] - right["successes"])
            return counts
        for key, count in right.items():
            counts[key] = counts.get(key, 0) + count
        return counts

    def extra(self, node: Dice) -> None:
        """Count one extra throw (an explosion or a reroll) against the limit."""
        self.explosions += 1
        if self.explosions > self.limits.max_explosions:
            raise LimitError(
                "dice.too_many_explosions", value=str(node), limit=self.limits.max_explosions
            )

    def throw(self, node: Dice, spec: DieSpec, entries: list[DieRoll]) -> int:
        """One throw of a die of ``node``, rerolled by its rule (the rerolled throws shown)."""
        face = self.source.roll(node.sides)
        rule = spec.reroll
        if rule is None:
            return face
        while rule.on.test(face):
            entries.append(DieRoll(node.code, face, False, rerolled=True, label=self.label))
            self.extra(node)
            face = self.source.roll(node.sides)
            if rule.mode == "once":
                break
        return face

    def numeric(self, node: Dice) -> int:
        spec = node.spec
        code = node.code
        once = spec.explode is not None and spec.explode.mode == "once"
        totals: list[int] = []
        throws: list[list[DieRoll]] = []
        for _ in range(node.count):
            entries: list[DieRoll] = []
            total = 0
            extra = False
            while True:
                face = self.throw(node, spec, entries)
                value = spec.value(face, extra)
                again = spec.explodes(face) and not (once and extra)
                shown = None if value == face else value
                entries.append(DieRoll(code, face, True, again, value=shown, label=self.label))
                total += value
                if not again:
                    break
                self.extra(node)
                extra = True
            throws.append(entries)
            totals.append(total)
        kept = _kept(totals, node.keep)
        for keep, entries in zip(kept, throws, strict=True):
            for entry in entries:
                self.rolled.append(entry if keep or entry.rerolled else replace(entry, kept=False))
        return sum(node.score(total) for total, keep in zip(totals, kept, strict=True) if keep)

    def pool(self, node: Pool, context: None) -> Value:
        kind = symbol_die(node.die)
        if node.kind is Kind.NUMBER:
            total = 0
            for _ in range(node.count):
                face = kind.face(self.source.roll(kind.sides))
                assert isinstance(face, int)
                self.rolled.append(DieRoll(kind.code, face, label=self.label))
                total += face
            return total
        counts = dict.fromkeys(node.keys, 0)
        for _ in range(node.count):
            face = kind.face(self.source.roll(kind.sides))
            assert not isinstance(face, int)
            self.rolled.append(DieRoll(kind.code, face, label=self.label))
            for key, count in face.items():
                target = "successes" if key == "janus" else key
                counts[target] += count
        return counts


def roll(expr: Expression | str, source: DiceSource, limits: Limits | None = None) -> RollResult:
    """Roll ``expr`` with dice drawn from ``source``, in reading order, left to right.

    A string is parsed first (:class:`~spieltisch.dice.errors.NotationError` if it is not
    valid notation); a caller that echoes the text as typed sets ``written`` on the result
    (``dataclasses.replace``). Exploding and rerolled dice past
    ``limits.max_explosions`` extra throws raise :class:`~spieltisch.dice.errors.LimitError`.
    """
    limits = limits or Limits()
    node = parse(expr, limits) if isinstance(expr, str) else expr
    roller = _Roller(source, limits)
    value = roller.value(node)
    root = node.operand if isinstance(node, Comment) else node
    return RollResult(
        str(node),
        value,
        tuple(roller.rolled),
        roller.total if isinstance(root, Test) else None,
        tuple(roller.parts),
        roller.comment,
        None,
        hints(node),
    )
