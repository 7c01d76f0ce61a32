"""Errors of the engine and of the rule sets built on it."""

from __future__ import annotations

from spieltisch.errors import SpieltischError

__all__ = ["EngineError", "RuleError"]


class EngineError(SpieltischError):
    """Root of the engine's errors."""


class RuleError(EngineError, ValueError):
    """A command the rules do not allow. Raised by ``decide``; nothing changes.

    ``code`` is stable (``<system>.<reason>``, e.g. ``kitties.pool_empty``) and is the key of
    the localized message; ``params`` name the offending values.
    """
