"""Small expressions as exact integer polynomials packed into one Python int."""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable
from itertools import accumulate, repeat
from operator import mul, sub

from spieltisch.dice.exploding import die_weights
from spieltisch.dice.faces import SYMBOL_DICE, VALUE_KEYS, symbol_die
from spieltisch.dice.notation import (
    Abs,
    BinaryOp,
    Compare,
    Constant,
    Dice,
    Divide,
    Expression,
    Group,
    Keep,
    Kind,
    Negate,
    Pool,
    Test,
)
from spieltisch.dice.pools import FACE_CELLS
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


# Every plain numeric die, faces 1…sides alike (derived data, built once at import).
_PLAIN: dict[int, _Small] = {
    sides: (1, _pack([1] * sides), sides, sides) for sides in range(2, 101)
}


def _plain(sides: int) -> _Small:
    return _PLAIN.get(sides) or (1, _pack([1] * sides), sides, sides)


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


def _unpack(a: _Small) -> tuple[int, list[int], int]:
    low, packed, size, denominator = a
    return low, _slots(packed, size).tolist(), denominator


def _repack(values: dict[int, int], denominator: int) -> _Small:
    low, high = min(values), max(values)
    weights = [0] * (high - low + 1)
    for value, weight in values.items():
        weights[value - low] += weight
    return low, _pack(weights), len(weights), denominator


def _small_map(a: _Small, function: Callable[[int], int]) -> _Small:
    """The distribution of ``function(value)``."""
    low, weights, denominator = _unpack(a)
    out: dict[int, int] = {}
    for index, weight in enumerate(weights):
        if weight:
            value = function(low + index)
            out[value] = out.get(value, 0) + weight
    return _repack(out, denominator)


def _small_hits(a: _Small, compare: Compare) -> _Small:
    """Whether a value of ``a`` meets ``compare`` (1 or 0): the weights of the run of
    values it meets, summed."""
    low, weights, denominator = _unpack(a)
    first, last = compare.span(low, low + len(weights) - 1)
    hit = sum(weights[first - low : last - low + 1]) if first <= last else 0
    if hit in (0, denominator):
        return int(hit > 0), 1, 1, 1
    return 0, (denominator - hit) | hit << 64, 2, denominator


def _small_scored(a: _Small, node: Dice | Group) -> _Small:
    """What one die or member of ``node`` with a value of ``a`` adds: the value, or 1 for a
    success (less 1 for a failure)."""
    if not node.counting:
        return a
    if node.failure is None:
        assert node.compare is not None
        return _small_hits(a, node.compare)
    return _small_map(a, node.score)


def _small_extreme(members: list[_Small], highest: bool) -> _Small | None:
    """The highest (or lowest) of independent members: differences of products of their
    cumulative weights (weights of the values up to, or from, each value). Each member's
    cumulative weights count in its own denominator, so their product counts in the product
    of the denominators."""
    denominator = 1
    low, high = members[0][0], members[0][0] + members[0][2]
    for start, _, size, member_denominator in members:
        denominator *= member_denominator
        low, high = min(low, start), max(high, start + size)
    if denominator >= _SLOT_LIMIT:
        return None
    high -= 1
    products: list[int] = []
    for member in members:
        start, weights, member_denominator = _unpack(member)
        before, after = start - low, high - start - len(weights) + 1
        if not highest:  # from the highest value down
            weights.reverse()
            before, after = after, before
        row = [0] * before + list(accumulate(weights)) + [member_denominator] * after
        products = list(map(mul, products, row)) if products else row
    out = list(map(sub, products, [0, *products[:-1]]))
    if not highest:
        out.reverse()
    return low, _pack(out), high - low + 1, denominator


