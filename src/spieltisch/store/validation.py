"""Checks of what a user hands the store: names, titles, languages, options, ids."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spieltisch.engine.errors import EngineError
from spieltisch.engine.system import GameSystem
from spieltisch.engine.text import Label, text_problem
from spieltisch.errors import InputError, SpieltischError
from spieltisch.i18n import LANGUAGES

__all__ = [
    "MAX_NAME",
    "MAX_SEED",
    "MAX_TITLE",
    "check_id",
    "check_language",
    "check_options",
    "check_text",
]

MAX_NAME = 100
"""Longest participant name (characters)."""
MAX_TITLE = 200
"""Longest table title (characters)."""
MAX_SEED = 200
"""Longest player seed text (characters)."""


def check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise InputError("table.bad_language", value=language, known=", ".join(LANGUAGES))
    return language


def check_text(value: Any, code: str, limit: int, allow_empty: bool = False) -> str:
    """``value`` stripped, if it is a text of at most ``limit`` characters, else ``code``.

    The text rules of :mod:`spieltisch.engine.text` apply (no control characters): such a
    text is refused with ``text.control_character``, naming the field (``table.bad_title``
    names the field ``title``), the same on every database.
    """
    if not isinstance(value, str):
        raise InputError(code, value=value, limit=limit)
    problem = text_problem(value, max(limit, len(value)))
    if problem is not None:
        field = Label(f"text.field.{code.rpartition('.bad_')[2]}")
        raise InputError(problem.code, field=field, **problem.params)
    text_value = value.strip()
    if (not text_value and not allow_empty) or len(text_value) > limit:
        raise InputError(code, value=value, limit=limit)
    return text_value


def check_id(value: Any) -> str:
    if not isinstance(value, str) or not value or text_problem(value, MAX_NAME) is not None:
        raise EngineError("table.bad_export", detail=f"participant id {value!r}")
    return value


def check_options(system: GameSystem[Any, Any, Any], options: Any) -> dict[str, Any]:
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise InputError("table.bad_options", system=system.id, detail=repr(options))
    try:
        system.new_state(options)
    except SpieltischError:
        raise
    except (ValueError, TypeError) as error:
        raise InputError("table.bad_options", system=system.id, detail=str(error)) from None
    return dict(options)
