"""Dice notation: text → an immutable expression tree → canonical text.

The grammar (German and English forms, and the spellings of Foundry, Roll20, Avrae and Dice
Maiden; see ``docs/notation.md``)::

    expression := test [comment]
    comment    := "#" TEXT | " [" TEXT "]"          (at the end; see "Labels and comments")
    test       := sum [CMP ["-"] NUMBER]            (comparing the total: 1d20+5>=15)
    sum        := product (("+" | "-") product)*
    product    := unary (("*" | "/") unary)*
    unary      := "-" unary | atom [LABEL]
    atom       := NUMBER | dice | pool | "(" test ")" | FUNC "(" test ")"
                | "{" test ("," test)* "}" groupmod*
    dice       := [COUNT] ("d" | "W") (SIDES | "%") modifier* | [COUNT] ("dF" | "WF")
    modifier   := ("r" | "ro" | "rr") [cond]
                | ("!" | "x" | "!!" | "!p" | "xo" | "ra" | "ie") [cond]
                | ("kh" | "kl" | "k" | "dh" | "dl" | "d") [NUMBER]
                | ("min" | "max" | "mi" | "ma") NUMBER
                | ("cs" | "t") cond | ("cf" | "f") cond | CMP NUMBER
    groupmod   := ("kh" | "kl" | "k" | "dh" | "dl" | "d") [NUMBER] | ("cs" | "t" | "cf" | "f") cond
                | CMP NUMBER
    cond       := CMP NUMBER | NUMBER
    pool       := [COUNT] ("H" | "M" | "J" | "B" | "E" | "S")      (either case)
    FUNC       := "floor" | "ceil" | "round" | "abs"

``parse`` also checks the meaning: numbers and symbol dice do not mix, pools stay within
:class:`Limits`, a target no die can reach is refused with the total comparison suggested.
``str(expression)`` renders canonical notation (English ``d``, counts written out, single
spaces around binary operators) that parses back to an equal tree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import MISSING, dataclass, field, fields, replace
from enum import StrEnum
from functools import cache
from typing import Any, Literal, TypeVar

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from spieltisch.dice.errors import NotationError
from spieltisch.dice.faces import SYMBOL_DICE, VALUE_KEYS

__all__ = [
    "Abs",
    "BinaryOp",
    "Comment",
    "Compare",
    "Constant",
    "Dice",
    "DieSpec",
    "Divide",
    "Explode",
    "Expression",
    "Group",
    "Keep",
    "Kind",
    "Label",
    "Limits",
    "Negate",
    "Pool",
    "Reroll",
    "Test",
    "hints",
    "parse",
]

KeepMode = Literal["kh", "kl", "dh", "dl"]
CompareOp = Literal[">=", ">", "<=", "<", "="]
BinaryOperator = Literal["+", "-", "*"]
Rounding = Literal["floor", "ceil", "round"]
ExplodeMode = Literal["add", "penetrate", "once"]
RerollMode = Literal["once", "always"]

FATE = "F"
"""The letter of the Fate die (``4dF``): a numeric symbol die with faces −1, −1, 0, 0, 1, 1."""


_T = TypeVar("_T")


def _quick(cls: type[_T]) -> type[_T]:
    """Give a frozen dataclass an ``__init__`` that stores the fields straight into the
    instance's dict.

    The generated frozen ``__init__`` sets each field through ``object.__setattr__``: a
    ten-field :class:`Dice` then costs a microsecond, more than the odds of a small check,
    and a tree is built for every text typed. Same signature, defaults and
    ``__post_init__``; the instances stay frozen.
    """
    namespace: dict[str, Any] = {}
    params, lines = ["self"], ["    own = self.__dict__"]
    for item in fields(cls):  # type: ignore[arg-type]
        if not item.init:
            continue
        assert item.default_factory is MISSING
        if item.default is MISSING:
            params.append(item.name)
        else:
            namespace[f"_{item.name}"] = item.default
            params.append(f"{item.name}=_{item.name}")
        lines.append(f"    own[{item.name!r}] = {item.name}")
    if hasattr(cls, "__post_init__"):
        lines.append("    self.__post_init__()")
    exec(f"def __init__({', '.join(params)}):\n" + "\n".join(lines), namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


@dataclass(frozen=True)
class Limits:
    """Resource guards for expressions typed by users."""

    max_dice: int = 1000
    """Dice per expression (all pools together)."""
    max_sides: int = 100
    """Largest numeric die (d2 … d100)."""
    max_keep_pool: int = 100
    """Largest pool that keeps or drops dice (the exact odds of keep/drop grow with it)."""
    max_explosions: int = 1000
    """Extra rolls exploding and rerolled dice may cause in one roll of an expression."""
    max_operators: int = 100
    """Operators, opening brackets and group commas per expression (bounds the tree's depth)."""
    max_length: int = 5000
    """Characters per expression."""
    max_label: int = 100
    """Characters of one label or comment."""


class Kind(StrEnum):
    """What an expression evaluates to."""

    NUMBER = "number"
    """An integer."""
    SYMBOLS = "symbols"
    """Counts of symbols (``successes``, ``stars``, ``drops``)."""
    JANUS = "janus"
    """A pool of Janus dice: successes that add as a bonus, or remove as a malus after ``-``."""


class Expression:
    """A node of a parsed dice expression (immutable; equal trees compare equal)."""

    @property
    def kind(self) -> Kind:
        """Whether the node yields a number or symbol counts."""
        return Kind.NUMBER

    @property
    def keys(self) -> tuple[str, ...]:
        """The symbol keys of the node's value in canonical order (empty for numbers)."""
        return ()

    @property
    def precedence(self) -> int:
        """Binding strength used to place parentheses when rendering."""
        return 4

    def children(self) -> tuple[Expression, ...]:
        """The direct sub-expressions."""
        return ()

    def walk(self) -> Iterator[Expression]:
        """This node and every node below it, depth first, left to right."""
        yield self
        for child in self.children():
            yield from child.walk()

    @property
    def dice_count(self) -> int:
        """How many dice the expression rolls (before explosions and rerolls)."""
        return sum(n.count for n in self.walk() if isinstance(n, Dice | Pool))


@_quick
@dataclass(frozen=True)
class Constant(Expression):
    """A whole number."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


@_quick
@dataclass(frozen=True)
class Compare:
    """A comparison of one value with a target: counting successes, a total against a
    target, which faces explode or are rerolled."""

    op: CompareOp
    target: int

    def test(self, value: int) -> bool:
        """Whether one value meets the target."""
        if self.op == ">=":
            return value >= self.target
        if self.op == ">":
            return value > self.target
        if self.op == "<=":
            return value <= self.target
        if self.op == "<":
            return value < self.target
        return value == self.target

    def span(self, low: int, high: int) -> tuple[int, int]:
        """The values of ``low…high`` that meet the target: one run ``(first, last)``, empty
        when ``first > last`` (every comparison meets a run of whole numbers)."""
        op, target = self.op, self.target
        if op == ">=":
            return max(low, target), high
        if op == ">":
            return max(low, target + 1), high
        if op == "<=":
            return low, min(high, target)
        if op == "<":
            return low, min(high, target - 1)
        return max(low, target), min(high, target)

    def hits(self, sides: int) -> int:
        """How many of the faces 1…``sides`` meet the target."""
        first, last = self.span(1, sides)
        return max(0, last - first + 1)

    @property
    def condition(self) -> str:
        """As written after ``r``, ``!``, ``xo``: a bare number for ``=``."""
        return str(self.target) if self.op == "=" else str(self)

    def __str__(self) -> str:
        return f"{self.op}{self.target}"


@_quick
@dataclass(frozen=True)
class Keep:
    """Keep or drop the ``count`` highest (``kh``/``dh``) or lowest (``kl``/``dl``) dice."""

    mode: KeepMode
    count: int

    def kept(self, pool: int) -> tuple[bool, int]:
        """``(highest, n)``: the pool keeps its ``n`` highest (or lowest) dice."""
        if self.mode == "kh":
            return True, self.count
        if self.mode == "kl":
            return False, self.count
        if self.mode == "dh":
            return False, pool - self.count
        return True, pool - self.count

    def __str__(self) -> str:
        return f"{self.mode}{self.count}"


@_quick
@dataclass(frozen=True)
class Reroll:
    """Reroll a throw whose face meets ``on``: ``once`` (the second throw stands) or
    ``always`` (until it does not meet it)."""

    mode: RerollMode
    on: Compare

    def __str__(self) -> str:
        return ("r" if self.mode == "once" else "rr") + self.on.condition


@_quick
@dataclass(frozen=True)
class Explode:
    """A throw whose face meets ``on`` (``None``: the highest face) adds another throw:
    ``add`` again and again, ``penetrate`` likewise with each extra throw one less, ``once``
    at most one extra throw."""

    mode: ExplodeMode = "add"
    on: Compare | None = None

    def test(self, face: int, sides: int) -> bool:
        """Whether a throw showing ``face`` explodes."""
        return face == sides if self.on is None else self.on.test(face)

    def __str__(self) -> str:
        mark = {"add": "!", "penetrate": "!p", "once": "xo"}[self.mode]
        return mark if self.on is None else mark + self.on.condition


@_quick
@dataclass(frozen=True)
class DieSpec:
    """One die of a :class:`Dice` term as thrown: sides, reroll rule, bounds, explosions."""

    sides: int
    reroll: Reroll | None = None
    minimum: int | None = None
    maximum: int | None = None
    explode: Explode | None = None

    def faces(self) -> list[tuple[int, int]]:
        """The faces a throw shows after the reroll rule, with integer weights over
        :attr:`denominator` (every face once without a rule)."""
        return list(enumerate(self.weights(), 1))

    def weights(self) -> list[int]:
        """The weights of the faces 1…sides after the reroll rule, over :attr:`denominator`:
        a face the rule rerolls always never stays; rerolled once, a face stays when it
        shows first and is not rerolled (``sides`` ways) or shows second (``hits`` ways)."""
        sides, rule = self.sides, self.reroll
        if rule is None:
            return [1] * sides
        first, last = rule.on.span(1, sides)
        hits = max(0, last - first + 1)
        stay, rerolled = (1, 0) if rule.mode == "always" else (sides + hits, hits)
        if not hits:
            return [stay] * sides
        return [stay] * (first - 1) + [rerolled] * hits + [stay] * (sides - last)

    def bounded(self) -> tuple[int, list[int]] | None:
        """What a throw adds when the die does not explode: the lowest value and the weights
        of the values from it on (those of :meth:`weights`, the faces past a bound piled onto
        it); ``None`` for an exploding die or bounds outside the faces."""
        sides = self.sides
        low = 1 if self.minimum is None else self.minimum
        high = sides if self.maximum is None else self.maximum
        if self.explode is not None or not 1 <= low <= high <= sides:
            return None
        weights = self.weights()
        if low == 1 and high == sides:
            return 1, weights
        kept = weights[low - 1 : high]
        kept[0] += sum(weights[: low - 1])
        kept[-1] += sum(weights[high:])
        return low, kept

    @property
    def denominator(self) -> int:
        """The sum of the weights of :meth:`faces`."""
        return sum(self.weights())

    def value(self, face: int, extra: bool = False) -> int:
        """What a throw showing ``face`` adds: clamped by the bounds, one less for an extra
        throw of a penetrating die."""
        if self.minimum is not None and face < self.minimum:
            face = self.minimum
        if self.maximum is not None and face > self.maximum:
            face = self.maximum
        if extra and self.explode is not None and self.explode.mode == "penetrate":
            face -= 1
        return face

    def explodes(self, face: int) -> bool:
        """Whether a throw showing ``face`` adds another throw."""
        return self.explode is not None and self.explode.test(face, self.sides)

    def totals(self, depth: int = 12) -> set[int]:
        """The totals one die can show, following at most ``depth`` explosions."""
        shown = [face for face, weight in self.faces() if weight]
        stops = {self.value(f) for f in shown if not self.explodes(f)}
        if self.explode is None:
            return stops
        again = [f for f in shown if self.explodes(f)]
        extra_stop = {self.value(f, True) for f in shown if not self.explodes(f)}
        extra_again = {self.value(f, True) for f in again}
        every_extra = {self.value(f, True) for f in shown}
        found = set(stops)
        running = {self.value(f) for f in again}
        for _ in range(1 if self.explode.mode == "once" else depth):
            if self.explode.mode == "once":
                found |= {r + e for r in running for e in every_extra}
                break
            found |= {r + e for r in running for e in extra_stop}
            running = {r + e for r in running for e in extra_again}
            if len(running) > 4096:
                break
        return found


@_quick
@dataclass(frozen=True)
class Dice(Expression):
    """``count`` numeric dice with ``sides`` faces: rerolled, bounded, exploding, kept and
    counted. ``explode`` accepts ``True`` for the plain explosion on the highest face."""

    count: int
    sides: int
    explode: Explode | None = None
    keep: Keep | None = None
    compare: Compare | None = None
    """Count the dice meeting it (successes) instead of adding them."""
    reroll: Reroll | None = None
    minimum: int | None = None
    maximum: int | None = None
    failure: Compare | None = None
    """Dice meeting it count as failures: one less success each (a count of failures alone)."""

    def __post_init__(self) -> None:
        explode: Any = self.explode
        if explode is None:
            return
        if explode is True:
            explode = Explode()
        elif explode is False:
            explode = None
        if explode is not None and explode.on is not None:
            meets = {face for face in range(1, self.sides + 1) if explode.on.test(face)}
            if meets == {self.sides}:
                explode = Explode(explode.mode)
        object.__setattr__(self, "explode", explode)

    @property
    def spec(self) -> DieSpec:
        """One die of the term as thrown (what its exact odds are built from)."""
        return DieSpec(self.sides, self.reroll, self.minimum, self.maximum, self.explode)

    @property
    def counting(self) -> bool:
        """Whether the term counts successes or failures instead of adding its dice."""
        return self.compare is not None or self.failure is not None

    @property
    def plain(self) -> bool:
        """Whether each die simply shows a face 1…sides (no reroll, bound or explosion)."""
        return (
            self.explode is None
            and self.reroll is None
            and self.minimum is None
            and self.maximum is None
        )

    @property
    def code(self) -> str:
        """The die as written in results, e.g. ``d6``."""
        return f"d{self.sides}"

    def score(self, total: int) -> int:
        """What one die with ``total`` adds: its total, or +1 for a success and −1 for a
        failure (+1 for a failure when only failures are counted)."""
        if not self.counting:
            return total
        hit = self.compare is not None and self.compare.test(total)
        miss = self.failure is not None and self.failure.test(total)
        if self.compare is None:
            return int(miss)
        return int(hit) - int(miss)

    def __str__(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.reroll is not None:
            text += str(self.reroll)
        if self.minimum is not None:
            text += f"min{self.minimum}"
        if self.maximum is not None:
            text += f"max{self.maximum}"
        bare = False
        if self.explode is not None:
            text += str(self.explode)
            bare = self.explode.on is None
        if self.keep is not None:
            text += str(self.keep)
            bare = False
        if self.compare is not None:
            # after a bare "!" a comparison would read as the explosion's threshold
            text += ("cs" if bare else "") + str(self.compare)
        if self.failure is not None:
            text += f"cf{self.failure}"
        return text


_POOL_KINDS: dict[str, Kind] = {"E": Kind.NUMBER, "J": Kind.JANUS, FATE: Kind.NUMBER}

_POOL_KEYS: dict[str, tuple[str, ...]] = {
    "H": ("successes", "stars"),
    "M": ("successes",),
    "J": ("successes",),
    "B": ("drops",),
    "S": ("successes", "stars"),
}


@_quick
@dataclass(frozen=True)
class Pool(Expression):
    """``count`` symbol dice of one kind (``H M J B E S``, or ``F`` for Fate dice);
    ``E`` and ``F`` are numeric."""

    count: int
    die: str

    @property
    def kind(self) -> Kind:
        """Numbers for the Elixier and Fate dice, Janus for ``J``, symbol counts otherwise."""
        return _POOL_KINDS.get(self.die, Kind.SYMBOLS)

    @property
    def keys(self) -> tuple[str, ...]:
        """The keys the pool counts (Janus symbols count as ``successes``)."""
        return _POOL_KEYS.get(self.die, ())

    @property
    def code(self) -> str:
        """The die as written in results, e.g. ``H`` or ``dF``."""
        return SYMBOL_DICE[self.die].code

    def __str__(self) -> str:
        return f"{self.count}dF" if self.die == FATE else f"{self.count}{self.die}"


@_quick
@dataclass(frozen=True)
class Negate(Expression):
    """The negative of a number."""

    operand: Expression

    @property
    def precedence(self) -> int:
        """Binds tighter than ``*``."""
        return 3

    def children(self) -> tuple[Expression, ...]:
        """The negated operand."""
        return (self.operand,)

    def __str__(self) -> str:
        inner = str(self.operand)
        return f"-({inner})" if self.operand.precedence < 3 else f"-{inner}"


def _union(*groups: tuple[str, ...]) -> tuple[str, ...]:
    found = {key for group in groups for key in group}
    return tuple(key for key in VALUE_KEYS if key in found)


_NUMERIC = (Kind.NUMBER, (), False, False)
"""The meaning of an operation on numbers: a number, no symbol keys, no comparison."""


@_quick
@dataclass(frozen=True)
class BinaryOp(Expression):
    """``left op right`` for ``+``, ``-`` and ``*``.

    On symbol counts ``+`` adds per symbol; ``- nJ`` is a Janus malus (each Janus symbol
    removes a success, never below 0); ``-`` between two other pools is a comparative check
    and yields only the difference of their successes (it may be negative).
    """

    op: BinaryOperator
    left: Expression
    right: Expression

    def __post_init__(self) -> None:
        # The meaning of the node is fixed by its operands: work it out once.
        left = self.left.kind
        if left is Kind.NUMBER:
            self.__dict__["_meaning"] = _NUMERIC
            return
        right = self.right.kind
        comparative = self.op == "-" and right is Kind.SYMBOLS
        malus = self.op == "-" and right is Kind.JANUS
        kind: Kind
        keys: tuple[str, ...]
        if self.op == "+" and left is Kind.JANUS and right is Kind.JANUS:
            kind, keys = Kind.JANUS, ("successes",)
        elif comparative:
            kind, keys = Kind.SYMBOLS, ("successes",)
        else:
            left_keys, right_keys = self.left.keys, self.right.keys
            if left_keys == right_keys and (not malus or "successes" in left_keys):
                kind, keys = Kind.SYMBOLS, left_keys
            else:
                extra = ("successes",) if malus else ()
                kind, keys = Kind.SYMBOLS, _union(left_keys, right_keys, extra)
        self.__dict__["_meaning"] = (kind, keys, comparative, malus)

    @property
    def kind(self) -> Kind:
        """A number for numbers; symbols (or Janus, for ``J + J``) for symbol pools."""
        kind: Kind = self.__dict__["_meaning"][0]
        return kind

    @property
    def comparative(self) -> bool:
        """Whether this is a difference of two symbol pools (successes only)."""
        comparative: bool = self.__dict__["_meaning"][2]
        return comparative

    @property
    def malus(self) -> bool:
        """Whether this subtracts Janus dice from a pool (clamped at 0 successes)."""
        malus: bool = self.__dict__["_meaning"][3]
        return malus

    @property
    def keys(self) -> tuple[str, ...]:
        """The keys of the result, in canonical order."""
        keys: tuple[str, ...] = self.__dict__["_meaning"][1]
        return keys

    @property
    def precedence(self) -> int:
        """``*`` binds tighter than ``+`` and ``-``."""
        return 2 if self.op == "*" else 1

    def children(self) -> tuple[Expression, ...]:
        """Both operands."""
        return (self.left, self.right)

    def __str__(self) -> str:
        left, right = str(self.left), str(self.right)
        if self.left.precedence < self.precedence:
            left = f"({left})"
        if self.right.precedence <= self.precedence:
            right = f"({right})"
        return f"{left} {self.op} {right}"


@_quick
@dataclass(frozen=True)
class Divide(Expression):
    """``operand / divisor`` with a whole-number result: rounded down (``/``, ``floor()``),
    up (``ceil()``) or to the nearest, halves up (``round()``)."""

    operand: Expression
    divisor: int
    rounding: Rounding = "floor"
    explicit: bool = field(default=False, compare=False, repr=False)
    """Written inside ``floor()``, ``ceil()`` or ``round()`` (so no other rounding applies)."""

    @property
    def precedence(self) -> int:
        """Like ``*`` when written with ``/``; a function call binds like an atom."""
        return 2 if self.rounding == "floor" else 4

    def children(self) -> tuple[Expression, ...]:
        """The divided operand."""
        return (self.operand,)

    def apply(self, value: int) -> int:
        """The rounded quotient of ``value``."""
        if self.rounding == "floor":
            return value // self.divisor
        if self.rounding == "ceil":
            return -(-value // self.divisor)
        return (2 * value + self.divisor) // (2 * self.divisor)

    def __str__(self) -> str:
        inner = str(self.operand)
        if self.operand.precedence < 2:
            inner = f"({inner})"
        text = f"{inner} / {self.divisor}"
        return text if self.rounding == "floor" else f"{self.rounding}({text})"


@_quick
@dataclass(frozen=True)
class Abs(Expression):
    """The absolute value of a number."""

    operand: Expression

    def children(self) -> tuple[Expression, ...]:
        """The operand."""
        return (self.operand,)

    def __str__(self) -> str:
        return f"abs({self.operand})"


def _absorbs(node: Expression) -> bool:
    """Whether a comparison written right after ``node`` would bind to its last dice term."""
    if isinstance(node, Dice | Group):
        return True
    if isinstance(node, BinaryOp):
        return node.right.precedence > node.precedence and _absorbs(node.right)
    if isinstance(node, Negate):
        return node.operand.precedence >= 3 and _absorbs(node.operand)
    return False


@_quick
@dataclass(frozen=True)
class Test(Expression):
    """A total compared with a target: 1 when it meets it, else 0 (``1d20+5>=15``)."""

    __test__ = False  # not a test class, whatever pytest thinks of the name

    operand: Expression
    compare: Compare

    @property
    def precedence(self) -> int:
        """Binds loosest of all."""
        return 0

    def children(self) -> tuple[Expression, ...]:
        """The compared total."""
        return (self.operand,)

    def __str__(self) -> str:
        inner = str(self.operand)
        if self.operand.precedence <= 0 or _absorbs(self.operand):
            inner = f"({inner})"
        return f"{inner} {self.compare.op} {self.compare.target}"


@_quick
@dataclass(frozen=True)
class Group(Expression):
    """``{a, b, …}``: the sum of its members, or of the kept ones, or the count of (kept)
    members meeting a target (with failures, as for dice)."""

    members: tuple[Expression, ...]
    keep: Keep | None = None
    compare: Compare | None = None
    failure: Compare | None = None

    @property
    def counting(self) -> bool:
        """Whether the group counts members meeting a target."""
        return self.compare is not None or self.failure is not None

    def score(self, total: int) -> int:
        """What one member with ``total`` adds (as :meth:`Dice.score`)."""
        if not self.counting:
            return total
        hit = self.compare is not None and self.compare.test(total)
        miss = self.failure is not None and self.failure.test(total)
        if self.compare is None:
            return int(miss)
        return int(hit) - int(miss)

    def children(self) -> tuple[Expression, ...]:
        """The members."""
        return self.members

    def __str__(self) -> str:
        text = "{" + ", ".join(str(member) for member in self.members) + "}"
        if self.keep is not None:
            text += str(self.keep)
        if self.compare is not None:
            text += str(self.compare)
        if self.failure is not None:
            text += f"cf{self.failure}"
        return text


@dataclass(frozen=True)
class _Annotated(Expression):
    """A term or roll with a text beside it: its value, kind and keys are the operand's."""

    operand: Expression
    text: str

    @property
    def kind(self) -> Kind:
        """The operand's."""
        return self.operand.kind

    @property
    def keys(self) -> tuple[str, ...]:
        """The operand's."""
        return self.operand.keys

    def children(self) -> tuple[Expression, ...]:
        """The annotated operand."""
        return (self.operand,)


@_quick
@dataclass(frozen=True)
class Label(_Annotated):
    """A term with a label (``2d6[fire]``): the label is kept with the term's value."""

    def __str__(self) -> str:
        inner = str(self.operand)
        if self.operand.precedence < 4 or isinstance(self.operand, Label):
            inner = f"({inner})"
        return f"{inner}[{self.text}]"


@_quick
@dataclass(frozen=True)
class Comment(_Annotated):
    """A whole roll with a comment (``1d20+5 # Wahrnehmung``, ``1d20+5 [Angriff]``)."""

    @property
    def precedence(self) -> int:
        """Stands only at the root."""
        return -1

    def __str__(self) -> str:
        return f"{self.operand} # {self.text}"


# -- hints: what the result says about forms other tools read otherwise -----------------------


def hints(node: Expression) -> tuple[str, ...]:
    """Codes of one-line hints for a result (``dice.hint.<code>`` in the catalogs):
    ``strict`` when a ``>`` or ``<`` is used (Roll20 reads them as ``>=``/``<=``), ``d66``
    for a 66-sided die (German ``W66`` usually means tens and ones), ``reroll_equal`` when
    ``r`` rerolls one face above the lowest (Dice Maiden's ``r2`` rerolls 2 or less)."""
    found: list[str] = []
    for n in node.walk():
        compares: list[Compare | None] = []
        if isinstance(n, Dice):
            spec = n.spec
            compares += [n.compare, n.failure, spec.reroll.on if spec.reroll else None]
            compares.append(spec.explode.on if spec.explode else None)
            if n.sides == 66 and "d66" not in found:
                found.append("d66")
            if (
                spec.reroll is not None
                and spec.reroll.on.op == "="
                and spec.reroll.on.target > 1
                and "reroll_equal" not in found
            ):
                found.append("reroll_equal")
        elif isinstance(n, Test):
            compares.append(n.compare)
        elif isinstance(n, Group):
            compares += [n.compare, n.failure]
        if "strict" not in found and any(c is not None and c.op in (">", "<") for c in compares):
            found.append("strict")
    order = ("strict", "d66", "reroll_equal")
    return tuple(code for code in order if code in found)


# -- the grammar ----------------------------------------------------------------------------

_GRAMMAR = r"""
?start: test
?test: sum
    | sum CMP signed -> total
signed: MINUS? INT
?sum: product
    | sum ADDOP product -> binary
?product: unary
    | product MULOP unary -> binary
?unary: labelled
    | MINUS unary -> negate
?labelled: atom
    | atom LABEL -> label
?atom: INT -> constant
    | INT? DIE modifier* -> dice
    | INT? FATE -> fate
    | INT? SYMBOL -> pool
    | LPAR test RPAR -> paren
    | FUNC LPAR test RPAR -> call
    | LBRACE test (COMMA test)* RBRACE groupmod* -> group
?modifier: REROLL cond? -> reroll
    | EXPLODE cond? -> explode
    | KEEP INT? -> keep
    | BOUND INT -> bound
    | SUCCESS cond -> success
    | FAILURE cond -> failure
    | CMP INT -> compare
?groupmod: KEEP INT? -> keep
    | SUCCESS cond -> success
    | FAILURE cond -> failure
    | CMP INT -> compare
cond: CMP INT | INT

ADDOP: "+" | "-"
MINUS: "-"
MULOP: "*" | "/"
LPAR: "("
RPAR: ")"
LBRACE: "{"
RBRACE: "}"
COMMA: ","
INT: /[0-9]+/
DIE: /[dDwW]([0-9]+|%)/
FATE: /[dDwW][fF]/
SYMBOL: /[HMJBEShmjbes]/
FUNC: /floor|ceil|round|abs/i
REROLL: /rr|ro|ra|r/i
EXPLODE: /!!|!p|!|xo|x|ie/i
KEEP: /kh|kl|dh|dl|k|d/i
BOUND: /min|max|mi|ma/i
SUCCESS: /cs|t/i
FAILURE: /cf|f/i
CMP: />=|<=|>|<|=/
LABEL: /\[[^\[\]\r\n]*\]/
%ignore /[ \t]+/
"""

# Language-neutral hints for what may come next (shown in errors of both languages).
_HINTS: dict[str, str] = {
    "INT": "0-9",
    "DIE": "d6 / W6",
    "FATE": "dF",
    "SYMBOL": "H M J B E S",
    "FUNC": "floor( ceil( round( abs(",
    "LPAR": "(",
    "RPAR": ")",
    "LBRACE": "{",
    "RBRACE": "}",
    "COMMA": ",",
    "ADDOP": "+ -",
    "MINUS": "-",
    "MULOP": "* /",
    "REROLL": "r ro rr",
    "EXPLODE": "! !! !p xo",
    "KEEP": "kh kl dh dl",
    "BOUND": "min max",
    "SUCCESS": "cs t",
    "FAILURE": "cf f",
    "CMP": ">= > <= < =",
    "LABEL": "[…]",
    "$END": "⏎",
}
_HINT_ORDER = tuple(_HINTS)
_MAX_DIGITS = 9
_FUNCTIONS = ("floor", "ceil", "round", "abs")


def _hint(expected: set[str] | frozenset[str]) -> str:
    names = [name for name in _HINT_ORDER if name in expected]
    return " | ".join(_HINTS[name] for name in names) or "?"


Make = Callable[[CompareOp, int | None, int], Any]
"""What a suffix sets, from its comparison operator, its number (``None``: none written) and
the sides of the die."""


def _reroll(mode: RerollMode) -> Make:
    return lambda op, number, sides: Reroll(
        mode, Compare("=", 1) if number is None else Compare(op, number)
    )


def _explode(mode: ExplodeMode) -> Make:
    return lambda op, number, sides: Explode(mode, None if number is None else Compare(op, number))


def _add_once(op: CompareOp, number: int | None, sides: int) -> Explode:
    return Explode("once", Compare("=", sides) if number is None else Compare(op, number))


def _keep(mode: KeepMode) -> Make:
    return lambda op, number, sides: Keep(mode, 1 if number is None else number)


def _bound(op: CompareOp, number: int | None, sides: int) -> int | None:
    return number


def _condition(op: CompareOp, number: int | None, sides: int) -> Compare | None:
    return None if number is None else Compare(op, number)


# Every suffix of a dice term or group (lower case; "" is a bare comparison, ``>=4``): the
# slot it fills, what a bare number after it compares with (Foundry's and Roll20's ``=``;
# Dice Maiden's ``t`` and ``ie`` at least, ``f`` at most) and what it sets (``None`` where a
# number it needs is missing). The grammar and the fast path both read suffixes by it.
_SUFFIXES: dict[str, tuple[str, CompareOp, Make]] = {
    "r": ("reroll", "=", _reroll("once")),
    "ro": ("reroll", "=", _reroll("once")),
    "rr": ("reroll", "=", _reroll("always")),
    "ra": ("explode", "=", _add_once),
    "!": ("explode", "=", _explode("add")),
    "x": ("explode", "=", _explode("add")),
    "!!": ("explode", "=", _explode("add")),
    "ie": ("explode", ">=", _explode("add")),
    "!p": ("explode", "=", _explode("penetrate")),
    "xo": ("explode", "=", _explode("once")),
    "kh": ("keep", "=", _keep("kh")),
    "k": ("keep", "=", _keep("kh")),
    "kl": ("keep", "=", _keep("kl")),
    "dh": ("keep", "=", _keep("dh")),
    "dl": ("keep", "=", _keep("dl")),
    "d": ("keep", "=", _keep("dl")),
    "min": ("minimum", "=", _bound),
    "mi": ("minimum", "=", _bound),
    "max": ("maximum", "=", _bound),
    "ma": ("maximum", "=", _bound),
    "cs": ("compare", "=", _condition),
    "t": ("compare", ">=", _condition),
    "cf": ("failure", "=", _condition),
    "f": ("failure", "<=", _condition),
    "": ("compare", "=", _condition),
}
_GROUP_SLOTS = frozenset({"keep", "compare", "failure"})
"""The slots a group's suffixes may fill."""


def _suffix(word: str, op: str | None, number: int | None, sides: int) -> tuple[str, Any]:
    """The slot a suffix (lower case) fills and its value (``None`` where a number it needs
    is missing)."""
    slot, bare, make = _SUFFIXES[word]
    return slot, make(op or bare, number, sides)  # type: ignore[arg-type]


class _Meaning:
    """The checks of meaning and limits shared by the grammar's builder and the fast path.

    Each check raises :class:`NotationError` (the builder) — the fast path catches nothing
    and lets the grammar name the error, so both report the same."""

    def __init__(self, text: str, limits: Limits) -> None:
        self.text = text
        self.limits = limits

    def fail(self, code: str, position: int, found: str, expected: str, **params: Any) -> Any:
        return NotationError(
            code, value=self.text, position=position, found=found, expected=expected, **params
        )

    def number(self, digits: str, position: int) -> int:
        if len(digits.lstrip("0")) > _MAX_DIGITS:
            raise self.fail("dice.number_too_large", position, digits, f"≤ {10**_MAX_DIGITS - 1}")
        return int(digits)

    def count(self, digits: str | None, position: int, empty_ok: bool) -> int:
        if digits is None:
            return 1
        count = self.number(digits, position)
        if count > self.limits.max_dice:
            raise self.fail(
                "dice.too_many_dice",
                position,
                digits,
                f"≤ {self.limits.max_dice}",
                limit=self.limits.max_dice,
            )
        if count == 0 and not empty_ok:
            raise self.fail("dice.empty_pool", position, digits, "1-9")
        return count

    def sides(self, die: str, position: int) -> int:
        side_text = die[1:]
        if side_text == "%":
            sides = 100
        else:
            if len(side_text.lstrip("0")) > _MAX_DIGITS:
                raise self.fail("dice.number_too_large", position, die, f"≤ {10**_MAX_DIGITS - 1}")
            sides = int(side_text)
        if not 2 <= sides <= self.limits.max_sides:
            raise self.fail(
                "dice.bad_sides", position, die, f"d2 … d{self.limits.max_sides}", sides=sides
            )
        return sides

    def keep(self, keep: Keep, count: int, position: int, found: str) -> None:
        limit = count if keep.mode in ("kh", "kl") else count - 1
        if not 1 <= keep.count <= limit:
            raise self.fail(
                "dice.bad_keep",
                position,
                found,
                f"{keep.mode}1 … {keep.mode}{max(limit, 1)}",
                keep=str(keep),
                dice=count,
            )
        if count > self.limits.max_keep_pool:
            raise self.fail(
                "dice.keep_pool_too_large",
                position,
                found,
                f"≤ {self.limits.max_keep_pool}",
                limit=self.limits.max_keep_pool,
            )

    def dice(self, node: Dice, position: int, found: str) -> None:
        """The meaning of a finished dice term: rules that leave a die without a face to
        show, explosions that never stop, bounds past the faces."""
        sides = node.sides
        spec = node.spec
        rule = spec.reroll
        if rule is not None and rule.mode == "always" and rule.on.hits(sides) == sides:
            raise self.fail(
                "dice.reroll_every_face",
                position,
                found,
                f"rr1 … rr{sides - 1}",
                rule=str(spec.reroll),
            )
        for bound in (node.minimum, node.maximum):
            if bound is not None and not 1 <= bound <= sides:
                raise self.fail("dice.bad_bound", position, found, f"1 … {sides}", bound=bound)
        if node.minimum is not None and node.maximum is not None and node.minimum > node.maximum:
            raise self.fail("dice.bad_bound", position, found, "min ≤ max", bound=node.minimum)
        explode = spec.explode
        if explode is None or explode.mode == "once":
            return
        shown = [face for face, weight in spec.faces() if weight]
        if all(map(spec.explodes, shown)):
            raise self.fail("dice.explodes_always", position, found, f"!{sides}", rule=str(explode))

    def label(self, text: str, position: int) -> str:
        inner = text[1:-1].strip()
        if len(inner) > self.limits.max_label or any(ord(c) < 32 for c in inner):
            raise self.fail(
                "dice.bad_label",
                position,
                text,
                f"≤ {self.limits.max_label}",
                limit=self.limits.max_label,
            )
        return inner


def _may_grow(spec: DieSpec) -> bool:
    """Whether a die's total can grow past any bound: it explodes again and again on a face
    whose extra throw adds something."""
    if spec.explode is None or spec.explode.mode == "once":
        return False
    return any(
        spec.value(face, True) > 0
        for face, weight in spec.faces()
        if weight and spec.explodes(face)
    )


def _dice_reachable(node: Dice) -> bool:
    """Whether a die of ``node`` can meet its success target (when unsure: yes)."""
    compare = node.compare
    assert compare is not None
    if node.plain:  # faces 1…sides
        return compare.hits(node.sides) > 0
    spec = node.spec
    totals = spec.totals()
    if any(compare.test(total) for total in totals):
        return True
    if not _may_grow(spec):
        return False
    if compare.op in (">=", ">"):
        return True
    # totals up to the largest found are all found; past it, "=" may still be met
    return compare.op == "=" and compare.target > max(totals)


class _Build(Transformer[Token, Any]):
    """Turns the parse into nodes and checks meaning and limits on the way."""

    def __init__(self, text: str, limits: Limits) -> None:
        super().__init__()
        self.meaning = _Meaning(text, limits)
        self.text = text

    def fail(self, code: str, token: Token | None, expected: str, **params: Any) -> NotationError:
        position = token.start_pos if token is not None and token.start_pos is not None else 0
        found = str(token) if token is not None else self.text
        result: NotationError = self.meaning.fail(code, position, found, expected, **params)
        return result

    def number(self, token: Token) -> int:
        return self.meaning.number(str(token), token.start_pos or 0)

    def constant(self, children: list[Token]) -> Expression:
        return Constant(self.number(children[0]))

    def paren(self, children: list[Any]) -> Expression:
        node: Expression = children[1]
        return node

    def negate(self, children: list[Any]) -> Expression:
        sign: Token = children[0]
        operand: Expression = children[1]
        if operand.kind is not Kind.NUMBER:
            raise self.fail("dice.mixed_types", sign, "0-9 | d6")
        return Negate(operand)

    def binary(self, children: list[Any]) -> Expression:
        left: Expression = children[0]
        op: Token = children[1]
        right: Expression = children[2]
        numbers = (left.kind is Kind.NUMBER, right.kind is Kind.NUMBER)
        if numbers[0] != numbers[1]:
            raise self.fail("dice.mixed_types", op, "0-9 | d6" if numbers[0] else "H M J B S")
        if str(op) in "*/" and not numbers[0]:
            raise self.fail("dice.mixed_types", op, "+ -")
        if str(op) == "/":
            if not isinstance(right, Constant) or right.value < 1:
                raise self.fail("dice.bad_divisor", op, "/ 1-9")
            return Divide(left, right.value)
        operator: BinaryOperator = "*" if str(op) == "*" else "+" if str(op) == "+" else "-"
        return BinaryOp(operator, left, right)

    def total(self, children: list[Any]) -> Expression:
        operand: Expression = children[0]
        op: Token = children[1]
        target: int = children[2]
        if operand.kind is not Kind.NUMBER:
            raise self.fail("dice.mixed_types", op, "+ -")
        return Test(operand, Compare(str(op), target))  # type: ignore[arg-type]

    def signed(self, children: list[Token]) -> int:
        value = self.number(children[-1])
        return -value if len(children) == 2 else value

    def call(self, children: list[Any]) -> Expression:
        name: Token = children[0]
        operand: Expression = children[2]
        function = str(name).lower()
        if operand.kind is not Kind.NUMBER:
            raise self.fail("dice.mixed_types", name, "0-9 | d6")
        return _call(
            function, operand, lambda: self.fail("dice.round_inside", name, "round(… / 2)")
        )

    def label(self, children: list[Any]) -> Expression:
        operand: Expression = children[0]
        token: Token = children[1]
        return Label(operand, self.meaning.label(str(token), token.start_pos or 0))

    def cond(self, children: list[Token]) -> tuple[str | None, int]:
        if len(children) == 1:
            return None, self.number(children[0])
        return str(children[0]), self.number(children[1])

    def reroll(self, children: list[Any]) -> tuple[str, Token, Any]:
        return ("reroll", children[0], children[1] if len(children) > 1 else None)

    def explode(self, children: list[Any]) -> tuple[str, Token, Any]:
        return ("explode", children[0], children[1] if len(children) > 1 else None)

    def keep(self, children: list[Any]) -> tuple[str, Token, Any]:
        return ("keep", children[0], children[1] if len(children) > 1 else None)

    def bound(self, children: list[Any]) -> tuple[str, Token, Any]:
        return ("bound", children[0], children[1])

    def success(self, children: list[Any]) -> tuple[str, Token, Any]:
        return ("success", children[0], children[1])

    def failure(self, children: list[Any]) -> tuple[str, Token, Any]:
        return ("failure", children[0], children[1])

    def compare(self, children: list[Any]) -> tuple[str, Token, Any]:
        return ("compare", children[0], (str(children[0]), self.number(children[1])))

    def _modifiers(self, parts: list[tuple[str, Token, Any]], sides: int) -> dict[str, Any]:
        """The modifiers of a dice term or group by slot (each slot at most once)."""
        found: dict[str, Any] = {}
        for rule, token, argument in parts:
            op: str | None = None
            number: int | None = None
            if isinstance(argument, tuple):
                op, number = argument
            elif argument is not None:
                number = self.number(argument)
            word = "" if rule == "compare" else str(token).lower()
            slot, value = _suffix(word, op, number, sides)
            if slot in found:
                raise self.fail("dice.duplicate_modifier", token, "+ -", modifier=str(token))
            found[slot] = value
        return found

    def dice(self, children: list[Any]) -> Expression:
        parts = list(children)
        count_token: Token | None = None
        if isinstance(parts[0], Token) and parts[0].type == "INT":
            count_token = parts.pop(0)
        die: Token = parts.pop(0)
        position = die.start_pos or 0
        count = self.meaning.count(
            None if count_token is None else str(count_token),
            0 if count_token is None else count_token.start_pos or 0,
            empty_ok=False,
        )
        sides = self.meaning.sides(str(die), position)
        found = self._modifiers(parts, sides)
        if "keep" in found:
            self.meaning.keep(found["keep"], count, position, str(die))
        node = Dice(count, sides, **found)
        self.meaning.dice(node, position, str(die))
        return node

    def fate(self, children: list[Token]) -> Expression:
        count_token = children[0] if len(children) == 2 else None
        count = self.meaning.count(
            None if count_token is None else str(count_token),
            0 if count_token is None else count_token.start_pos or 0,
            empty_ok=False,
        )
        return Pool(count, FATE)

    def pool(self, children: list[Token]) -> Expression:
        count_token = children[0] if len(children) == 2 else None
        letter = children[-1]
        count = self.meaning.count(
            None if count_token is None else str(count_token),
            0 if count_token is None else count_token.start_pos or 0,
            empty_ok=True,
        )
        return Pool(count, str(letter).upper())

    def group(self, children: list[Any]) -> Expression:
        brace: Token = children[0]
        members: list[Expression] = []
        parts: list[tuple[str, Token, Any]] = []
        for child in children[1:]:
            if isinstance(child, Expression):
                members.append(child)
            elif isinstance(child, tuple):
                parts.append(child)
        for member in members:
            if member.kind is not Kind.NUMBER:
                raise self.fail("dice.mixed_types", brace, "0-9 | d6")
        found = self._modifiers(parts, 0)
        if "keep" in found:
            self.meaning.keep(found["keep"], len(members), brace.start_pos or 0, "{")
        return Group(tuple(members), **found)


def _call(function: str, operand: Expression, inside: Any) -> Expression:
    """``function(operand)``: ``abs``; or a rounding of the division right inside it; a
    rounding of anything else leaves whole numbers as they are."""
    if function == "abs":
        return Abs(operand)
    if isinstance(operand, Divide) and not operand.explicit:
        return replace(operand, rounding=function, explicit=True)  # type: ignore[arg-type]
    if function != "floor" and any(
        isinstance(n, Divide) and not n.explicit for n in operand.walk()
    ):
        raise inside()
    return operand


@cache
def _parser() -> Lark:
    return Lark(_GRAMMAR, parser="lalr", maybe_placeholders=False)


def _syntax_error(text: str, error: UnexpectedInput) -> NotationError:
    position = error.pos_in_stream if error.pos_in_stream is not None else len(text)
    if isinstance(error, UnexpectedToken) and error.token.type == "$END":
        position = len(text)
    expected: set[str] = set()
    if isinstance(error, UnexpectedToken | UnexpectedEOF):
        expected = set(error.expected)
    elif isinstance(error, UnexpectedCharacters):
        expected = set(error.allowed or ())
    position = min(max(position, 0), len(text))
    found = text[position : position + 1]
    if position < len(text) and isinstance(error, UnexpectedToken):
        found = str(error.token) or found
    code = "dice.notation.unexpected" if found else "dice.notation.end"
    if not text.strip():
        code = "dice.notation.empty"
    return NotationError(code, value=text, position=position, found=found, expected=_hint(expected))


def _count_dice(node: Expression, text: str, limits: Limits) -> None:
    total = node.dice_count
    if total > limits.max_dice:
        raise NotationError(
            "dice.too_many_dice",
            value=text,
            position=0,
            found=text,
            expected=f"≤ {limits.max_dice}",
            limit=limits.max_dice,
        )


# -- the fast path: valid input without the grammar machinery ------------------------------
#
# Tables type the same few expressions again and again, and the grammar costs tens of
# microseconds per text, more than the odds of a small check. ``_fast`` reads the grammar
# above by recursive descent over the characters, with a few regular expressions, and gives
# the very tree the grammar gives — or ``None`` at the first thing that is not plainly valid
# (a syntax error, a limit, mixed types), and then the grammar parses the text again and
# names the error. So errors stay the grammar's; a property test checks that both agree.

_TERM = re.compile(
    r"[ \t]*(?:([0-9]+)[ \t]*)?(?:([dDwW])([0-9]+|%|[fF])|([HMJBEShmjbes]))"
    r"|[ \t]*([0-9]+)"
)
_FUNC = re.compile(r"[ \t]*(floor|ceil|round|abs)[ \t]*\(", re.I)
_SUFFIX = re.compile(
    r"[ \t]*(?:(rr|ro|ra|r|!!|!p|!|xo|x|ie|cs|t|cf|f)(?:[ \t]*(>=|<=|>|<|=)?[ \t]*([0-9]+))?"
    r"|(kh|kl|dh|dl|k|d|min|max|mi|ma)(?:[ \t]*([0-9]+))?|(>=|<=|>|<|=)[ \t]*([0-9]+))",
    re.I,
)
# One suffix of a dice term or group: its word, comparison and number.
_CMP = re.compile(r"[ \t]*(>=|<=|>|<|=)[ \t]*(-?)[ \t]*([0-9]+)")
_LABEL = re.compile(r"[ \t]*(\[[^\[\]\r\n]*\])")

_LIMITS = Limits()


class _Bail(Exception):
    """The fast path gives up; the grammar takes the text."""


def _number(text: str | None) -> int | None:
    return None if text is None else _int(text)


def _int(text: str) -> int:
    if len(text) > _MAX_DIGITS and len(text.lstrip("0")) > _MAX_DIGITS:
        raise _Bail
    return int(text)


class _Fast:
    """Recursive descent over the characters; raises :class:`_Bail` at anything unusual."""

    __slots__ = ("counted", "dice", "limits", "pos", "text")

    def __init__(self, text: str, limits: Limits) -> None:
        self.text = text
        self.pos = 0
        self.limits = limits
        self.dice = 0
        self.counted: list[Dice] = []
        """The dice terms that count successes, but for plain dice whose target a face
        meets (the others' targets are checked after)."""

    def peek(self) -> str:
        text, pos = self.text, self.pos
        char = text[pos : pos + 1]
        while char == " " or char == "\t":
            pos += 1
            char = text[pos : pos + 1]
        self.pos = pos
        return char

    def test(self) -> Expression:
        left = self.sum()
        char = self.peek()
        found = _CMP.match(self.text, self.pos) if char and char in "<>=" else None
        if found is None:
            return left
        if left.kind is not Kind.NUMBER:
            raise _Bail
        self.pos = found.end()
        target = _int(found.group(3))
        return Test(left, Compare(found.group(1), -target if found.group(2) else target))  # type: ignore[arg-type]

    def sum(self) -> Expression:
        left = self.product()
        while True:
            op = self.peek()
            if op not in ("+", "-") or not op:
                return left
            self.pos += 1
            right = self.product()
            if (left.kind is Kind.NUMBER) != (right.kind is Kind.NUMBER):
                raise _Bail
            left = BinaryOp("+" if op == "+" else "-", left, right)

    def product(self) -> Expression:
        left = self.unary()
        while True:
            op = self.peek()
            if op not in ("*", "/") or not op:
                return left
            self.pos += 1
            right = self.unary()
            if left.kind is not Kind.NUMBER or right.kind is not Kind.NUMBER:
                raise _Bail
            if op == "*":
                left = BinaryOp("*", left, right)
            elif isinstance(right, Constant) and right.value >= 1:
                left = Divide(left, right.value)
            else:
                raise _Bail

    def unary(self) -> Expression:
        if self.peek() == "-":
            self.pos += 1
            operand = self.unary()
            if operand.kind is not Kind.NUMBER:
                raise _Bail
            return Negate(operand)
        node = self.atom()
        found = _LABEL.match(self.text, self.pos) if self.peek() == "[" else None
        if found is None:
            return node
        self.pos = found.end()
        inner = found.group(1)[1:-1].strip()
        if len(inner) > self.limits.max_label or any(ord(c) < 32 for c in inner):
            raise _Bail
        return Label(node, inner)

    def atom(self) -> Expression:
        char = self.peek()
        text = self.text
        if char == "(":
            self.pos += 1
            node = self.test()
            self.close(")")
            return node
        if char == "{":
            return self.group()
        found = _TERM.match(text, self.pos)
        if found is None:
            call = _FUNC.match(text, self.pos)
            if call is None:
                raise _Bail
            self.pos = call.end()
            operand = self.test()
            self.close(")")
            if operand.kind is not Kind.NUMBER:
                raise _Bail

            def refuse() -> _Bail:
                return _Bail()

            return _call(call.group(1).lower(), operand, refuse)
        count_text, _, side_text, symbol, number = found.groups()
        if number is not None:
            self.pos = found.end()
            return Constant(_int(number))
        count = 1
        if count_text is not None:
            count = _int(count_text)
            if count > self.limits.max_dice:
                raise _Bail
        self.pos = found.end()
        if symbol is not None:
            self.dice += count
            return Pool(count, symbol.upper())
        if count == 0:
            raise _Bail
        if side_text in ("F", "f"):
            self.dice += count
            return Pool(count, FATE)
        sides = 100 if side_text == "%" else _int(side_text)
        if not 2 <= sides <= self.limits.max_sides:
            raise _Bail
        return self.modifiers(count, sides)

    def close(self, char: str) -> None:
        if self.peek() != char:
            raise _Bail
        self.pos += 1

    def suffixes(self, sides: int) -> dict[str, Any]:
        """The run of suffixes from here, by slot (see :data:`_SUFFIXES`)."""
        text, pos = self.text, self.pos
        found: dict[str, Any] = {}
        match = _SUFFIX.match(text, pos)
        while match is not None:
            word, op, number, named, digits, compare, target = match.groups()
            if named:
                word, number = named, digits
            elif compare:
                word, op, number = "", compare, target
            slot, value = _suffix(word.lower(), op, None if number is None else _int(number), sides)
            if value is None or slot in found:
                raise _Bail
            found[slot] = value
            pos = match.end()
            match = _SUFFIX.match(text, pos)
        self.pos = pos
        return found

    def modifiers(self, count: int, sides: int) -> Expression:
        found = self.suffixes(sides)
        if not found:
            self.dice += count
            return Dice(count, sides)
        keep_rule = found.get("keep")
        if keep_rule is not None:
            limit = count if keep_rule.mode in ("kh", "kl") else count - 1
            if not 1 <= keep_rule.count <= limit or count > self.limits.max_keep_pool:
                raise _Bail
        node = Dice(count, sides, **found)
        rule = found.get("reroll")
        if rule is not None and rule.mode == "always" and rule.on.hits(sides) == sides:
            raise _Bail  # no face would stay
        if "explode" in found or "minimum" in found or "maximum" in found:
            try:
                _Meaning(self.text, self.limits).dice(node, 0, "")
            except NotationError:
                raise _Bail from None
        if node.compare is not None:
            self.counted.append(node)
        self.dice += count
        return node

    def member(self) -> Expression:
        """A member of a group: in one match when it is simple (see :data:`_MEMBER`)."""
        found = _MEMBER.match(self.text, self.pos)
        if found is not None:
            pos, dice, counted = self.pos, self.dice, len(self.counted)
            try:
                node = _simple_read(self, found)
            except _Bail:
                self.pos, self.dice = pos, dice
                del self.counted[counted:]
            else:
                self.pos = found.end()
                return node
        return self.test()

    def group(self) -> Expression:
        self.pos += 1
        members = [self.member()]
        while self.peek() == ",":
            self.pos += 1
            members.append(self.member())
        self.close("}")
        if any(member.kind is not Kind.NUMBER for member in members):
            raise _Bail
        found = self.suffixes(0)
        if not _GROUP_SLOTS.issuperset(found):
            raise _Bail
        rule = found.get("keep")
        if rule is not None:
            limit = len(members) if rule.mode in ("kh", "kl") else len(members) - 1
            if not 1 <= rule.count <= limit or len(members) > self.limits.max_keep_pool:
                raise _Bail
        return Group(tuple(members), **found)


_HEAD = (
    r"[ \t]*(?:([0-9]*)[ \t]*(?:[dDwW]([0-9]+|%)([a-zA-Z0-9!<>= \t]*)|([HMJBEShmjbes]))"
    r"|([0-9]+))[ \t]*"
)
_SIMPLE = re.compile(rf"{_HEAD}(?:([-+]){_HEAD})?(?:(>=|<=|[<>=])[ \t]*(-?)[ \t]*([0-9]+))?[ \t]*")
_COUNTS = re.compile(r"[ \t]*(>=|<=|>|<|=)[ \t]*([0-9]+)[ \t]*")
_MEMBER = re.compile(rf"{_SIMPLE.pattern}(?=[,}}])")
# The commonest texts in one match: one term, or two joined by + or -, maybe compared with a
# target (``3d6``, ``4W6kh3``, ``2d20kh1 + 5``, ``10M-3J``, ``1d20+5>=15``, ``4d6r1``), and
# group members of that shape; anything else goes through the descent.
_LONE = re.compile(
    r"[ \t]*(kh|kl|dh|dl|k|d|rr|ro|r)(?:[ \t]*(>=|<=|>|<|=)?[ \t]*([0-9]+))?[ \t]*", re.I
)
# A keep, drop or reroll as a dice term's only suffix (a keep takes no comparison).
_GROUP = re.compile(r"[ \t]*\{([^{}()\[\]]*)\}([a-zA-Z0-9<>= \t]*)")
# A group of members without brackets (each one of :data:`_SIMPLE`'s shape), maybe with
# suffixes: ``{1d20, 1d20}kh1``, ``{4d6kh3, 4d6kh3}``, ``{3d6, 3d6, 3d6}>=12``.


def _simple_term(reader: _Fast, parts: tuple[str | None, ...], at: int, start: int) -> Expression:
    """One term of :data:`_SIMPLE` (its groups from ``at`` on, found from ``start``); the
    reader counts its dice."""
    count_text, side_text, mods, symbol, number = parts[at : at + 5]
    if number is not None:
        return Constant(_int(number))
    count = _int(count_text) if count_text else 1
    limits = reader.limits
    if count > limits.max_dice:
        raise _Bail
    if symbol is not None:
        reader.dice += count
        return Pool(count, symbol.upper())
    assert side_text is not None
    sides = 100 if side_text == "%" else _int(side_text)
    if count == 0 or not 2 <= sides <= limits.max_sides:
        raise _Bail
    reader.dice += count
    if not mods or not mods.strip():
        return Dice(count, sides)
    counts = _COUNTS.fullmatch(mods)
    if counts is not None:  # the commonest suffix alone: a success target (``5d6>=4``)
        on = Compare(counts.group(1), _int(counts.group(2)))  # type: ignore[arg-type]
        counting = Dice(count, sides, compare=on)
        if not on.hits(sides):
            reader.counted.append(counting)
        return counting
    lone = _LONE.fullmatch(mods)
    if lone is not None:  # a keep, drop or reroll alone (``4d6kh3``, ``2d20kl``, ``4d6r1``)
        word, op, digits = lone.groups()
        slot, rule = _suffix(word.lower(), op, None if digits is None else _int(digits), sides)
        if slot == "keep":
            if op is not None:
                raise _Bail
            limit = count if rule.mode in ("kh", "kl") else count - 1
            if not 1 <= rule.count <= limit or count > limits.max_keep_pool:
                raise _Bail
            return Dice(count, sides, keep=rule)
        if rule.mode == "always" and rule.on.hits(sides) == sides:
            raise _Bail  # no face would stay
        return Dice(count, sides, reroll=rule)
    reader.dice -= count  # counted by the suffixes' reader
    reader.pos = start
    node = reader.modifiers(count, sides)
    if reader.peek() and reader.pos != start + len(mods):
        raise _Bail
    if reader.pos < start + len(mods.rstrip()):
        raise _Bail
    return node


def _simple_read(reader: _Fast, found: re.Match[str]) -> Expression:
    """The tree of a match of :data:`_SIMPLE`; raises :class:`_Bail` if it is not one."""
    parts = found.groups()
    left = _simple_term(reader, parts, 0, found.start(3))
    if parts[5] is not None:
        right = _simple_term(reader, parts, 6, found.start(9))
        if (left.kind is Kind.NUMBER) != (right.kind is Kind.NUMBER):
            raise _Bail
        left = BinaryOp("+" if parts[5] == "+" else "-", left, right)
    if reader.dice > reader.limits.max_dice:
        raise _Bail
    op = parts[11]
    if op is None:
        return left
    if left.kind is not Kind.NUMBER:
        raise _Bail
    target = _int(parts[13])
    return Test(left, Compare(op, -target if parts[12] else target))  # type: ignore[arg-type]


def _simple_group(reader: _Fast, found: re.Match[str]) -> Expression:
    """The tree of a match of :data:`_GROUP`; raises :class:`_Bail` if it is not one."""
    members: list[Expression] = []
    limits = reader.limits
    read: dict[str, tuple[Expression, int, list[Dice]]] = {}  # a member written again: once
    for written in found.group(1).split(","):
        text = written.strip(" \t")
        known = read.get(text)
        if known is None:
            bare = _BARE.fullmatch(text)
            term = None if bare is None else _bare(bare, limits)
            if bare is not None and term is not None:
                known = read[text] = _bonus(bare, term), term.count, []
            else:
                simple = _SIMPLE.fullmatch(text)
                if simple is None:
                    raise _Bail
                part = _Fast(text, limits)
                member = _simple_read(part, simple)
                if member.kind is not Kind.NUMBER:
                    raise _Bail
                known = read[text] = member, part.dice, part.counted
        member, dice, counted = known
        reader.dice += dice
        reader.counted += counted
        members.append(member)
    if reader.dice > limits.max_dice:
        raise _Bail
    after = found.group(2)
    lone = _LONE.fullmatch(after) if after else None
    suffixes: dict[str, Any] = {}
    if lone is not None and lone.group(2) is None:  # a keep alone (``kh1``): no reroll here
        slot, rule = _suffix(lone.group(1).lower(), None, _number(lone.group(3)), 0)
        if slot != "keep":
            raise _Bail
        suffixes[slot] = rule
    elif after:
        reader.pos = found.start(2)
        suffixes = reader.suffixes(0)
        if reader.peek() or not _GROUP_SLOTS.issuperset(suffixes):
            raise _Bail
    rule = suffixes.get("keep")
    if rule is not None:
        limit = len(members) if rule.mode in ("kh", "kl") else len(members) - 1
        if not 1 <= rule.count <= limit or len(members) > limits.max_keep_pool:
            raise _Bail
    return Group(tuple(members), **suffixes)


_BARE = re.compile(
    r"([0-9]{1,4})?[dDwW]([0-9]{1,3})(?:(>=|<=|>|<|=)([0-9]{1,4})|(kh|kl|dh|dl)([0-9]{1,3}))?"
    r"(?: ?([-+]) ?([0-9]{1,4})(?: ?(>=|<=|>|<|=) ?([0-9]{1,4}))?)?"
)
# The commonest texts of all: dice, maybe counting successes or keeping some, maybe with a
# number added or taken away and then maybe compared with a target, a space allowed around
# the sign and the comparison of the total (``3d6``, ``5W6>=4``, ``4d6kh3``, ``1d20+5``,
# ``2d20kh1 + 5``, ``1d20 + 5 >= 15``); no number here is long enough to need the digit
# limits.


def _bare(found: re.Match[str], limits: Limits) -> Dice | None:
    """The dice term of a match of :data:`_BARE`, or ``None`` when it is not plainly valid
    (the general reading names what is wrong) or counts a target no face meets."""
    count_text, side_text, op, target, mode, kept = found.groups()[:6]
    count = int(count_text) if count_text else 1
    sides = int(side_text)
    if not 1 <= count <= limits.max_dice or not 2 <= sides <= limits.max_sides:
        return None
    if mode is not None:
        number = int(kept)
        limit = count if mode[0] == "k" else count - 1
        if not 1 <= number <= limit or count > limits.max_keep_pool:
            return None
        return Dice(count, sides, keep=Keep(mode, number))  # type: ignore[arg-type]
    if op is None:
        return Dice(count, sides)
    on = Compare(op, int(target))  # type: ignore[arg-type]
    return Dice(count, sides, compare=on) if on.hits(sides) else None


def _bonus(found: re.Match[str], term: Dice) -> Expression:
    """The dice term of a match of :data:`_BARE` with the number added or taken away, and
    the total compared with the target."""
    op, number, compare, target = found.group(7, 8, 9, 10)
    if op is None:
        return term
    total = BinaryOp("+" if op == "+" else "-", term, Constant(int(number)))
    if compare is None:
        return total
    return Test(total, Compare(compare, int(target)))  # type: ignore[arg-type]


def _fast(text: str, limits: Limits) -> tuple[Expression, list[Dice]] | None:
    """The tree of ``text`` when it is plainly valid, and its dice terms that count
    successes; else ``None`` (see above)."""
    bare = _BARE.fullmatch(text)
    if bare is not None:
        term = _bare(bare, limits)
        if term is not None:
            return _bonus(bare, term), []
    found = _SIMPLE.fullmatch(text)
    if found is not None:
        reader = _Fast(text, limits)
        try:
            return _simple_read(reader, found), reader.counted
        except _Bail:
            pass
    elif "{" in text:
        group = _GROUP.fullmatch(text)
        if group is not None:
            reader = _Fast(text, limits)
            try:
                return _simple_group(reader, group), reader.counted
            except _Bail:
                pass
    reader = _Fast(text, limits)
    try:
        node = reader.test()
        if reader.peek() != "":
            return None
    except (_Bail, IndexError, RecursionError):
        return None
    if reader.dice > limits.max_dice:
        return None
    return node, reader.counted


# -- comments and the trailing label ---------------------------------------------------------


def _split_comment(text: str) -> tuple[str, str | None, int]:
    """``text`` without its comment, the comment, and where it starts: everything after the
    first ``#`` outside a label; else a label ``[…]`` at the end, after a space, when it is
    the only label (``1d20+5 [Angriff]``)."""
    if "#" not in text and "]" not in text:
        return text, None, len(text)
    depth = 0
    for index, char in enumerate(text):
        if char == "[":
            depth += 1
        elif char == "]":
            depth = max(0, depth - 1)
        elif char == "#" and depth == 0:
            return text[:index], text[index + 1 :].strip(), index
    stripped = text.rstrip()
    if stripped.endswith("]") and stripped.count("[") == 1 and stripped.count("]") == 1:
        start = stripped.index("[")
        if start > 0 and stripped[start - 1] in " \t" and stripped[:start].strip():
            return text[:start], stripped[start + 1 : -1].strip(), start
    return text, None, len(text)


def _check_comment(text: str, comment: str, start: int, limits: Limits) -> None:
    if len(comment) > limits.max_label or any(ord(c) < 32 and c != "\t" for c in comment):
        raise NotationError(
            "dice.bad_label",
            value=text,
            position=start,
            found=comment[:10],
            expected=f"≤ {limits.max_label}",
            limit=limits.max_label,
        )


# -- the meaning of the whole tree -----------------------------------------------------------


def _replace(node: Expression, old: Expression, new: Expression) -> Expression:
    """``node`` with the sub-tree ``old`` (by identity) replaced by ``new``."""
    if node is old:
        return new
    if isinstance(node, BinaryOp):
        return BinaryOp(node.op, _replace(node.left, old, new), _replace(node.right, old, new))
    if isinstance(node, Negate | Abs | Label | Comment | Test | Divide):
        return replace(node, operand=_replace(node.operand, old, new))
    if isinstance(node, Group):
        return replace(node, members=tuple(_replace(m, old, new) for m in node.members))
    return node


def _rightmost(node: Expression) -> Expression:
    if isinstance(node, BinaryOp):
        return _rightmost(node.right)
    if isinstance(node, Negate):
        return _rightmost(node.operand)
    return node


def _check_targets(node: Expression, counted: list[Dice], text: str, written: str) -> None:
    """Refuse a success target no die can reach (``3d6>=10``: the sum of the dice was meant),
    suggesting the comparison of the total; ``counted`` are the dice terms of ``node`` that
    count successes."""
    for n in counted:
        compare = n.compare
        assert compare is not None
        if _dice_reachable(n):
            continue
        plain = replace(n, compare=None)
        if n.failure is None and _rightmost(node) is n and not isinstance(node, Test):
            suggestion = str(Test(_replace(node, n, plain), compare))
            at = written.rfind(str(compare.op))
            if at > 0 and written[at:].replace(" ", "") == str(compare):
                suggestion = f"({written[:at].strip()}){written[at:].strip()}"
        else:
            suggestion = str(_replace(node, n, Test(plain, compare)))
        position = max(0, text.find(str(compare.op)))
        raise NotationError(
            "dice.unreachable_target",
            value=text,
            position=position,
            found=str(compare),
            expected=suggestion,
            suggestion=suggestion,
            dice=str(plain),
        )


_OPERATORS = re.compile(r"[-+*/({,]")
# What counts against ``max_operators``: operators, opening brackets, commas of groups.
_TARGETS = re.compile(r"[<>=]|[csCS][0-9<>=]|[tT]")
# Only a text with one of these can hold a success target (``>=``, ``cs6``, ``t5``).


def parse(text: str, limits: Limits | None = None) -> Expression:
    """Parse dice notation into an expression tree.

    Raises :class:`~spieltisch.dice.errors.NotationError` (naming position, the text found
    and what was expected; for forms of other tools the spelling that works here) for
    anything that is not a valid expression within ``limits``.
    """
    limits = limits or _LIMITS
    if not isinstance(text, str):
        raise NotationError(
            "dice.notation.empty", value=repr(text), position=0, found="", expected="3d6"
        )
    # every operator is one character: a shorter text cannot have too many
    operators = len(_OPERATORS.findall(text)) if len(text) > limits.max_operators else 0
    if len(text) > limits.max_length or operators > limits.max_operators:
        raise NotationError(
            "dice.notation.too_long",
            value=text,
            position=0,
            found=text[:10],
            expected=f"≤ {limits.max_operators}",
            length=len(text),
            operators=operators,
            limit=limits.max_operators,
        )
    body, comment, start = _split_comment(text)
    fast = _fast(body, limits)
    if fast is not None:
        node, counted = fast
    else:
        node = _grammar_parse(body, limits, text)
        counted = []
        if _TARGETS.search(body):
            counted = [n for n in node.walk() if isinstance(n, Dice) and n.compare is not None]
    if counted:
        _check_targets(node, counted, text, body)
    if comment is not None:
        _check_comment(text, comment, start, limits)
        if comment:
            node = Comment(node, comment)
    return node


def _grammar_parse(text: str, limits: Limits, whole: str | None = None) -> Expression:
    """``text`` read by the grammar alone (the errors name position and expectation);
    ``whole`` is the text with its comment, for the errors."""
    whole = text if whole is None else whole
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        from spieltisch.dice.teach import teach

        raise teach(whole, _syntax_error(whole, error)) from None
    try:
        node = _Build(whole, limits).transform(tree)
    except Exception as error:  # lark wraps errors raised while building in VisitError
        inner = getattr(error, "orig_exc", error)
        if isinstance(inner, NotationError):
            raise inner from None
        raise
    assert isinstance(node, Expression)
    _count_dice(node, whole, limits)
    return node
