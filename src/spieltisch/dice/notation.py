"""Dice notation: text → an immutable expression tree → canonical text.

The grammar (German and English forms; see ``docs/notation.md``)::

    expression := sum
    sum        := product (("+" | "-") product)*
    product    := unary ("*" unary)*
    unary      := "-" unary | atom
    atom       := NUMBER | dice | pool | "(" sum ")"
    dice       := [COUNT] ("d" | "W") (SIDES | "%") ["!"] [keep] [compare]
    keep       := ("kh" | "kl" | "dh" | "dl") NUMBER
    compare    := (">=" | ">" | "<=" | "<" | "=") NUMBER
    pool       := [COUNT] ("H" | "M" | "J" | "B" | "E" | "S")

``parse`` also checks the meaning: numbers and symbol dice do not mix, pools stay within
:class:`Limits`. ``str(expression)`` renders canonical notation (English ``d``, counts
written out, single spaces around binary operators) that parses back to an equal tree.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, Literal

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from spieltisch.dice.errors import NotationError
from spieltisch.dice.faces import SYMBOL_DICE, VALUE_KEYS

__all__ = [
    "BinaryOp",
    "Compare",
    "Constant",
    "Dice",
    "Expression",
    "Keep",
    "Kind",
    "Limits",
    "Negate",
    "Pool",
    "parse",
]

KeepMode = Literal["kh", "kl", "dh", "dl"]
CompareOp = Literal[">=", ">", "<=", "<", "="]
BinaryOperator = Literal["+", "-", "*"]


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
    """Extra rolls exploding dice may cause in one roll of an expression."""
    max_operators: int = 100
    """Operators and opening brackets per expression (bounds the depth of the tree)."""
    max_length: int = 5000
    """Characters per expression."""


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
        raise NotImplementedError

    @property
    def keys(self) -> tuple[str, ...]:
        """The symbol keys of the node's value in canonical order (empty for numbers)."""
        raise NotImplementedError

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
        """How many dice the expression rolls (before explosions)."""
        return sum(n.count for n in self.walk() if isinstance(n, Dice | Pool))


@dataclass(frozen=True)
class Constant(Expression):
    """A whole number."""

    value: int

    @property
    def kind(self) -> Kind:
        """Always a number."""
        return Kind.NUMBER

    @property
    def keys(self) -> tuple[str, ...]:
        """No symbol keys."""
        return ()

    def __str__(self) -> str:
        return str(self.value)


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


@dataclass(frozen=True)
class Compare:
    """Count the dice whose value meets ``op target`` instead of adding them."""

    op: CompareOp
    target: int

    def test(self, value: int) -> bool:
        """Whether one die value meets the target."""
        if self.op == ">=":
            return value >= self.target
        if self.op == ">":
            return value > self.target
        if self.op == "<=":
            return value <= self.target
        if self.op == "<":
            return value < self.target
        return value == self.target

    def __str__(self) -> str:
        return f"{self.op}{self.target}"