def _small_like_extreme(die: _Small, count: int, highest: bool) -> _Small | None:
    """The highest (or lowest) of ``count`` like dice: ``F(v)^n − F(v−1)^n``."""
    low, weights, denominator = _unpack(die)
    if denominator > 1 and (count >= 64 or denominator**count >= _SLOT_LIMIT):
        return None
    if not highest:
        weights.reverse()
    powers = list(map(pow, accumulate(weights), repeat(count)))
    out = list(map(sub, powers, [0, *powers[:-1]]))
    if not highest:
        out.reverse()
    return low, _pack(out), len(out), denominator**count


def _small_keep(
    die: _Small, count: int, keep: Keep, score: Callable[[int], int], counting: bool
) -> _Small | None:
    """The kept scores of ``count`` like dice, by the value ``t`` of the last kept die.

    Values are visited from the best down. With ``a`` dice better than ``t`` (fewer than
    the ``k`` kept) and at least ``k - a`` of the others at ``t``, the rest worse, the kept
    dice score the ``a`` better ones plus ``k - a`` times the score of ``t``. The better
    dice are a power of the polynomial of the better values; the others, ``m = count - a``
    of them at ``t`` (weight ``w``) or worse (``v``), weigh the terms of ``(w·y + v)^m``
    with ``y^(k - a)`` or more. ``counting``: the scores are not the values."""
    highest, kept = keep.kept(count)
    if kept == 1 and not counting:
        return _small_like_extreme(die, count, highest)
    low, packed, size, denominator = die
    if denominator > 1 and (count >= 64 or denominator**count >= _SLOT_LIMIT):
        return None
    if not counting and size == denominator and packed == _plain(size)[1]:  # weights all 1
        if kept == count - 1 and count <= _DROP_ONE_MOST:
            return _drop_one(low, size, count, highest)
        if kept < count - 1:
            low, slots, total = _uniform_keep(low, size, count, highest, kept)
            if slots.typecode != "Q":
                slots = array("Q", slots)
            return low, int.from_bytes(slots.tobytes(), "little"), len(slots), total
    low, weights, denominator = _unpack(die)
    order = [(low + i, w) for i, w in enumerate(weights) if w]
    if highest:
        order.reverse()
    raw = [score(value) for value, _ in order] if counting else [value for value, _ in order]
    base = min(raw)
    total = denominator**count
    code = _narrow(total)
    bits = 8 * _WIDTHS[code]
    if kept == count - 1:
        done = _but_worst(order, raw, base, count, bits)
        size = (count - 1) * (max(raw) - base) + 1
        return (count - 1) * base, _widen(done, size, code), size, total
    worse = sum(w for _, w in order)
    better = 0  # the polynomial of one die better than t
    done = 0
    # per a, from the most better dice down: C(count, a), the mask of the slots of the
    # others' ways with fewer than ``k - a`` at t, and ``k - a``
    steps = [
        (_COMB[count][a], (1 << 64 * (kept - a)) - 1, kept - a) for a in range(kept - 1, -1, -1)
    ]
    low_slots = steps[-1][1]
    for (_, weight), points in zip(order, raw, strict=True):
        worse -= weight
        shift = bits * (points - base)
        spread = weight << 64 | worse  # one of the others: slot b counts b dice at t
        either = weight + worse
        here = 0  # the sum over a, by Horner's rule in the better dice's polynomial
        first = 0 if better else kept - 1
        rest = count - kept + 1 + first  # count - a
        ways = spread**rest & low_slots  # its slots below k
        every = either**rest
        for choose, fewer, need in steps[first:]:
            # the others' ways with at least ``need`` at t: all but the slots below
            # ``need``, summed (2**64 ≡ 1 modulo _SLOT_LIMIT, and no sum reaches it)
            others = every - (ways & fewer) % _SLOT_LIMIT
            here = here * better + ((choose * others) << need * shift)
            ways = ways * spread & low_slots
            every *= either
        done += here
        better += weight << shift
    size = kept * (max(raw) - base) + 1
    return kept * base, _widen(done, size, code), size, total


_DROP_ONE_MOST = 8
"""The most dice :func:`_drop_one` takes (past it the powers of its sums grow large)."""


