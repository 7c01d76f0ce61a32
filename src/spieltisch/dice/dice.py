"""Rolling an expression: every die face, which dice were kept and exploded, and the result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from spieltisch.dice.errors import LimitError
from spieltisch.dice.faces import VALUE_KEYS, Face, symbol_die
from spieltisch.dice.fair import DiceSource
from spieltisch.dice.notation import (
    BinaryOp,
    Constant,
    Dice,
    Expression,
    Kind,
    Limits,
    Negate,
    Pool,
    parse,
)
from spieltisch.dice.tree import Visitor

__all__ = ["DieRoll", "RollResult", "Value", "roll", "value_to_json"]

Value = int | dict[str, int]
"""The result of an expression: a number, or symbol key → count."""


@dataclass(frozen=True)
class DieRoll:
    """One physical die thrown during a roll."""

    die: str
    """The die as written: ``d6``, ``d100``, ``H``, ``J`` …"""
    face: Face
    """The face shown: a number, or the symbols on it (key → count, empty when blank)."""
    kept: bool = True
    """Whether the die counts (``False`` for dice dropped by keep/drop)."""
    exploded: bool = False
    """Whether this throw showed the highest face of an exploding die, so the next entry is
    the extra throw added to it."""

    def to_json(self) -> dict[str, Any]:
        """``{"die", "face", "kept", "exploded"}`` with symbol faces as plain objects."""
        face: Any = self.face if isinstance(self.face, int) else dict(self.face)
        return {"die": self.die, "face": face, "kept": self.kept, "exploded": self.exploded}


@dataclass(frozen=True)
class RollResult:
    """A rolled expression: its canonical text, its value and every die in throw order."""

    expression: str
    value: Value
    dice: tuple[DieRoll, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        """The documented ``roll`` JSON: ``{"expression", "result", "dice"}``."""
        return {
            "expression": self.expression,
            "result": value_to_json(self.value),
            "dice": [die.to_json() for die in self.dice],
        }


def value_to_json(value: Value | Mapping[str, int]) -> int | dict[str, int]:
    """A value as JSON: an int, or symbol counts with keys in canonical order."""
    if isinstance(value, int):
        return value
    return {key: int(value[key]) for key in VALUE_KEYS if key in value}


class _Roller(Visitor[None, Value]):
    def __init__(self, source: DiceSource, limits: Limits) -> None:
        self.source = source
        self.limits = limits
        self.explosions = 0
        self.rolled: list[DieRoll] = []

    def value(self, node: Expression) -> Value:
        return self.visit(node, None)

    def constant(self, node: Constant, context: None) -> Value:
        return node.value

    def negate(self, node: Negate, context: None) -> Value:
        inner = self.value(node.operand)
        assert isinstance(inner, int)
        return -inner

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

    def numeric(self, node: Dice) -> int:
        code = node.code
        totals: list[int] = []
        throws: list[list[tuple[int, bool]]] = []
        for _ in range(node.count):
            faces: list[tuple[int, bool]] = []
            face = self.source.roll(node.sides)
            while node.explode and face == node.sides:
                self.explosions += 1
                if self.explosions > self.limits.max_explosions:
                    raise LimitError(
                        "dice.too_many_explosions",
                        value=str(node),
                        limit=self.limits.max_explosions,
                    )
                faces.append((face, True))
                face = self.source.roll(node.sides)
            faces.append((face, False))
            throws.append(faces)
            totals.append(sum(f for f, _ in faces))
        kept = [True] * node.count
        if node.keep is not None:
            highest, n = node.keep.kept(node.count)
            # Among equal dice the earlier ones are kept.
            order = sorted(
                range(node.count),
                key=lambda i: (totals[i], -i if highest else i),
                reverse=highest,
            )
            chosen = set(order[:n])
            kept = [i in chosen for i in range(node.count)]
        for index, faces in enumerate(throws):
            for face, exploded in faces:
                self.rolled.append(DieRoll(code, face, kept[index], exploded))
        values = [total for total, keep in zip(totals, kept, strict=True) if keep]
        if node.compare is not None:
            return sum(1 for total in values if node.compare.test(total))
        return sum(values)

    def pool(self, node: Pool, context: None) -> Value:
        kind = symbol_die(node.die)
        if node.kind is Kind.NUMBER:
            total = 0
            for _ in range(node.count):
                face = kind.face(self.source.roll(kind.sides))
                assert isinstance(face, int)
                self.rolled.append(DieRoll(kind.code, face))
                total += face
            return total
        counts = dict.fromkeys(node.keys, 0)
        for _ in range(node.count):
            face = kind.face(self.source.roll(kind.sides))
            assert not isinstance(face, int)
            self.rolled.append(DieRoll(kind.code, face))
            for key, count in face.items():
                target = "successes" if key == "janus" else key
                counts[target] += count
        return counts


def roll(expr: Expression | str, source: DiceSource, limits: Limits | None = None) -> RollResult:
    """Roll ``expr`` with dice drawn from ``source``, in reading order, left to right.

    A string is parsed first (:class:`~spieltisch.dice.errors.NotationError` if it is not
    valid notation). Exploding dice past ``limits.max_explosions`` extra throws raise
    :class:`~spieltisch.dice.errors.LimitError`.
    """
    limits = limits or Limits()
    node = parse(expr, limits) if isinstance(expr, str) else expr
    roller = _Roller(source, limits)
    value = roller.value(node)
    return RollResult(str(node), value, tuple(roller.rolled))