@dataclass(frozen=True)
class Dice(Expression):
    """``count`` numeric dice with ``sides`` faces, optionally exploding, kept and counted."""

    count: int
    sides: int
    explode: bool = False
    keep: Keep | None = None
    compare: Compare | None = None

    @property
    def kind(self) -> Kind:
        """Always a number (a sum, or a count of successes)."""
        return Kind.NUMBER

    @property
    def keys(self) -> tuple[str, ...]:
        """No symbol keys."""
        return ()

    @property
    def code(self) -> str:
        """The die as written in results, e.g. ``d6``."""
        return f"d{self.sides}"

    def __str__(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.explode:
            text += "!"
        if self.keep is not None:
            text += str(self.keep)
        if self.compare is not None:
            text += str(self.compare)
        return text


_POOL_KINDS: dict[str, Kind] = {"E": Kind.NUMBER, "J": Kind.JANUS}

_POOL_KEYS: dict[str, tuple[str, ...]] = {
    "H": ("successes", "stars"),
    "M": ("successes",),
    "J": ("successes",),
    "B": ("drops",),
    "S": ("successes", "stars"),
}


@dataclass(frozen=True)
class Pool(Expression):
    """``count`` symbol dice of one kind (``H M J B E S``); ``E`` is numeric."""

    count: int
    die: str

    @property
    def kind(self) -> Kind:
        """Numbers for the Elixier die, Janus for ``J``, symbol counts otherwise."""
        return _POOL_KINDS.get(self.die, Kind.SYMBOLS)

    @property
    def keys(self) -> tuple[str, ...]:
        """The keys the pool counts (Janus symbols count as ``successes``)."""
        return _POOL_KEYS.get(self.die, ())

    @property
    def code(self) -> str:
        """The die as written in results, e.g. ``H``."""
        return self.die

    def __str__(self) -> str:
        return f"{self.count}{self.die}"


@dataclass(frozen=True)
class Negate(Expression):
    """The negative of a number."""

    operand: Expression

    @property
    def kind(self) -> Kind:
        """Always a number."""
        return Kind.NUMBER

    @property
    def keys(self) -> tuple[str, ...]:
        """No symbol keys."""
        return ()

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
        left, right = self.left.kind, self.right.kind
        symbols = left is not Kind.NUMBER
        comparative = self.op == "-" and symbols and right is Kind.SYMBOLS
        malus = self.op == "-" and symbols and right is Kind.JANUS
        kind: Kind
        keys: tuple[str, ...]
        if not symbols:
            kind, keys = Kind.NUMBER, ()
        elif self.op == "+" and left is Kind.JANUS and right is Kind.JANUS:
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
        object.__setattr__(self, "_meaning", (kind, keys, comparative, malus))

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


_GRAMMAR = r"""
?start: sum
?sum: product
    | sum ADDOP product -> binary
?product: unary
    | product STAR unary -> binary
?unary: atom
    | MINUS unary -> negate
?atom: INT -> constant
    | INT? DIE BANG? keep? compare? -> dice
    | INT? SYMBOL -> pool
    | LPAR sum RPAR -> group
keep: KEEP INT
compare: CMP INT

ADDOP: "+" | "-"
MINUS: "-"
STAR: "*"
LPAR: "("
RPAR: ")"
BANG: "!"
INT: /[0-9]+/
DIE: /[dDwW]([0-9]+|%)/
SYMBOL: /[HMJBES]/
KEEP: /kh|kl|dh|dl/
CMP: />=|<=|>|<|=/
%ignore /[ \t]+/
"""

# Language-neutral hints for what may come next (shown in errors of both languages).
_HINTS: dict[str, str] = {
    "INT": "0-9",
    "DIE": "d6 / W6",
    "SYMBOL": "H M J B E S",
    "LPAR": "(",
    "RPAR": ")",
    "ADDOP": "+ -",
    "MINUS": "-",
    "STAR": "*",
    "BANG": "!",
    "KEEP": "kh kl dh dl",
    "CMP": ">= > <= < =",
    "$END": "⏎",
}
_HINT_ORDER = tuple(_HINTS)
_MAX_DIGITS = 9


def _hint(expected: set[str] | frozenset[str]) -> str:
    names = [name for name in _HINT_ORDER if name in expected]
    return " | ".join(_HINTS[name] for name in names) or "?"


class _Build(Transformer[Token, Expression]):
    """Turns the parse into nodes and checks meaning and limits on the way."""

    def __init__(self, text: str, limits: Limits) -> None:
        super().__init__()
        self.text = text
        self.limits = limits

    def fail(self, code: str, token: Token | None, expected: str, **params: Any) -> NotationError:
        position = token.start_pos if token is not None and token.start_pos is not None else 0
        found = str(token) if token is not None else self.text
        return NotationError(
            code, value=self.text, position=position, found=found, expected=expected, **params
        )

    def number(self, token: Token) -> int:
        if len(token.lstrip("0")) > _MAX_DIGITS:
            raise self.fail("dice.number_too_large", token, f"≤ {10**_MAX_DIGITS - 1}")
        return int(token)

    def constant(self, children: list[Token]) -> Expression:
        return Constant(self.number(children[0]))

    def group(self, children: list[Any]) -> Expression:
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
        if str(op) == "*" and not numbers[0]:
            raise self.fail("dice.mixed_types", op, "+ -")
        operator: BinaryOperator = "*" if str(op) == "*" else "+" if str(op) == "+" else "-"
        return BinaryOp(operator, left, right)

    def count_of(self, token: Token | None, anchor: Token, pool: bool) -> int:
        if token is None:
            return 1
        count = self.number(token)
        if count > self.limits.max_dice:
            raise self.fail(
                "dice.too_many_dice", token, f"≤ {self.limits.max_dice}", limit=self.limits.max_dice
            )
        if count == 0 and not pool:
            raise self.fail("dice.empty_pool", token, "1-9")
        return count

    def dice(self, children: list[Any]) -> Expression:
        count_token: Token | None = None
        parts = list(children)
        if isinstance(parts[0], Token) and parts[0].type == "INT":
            count_token = parts.pop(0)
        die: Token = parts.pop(0)
        count = self.count_of(count_token, die, pool=False)
        side_text = str(die)[1:]
        sides = 100
        if len(side_text.lstrip("0")) > _MAX_DIGITS:
            raise self.fail("dice.number_too_large", die, f"≤ {10**_MAX_DIGITS - 1}")
        if side_text != "%":
            sides = int(side_text)
        if not 2 <= sides <= self.limits.max_sides:
            raise self.fail("dice.bad_sides", die, f"d2 … d{self.limits.max_sides}", sides=sides)
        explode = False
        keep: Keep | None = None
        compare: Compare | None = None
        for part in parts:
            if isinstance(part, Token):
                explode = True
            elif isinstance(part, Keep):
                keep = part
            else:
                compare = part
        if keep is not None:
            self.check_keep(keep, count, die)
        return Dice(count, sides, explode, keep, compare)

    def check_keep(self, keep: Keep, count: int, anchor: Token) -> None:
        limit = count if keep.mode in ("kh", "kl") else count - 1
        if not 1 <= keep.count <= limit:
            raise self.fail(
                "dice.bad_keep",
                anchor,
                f"{keep.mode}1 … {keep.mode}{max(limit, 1)}",
                keep=str(keep),
                dice=count,
            )
        if count > self.limits.max_keep_pool:
            raise self.fail(
                "dice.keep_pool_too_large",
                anchor,
                f"≤ {self.limits.max_keep_pool}",
                limit=self.limits.max_keep_pool,
            )

    def keep(self, children: list[Token]) -> Keep:
        mode = str(children[0])
        assert mode in ("kh", "kl", "dh", "dl")
        return Keep(mode, self.number(children[1]))  # type: ignore[arg-type]

    def compare(self, children: list[Token]) -> Compare:
        op = str(children[0])
        assert op in (">=", ">", "<=", "<", "=")
        return Compare(op, self.number(children[1]))  # type: ignore[arg-type]

    def pool(self, children: list[Token]) -> Expression:
        count_token = children[0] if len(children) == 2 else None
        letter = children[-1]
        count = self.count_of(count_token, letter, pool=True)
        if str(letter) not in SYMBOL_DICE:  # pragma: no cover - the grammar allows only these
            raise self.fail("dice.notation.unexpected", letter, _HINTS["SYMBOL"])
        return Pool(count, str(letter))


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
# above with one regular expression for the tokens and recursive descent, and gives the very
# tree the grammar gives — or ``None`` at the first thing that is not plainly valid (a
# syntax error, a limit, mixed types), and then the grammar parses the text again and names
# the error. So errors stay the grammar's; a property test checks that both readings agree.

_TOKENS = re.compile(r"[0-9]+|[dDwW](?:[0-9]+|%)|kh|kl|dh|dl|>=|<=|[^ \t]")
# Every token of the grammar, and any other character as a token of its own (which the fast
# path then refuses). Spaces and tabs separate tokens, as the grammar's %ignore does.
_DIGITS = frozenset("0123456789")
_KEEP_MODES = frozenset(("kh", "kl", "dh", "dl"))
_COMPARE_OPS = frozenset((">=", "<=", ">", "<", "="))


_LIMITS = Limits()


class _Bail(Exception):
    """The fast path gives up; the grammar takes the text."""


def _int(text: str) -> int:
    if len(text) > _MAX_DIGITS and len(text.lstrip("0")) > _MAX_DIGITS:
        raise _Bail
    return int(text)


class _Fast:
    """Recursive descent over the tokens; raises :class:`_Bail` at anything unusual."""

    __slots__ = ("dice", "index", "limits", "tokens")

    def __init__(self, tokens: list[str], limits: Limits) -> None:
        self.tokens = tokens
        self.index = 0
        self.limits = limits
        self.dice = 0

    def sum(self) -> Expression:
        tokens = self.tokens
        left = self.product()
        while tokens[self.index] in ("+", "-"):
            op = tokens[self.index]
            self.index += 1
            right = self.product()
            if (left.kind is Kind.NUMBER) != (right.kind is Kind.NUMBER):
                raise _Bail
            left = BinaryOp("+" if op == "+" else "-", left, right)
        return left

    def product(self) -> Expression:
        left = self.unary()
        while self.tokens[self.index] == "*":
            self.index += 1
            right = self.unary()
            if left.kind is not Kind.NUMBER or right.kind is not Kind.NUMBER:
                raise _Bail
            left = BinaryOp("*", left, right)
        return left

    def unary(self) -> Expression:
        token = self.tokens[self.index]
        self.index += 1
        if token == "-":
            operand = self.unary()
            if operand.kind is not Kind.NUMBER:
                raise _Bail
            return Negate(operand)
        if token == "(":
            node = self.sum()
            if self.tokens[self.index] != ")":
                raise _Bail
            self.index += 1
            return node
        count = 1
        if token[0] in _DIGITS:
            count = _int(token)
            token = self.tokens[self.index]
            if not (token in SYMBOL_DICE or (token[0] in "dDwW" and token[1:2] not in "hl")):
                return Constant(count)
            if count > self.limits.max_dice:
                raise _Bail
            self.index += 1
        if token in SYMBOL_DICE:
            self.dice += count
            return Pool(count, token)
        if token[0] not in "dDwW" or token[1:2] in "hl":
            raise _Bail
        return self.rest_of_dice(count, token[1:])

    def rest_of_dice(self, count: int, side_text: str) -> Expression:
        sides = 100 if side_text == "%" else _int(side_text)
        limits = self.limits
        if count == 0 or not 2 <= sides <= limits.max_sides:
            raise _Bail
        tokens = self.tokens
        explode = tokens[self.index] == "!"
        self.index += explode
        keep: Keep | None = None
        compare: Compare | None = None
        token = tokens[self.index]
        if token in _KEEP_MODES:
            keep = Keep(token, self.number())  # type: ignore[arg-type]
            limit = count if token in ("kh", "kl") else count - 1
            if not 1 <= keep.count <= limit or count > limits.max_keep_pool:
                raise _Bail
            token = tokens[self.index]
        if token in _COMPARE_OPS:
            compare = Compare(token, self.number())  # type: ignore[arg-type]
        self.dice += count
        return Dice(count, sides, explode, keep, compare)

    def number(self) -> int:
        """The number after a keep or compare token (which it passes)."""
        token = self.tokens[self.index + 1]
        if token[0] not in _DIGITS:
            raise _Bail
        self.index += 2
        return _int(token)


def _term_pattern(n: int) -> str:
    w = r"[ \t]*"
    dice = (
        rf"[dDwW](?P<sides{n}>[0-9]+|%){w}(?P<bang{n}>!?){w}"
        rf"(?:(?P<mode{n}>kh|kl|dh|dl){w}(?P<kept{n}>[0-9]+))?{w}"
        rf"(?:(?P<op{n}>>=|<=|[<>=]){w}(?P<target{n}>[0-9]+))?"
    )
    return (
        rf"{w}(?:(?P<count{n}>[0-9]*){w}(?:(?P<symbol{n}>[HMJBES])|{dice})"
        rf"|(?P<number{n}>[0-9]+)){w}"
    )


_SIMPLE = re.compile(rf"{_term_pattern(1)}(?:(?P<sign>[-+]){_term_pattern(2)})?")
# The commonest texts in one match: one term, or two joined by + or - (``3d6``, ``4W6kh3``,
# ``2d20kh1 + 5``, ``10M-3J``, ``8M - 5H``); anything else goes through the tokens.


def _simple_term(parts: tuple[str | None, ...], at: int, limits: Limits) -> tuple[Expression, int]:
    """One term of :data:`_SIMPLE` (its groups from ``at`` on) and the dice it rolls."""
    count_text, symbol, side_text, bang, mode, kept, op, target, number = parts[at : at + 9]
    if number is not None:
        return Constant(_int(number)), 0
    count = _int(count_text) if count_text else 1
    if count > limits.max_dice:
        raise _Bail
    if symbol is not None:
        return Pool(count, symbol), count
    assert side_text is not None
    sides = 100 if side_text == "%" else _int(side_text)
    if count == 0 or not 2 <= sides <= limits.max_sides:
        raise _Bail
    keep: Keep | None = None
    compare: Compare | None = None
    if mode is not None and kept is not None:
        keep = Keep(mode, _int(kept))  # type: ignore[arg-type]
        limit = count if mode in ("kh", "kl") else count - 1
        if not 1 <= keep.count <= limit or count > limits.max_keep_pool:
            raise _Bail
    if op is not None and target is not None:
        compare = Compare(op, _int(target))  # type: ignore[arg-type]
    return Dice(count, sides, bool(bang), keep, compare), count


def _simple(text: str, limits: Limits) -> Expression | None:
    """The tree of a text of one or two simple terms; ``None`` if it is not one."""
    found = _SIMPLE.fullmatch(text)
    if found is None:
        return None
    parts = found.groups()
    try:
        left, dice = _simple_term(parts, 0, limits)
        sign = parts[9]
        if sign is None:
            return left
        right, more = _simple_term(parts, 10, limits)
    except _Bail:
        return None
    if (left.kind is Kind.NUMBER) != (right.kind is Kind.NUMBER) or dice + more > limits.max_dice:
        return None
    return BinaryOp("+" if sign == "+" else "-", left, right)


def _fast(text: str, limits: Limits) -> Expression | None:
    """The tree of ``text`` when it is plainly valid, else ``None`` (see above)."""
    simple = _simple(text, limits)
    if simple is not None:
        return simple
    tokens = _TOKENS.findall(text)
    if not tokens:
        return None
    tokens.append("$")
    reader = _Fast(tokens, limits)
    try:
        node = reader.sum()
    except _Bail:
        return None
    if reader.index != len(tokens) - 1 or reader.dice > limits.max_dice:
        return None
    return node


def parse(text: str, limits: Limits | None = None) -> Expression:
    """Parse dice notation into an expression tree.

    Raises :class:`~spieltisch.dice.errors.NotationError` (naming position, the text found
    and what was expected) for anything that is not a valid expression within ``limits``.
    """
    limits = limits or _LIMITS
    if not isinstance(text, str):
        raise NotationError(
            "dice.notation.empty", value=repr(text), position=0, found="", expected="3d6"
        )
    operators = text.count("+") + text.count("-") + text.count("*") + text.count("(")
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
    quick = _fast(text, limits)
    if quick is not None:
        return quick
    return _grammar_parse(text, limits)


def _grammar_parse(text: str, limits: Limits) -> Expression:
    """``text`` read by the grammar alone (the errors name position and expectation)."""
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(text, error) from None
    try:
        node = _Build(text, limits).transform(tree)
    except Exception as error:  # lark wraps errors raised while building in VisitError
        inner = getattr(error, "orig_exc", error)
        if isinstance(inner, NotationError):
            raise inner from None
        raise
    assert isinstance(node, Expression)
    _count_dice(node, text, limits)
    return node