def _drop_one(low: int, sides: int, count: int, highest: bool) -> _Small:
    """All but the lowest (or highest) of ``count`` dice that show ``sides`` consecutive
    values from ``low``, all alike likely, in closed form.

    In values counted from ``low`` and with ``G_t = y^t + … + y^(sides-1)`` the dice all at
    least ``t``, the lowest die shows ``t`` in ``G_t^n - G_(t+1)^n`` and the kept ones score
    that less ``t``: the sum over ``t`` of ``y^((n-1)t) H_(sides-t)^n - y^((n-1)t+n)
    H_(sides-t-1)^n`` with ``H_m = (y^m - 1) / (y - 1)``. Expanding ``(y^m - 1)^n`` by the
    binomial theorem, the term of ``y^(m j)`` sums over ``t`` to ``C(n, j) (-1)^(n-j)
    (y^(sides j) - y^(n + (sides-1) j))`` times the ``sides`` powers ``y^(d t)``, ``d = n-1-j``
    (the terms of ``j = n`` cancel): ``n`` terms and one exact division by ``(y - 1)^n``, with
    ``y`` the slot base ``2^bits`` (as in :func:`_uniform_keep`). The highest die dropped is
    the lowest one mirrored."""
    total = sides**count
    code = _narrow(total)
    width = _WIDTHS[code]
    bits = 8 * width
    row = _COMB[count]
    whole = 0
    for j in range(count):
        stride = bits * (count - 1 - j)
        # the sum of y^(d t) for t < sides: a geometric series (``sides`` when d = 0)
        powers = ((1 << stride * sides) - 1) // ((1 << stride) - 1) if stride else sides
        term = row[j] * (
            (powers << bits * sides * j) - (powers << bits * (count + (sides - 1) * j))
        )
        whole = whole - term if (count - j) & 1 else whole + term
    whole //= ((1 << bits) - 1) ** count
    size = (count - 1) * (sides - 1) + 1
    slots = array(code, whole.to_bytes(size * width, "little"))
    if not highest:
        slots.reverse()
    return (count - 1) * low, int.from_bytes(array("Q", slots).tobytes(), "little"), size, total


def _uniform_keep(
    low: int, sides: int, count: int, highest: bool, kept: int
) -> tuple[int, array[int], int]:
    """The sum of the ``kept`` highest (or lowest) of ``count`` dice that show ``sides``
    consecutive values from ``low``, all alike likely: the sum over the value ``t`` of the last
    kept die (as :func:`_small_keep`) in closed form.

    With ``t`` the ``e``-th value, ``a`` of the kept dice (``a < k``) show one of the
    ``q = sides - 1 - e`` values above it, a power of ``y^(e+1) (y^q - 1) / (y - 1)``, the
    other ``k - a`` show ``t``, and of the ``count - a`` dice not above it at least
    ``k - a`` show ``t``: ``S_a(e)`` ways, the sum over ``p ≤ count - k`` of
    ``C(count - a, p) e^p``. Expanding ``(y^q - 1)^a`` makes each part a sum over ``e`` of
    ``S_a(e) y^((k - b) e)``: the list ``S_a`` packed ``k - b`` slots apart, one step in C.
    With ``y`` the slot base ``2^bits`` the division by ``(y - 1)^a`` is an exact division
    of whole numbers, done by Horner's rule in ``a``. The lowest dice are the highest ones
    mirrored. The lowest value, the weights in the narrowest slots that hold them, and
    the denominator."""
    total = sides**count
    code = _narrow(total)
    width = _WIDTHS[code]
    bits = 8 * width
    # S_(k-1)(e) = (e + 1)^(n-k+1) - e^(n-k+1); S_a = (e + 1) S_(a+1) - C(n-a-1, k-a-1) e^(n-k+1)
    powers = list(map(pow, range(sides + 1), repeat(count - kept + 1)))
    edge = powers[:-1]
    ways = list(map(sub, powers[1:], edge))
    factors = range(1, sides + 1)
    span = sides - 1
    zero = array(code, bytes(width))
    top = bits * span
    base = (1 << bits) - 1  # y - 1
    row = _COMB[count]
    whole = 0
    for a in range(kept - 1, -1, -1):
        if a < kept - 1:
            weight = _COMB[count - a - 1][kept - a - 1]
            ways = list(map(sub, map(mul, factors, ways), map(mul, edge, repeat(weight))))
        values = array(code, ways)
        part = 0  # the sum over e of S_a(e) y^(k e) (y^q - 1)^a, by the terms of the power
        shift = 0  # of y^(q b): y^((sides - 1) b), the rest in the stride k - b
        stride = kept
        for choose in _SIGNED_COMB[a]:
            slots = zero * (stride * span + 1)
            slots[::stride] = values
            part += choose * int.from_bytes(slots, "little") << shift
            shift += top
            stride -= 1
        whole = whole // base + (row[a] * part << bits * a)
    slots = array(code, whole.to_bytes((kept * span + 1) * width, "little"))
    if not highest:
        slots.reverse()
    return kept * low, slots, total


