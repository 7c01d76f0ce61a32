"""Free text a user types: one rule for every name, title, note, seed and reference.

A text may not hold control characters (C0, DEL, C1) nor lone surrogates: they break terminals
and logs, PostgreSQL refuses NUL, and no name needs them. A multi-line text (a note) may hold
tabs and line breaks. Every text has a length limit.

:func:`text_problem` is the pure check; :data:`Name`, :data:`Ref` and :data:`Note` (and
:func:`text_rule` for other lengths) are the pydantic types the systems' command and sheet
models use; the store checks the names, titles and seeds it is handed with the same function
(``store/validation.py``), so SQLite and PostgreSQL refuse the same texts.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field, StrictStr, ValidationError

from spieltisch.errors import SpieltischError

__all__ = [
    "MAX_NAME",
    "MAX_NOTE",
    "MAX_REF",
    "Label",
    "Name",
    "Note",
    "Ref",
    "TextError",
    "field_label",
    "text_error",
    "text_problem",
    "text_rule",
]

MAX_NAME = 80
"""Longest name or short text on a sheet (kitty, foe, talent, problem …)."""
MAX_NOTE = 2000
"""Longest multi-line text (notes)."""
MAX_REF = 64
"""Longest reference to something by id or name (a kitty id, a seat, a square)."""

_MULTILINE_OK = frozenset("\t\n\r")


class Label(SpieltischError):
    """A word from the catalogs passed to an error as a parameter; its code is the key.

    The edges put in its translation (see :func:`spieltisch.i18n.error_message`), so an
    error can name a field by its display name in the reader's language.
    """

    def __eq__(self, other: object) -> bool:
        """Labels are values: equal when their keys are."""
        return isinstance(other, Label) and other.code == self.code

    def __hash__(self) -> int:
        """The hash of the key."""
        return hash(self.code)


class TextError(SpieltischError, ValueError):
    """A text breaks the text rules: ``text.control_character`` or ``text.too_long``.

    Raised inside pydantic validation (it is a ``ValueError``); :func:`text_error` finds it
    again in the :class:`ValidationError` and adds the field's location.
    """


def text_problem(value: str, limit: int, *, multiline: bool = False) -> TextError | None:
    """What is wrong with ``value`` as a text of at most ``limit`` characters, else ``None``."""
    for position, char in enumerate(value):
        if multiline and char in _MULTILINE_OK:
            continue
        if unicodedata.category(char) in ("Cc", "Cs"):
            return TextError(
                "text.control_character", codepoint=f"U+{ord(char):04X}", position=position + 1
            )
    if len(value) > limit:
        return TextError("text.too_long", limit=limit, length=len(value))
    return None


def text_rule(limit: int, *, multiline: bool = False) -> AfterValidator:
    """The text rules as a pydantic validator, for a text type of another length.

    Use it as ``Annotated[StrictStr, Field(max_length=limit), text_rule(limit)]`` (the
    ``max_length`` puts the limit into the JSON Schema).
    """

    def check(value: str) -> str:
        problem = text_problem(value, limit, multiline=multiline)
        if problem is not None:
            raise problem
        return value

    return AfterValidator(check)


Name = Annotated[StrictStr, Field(max_length=MAX_NAME), text_rule(MAX_NAME)]
"""A one-line name or short text (at most :data:`MAX_NAME` characters)."""
Note = Annotated[StrictStr, Field(max_length=MAX_NOTE), text_rule(MAX_NOTE, multiline=True)]
"""A multi-line text (at most :data:`MAX_NOTE` characters; tabs and line breaks allowed)."""
Ref = Annotated[StrictStr, Field(max_length=MAX_REF), text_rule(MAX_REF)]
"""A reference by id or name: a kitty, a foe, a seat, a square (at most :data:`MAX_REF`)."""


def field_label(loc: tuple[int | str, ...]) -> Label:
    """The display name of the field at pydantic location ``loc``: ``text.field.<name>``.

    ``<name>`` is the last named part of the location (``sheet.talents.0`` → ``talents``), so
    one catalog entry per field name serves every command that has that field.
    """
    names = [str(part) for part in loc if isinstance(part, str)]
    return Label(f"text.field.{names[-1] if names else 'text'}")


def text_error(error: ValidationError, tag: object = None) -> TextError | None:
    """The first text-rule error in ``error``, with ``field`` the field's display name (a
    :class:`Label`, see :func:`field_label`), else None.

    ``tag``: the ``kind`` of the command, which a discriminated union puts first in every
    location (left out of ``field``). A text that is too long may fail pydantic's own
    ``max_length`` check first; that is reported as ``text.too_long`` as well.
    """
    for problem in error.errors():
        loc = problem["loc"]
        if tag is not None and loc and loc[0] == tag:
            loc = loc[1:]
        where = field_label(tuple(loc))
        cause = problem.get("ctx", {}).get("error")
        if isinstance(cause, TextError):
            return TextError(cause.code, field=where, **cause.params)
        if problem["type"] == "string_too_long":
            limit = problem.get("ctx", {}).get("max_length")
            length = len(problem["input"]) if isinstance(problem["input"], str) else None
            return TextError("text.too_long", field=where, limit=limit, length=length)
    return None
