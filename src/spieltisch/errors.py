"""The root of every error Spieltisch raises on purpose.

An error carries a stable ``code`` (also the key of its message in the catalogs of
:mod:`spieltisch.i18n`) and the offending values as ``params``. The edges (CLI, web) turn
it into a localized sentence; ``str(error)`` is a plain English fallback for logs.
"""

from __future__ import annotations

from typing import Any

__all__ = ["InputError", "SpieltischError", "located"]


class SpieltischError(Exception):
    """Base of all deliberate errors: a stable code plus the values that caused it."""

    code: str
    params: dict[str, Any]

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params = params
        detail = ", ".join(f"{key}={value!r}" for key, value in params.items())
        super().__init__(f"{code}: {detail}" if detail else code)


class InputError(SpieltischError, ValueError):
    """Bad input from a user: a typo, an illegal value, an impossible request."""


def located(error: SpieltischError) -> dict[str, Any]:
    """Where a text parser's error points, for JSON answers: ``position`` (0-based) and
    ``column`` (1-based) when the error names them, and the ``suggestion`` (the spelling
    that would be read) of a refusal that teaches."""
    found: dict[str, Any] = {}
    for key in ("position", "column"):
        value = error.params.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            found[key] = value
    suggestion = error.params.get("suggestion")
    if isinstance(suggestion, str):
        found["suggestion"] = suggestion
    return found
