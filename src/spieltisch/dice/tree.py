"""The one walker over expression trees: a visitor with one method per kind of node.

Everything that interprets an expression — rolling it, its exact odds, the small-integer
shortcut, the cost estimate — subclasses :class:`Visitor` and implements its methods.
:meth:`Visitor.visit` dispatches on the node's type through a table built once per subclass,
so no interpreter repeats the ``isinstance`` chain, and a new kind of node is added in one
place (here) and then refused by every visitor that does not handle it yet (the base methods
raise ``NotImplementedError``).

Each call carries a ``context`` of the visitor's choosing (``None`` when it needs none): the
odds engine passes the symbol keys it needs, the small-integer path the key it counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from spieltisch.dice.notation import (
    Abs,
    BinaryOp,
    Comment,
    Constant,
    Dice,
    Divide,
    Expression,
    Group,
    Label,
    Negate,
    Pool,
    Test,
)

__all__ = ["Visitor"]

C = TypeVar("C")
R = TypeVar("R")

_METHODS: dict[type[Expression], str] = {
    Constant: "constant",
    Dice: "dice",
    Pool: "pool",
    Negate: "negate",
    BinaryOp: "binary",
    Divide: "divide",
    Abs: "absolute",
    Test: "test",
    Group: "group",
    Label: "labelled",
    Comment: "commented",
}


class Visitor(Generic[C, R]):
    """Base of every interpreter of expression trees (``C``: the context, ``R``: the result)."""

    _table: ClassVar[dict[type[Expression], Callable[..., Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._table = {kind: getattr(cls, name) for kind, name in _METHODS.items()}

    def visit(self, node: Expression, context: C) -> R:
        """Interpret ``node`` by the method for its type."""
        method = self._table.get(type(node))
        if method is None:
            raise TypeError(f"{type(self).__name__} cannot visit {type(node).__name__}")
        result: R = method(self, node, context)
        return result

    def constant(self, node: Constant, context: C) -> R:
        """A whole number."""
        raise NotImplementedError

    def dice(self, node: Dice, context: C) -> R:
        """Numeric dice (sum, exploding, keep/drop, success counting)."""
        raise NotImplementedError

    def pool(self, node: Pool, context: C) -> R:
        """A pool of symbol dice (or Elixier dice, which are numeric)."""
        raise NotImplementedError

    def negate(self, node: Negate, context: C) -> R:
        """The negative of a number."""
        raise NotImplementedError

    def binary(self, node: BinaryOp, context: C) -> R:
        """``+``, ``-`` (including a Janus malus and a comparative check) and ``*``."""
        raise NotImplementedError

    def divide(self, node: Divide, context: C) -> R:
        """A division by a whole number, rounded."""
        raise NotImplementedError

    def absolute(self, node: Abs, context: C) -> R:
        """The absolute value."""
        raise NotImplementedError

    def test(self, node: Test, context: C) -> R:
        """A total compared with a target (1 or 0)."""
        raise NotImplementedError

    def group(self, node: Group, context: C) -> R:
        """A group roll: members summed, kept or counted."""
        raise NotImplementedError

    def labelled(self, node: Label, context: C) -> R:
        """A labelled term (its value is the operand's)."""
        return self.visit(node.operand, context)

    def commented(self, node: Comment, context: C) -> R:
        """A commented roll (its value is the operand's)."""
        return self.visit(node.operand, context)
