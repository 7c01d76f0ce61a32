"""JSON from outside (an import, a WebSocket message, an export to verify), read within limits.

Python's :func:`json.loads` trusts its input in three ways that a hostile file exploits: it
recurses once per level of nesting (100,000 ``[`` raise ``RecursionError``), it converts any
run of digits to an ``int`` (past 4,300 digits that raises ``ValueError`` naming no field, and
a long number costs quadratic time), and it accepts ``NaN`` and ``Infinity``. :func:`loads`
refuses all three with a :class:`JsonLimitError` that names where in the document the
offending value stands (``records[3].draws[0].value``), so the caller can answer with a clear
4xx instead of a 500:

* ``json.too_deep``: nesting deeper than ``max_depth`` (``field``, ``limit``);
* ``json.number_too_long``: an integer of more than ``max_digits`` digits (``field``,
  ``digits``, ``limit``); no value of a Spieltisch document needs more than 20;
* ``json.bad_number``: ``NaN``, ``Infinity`` or a number too large for a float (``field``,
  ``value``).

Text that is not JSON at all still raises :class:`json.JSONDecodeError` (a ``ValueError``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from spieltisch.errors import InputError

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "JsonLimitError", "loads"]

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted (an export nests about ten levels)."""

MAX_DIGITS = 40
"""Most digits of an integer accepted (2⁶⁴, the most sides a fair die may have, has 20)."""


class JsonLimitError(InputError):
    """JSON past a limit: too deep, a number too long, ``NaN`` or ``Infinity``."""


class _Refused:
    """Stands in the parsed document where a number was refused, until its place is known."""

    __slots__ = ("code", "params")

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH, max_digits: int = MAX_DIGITS) -> Any:
    """Parse ``text`` as JSON within the limits (see the module docs)."""

    def integer(digits: str) -> Any:
        count = len(digits) - digits.startswith("-")
        if count > max_digits:
            return _Refused("json.number_too_long", digits=count, limit=max_digits)
        return int(digits)

    def decimal(number: str) -> Any:
        value = float(number)
        if math.isinf(value):
            return _Refused("json.bad_number", value=_cut(number))
        return value

    def constant(name: str) -> Any:
        return _Refused("json.bad_number", value=name)

    try:
        data = json.loads(text, parse_int=integer, parse_float=decimal, parse_constant=constant)
    except RecursionError:
        raise JsonLimitError("json.too_deep", field="$", limit=max_depth) from None
    _check(data, max_depth)
    return data


def _check(data: Any, max_depth: int) -> None:
    """Walk the parsed document (without recursion) for refused numbers and deep nesting."""
    stack: list[tuple[Any, str, int]] = [(data, "$", 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, _Refused):
            raise JsonLimitError(value.code, field=_cut(path, 80), **value.params)
        if isinstance(value, Mapping | list):
            if depth >= max_depth:
                raise JsonLimitError("json.too_deep", field=_cut(path, 80), limit=max_depth)
            if isinstance(value, Mapping):
                items = [(_key(path, key), inner) for key, inner in value.items()]
            else:
                items = [(f"{path}[{position}]", inner) for position, inner in enumerate(value)]
            # Reversed onto the stack: the first offending value in document order is named.
            stack.extend((inner, where, depth + 1) for where, inner in reversed(items))


def _key(path: str, key: str) -> str:
    name = key if key.isidentifier() else json.dumps(key)
    if len(name) > 40:
        name = name[:37] + "..."
    return name if path == "$" else f"{path}.{name}"


def _cut(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else f"{text[: limit - 3]}..."