def _but_worst(
    order: list[tuple[int, int]], raw: list[int], base: int, count: int, bits: int
) -> int:
    """All but the worst of ``count`` like dice (values ``order``ed from the best, scoring
    ``raw``), packed in slots of ``bits``: with ``G(t)`` the polynomial of the dice all no
    worse than ``t``, the worst shows ``t`` in ``G(t) - G(t + 1)``, and the kept dice score
    that less the score of ``t``."""
    better = done = previous = 0
    for (_, weight), points in zip(order, raw, strict=True):
        shift = bits * (points - base)
        better += weight << shift
        power = better**count
        done += (power - previous) >> shift
        previous = power
    return done


# Array type codes by the bytes of their items, narrowest first: the keep programmes pack
# their polynomials in the narrowest slots that hold the weights (Python multiplies whole
# numbers digit by digit, so four times narrower slots multiply up to sixteen times faster).
_WIDTHS = {code: array(code).itemsize for code in "BHIQ"}


_LIMITS = tuple((1 << 8 * size, code) for code, size in _WIDTHS.items())


def _narrow(total: int) -> str:
    """The type code of the narrowest slots that hold every weight up to ``total``."""
    for limit, code in _LIMITS:
        if total < limit:
            return code
    raise AssertionError(total)  # denominators of the small path stay below 2**64


def _widen(packed: int, size: int, code: str) -> int:
    """Weights packed in slots of type ``code``, repacked in 64 bits."""
    if code == "Q":
        return packed
    narrow = array(code, packed.to_bytes(size * _WIDTHS[code], "little"))
    return int.from_bytes(array("Q", narrow).tobytes(), "little")


_COMB = [[math.comb(n, c) for c in range(n + 1)] for n in range(101)]
"""Binomial coefficients of the pools that keep or drop (at most 100 dice)."""

_SIGNED_COMB = [
    [c if (a - b) % 2 == 0 else -c for b, c in enumerate(r)] for a, r in enumerate(_COMB)
]
"""The coefficients of ``(y - 1)^a`` from ``y^0`` on: ``C(a, b) (-1)^(a-b)``."""


