"""Small expressions as exact integer polynomials packed into one Python int."""

from __future__ import annotations

import math
from array import array

from spieltisch.dice.faces import SYMBOL_DICE, VALUE_KEYS, symbol_die
from spieltisch.dice.notation import BinaryOp, Constant, Dice, Expression, Kind, Negate, Pool
from spieltisch.dice.pools import FACE_CELLS, hits_of
from spieltisch.dice.tree import Visitor

# -- small expressions: integer polynomials in one Python int ------------------------------
#
# A one-dimensional expression without exploding or kept dice has exact integer weights
# over a denominator. While that denominator stays below 2**64 every weight does too (they
# sum to it), so a distribution packs into one Python int with one 64-bit slot per value,
# the weight of value ``low + i`` in slot ``i`` (Kronecker substitution): a pool is a power
# of its die, a sum a product, and no slot overflows. For small pools this beats array code,
# whose fixed cost per call dominates there, and it is exact: the float table is each weight
# divided by the denominator, correctly rounded.

_Small = tuple[int, int, int, int]
"""The lowest value, the packed weights, how many slots they use, the denominator."""

_SLOT_LIMIT = (1 << 64) - 1
"""Denominators (and so all weights and sums of weights) stay below this."""


def _pack(weights: list[int]) -> int:
    return int.from_bytes(array("Q", weights).tobytes(), "little")


def _slots(packed: int, size: int) -> array[int]:
    return array("Q", packed.to_bytes(size * 8, "little"))


def _small_die(low: int, weights: list[int], denominator: int) -> _Small:
    """One die: zero weights trimmed from both ends, a common factor cancelled (a smaller
    denominator lets larger pools fit)."""
    while not weights[0]:
        weights = weights[1:]
        low += 1
    while not weights[-1]:
        weights = weights[:-1]
    common = math.gcd(*weights)
    return low, _pack([w // common for w in weights]), len(weights), denominator // common


def _pool_die(letter: str, key: str) -> _Small:
    """What one symbol die adds to ``key`` (its number for ``key == ""``: the Elixier die)."""
    if key:
        keys, cells = FACE_CELLS[letter]
        values = [cell[keys.index(key)] if key in keys else 0 for cell in cells]
    else:
        values = [face for face in symbol_die(letter).faces if isinstance(face, int)]
    low = min(values)
    weights = [0] * (max(values) - low + 1)
    for value in values:
        weights[value - low] += 1
    return _small_die(low, weights, len(values))


# Every symbol die counted by one key, or as a number (derived data, built once at import).
_POOL_DICE: dict[tuple[str, str], _Small] = {
    (letter, key): _pool_die(letter, key)
    for letter, kind in SYMBOL_DICE.items()
    for key in (("",) if all(isinstance(face, int) for face in kind.faces) else VALUE_KEYS)
}


def _small_power(die: _Small, count: int) -> _Small | None:
    if count == 1:
        return die
    low, packed, size, denominator = die
    # A denominator of 2 or more passes the limit by 64 dice (checked first: no huge powers).
    if denominator > 1 and (count >= 64 or denominator**count >= _SLOT_LIMIT):
        return None
    return low * count, packed**count, (size - 1) * count + 1, denominator**count


def _small_sum(a: _Small, b: _Small) -> _Small | None:
    denominator = a[3] * b[3]
    if denominator >= _SLOT_LIMIT:
        return None
    return a[0] + b[0], a[1] * b[1], a[2] + b[2] - 1, denominator


def _small_negate(a: _Small) -> _Small:
    low, packed, size, denominator = a
    slots = _slots(packed, size)
    slots.reverse()
    return -(low + size - 1), int.from_bytes(slots.tobytes(), "little"), size, denominator


def _small_clamp(a: _Small) -> _Small:
    """Fold the weight of values below 0 onto 0."""
    low, packed, size, denominator = a
    if low >= 0:
        return a
    if -low >= size:
        return 0, denominator, 1, denominator
    # 2**64 ≡ 1 modulo _SLOT_LIMIT, so modulo it a packed int is the sum of its slots.
    below = (packed & ((1 << -64 * low) - 1)) % _SLOT_LIMIT
    return 0, (packed >> -64 * low) + below, size + low, denominator


class _SmallPath(Visitor[str, _Small | None]):
    """The distribution of a node's number (context ``""``) or of its count of one key, or
    ``None`` when the expression is not small (the array engine takes it then)."""

    def pool(self, node: Pool, context: str) -> _Small | None:
        die = _POOL_DICE.get((node.die, context))
        return None if die is None else _small_power(die, node.count)

    def dice(self, node: Dice, context: str) -> _Small | None:
        if context or node.explode or node.keep is not None:
            return None
        sides = node.sides
        if node.compare is None:
            return _small_power((1, _pack([1] * sides), sides, sides), node.count)
        hits = hits_of(sides, node.compare)
        if hits in (0, sides):
            return int(hits > 0) * node.count, 1, 1, 1
        common = math.gcd(sides, hits)
        die = 0, (sides - hits) // common | hits // common << 64, 2, sides // common
        return _small_power(die, node.count)

    def constant(self, node: Constant, context: str) -> _Small | None:
        return None if context else (node.value, 1, 1, 1)

    def negate(self, node: Negate, context: str) -> _Small | None:
        inner = self.visit(node.operand, context)
        return None if inner is None else _small_negate(inner)

    def binary(self, node: BinaryOp, context: str) -> _Small | None:
        if node.op == "*" or ((node.comparative or node.malus) and context != "successes"):
            return None
        left = self.visit(node.left, context)
        if left is None:
            return None
        right = self.visit(node.right, context)
        if right is None:
            return None
        result = _small_sum(left, right if node.op == "+" else _small_negate(right))
        return _small_clamp(result) if node.malus and result is not None else result


_SMALL = _SmallPath()


def small_root(node: Expression) -> tuple[tuple[str, ...] | None, int, list[int], int] | None:
    """A small expression's result keys (``None`` for a number), lowest value, integer
    weights and denominator; ``None`` unless it is small and a number or a single count."""
    keys: tuple[str, ...] | None = None
    if node.kind is Kind.NUMBER:
        result = _SMALL.visit(node, "")
    elif len(node.keys) == 1:
        keys = node.keys
        result = _SMALL.visit(node, keys[0])
    else:
        return None
    if result is None:
        return None
    low, packed, size, denominator = result
    return keys, low, _slots(packed, size).tolist(), denominator
