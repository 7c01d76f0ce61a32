"""Helpers for the dice tests: a scripted dice source and brute-force enumeration of rolls."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from spieltisch.dice.dice import Value, roll
from spieltisch.dice.notation import Expression, parse


class Scripted:
    """A dice source that returns given values in order (and checks the die sizes asked for)."""

    def __init__(self, values: Iterable[int], sides: int | None = None) -> None:
        self.values = list(values)
        self.sides = sides
        self.asked: list[int] = []

    def roll(self, sides: int) -> int:
        if self.sides is not None:
            assert sides == self.sides, (sides, self.sides)
        self.asked.append(sides)
        value = self.values.pop(0)
        assert 1 <= value <= sides
        return value


class _NeedMore(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Prefix:
    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.position = 0
        self.sides: list[int] = []

    def roll(self, sides: int) -> int:
        if self.position == len(self.prefix):
            raise _NeedMore(sides)
        value = self.prefix[self.position]
        self.position += 1
        self.sides.append(sides)
        return value


def key_of(value: Value, node: Expression) -> int | tuple[int, ...]:
    """A rolled value as the engine's outcome key (int, or counts in the node's key order)."""
    if isinstance(value, int):
        return value
    return tuple(value[key] for key in node.keys)


def enumerate_rolls(
    text: str, cutoff: Fraction = Fraction(0)
) -> tuple[dict[int | tuple[int, ...], Fraction], Fraction]:
    """Brute force: run the real ``roll`` on every sequence of die values.

    Returns outcome → exact probability, and the probability of the branches dropped because
    they fell below ``cutoff`` (only exploding dice ever get there).
    """
    node = parse(text)
    found: dict[int | tuple[int, ...], Fraction] = {}
    dropped = Fraction(0)
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        prefix, weight = stack.pop()
        source = _Prefix(prefix)
        try:
            value = roll(node, source).value
        except _NeedMore as need:
            share = weight / need.sides
            if share < cutoff:
                dropped += weight
                continue
            for face in range(1, need.sides + 1):
                stack.append(([*prefix, face], share))
            continue
        key = key_of(value, node)
        found[key] = found.get(key, Fraction(0)) + weight
    return found, dropped