class _SmallPath(Visitor[str, _Small | None]):
    """The distribution of a node's number (context ``""``) or of its count of one key, or
    ``None`` when the expression is not small (the array engine takes it then)."""

    def pool(self, node: Pool, context: str) -> _Small | None:
        die = _POOL_DICE.get((node.die, context))
        return None if die is None else _small_power(die, node.count)

    def dice(self, node: Dice, context: str) -> _Small | None:
        if context:
            return None
        sides = node.sides
        if node.plain:
            if node.keep is None and node.failure is None:
                if node.compare is None:
                    return _small_power(_plain(sides), node.count)
                hits = node.compare.hits(sides)
                if hits in (0, sides):
                    return int(hits > 0) * node.count, 1, 1, 1
                common = math.gcd(sides, hits)
                die = 0, (sides - hits) // common | hits // common << 64, 2, sides // common
                return _small_power(die, node.count)
            die = _plain(sides)
        else:
            spec = node.spec
            bounded = spec.bounded()
            if bounded is not None:
                low, values = bounded
                die = _small_die(low, values, sum(values))
            elif node.explode is not None and node.explode.mode != "once":
                return None
            else:
                (low, weights, denominator), _ = die_weights(spec, 0)
                die = _small_die(low, list(weights), denominator)
        if node.keep is not None:
            return _small_keep(die, node.count, node.keep, node.score, node.counting)
        return _small_power(_small_scored(die, node), node.count)

    def constant(self, node: Constant, context: str) -> _Small | None:
        return None if context else (node.value, 1, 1, 1)

    def negate(self, node: Negate, context: str) -> _Small | None:
        inner = self.visit(node.operand, context)
        return None if inner is None else _small_negate(inner)

    def divide(self, node: Divide, context: str) -> _Small | None:
        inner = self.visit(node.operand, context)
        return None if inner is None else _small_map(inner, node.apply)

    def absolute(self, node: Abs, context: str) -> _Small | None:
        inner = self.visit(node.operand, context)
        return None if inner is None else _small_map(inner, abs)

    def test(self, node: Test, context: str) -> _Small | None:
        inner = self.visit(node.operand, context)
        if inner is None:
            return None
        return _small_hits(inner, node.compare)

    def group(self, node: Group, context: str) -> _Small | None:
        first, *others = node.members
        if all(member == first for member in others):
            # equal members: a power of one, or like dice kept
            one = self.visit(first, context)
            if one is None:
                return None
            if node.keep is None:
                return _small_power(_small_scored(one, node), len(node.members))
            return _small_keep(one, len(node.members), node.keep, node.score, node.counting)
        members: list[_Small] = []
        seen: list[tuple[Expression, _Small]] = []
        for member in node.members:
            # equal members (``{4d6kh3, 4d6kh3, 1d20}``) have equal distributions: computed once
            for other, done in seen:
                if other is member or other == member:
                    small = done
                    break
            else:
                fresh = self.visit(member, context)
                if fresh is None:
                    return None
                small = fresh
                seen.append((member, small))
            members.append(small)
        if node.keep is not None:
            highest, kept = node.keep.kept(len(members))
            if kept != 1 or node.counting:
                return None
            return _small_extreme(members, highest)
        result: _Small | None = None
        for small in members:
            counted = _small_scored(small, node)
            result = counted if result is None else _small_sum(result, counted)
            if result is None:
                return None
        return result

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


def small_root(node: Expression) -> tuple[tuple[str, ...] | None, int, array[int], int] | None:
    """A small expression's result keys (``None`` for a number), lowest value, integer
    weights and denominator; ``None`` unless it is small and a number or a single count."""
    keys: tuple[str, ...] | None = None
    if node.kind is Kind.NUMBER:
        if type(node) is Dice and node.keep is not None:  # the commonest: dice kept
            kept = _kept_plain(node)
            if kept is not None:
                return None, *kept
        result = _SMALL.visit(node, "")
    elif len(node.keys) == 1:
        keys = node.keys
        result = _SMALL.visit(node, keys[0])
    else:
        return None
    if result is None:
        return None
    low, packed, size, denominator = result
    return keys, low, _slots(packed, size), denominator


def _kept_plain(node: Dice) -> tuple[int, array[int], int] | None:
    """Plain dice summed, some of them kept (``4d6kh3``, not one nor all but one), by the
    closed form of :func:`_uniform_keep` straight into the weights the root returns (the
    visitor's path packs them in 64-bit slots first); ``None`` for any other dice."""
    count, sides = node.count, node.sides
    if not node.plain or node.counting or count >= 64 or sides**count >= _SLOT_LIMIT:
        return None
    assert node.keep is not None
    highest, kept = node.keep.kept(count)
    if not 1 < kept < count - 1:
        return None
    return _uniform_keep(1, sides, count, highest, kept)
